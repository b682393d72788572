"""Tile crops for the crop classifier, drawn on the fly from the art cache.

One crop = one tile of one design (with its ivory and coloured body layers, and often its
neighbours in the row) on a table patch, seen in perspective at a random size and angle,
photographed (light, colour cast, glare, blur, noise, JPEG), then cut like a detector box
(each side jittered) by `vision.recognition.refine.square_crop`, the function the runtime uses. Tiles
are turned (0 and 180 degrees common, 90 and any angle less so) but never mirrored.

Bonus tiles are the weak spot (docs/architecture.md, "Recognition"): `bonus_face` draws extra procedural flowers and
seasons in the way of real sets (a picture, a small character 梅蘭菊竹 / 春夏秋冬 and a
number 1-4 as an Arabic or Chinese numeral, or none) with seeds far from the atlas' ones.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.recognition.refine import square_crop

from datasets.art import faces as F
from datasets.art.atlas import load_faces, load_meta
from datasets.classes import TILE_CODES
from datasets.synth.render import Style, face_texture, plain_texture

BACK_ID = 42
BANK_FACE = (96, 128)  # (w, h) of faces kept in memory: enough for a 96-pixel crop (and a 128)
BACKS = [(30, 110, 60), (20, 80, 45), (40, 90, 170), (230, 190, 60), (230, 120, 40),
         (190, 40, 50), (220, 130, 160), (110, 60, 150), (30, 30, 35), (40, 130, 130),
         (235, 230, 215)]
TABLES = [(25, 95, 55), (20, 70, 130), (120, 30, 35), (60, 60, 65), (140, 95, 60),
          (200, 170, 130), (235, 235, 230), (30, 30, 30), (90, 120, 90), (160, 60, 40)]
BONUS_SEED0 = 10_000  # procedural bonus sets of the classifier: far from proc_s000..063
BONUS_DEV_SEED0 = 60_000  # procedural bonus sets for development: beyond any training run's
UNSEEN_SET_SEED0 = 5_000  # whole procedural sets for development: no training run draws them
VARIANT_SEED0 = 30_000  # whole procedural sets with other arrangements (faces.sample_variants)
PAIRED_SHARE = 0.5  # procedural bonus sets laid out as most real sets are (see bonus_face)


@dataclass(frozen=True)
class BonusArrangement:
    """Where one set puts a bonus tile's number and character (centres, as fractions of the
    face) and its picture (x0, y0, x1, y1 fractions), and how it writes them."""
    numeral: str          # "arabic", "chinese" or "none"
    number_at: tuple[float, float]
    char_at: tuple[float, float]
    picture: tuple[float, float, float, float]
    char_size: float      # fraction of the face height
    number_size: float    # for Arabic numbers in a Latin font
    brush_digits: bool    # Arabic numbers in the set's CJK font instead
    number_ink: int       # index into (red, blue, black)
    char_ink: int         # index into (red, blue, black, green)
    paired: bool          # the real-set arrangement: number and character side by side on top


def bonus_arrangement(seed: int, flower: bool, flip: bool = False) -> BonusArrangement:
    """One arrangement per set, as real sets have (the flowers' and seasons' may mirror);
    `flip` swaps left and right (a set that prints the flowers' number at the left)."""
    a = _arrangement(seed, flower)
    if not flip:
        return a
    x0, y0, x1, y1 = a.picture
    return replace(a, number_at=(1 - a.number_at[0], a.number_at[1]),
                   char_at=(1 - a.char_at[0], a.char_at[1]), picture=(1 - x1, y0, 1 - x0, y1))


def _arrangement(seed: int, flower: bool) -> BonusArrangement:
    style = np.random.default_rng([7004, seed])
    numeral = ["arabic", "arabic", "chinese", "none"][style.integers(4)]
    corner = int(style.integers(4))  # where the number sits: TL, TR, BL, BR
    char_size = float(style.uniform(0.13, 0.22))
    number_size = float(style.uniform(0.11, 0.17)) if numeral == "arabic" else char_size
    number_ink, char_ink = int(style.integers(3)), int(style.integers(4))
    xs, ys = (0.2, 0.8), (0.13, 0.87)
    nx, ny = xs[corner % 2], ys[corner // 2]
    cx = xs[1 - corner % 2]
    common = {"numeral": numeral, "char_size": char_size, "number_size": number_size,
              "number_ink": number_ink, "char_ink": char_ink}
    paired = np.random.default_rng([7006, seed])  # its own stream: sets without it stay as before
    if paired.random() < PAIRED_SHARE and numeral != "none":
        # the common real arrangement: character and number side by side along the top, the
        # flowers' number on the right and (mostly) the seasons' mirrored to the left, so the
        # side tells flower from season and the number which one
        mirrored = paired.random() < 0.8
        nx, cx = (0.72, 0.3) if flower or not mirrored else (0.28, 0.7)
        y = float(paired.uniform(0.11, 0.17))
        brush = numeral == "arabic" and paired.random() < 0.5
        return BonusArrangement(number_at=(nx, y), char_at=(cx, y), picture=(.1, .27, .9, .95),
                                brush_digits=brush, paired=True, **common)
    if style.random() < 0.5:   # character in the other top/bottom corner
        cy = ny
        pic = (.1, .27 if ny < .5 else .06, .9, .94 if ny < .5 else .73)
    else:                       # character (and number) down one side
        cy = 0.5
        pic = (.1 if cx > .5 else .3, .2, .7 if cx > .5 else .9, .92)
    return BonusArrangement(number_at=(nx, ny), char_at=(cx, cy), picture=pic,
                            brush_digits=False, paired=False, **common)


def bonus_face(code: str, seed: int, free_pictures: float = 0.0, flip: bool = False
               ) -> np.ndarray:
    """A flower (1f-4f) or season (5f-8f) face in one of many real-set arrangements; in a
    share `free_pictures` of the sets the pictures are drawn at random (`flip`: see
    bonus_arrangement)."""
    st = F.sample_style(seed)
    rng = np.random.default_rng([7003, seed, TILE_CODES.index(code)])
    img, ink, d = F.face_canvas(st)
    W, H = img.size
    n = int(code[0])
    k, flower = (n - 1) % 4, n <= 4
    a = bonus_arrangement(seed, flower, flip)
    ch = (F.FLOWERS if flower else F.SEASONS)[k]
    num = {"arabic": str(k + 1), "chinese": F.NUMERALS[k], "none": ""}[a.numeral]
    fcn = F._font(*st["font"], int(H * a.char_size))
    fnum = (F._font(st["latin"], 0, int(H * a.number_size))
            if a.numeral == "arabic" and not a.brush_digits
            else F._font(*st["font"], int(H * a.char_size)))
    if num:
        F._text(d, (W * a.number_at[0], H * a.number_at[1]), num, fnum,
                [st["red"], st["blue"], st["black"]][a.number_ink])
    F._text(d, (W * a.char_at[0], H * a.char_at[1]), ch, fcn,
            [st["red"], st["blue"], st["black"], st["green"]][a.char_ink])
    kind = k if flower else int(rng.integers(5))
    if not flower and rng.random() < 0.5:
        kind = int(rng.integers(4))  # many sets paint flowers on the seasons too
    if free_pictures and np.random.default_rng([7008, seed]).random() < free_pictures:
        # sets whose pictures say nothing of the tile, so that a reader must read the
        # character and number (real seasons show any flower, and some flowers other plants)
        kind = int(np.random.default_rng([7009, seed, n]).integers(5))
    x0, y0, x1, y1 = a.picture
    F._picture(d, rng, kind, (W * x0, H * y0, W * x1, H * y1), st)
    return F.finish_face(img, ink, st)


def white_dragon_face(seed: int) -> np.ndarray:
    """A white dragon (5z) as real sets paint it: mostly a frame, in one or two lines of blue,
    black, grey, green or red, with square or notched corners, sometimes a letter inside or
    nothing at all (a blank tile)."""
    st = F.sample_style(seed)
    rng = np.random.default_rng([7007, seed])
    img, ink, d = F.face_canvas(st)
    W, H = img.size
    colour = F._jit(rng, [F.BLUE, F.BLACK, (110, 110, 115), F.GREEN, F.RED][
        rng.choice(5, p=[0.4, 0.3, 0.12, 0.09, 0.09])], 20)
    kind = rng.choice(["frame", "frame", "frame", "blank", "letter"], p=[.3, .3, .25, .08, .07])
    if kind != "blank":
        mx, my = rng.uniform(0.12, 0.22), rng.uniform(0.1, 0.18)
        lines = int(rng.integers(1, 3))
        width = int(W * rng.uniform(0.025, 0.07))
        notch = rng.random() < 0.45  # corners cut or decorated, as many framed whites have
        for k in range(lines):
            inset = k * rng.uniform(0.07, 0.11)
            x0, y0, x1, y1 = W * (mx + inset), H * (my + inset * 0.8), W * (1 - mx - inset), \
                H * (1 - my - inset * 0.8)
            lw = width if k == 0 else max(2, width // 2)
            if notch:
                c = W * rng.uniform(0.05, 0.1)
                d.line([(x0 + c, y0), (x1 - c, y0), (x1, y0 + c), (x1, y1 - c), (x1 - c, y1),
                        (x0 + c, y1), (x0, y1 - c), (x0, y0 + c), (x0 + c, y0)], fill=colour,
                       width=lw, joint="curve")
            else:
                d.rounded_rectangle([x0, y0, x1, y1], radius=W * rng.uniform(0, 0.06),
                                    outline=colour, width=lw)
        if kind == "letter":
            letter = ["B", "白", "P", "W"][rng.integers(4)]
            font = (F._font(*st["font"], int(H * 0.25)) if letter == "白"
                    else F._font(st["latin"], 0, int(H * 0.22)))
            F._text(d, (W / 2, H / 2), letter, font, [F.RED, F.BLUE, F.BLACK][rng.integers(3)])
    return F.finish_face(img, ink, st)


class FaceBank:
    """The faces of the chosen designs in memory at BANK_FACE, with each design's face colour."""

    def __init__(self, designs: list[str], bonus_sets: int = 0, root=None,
                 bonus_seed0: int = BONUS_SEED0, white_sets: int = 0,
                 free_pictures: float = 0.0, flip_bonus: bool = False) -> None:
        """`bonus_sets` procedural flower-and-season sets and `white_sets` procedural white
        dragons (white_dragon_face) join the designs, of seeds from `bonus_seed0` on
        (`free_pictures`, `flip_bonus`: see bonus_face)."""
        self.designs, self.faces, self.bg, self.present, self.radius = [], [], [], [], []
        for name in designs:
            meta = load_meta(name, root)
            atlas = load_faces(name, root)
            present = np.zeros(42, bool)
            present[[TILE_CODES.index(c) for c in meta["present"]]] = True
            self._add(name, atlas, meta.get("face_bg", (240, 236, 225)), present)
        for seed in range(bonus_seed0, bonus_seed0 + bonus_sets):
            self._add_procedural(f"bonus_{seed}", seed, {
                code: bonus_face(code, seed, free_pictures, flip_bonus)
                for code in TILE_CODES[34:]})
        for seed in range(bonus_seed0, bonus_seed0 + white_sets):
            self._add_procedural(f"white_{seed}", seed, {"5z": white_dragon_face(seed)})
        self.present = np.array(self.present)

    def add_procedural_sets(self, seeds, variants: bool = False) -> None:
        """Whole procedural sets (datasets.art.faces.render_design), all 42 faces each; with
        `variants`, each with its own arrangements of dots and sticks."""
        self.present = list(self.present)
        for seed in seeds:
            atlas, meta = F.render_design(int(seed), variants=variants)
            self._add(meta["name"], atlas, meta["face_bg"], np.ones(42, bool))
        self.present = np.array(self.present)

    def _add_procedural(self, name: str, seed: int, faces: dict[str, np.ndarray]) -> None:
        """A design of only these faces (code -> face), on the face colour of style `seed`."""
        atlas = np.zeros((42, F.FACE_H, F.FACE_W, 3), np.uint8)
        present = np.zeros(42, bool)
        for code, face in faces.items():
            i = TILE_CODES.index(code)
            atlas[i], present[i] = face, True
        self._add(name, atlas, F.sample_style(seed)["bg"], present)

    def _add(self, name, atlas, bg, present) -> None:
        """Each face as its tile-top texture (RGBA: margin, round corners, bevel), drawn once
        with this design's own margin and corner radius."""
        rng = np.random.default_rng([7005, len(self.designs)])
        style = Style((0, 0, 0), (0, 0, 0), 0.5, float(rng.uniform(0.06, 0.15)),
                      float(rng.uniform(0.02, 0.09)), 0.0)
        bg = tuple(int(c) for c in bg)
        textures = [None] * 42
        for i in np.where(present)[0]:
            small = cv2.resize(np.asarray(atlas[i]), BANK_FACE, interpolation=cv2.INTER_AREA)
            textures[i] = face_texture(small, style, BANK_FACE[1] / 1.3, bg)
        self.designs.append(name)
        self.faces.append(textures)
        self.bg.append(bg)
        self.radius.append(style.radius)
        self.present.append(present)

    def design_with(self, rng: np.random.Generator, class_id: int) -> int:
        if class_id == BACK_ID:
            return int(rng.integers(len(self.designs)))
        having = np.where(self.present[:, class_id])[0]
        return int(having[rng.integers(len(having))])


def _tile_texture(rng, bank: FaceBank, d: int, class_id: int, style: Style):
    if class_id == BACK_ID:
        face = bank.faces[d][next(i for i in range(42) if bank.present[d, i])]
        tex = plain_texture(style.back_layer, style, (face.shape[1], face.shape[0]))
        grain = rng.normal(0, rng.uniform(1, 8), tex.shape[:2] + (1,))
        tex[..., :3] = np.clip(tex[..., :3] + grain, 0, 255).astype(np.uint8)
        return tex
    return bank.faces[d][class_id]


def _field(rng, h: int, w: int, sigma: float) -> np.ndarray:
    """(h, w) float32: a smooth random ramp around 1 (uneven light), from a 2 x 2 grid."""
    corners = (1 + rng.normal(0, sigma, (2, 2))).astype(np.float32)
    return cv2.resize(corners, (w, h), interpolation=cv2.INTER_LINEAR)


def _background(rng, h: int, w: int) -> np.ndarray:
    base = np.array(TABLES[rng.integers(len(TABLES))], np.float32) * rng.uniform(0.6, 1.3, 3)
    img = base[None, None] * _field(rng, h, w, 0.2)[..., None]
    if rng.random() < 0.3:  # wood grain or cloth weave: stripes
        stripes = 1 + 0.08 * np.sin(np.arange(h, dtype=np.float32) * rng.uniform(0.05, 0.6))
        img *= stripes[:, None, None]
    grain = cv2.resize(rng.normal(0, rng.uniform(1, 10), (max(1, h // 2), max(1, w // 2))
                                  ).astype(np.float32), (w, h))
    return img + grain[..., None]


def _rotation(rng) -> float:
    r = rng.random()
    base = 0.0 if r < 0.45 else 180.0 if r < 0.7 else 90.0 * rng.choice([1, 3]) if r < 0.85 \
        else rng.uniform(0, 360)
    return base + rng.normal(0, 6)


def render_tile(rng: np.random.Generator, bank: FaceBank, class_id: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """A photo patch (h, w, 3) uint8 with the tile of `class_id`, and its face's xyxy box."""
    d = bank.design_with(rng, class_id)
    style = Style((0, 0, 0), BACKS[rng.integers(len(BACKS))], float(rng.uniform(0.4, 0.7)),
                  bank.radius[d], 0.0, 0.0)
    face_layer = np.array(bank.bg[d], np.float32) * rng.uniform(0.85, 1.0)
    cells = _row_cells(rng, bank, d, class_id)
    texes = [_tile_texture(rng, bank, d, c, style) for _, _, c in cells]
    plane, rects = _tiles_plane(rng, cells, texes, style, face_layer)
    # perspective: the target tile's face goes to a random quad of native height `size`
    th, tw = texes[0].shape[:2]
    dst, size = _face_quad(rng, tw / th)
    warped, dst = _warp(plane, rects[0], dst, size / th)
    image = _on_table(rng, warped, size)
    return photograph(rng, image, size), np.array([*dst.min(0), *dst.max(0)])


def _row_cells(rng, bank: FaceBank, d: int, class_id: int) -> list[tuple[int, int, int]]:
    """The target tile at (0, 0) and its neighbours in the row (often) or the next row (now
    and then), as (dx, dy, class id); a neighbour of a class the design lacks repeats the target."""
    cells = [(0, 0, class_id)]
    for dx, dy, p in ((-1, 0, .55), (1, 0, .55), (0, -1, .12), (0, 1, .12)):
        if rng.random() < p:
            other = BACK_ID if rng.random() < 0.1 else int(rng.integers(42))
            if other != BACK_ID and not bank.present[d, other]:
                other = class_id
            cells.append((dx, dy, other))
    return cells


def _tiles_plane(rng, cells, texes, style: Style, face_layer: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The tiles seen from straight above, on a transparent (h, w, 4) plane, their bodies showing
    on one side; with each face's corners (4 x 2, the target's first)."""
    th, tw = texes[0].shape[:2]
    gap = rng.uniform(0, 0.06) * tw
    thick = 0.0 if rng.random() < 0.2 else rng.uniform(0.05, 0.45) * th
    ang = rng.normal(0, 0.6)
    off = np.array([math.sin(ang), math.cos(ang)]) * thick
    dxs, dys = [c[0] for c in cells], [c[1] for c in cells]
    nx, ny = max(dxs) - min(dxs), max(dys) - min(dys)
    pw = int((nx + 1) * tw + nx * gap + 2 * thick + 12)
    ph = int((ny + 1) * th + ny * gap + 2 * thick + 12)
    plane = np.zeros((ph, pw, 4), np.uint8)
    origin = np.array([thick + 6 - min(dxs) * (tw + gap), thick + 6 - min(dys) * (th + gap)])
    rects = []
    for dx, dy, _ in cells:
        x0, y0 = origin + [dx * (tw + gap) + rng.normal(0, 1), dy * (th + gap) + rng.normal(0, 1)]
        rects.append(np.array([[x0, y0], [x0 + tw, y0], [x0 + tw, y0 + th], [x0, y0 + th]]))
    _draw_bodies(rng, plane, rects, off, style, face_layer)  # bodies first, faces on top
    _paste_faces(plane, rects, texes)
    return plane, rects


def _draw_bodies(rng, plane: np.ndarray, rects, off: np.ndarray, style: Style, face_layer: np.ndarray) -> None:
    """Each tile's body below its face: the coloured layer, then the ivory layer, shifted by `off`."""
    for rect in rects:
        for part, (a, b) in ((style.back_layer, (style.face_frac, 1.0)),
                             (face_layer * rng.uniform(0.75, 0.95), (0.0, style.face_frac))):
            hull = cv2.convexHull(np.concatenate([rect + off * a, rect + off * b]).astype(np.float32))
            cv2.fillConvexPoly(plane, np.round(hull * 16).astype(np.int32),
                               tuple(int(c) for c in part) + (255,), cv2.LINE_AA, 4)


def _paste_faces(plane: np.ndarray, rects, texes) -> None:
    th, tw = texes[0].shape[:2]
    ph, pw = plane.shape[:2]
    for rect, tex in zip(rects, texes):
        x0, y0 = np.round(rect[0]).astype(int)
        t = tex[:, :min(tw, pw - x0)][:min(th, ph - y0)]
        if x0 < 0 or y0 < 0 or t.size == 0:
            continue
        a = t[..., 3:4].astype(np.float32) / 255
        roi = plane[y0:y0 + t.shape[0], x0:x0 + t.shape[1]]
        roi[..., :3] = (roi[..., :3] * (1 - a) + t[..., :3] * a).astype(np.uint8)
        roi[..., 3] = np.maximum(roi[..., 3], t[..., 3])


def _face_quad(rng, face_aspect: float) -> tuple[np.ndarray, float]:
    """A random quad (4 x 2, about the origin) for a face of width / height `face_aspect`: turned,
    often squashed by the view, with corners jittered; and its native height in pixels."""
    size = float(np.exp(rng.uniform(*np.log([14, 28] if rng.random() < 0.2 else [28, 110]))))
    squash = rng.uniform(0.55, 1.0) if rng.random() < 0.6 else 1.0
    rad = math.radians(_rotation(rng))
    rot = np.array([[math.cos(rad), -math.sin(rad)], [math.sin(rad), math.cos(rad)]])
    aspect = rng.uniform(0.85, 1.15)
    unit = np.array([[-.5, -.5], [.5, -.5], [.5, .5], [-.5, .5]]) * [face_aspect * aspect, squash]
    unit = unit + rng.normal(0, rng.uniform(0, 0.06), unit.shape)
    return (unit * size) @ rot.T, size


def _warp(plane: np.ndarray, src: np.ndarray, dst: np.ndarray, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """The plane warped so that quad `src` lands on `dst` (plane pixels to `scale` times fewer),
    on a canvas with room around it; with `dst` in that canvas."""
    src = src.astype(np.float32)
    ph, pw = plane.shape[:2]
    if scale < 0.75:  # shrink the plane first: warpPerspective does not anti-alias
        f = min(1.0, scale * 1.3)
        plane = cv2.resize(plane, (max(8, int(pw * f)), max(8, int(ph * f))),
                           interpolation=cv2.INTER_AREA)
        src = src * [plane.shape[1] / pw, plane.shape[0] / ph]
    lo, hi = dst.min(0), dst.max(0)
    pad = (hi - lo) * 0.35 + 4
    out_w, out_h = (np.ceil(hi - lo + 2 * pad)).astype(int)
    dst = (dst - lo + pad).astype(np.float32)
    M = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
    return cv2.warpPerspective(plane, M, (int(out_w), int(out_h)), flags=cv2.INTER_LINEAR), dst


def _on_table(rng, warped: np.ndarray, size: float) -> np.ndarray:
    """The warped tiles (RGBA) on a table patch, often with a soft cast shadow; float RGB."""
    out_h, out_w = warped.shape[:2]
    image = _background(rng, out_h, out_w)
    alpha = warped[..., 3:4].astype(np.float32) / 255
    if rng.random() < 0.7:  # a soft cast shadow
        shift = np.float32([[1, 0, rng.normal(0, .08) * size], [0, 1, rng.uniform(0, .12) * size]])
        sh = cv2.warpAffine(alpha, shift, (out_w, out_h))
        sh = cv2.GaussianBlur(sh, (0, 0), 0.5 + 0.05 * size)[..., None]
        image *= 1 - rng.uniform(0.2, 0.6) * sh
    return image * (1 - alpha) + warped[..., :3] * alpha


def photograph(rng: np.random.Generator, image: np.ndarray, size: float) -> np.ndarray:
    """Light, colour cast, glare, blur, noise and JPEG on a float or uint8 RGB patch."""
    img = image.astype(np.float32)
    h, w = img.shape[:2]
    cast = np.exp(rng.normal(0, 0.08 if rng.random() < 0.85 else 0.2, 3)).astype(np.float32)
    gain = np.float32(np.exp(rng.normal(0, 0.25)))
    img = img * (cast * gain)[None, None] * _field(rng, h, w, 0.15)[..., None]
    if rng.random() < 0.25:  # dim room, low contrast
        c = rng.uniform(0.3, 0.7)
        img = img * c + rng.uniform(0, 50) * (1 - c)
    if rng.random() < 0.25:  # glare: a bright blob washes the engraving out
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.15, 0.6) * size
        xx, yy = np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)[:, None]
        blob = rng.uniform(0.3, 0.95) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        img = img + (255 - img) * blob[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 0.5 + 0.012 * size))
    if rng.random() < 0.1:  # hand shake
        n = int(rng.integers(3, 3 + max(1, int(size * 0.08))))
        k = np.zeros((n, n), np.float32)
        k[n // 2] = 1 / n
        M = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), float(rng.uniform(0, 180)), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(k, M, (n, n)) / max(k.sum(), 1e-6))
    if rng.random() < 0.7:
        sigma = rng.choice([rng.uniform(0.5, 3), rng.uniform(3, 10)], p=[0.7, 0.3])
        img = cv2.add(img, rng.normal(0, sigma, img.shape).astype(np.float32), dtype=cv2.CV_8U)
    if rng.random() < 0.75:
        q = int(rng.choice([rng.integers(25, 60), rng.integers(60, 96)], p=[0.3, 0.7]))
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        img = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    return img


def jitter_box(rng: np.random.Generator, box, sigma: float = 0.05, limit: float = 0.12):
    """A detector-like box: each side moved by a normal share of the box size."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    e = np.clip(rng.normal(0, sigma, 4), -limit, limit)
    return [x1 + e[0] * w, y1 + e[1] * h, x2 + e[2] * w, y2 + e[3] * h]


def rendered_crop(rng: np.random.Generator, bank: FaceBank, class_id: int, size: int,
                  margin: float) -> np.ndarray:
    """One training (or test) crop of `class_id` from the face bank."""
    image, box = render_tile(rng, bank, class_id)
    return square_crop(image, jitter_box(rng, box), size, margin)
