"""Training windows for the glyph reader (vision/recognition/glyphs.py): the number and the character
that flower and season tiles print beside their picture.

The crop classifier reads a bonus tile as a whole and learns the pictures, which every set
paints its own way; the number (1-4, Arabic or Chinese) and the character 梅蘭菊竹 / 春夏秋冬
are printed in fonts much like the ones on this machine. So the glyph reader learns only
glyphs: a 24 x 24 window of the tile's ink map (vision.recognition.glyphs.ink_map) either holds one
glyph, centred and 0.45-0.9 of the window high, or it is "other" (pictures, other
characters, glyphs cut off or of the wrong size, a blank face, the tile's edge).

A window is drawn at 48 x 48 and shrunk to 24, through a random lower resolution first,
as a small tile in a photo is. Glyphs come from the CJK fonts of datasets.art.faces (which also
write the digits, as brush-written sets do) and from Latin fonts for the Arabic digits;
clutter comes from procedural pictures (faces._picture) and from the dots and bamboo faces of
the training designs, never from a held-out design (datasets.art.designs.HELD_OUT).

`SceneNegatives` adds windows cut, exactly as the app cuts them (vision.recognition.glyphs.tile_views),
from tiles of synthetic training scenes that print no bonus glyph (honours, 5-9 of dots and
bamboo, backs): frames, tile edges, a picture's strokes seen in perspective and blur. Drawn
flat, those were never "other" enough: on development scenes the reader saw a number 1-4
at over 0.5 on 40 % of such tiles, and read the number of legible bonus tiles at chance.
"""
from __future__ import annotations

import glob
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.boxes import short_sides
from vision.recognition.glyphs import LEGIBLE, ink_map, tile_views

from datasets.art import faces as F
from datasets.art.atlas import load_faces, load_meta
from datasets.art.designs import select
from datasets.classes import TILE_CODES

GLYPHS = ("1", "2", "3", "4", "一", "二", "三", "四", "梅", "蘭", "菊", "竹", "春", "夏", "秋", "冬")
OTHER = len(GLYPHS)  # the class of every window that is not one centred glyph
NAMES = GLYPHS + ("other",)
VARIANTS = {"蘭": "兰"}  # simplified forms some sets print, read as the same glyph
# characters that sit on tiles but are not the bonus glyphs: the window must call them other
DISTRACTORS = "五六七八九萬万東南西北中發白筒索條花季" + "56789ABCDEFabcdef"
WINDOW, CANVAS = 24, 48
LATIN_GLOBS = ("/usr/share/fonts/truetype/dejavu/DejaVu*.ttf",
               "/usr/share/fonts/truetype/liberation/Liberation*.ttf",
               "/usr/share/fonts/opentype/urw-base35/*.otf")
POSITIVE_SHARE = 0.6
# Tiles that print none of GLYPHS in any design: their windows are all "other". (1-4 of a
# suit may carry a small index numeral, 1m-4m carry 一二三四, 5m-9m are drawn flat already.)
NO_GLYPH_CODES = ("1z", "2z", "3z", "4z", "5z", "6z", "7z", "5p", "6p", "7p", "8p", "9p",
                  "5s", "6s", "7s", "8s", "9s", "back")
GLYPH_SPAN = (0.45, 0.9)  # glyph height / window height of a positive window


# More CJK fonts for the glyphs than the procedural designs use (datasets.art.faces), where they
# are installed (apt-get install fonts-arphic-uming fonts-arphic-bkai00mp fonts-arphic-bsmi00lp
# fonts-wqy-zenhei fonts-wqy-microhei fonts-cwtex-ming fonts-cwtex-heib fonts-cwtex-yen
# fonts-cwtex-fs fonts-hanazono fonts-ipafont-mincho fonts-ipafont-gothic fonts-noto-cjk-extra):
# real sets print in many hands, from Ming to brush script.
EXTRA_CJK = (("/usr/share/fonts/truetype/arphic/uming.ttc", 0),
             ("/usr/share/fonts/truetype/arphic-bkai00mp/bkai00mp.ttf", 0),
             ("/usr/share/fonts/truetype/arphic-bsmi00lp/bsmi00lp.ttf", 0),
             ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
             ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
             ("/usr/share/fonts/truetype/cwtex/cwming.ttf", 0),
             ("/usr/share/fonts/truetype/cwtex/cwheib.ttf", 0),
             ("/usr/share/fonts/truetype/cwtex/cwyen.ttf", 0),
             ("/usr/share/fonts/truetype/cwtex/cwfs.ttf", 0),
             ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", 0),
             ("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf", 0),
             ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", 0),
             *((f"/usr/share/fonts/opentype/noto/Noto{k}CJK-{w}.ttc", 2)
               for k, w in (("Sans", "Black"), ("Sans", "Light"), ("Sans", "Medium"),
                            ("Serif", "Black"), ("Serif", "Light"), ("Serif", "SemiBold"))))


def cjk_fonts(extra: bool = False) -> list[tuple[str, int]]:
    """The CJK fonts of the procedural designs; with `extra`, those of EXTRA_CJK installed."""
    more = [f for f in EXTRA_CJK if Path(f[0]).exists()] if extra else []
    return F.available_fonts() + more


def latin_fonts() -> list[str]:
    paths = sorted(p for g in LATIN_GLOBS for p in glob.glob(g)
                   if "Symbol" not in p and "Z003" not in p and "D050000L" not in p
                   and "Math" not in p and "Mono" not in p)
    return paths


@cache
def glyph_mask(text: str, font: tuple[str, int]) -> np.ndarray:
    """The glyph's ink (float32 0..1), cropped to its bounding box, about 64 px high."""
    face = ImageFont.truetype(font[0], 64, index=font[1])
    img = Image.new("L", (128, 128), 0)
    ImageDraw.Draw(img).text((64, 64), text, font=face, fill=255, anchor="mm")
    a = np.asarray(img, np.float32) / 255.0
    ys, xs = np.nonzero(a > 0.1)
    if len(ys) == 0:
        return np.zeros((1, 1), np.float32)
    return a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


@cache
def fonts_for(text: str, extra: bool = False) -> list[tuple[str, int]]:
    """The fonts that have `text` (a font without it draws its empty-box glyph)."""
    latin = [(p, 0) for p in latin_fonts()] if text.isascii() else []
    return [f for f in cjk_fonts(extra) + latin if _has(f, text)]


def _has(font: tuple[str, int], text: str) -> bool:
    mask = glyph_mask(text, font)
    missing = glyph_mask("\uffff", font)  # a code point no font draws: the empty box
    return mask.sum() > 0 and not (mask.shape == missing.shape and np.allclose(mask, missing))


def never_learnt_designs(folder: Path) -> set[str]:
    """The held-out and development designs that the scenes' truth files name."""
    import json

    from datasets.art.designs import NEVER_LEARNT
    designs = {t.get("design") for path in (folder / "truth").glob("*.json")
               for t in json.loads(path.read_text())["tiles"]}
    return designs & set(NEVER_LEARNT)


def scene_tile_views(folder: str | Path, codes, seed: int, stride: int, salt: int):
    """Per scene of `folder` (datasets.synth.generate output), in a seeded order: (class index,
    glyph views) of each of its legible tiles of `codes`, every box jittered by a few per
    cent as the finder's boxes are. Refuses scenes of designs no model may learn."""
    from datasets.classes import class_index
    from datasets.eval.samples import synth_samples
    never = sorted(never_learnt_designs(Path(folder)))
    if never:
        raise ValueError(f"{folder}: its scenes draw designs no model may learn ({', '.join(never)})")
    wanted = [class_index()[c] for c in codes]
    rng = np.random.default_rng([salt, seed])
    scenes = synth_samples(Path(folder))
    for k in rng.permutation(len(scenes)):
        scene = scenes[k]
        keep = np.isin(scene.class_id, wanted)
        if not keep.any():
            continue
        boxes, ids = scene.xyxy[keep], scene.class_id[keep]
        rgb = np.asarray(Image.open(scene.image).convert("RGB"))
        size = np.stack([boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]] * 2, axis=1)
        boxes = boxes + rng.normal(0, 0.03, boxes.shape) * size
        legible = short_sides(boxes) >= LEGIBLE[0]
        yield [(int(i), short, tile_views(rgb, box, WINDOW, stride))
               for i, short, box in zip(ids[legible], short_sides(boxes)[legible], boxes[legible])]


class SceneNegatives:
    """Glyph views (vision.recognition.glyphs.tile_views) of up to `tiles` legible tiles of
    NO_GLYPH_CODES in the scenes of `folder`; `window` is a random 24 x 24 part of one."""

    def __init__(self, folder: str | Path, tiles: int = 1500, seed: int = 0,
                 stride: int = 4) -> None:
        self.maps: list[np.ndarray] = []
        for scene in scene_tile_views(folder, NO_GLYPH_CODES, seed, stride, salt=8102):
            if len(self.maps) >= 6 * tiles:  # (six views a tile)
                break
            self.maps += [v.astype(np.float16) for _, _, views in scene for v in views]
        if not self.maps:
            raise ValueError(f"{folder}: no legible tiles without glyphs in its scenes")

    def window(self, rng: np.random.Generator) -> np.ndarray:
        m = self.maps[rng.integers(len(self.maps))]
        y = int(rng.integers(m.shape[0] - WINDOW + 1))
        x = int(rng.integers(m.shape[1] - WINDOW + 1))
        return np.ascontiguousarray(m[y:y + WINDOW, x:x + WINDOW], np.float32)


def own_glyphs(code: str) -> tuple[int, ...]:
    """Indices into NAMES of the glyphs a bonus tile `code` (1f..8f) may print: its number
    in either numeral and its character."""
    k = int(code[0]) - 1
    return (GLYPHS.index(str(k % 4 + 1)), GLYPHS.index("一二三四"[k % 4]), GLYPHS.index("梅蘭菊竹春夏秋冬"[k]))


class SceneBonus:
    """Legible flower and season tiles of synthetic training scenes, whole: each tile's glyph
    views (as the app cuts them), the glyphs it may print (`own_glyphs`) and its short side.
    Where a design prints its number, and whether, is not in the scene's truth; what is
    known is that no window of the tile shows another bonus tile's glyph, and that a fully
    legible tile's best window shows one of its own, if any (train_glyphs weighs the two)."""

    def __init__(self, folder: str | Path, tiles: int = 3000, seed: int = 0,
                 stride: int = 4) -> None:
        from datasets.classes import class_names
        names = class_names()
        self.tiles: list[tuple[list[np.ndarray], tuple[int, ...], float]] = []
        bonus = tuple(f"{k}f" for k in range(1, 9))
        for scene in scene_tile_views(folder, bonus, seed, stride, salt=8103):
            if len(self.tiles) >= tiles:
                break
            self.tiles += [([v.astype(np.float16) for v in views], own_glyphs(names[i]), short)
                           for i, short, views in scene if views]
        if not self.tiles:
            raise ValueError(f"{folder}: no legible flower or season tiles in its scenes")

    def sample(self, rng: np.random.Generator, n: int):
        """`n` tiles at random: their views, own glyphs and short sides."""
        return [self.tiles[i] for i in rng.integers(len(self.tiles), size=n)]


class ClutterBank:
    """Ink maps (1 = face, lower = ink) of pictures and of dots and bamboo faces: what lies
    around and under the glyphs on a tile, and what a window must not call a glyph; and
    which fonts the glyphs are drawn in (`extra_fonts`: EXTRA_CJK too) and the share of them
    bent as by a brush (`brush`, see _brush)."""

    def __init__(self, pictures: int = 300, designs: int = 40, seed: int = 0,
                 extra_fonts: bool = False, brush: float = 0.0,
                 scenes: SceneNegatives | None = None, scene_share: float = 0.0) -> None:
        self.extra_fonts, self.brush = extra_fonts, brush
        # that share of the "other" windows is cut from `scenes` (no draw when 0)
        self.scenes, self.scene_share = scenes, scene_share if scenes is not None else 0.0
        rng = np.random.default_rng([8101, seed])
        self.maps: list[np.ndarray] = []
        for i in range(pictures):
            st = F.sample_style(20_000 + seed * 10_000 + i)  # seeds no bonus set of the reader uses
            img, ink, d = F.face_canvas(st)
            W, H = img.size
            F._picture(d, rng, int(rng.integers(5)), (W * .08, H * .08, W * .92, H * .92), st)
            self.maps.append(ink_map(F.finish_face(img, ink, st)))
        suits = [i for i, c in enumerate(TILE_CODES) if c[1] in "ps"]
        names = [n for n in select("train") if not n.startswith("proc_")]
        for name in rng.permutation(names)[:designs]:
            faces = load_faces(name)
            present = set(load_meta(name)["present"])
            for i in rng.choice(suits, 3, replace=False):
                if TILE_CODES[i] in present:
                    self.maps.append(ink_map(np.asarray(faces[i])))

    def patch(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """A random (size, size) part of a random map, seen at a random scale."""
        m = self.maps[rng.integers(len(self.maps))]
        h, w = m.shape
        side = int(min(h, w) * rng.uniform(0.15, 0.45))
        y, x = rng.integers(0, h - side + 1), rng.integers(0, w - side + 1)
        return cv2.resize(m[y:y + side, x:x + side], (size, size), interpolation=cv2.INTER_AREA)


def _place(canvas: np.ndarray, mask: np.ndarray, height: float, centre, angle: float,
           strength: float) -> None:
    """Darken `canvas` by the glyph `mask` scaled to `height`, turned, centred at `centre`."""
    scale = height / mask.shape[0]
    if mask.shape[1] * scale > CANVAS * 0.95:
        scale = CANVAS * 0.95 / mask.shape[1]
    m = cv2.getRotationMatrix2D((mask.shape[1] / 2, mask.shape[0] / 2), angle, scale)
    m[:, 2] += np.array(centre) - np.array([mask.shape[1] / 2, mask.shape[0] / 2])
    ink = cv2.warpAffine(mask, m, (CANVAS, CANVAS), flags=cv2.INTER_LINEAR)
    np.minimum(canvas, 1.0 - strength * ink, out=canvas)


def _brush(mask: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """In a share of the glyphs, the strokes bent by a smooth random field, as a brush or
    a carver writes them (no draw from `rng` when share is 0)."""
    if share <= 0 or rng.random() >= share:
        return mask
    h, w = mask.shape
    sigma, alpha = 0.1 * h, rng.uniform(0.02, 0.07) * h
    field = [cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), sigma)
             for _ in range(2)]
    field = [f * (alpha / max(float(np.abs(f).max()), 1e-6)) for f in field]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return cv2.remap(mask, xs + field[0], ys + field[1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def _weight(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    r = rng.random()
    if r < 0.2:
        return cv2.dilate(mask, np.ones((3, 3), np.uint8))
    if r < 0.35:
        return cv2.erode(mask, np.ones((3, 3), np.uint8))
    return mask


def _ink(text: str, rng: np.random.Generator, bank: ClutterBank, brush: float = 0.0
         ) -> np.ndarray:
    """`text` in one of the bank's fonts that have it, bent in a share `brush`, thickened or
    thinned at random."""
    fonts = fonts_for(text, bank.extra_fonts)
    return _weight(_brush(glyph_mask(text, fonts[rng.integers(len(fonts))]), rng, brush), rng)


def window(rng: np.random.Generator, bank: ClutterBank) -> tuple[np.ndarray, int]:
    """One (24, 24) float32 window of an ink map and its class (index into NAMES)."""
    canvas = np.ones((CANVAS, CANVAS), np.float32) * rng.uniform(0.9, 1.1)
    positive = rng.random() < POSITIVE_SHARE
    label = int(rng.integers(len(GLYPHS))) if positive else OTHER
    if not positive and bank.scene_share and rng.random() < bank.scene_share:
        return bank.scenes.window(rng), OTHER
    _add_clutter(rng, canvas, bank, positive)
    _add_tile_edge(rng, canvas)
    strength = rng.uniform(0.45, 0.95)
    angle = rng.normal(0, 4)
    if positive:
        _add_glyph(rng, canvas, bank, GLYPHS[label], angle, strength)
    else:
        _add_distractor(rng, canvas, bank, angle, strength)
    return degrade(rng, canvas), label


def _add_clutter(rng: np.random.Generator, canvas: np.ndarray, bank: ClutterBank,
                 positive: bool) -> None:
    """In most windows, clutter from the bank: beside the glyph for a positive (glyphs are
    printed on bare face), anywhere else."""
    if rng.random() >= 0.65:
        return
    patch = bank.patch(rng, CANVAS)
    keep = _side_band(rng) if positive else np.ones((CANVAS, CANVAS), np.float32)
    np.minimum(canvas, 1 - (1 - patch) * keep, out=canvas)


def _side_band(rng: np.random.Generator) -> np.ndarray:
    """1 in a band along one side of the canvas, up to a fifth of it deep, 0 elsewhere:
    clutter comes in from one side only."""
    side = int(rng.integers(4))
    cut = int(CANVAS * rng.uniform(0.0, 0.2))
    keep = np.zeros((CANVAS, CANVAS), np.float32)
    [keep[:cut, :], keep[-cut or CANVAS:, :], keep[:, :cut], keep[:, -cut or CANVAS:]][side][...] = 1
    return keep


def _add_tile_edge(rng: np.random.Generator, canvas: np.ndarray) -> None:
    """In some windows, the tile's edge or body at a side."""
    if rng.random() >= 0.15:
        return
    side, depth = int(rng.integers(4)), int(rng.integers(2, 9))
    level = rng.uniform(0.2, 0.8)
    [canvas[:depth, :], canvas[-depth:, :], canvas[:, :depth], canvas[:, -depth:]][side][...] = level


def _add_glyph(rng: np.random.Generator, canvas: np.ndarray, bank: ClutterBank, text: str,
               angle: float, strength: float) -> None:
    """The glyph `text` (or its variant), near the centre and GLYPH_SPAN of the window high."""
    if text in VARIANTS and rng.random() < 0.3:
        text = VARIANTS[text]
    mask = _ink(text, rng, bank, bank.brush)
    height = CANVAS * rng.uniform(*GLYPH_SPAN)
    centre = CANVAS / 2 + rng.uniform(-4, 4, 2)
    _place(canvas, mask, height, centre, angle, strength)


def _add_distractor(rng: np.random.Generator, canvas: np.ndarray, bank: ClutterBank,
                    angle: float, strength: float) -> None:
    """In over half the "other" windows, what is not a glyph of the reader but looks like
    one: another character, centred, or a bonus glyph misplaced (`_misplaced_glyph`)."""
    kind = rng.random()
    if kind >= 0.55:
        return
    if kind < 0.3:
        text = DISTRACTORS[rng.integers(len(DISTRACTORS))]
        height, offset = CANVAS * rng.uniform(0.4, 0.9), rng.uniform(-4, 4, 2)
    else:
        text, height, offset = _misplaced_glyph(rng)
    mask = _ink(text, rng, bank)
    _place(canvas, mask, height, CANVAS / 2 + offset, angle, strength)


def _misplaced_glyph(rng: np.random.Generator) -> tuple[str, float, np.ndarray]:
    """A bonus glyph with its height and offset from the centre: off centre, too small or
    too large, so that the window holding it is "other"."""
    text = GLYPHS[rng.integers(len(GLYPHS))]
    how = rng.integers(3)
    height = CANVAS * (rng.uniform(0.45, 0.9) if how == 0 else
                       rng.uniform(0.12, 0.3) if how == 1 else rng.uniform(1.15, 1.6))
    offset = (rng.uniform(11, 20, 2) * rng.choice([-1, 1], 2) if how == 0
              else rng.uniform(-4, 4, 2))
    return text, height, offset


def degrade(rng: np.random.Generator, canvas: np.ndarray) -> np.ndarray:
    """Shrink to the window through a lower resolution, blur, noise and contrast."""
    low = int(rng.uniform(WINDOW / 2.2, WINDOW + 1))
    small = cv2.resize(canvas, (low, low), interpolation=cv2.INTER_AREA)
    out = cv2.resize(small, (WINDOW, WINDOW), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        out = cv2.GaussianBlur(out, (3, 3), rng.uniform(0.3, 0.9))
    out = 1 - (1 - out) * rng.uniform(0.6, 1.2)
    out = out + rng.normal(0, rng.uniform(0, 0.05), out.shape)
    return np.clip(out, 0, 1.2).astype(np.float32)


def batch(rng: np.random.Generator, bank: ClutterBank, n: int) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = zip(*(window(rng, bank) for _ in range(n)))
    return np.stack(xs)[:, None], np.array(ys, np.int64)
