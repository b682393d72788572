"""One synthetic photo of a finished hand: composition, rendering, labels and truth.

Scene `index` of a run with seed `seed` draws everything from Generator([seed, index]), so scenes
are independent of each other and of the number of worker processes.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.art.atlas import list_designs, load_faces, load_meta
from datasets.art.designs import NEVER_LEARNT, sample_design
from datasets.classes import TILE_CODES, class_index
from datasets.synth.camera import Camera, make_camera
from datasets.synth.hands import MORE_KONGS, DrawnHand, KongRates, sample_hand
from datasets.synth.photo import apply_shadows, blur_noise, jpeg_quality, lighting
from datasets.synth.placement import Occupancy, layout_distractors, layout_hand, remaining_pool
from datasets.synth.props import dice, draw_cup, draw_dice, draw_disc, draw_finger
from datasets.synth.render import (Canvas, Style, Tile, draw_tile, face_texture, plain_texture, shadow_polygons,
                                   visible_fraction)
from datasets.synth.tables import draw_table

MIN_VISIBLE = 0.4     # share of a tile's face that must be visible for a label (artwork.md §4.5)
MIN_BOX_PX = 8      # smaller tiles cannot be read by anyone: no label
BACKS = [(30, 110, 60), (20, 80, 45), (40, 90, 170), (230, 190, 60), (230, 120, 40), (190, 40, 50),
         (220, 130, 160), (110, 60, 150), (30, 30, 35), (40, 130, 130)]
ASPECTS = [(4, 3), (16, 9), (1, 1), (3, 4), (9, 16)]


def _size(rng, long_side: int) -> tuple[int, int]:
    a, b = ASPECTS[rng.choice(5, p=[0.38, 0.14, 0.08, 0.3, 0.1])]
    return (long_side, int(round(long_side * b / a / 2)) * 2) if a >= b else (int(round(long_side * a / b / 2)) * 2, long_side)


def _style(rng, design: str, root) -> Style:
    fb = tuple(int(c) for c in load_meta(design, root).get("face_bg", (240, 236, 225)))
    back = BACKS[rng.choice(len(BACKS), p=np.array([5, 3, 2, 1.2, .8, .8, .6, .6, .8, .8]) / 15.6)]
    back = tuple(int(np.clip(c + rng.integers(-15, 16), 0, 255)) for c in back)
    return Style(tuple(int(c * rng.uniform(0.93, 1.0)) for c in fb), back, float(rng.uniform(0.45, 0.7)),
                 float(rng.uniform(0.06, 0.15)), float(rng.uniform(0.03, 0.09)), float(rng.uniform(0, 1)))


def _rotation(quad: np.ndarray) -> float:
    """Image-space angle of the face's up direction, counter-clockwise from image up."""
    up = (quad[0] + quad[1]) / 2 - (quad[3] + quad[2]) / 2
    return float(np.degrees(np.arctan2(-up[0], -up[1])) % 360)


@dataclass(frozen=True)
class _View:
    """Where the photographer stands: beside which player, and how high the camera looks down."""
    side: str            # winner, opposite, left or right
    azimuth: float
    elevation: float


@dataclass(frozen=True)
class _Shot:
    """The camera, and the choices behind it that the truth records."""
    view: _View
    cam: Camera
    framing: str         # full, far or close
    focal: float         # 35 mm equivalent
    distance: float
    target: np.ndarray   # the table point it aims at
    tile_px: float       # a tile's width in pixels at the target, roughly

    def truth(self) -> dict:
        return {**self.cam.as_dict(), "focal_35mm": round(self.focal, 1), "elevation": round(self.view.elevation, 1),
                "azimuth": round(float(self.view.azimuth), 1), "side": self.view.side, "framing": self.framing,
                "distance_cm": round(float(self.distance), 1)}


@dataclass(frozen=True)
class _Composition:
    """What the photo shows, before any of it is drawn."""
    hand: DrawnHand
    size: tuple[int, int]            # (W, H) pixels
    dims: tuple[float, float, float]  # tile width, height, thickness (cm)
    tiles: list[Tile]                # the hand's, then the distractors
    shot: _Shot
    design: str
    second: str | None               # a second design for some distractors
    style: Style
    centre: np.ndarray               # the table centre, beyond the hand
    near_y: float                    # a tile's height in front of the hand's nearest tile (y)


def make_scene(seed: int, index: int, designs: list[str], long_side: int = 1280, root=None,
               label_face_down: bool = False, more_kongs: bool = False):
    """Returns (RGB image, JPEG quality, truth dict, YOLO label lines). `label_face_down`:
    also label the face-down tiles of walls and other players' hands (`back`), which are
    otherwise left out as belonging to no hand; the image is the same either way.
    `more_kongs`: kongs, and kongs with the fourth tile on top, drawn more often
    (datasets.synth.hands.MORE_KONGS)."""
    rng = np.random.default_rng([seed, index])
    scene = _compose(rng, MORE_KONGS if more_kongs else KongRates(), long_side, designs, root)
    if label_face_down:  # no random draw here: the scene stays the one of (seed, index)
        for t in scene.tiles:
            t.labelled = t.labelled or not t.face_up
    img, table_info = _draw_table(rng, scene)
    light = _light_direction(rng)
    dice_t = dice(rng, Occupancy(scene.tiles), scene.centre) if rng.random() < 0.4 else []
    shadow_info = _cast_shadows(rng, img, scene, dice_t, light)
    cv = Canvas(img)
    quads = _draw_tiles(cv, scene, light, designs, root)
    props = _draw_props(rng, cv, scene, dice_t, light)
    img, photo = _develop(rng, cv, scene, light)
    quality = jpeg_quality(rng)
    truth_tiles, yolo = _labels(cv, scene, quads)
    photo = {**photo, **shadow_info, "jpeg_quality": quality}
    return img, quality, _truth(seed, index, scene, truth_tiles, photo, table_info, props), yolo


def _compose(rng, kongs: KongRates, long_side: int, designs: list[str], root) -> _Composition:
    """The hand, where it lies and how it is photographed, its design, and the game around it."""
    hand = sample_hand(rng, kongs=kongs)
    size = _size(rng, long_side)
    w = float(rng.uniform(2.4, 3.1))
    dims = (w, w / float(rng.uniform(0.70, 0.79)), w * float(rng.uniform(0.55, 0.85)))
    view = _viewpoint(rng)
    p_flip = float(rng.choice([0.0, rng.uniform(0.05, 0.35)], p=[0.35, 0.65]))
    ff = float(rng.uniform(0.45, 0.7))
    tiles = layout_hand(rng, hand, dims, standing_ok=view.side == "winner" and view.elevation < 65, p_flip=p_flip,
                        ff=ff, stacked_kong=kongs.stacked)
    lo = np.min([t.center for t in tiles], 0) - dims[1]
    hi = np.max([t.center for t in tiles], 0) + dims[1]
    shot = _aim_camera(rng, view, tiles, dims, size, lo, hi)
    design, second, style = _choose_design(rng, designs, shot.tile_px < 40, root)
    centre = np.array([rng.normal(0, 6), rng.uniform(24, 40) + hi[1], 0])
    pool = remaining_pool(hand.tiles() + list(hand.bonus))
    tiles += layout_distractors(rng, tiles, pool, dims, ff, centre)
    for t in tiles:
        t.design = second if (second and t.group == "distractor" and rng.random() < 0.5) else design
    return _Composition(hand, size, dims, tiles, shot, design, second, style, centre, lo[1])


def _viewpoint(rng) -> _View:
    side = str(rng.choice(["winner", "opposite", "left", "right"], p=[0.55, 0.25, 0.1, 0.1]))
    azim = {"winner": -90, "opposite": 90, "left": 180, "right": 0}[side] + rng.normal(0, 18)
    elev = float(rng.choice([rng.uniform(72, 88), rng.uniform(45, 72), rng.uniform(22, 45)], p=[0.3, 0.45, 0.25]))
    return _View(side, azim, elev)


def _aim_camera(rng, view: _View, tiles: list[Tile], dims, size: tuple[int, int], lo: np.ndarray,
                hi: np.ndarray) -> _Shot:
    """Frame the hand (lo..hi) at a chosen size: the whole hand, zoomed out, or a close-up."""
    W, H = size
    w = dims[0]
    span = float(max(hi[0] - lo[0], hi[1] - lo[1]))
    framing = str(rng.choice(["full", "far", "close"], p=[0.72, 0.1, 0.18]))
    q = {"full": rng.uniform(0.7, 1.25), "far": rng.uniform(0.3, 0.7), "close": rng.uniform(1.3, 3.5)}[framing]
    focal = float(rng.choice([rng.uniform(24, 30), rng.uniform(30, 75)], p=[0.6, 0.4]))
    f_px = focal / 36.0 * max(W, H)
    dist = f_px * span / (q * min(W, H) * 1.1)
    tw = f_px * w / dist  # tile width in pixels at the target, roughly: keep it in 18..240
    dist *= tw / 240 if tw > 240 else (tw / 18 if tw < 18 else 1.0)
    target = (lo + hi) / 2 * np.array([1, 1, 0])
    if framing == "close":
        target = tiles[rng.integers(len(tiles))].center * np.array([1, 1, 0])
    target = target + np.array([*rng.normal(0, span * 0.06, 2), 0])
    cam = make_camera(W, H, focal, target, dist, view.elevation, view.azimuth, rng.normal(0, 5))
    return _Shot(view, cam, framing, focal, dist, target, f_px * w / dist)


def _choose_design(rng, names: list[str], small: bool, root) -> tuple[str, str | None, Style]:
    """The set's design, sometimes a second one among the distractors, and the set's body."""
    design = sample_design(rng, names, small, root)
    second = sample_design(rng, names, small, root) if rng.random() < 0.1 else None
    return design, second, _style(rng, design, root)


def _draw_table(rng, scene: _Composition) -> tuple[np.ndarray, dict]:
    """The table square: its near edge a little in front of the hand, large enough to fill most views."""
    tside = float(rng.uniform(95, 170))
    tcentre = np.array([scene.centre[0] + rng.normal(0, 10), scene.near_y - rng.uniform(4, 25) + tside / 2, 0])
    return draw_table(rng, scene.shot.cam, tcentre, tside)


def _light_direction(rng) -> np.ndarray:
    """A unit vector towards the lamp."""
    le, la = np.deg2rad(rng.uniform(35, 80)), rng.uniform(0, 2 * np.pi)
    return np.array([np.cos(le) * np.cos(la), np.cos(le) * np.sin(la), np.sin(le)])


def _cast_shadows(rng, img: np.ndarray, scene: _Composition, dice_t: list[Tile], light: np.ndarray) -> dict:
    """Darkens `img` in place where tiles and dice shade the table; returns the shadows' truth."""
    W, H = scene.size
    shadow = np.zeros((H, W), np.uint8)
    for t in scene.tiles + dice_t:
        for poly in shadow_polygons(t, scene.shot.cam, light):
            cv2.fillConvexPoly(shadow, np.round(poly * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    return apply_shadows(img, shadow, rng, softness_px=float(scene.shot.tile_px) * rng.uniform(0.03, 0.2))


def _draw_tiles(cv: Canvas, scene: _Composition, light: np.ndarray, names: list[str], root) -> dict[int, np.ndarray]:
    """Every tile, far to near; returns the face quads of the labelled tiles drawn, by index."""
    cam, tiles, style = scene.shot.cam, scene.tiles, scene.style
    back_tex = plain_texture(style.back_layer, style)
    tex_fn = _face_textures(scene, names, root, back_tex)
    order = np.argsort([-np.linalg.norm(t.center - cam.C) for t in tiles])
    quads = {}
    for k in order:
        r = draw_tile(cv, cam, tiles[k], int(k) + 1, style, tex_fn, light, back_tex)
        if r is not None and tiles[k].labelled:
            quads[int(k)] = r["quad"]
    return quads


def _face_textures(scene: _Composition, names: list[str], root, back_tex: np.ndarray):
    """The face texture of a tile drawn `target_h` pixels high, kept per design, tile and size band."""
    design, style = scene.design, scene.style
    cache: dict = {}

    def tex_fn(t, target_h):
        if t.code not in TILE_CODES:  # a tile without a known face (walls): never drawn face up
            return back_tex
        dsg = t.design
        meta = load_meta(dsg, root)
        if t.code not in meta["present"]:   # a class the set lacks: borrow it from the main design
            dsg = design if t.code in load_meta(design, root)["present"] else _lender(t.code, names, root)
            t.design = dsg
        key = (dsg, t.code, int(target_h // 8))
        if key not in cache:
            face = load_faces(dsg, root)[TILE_CODES.index(t.code)]
            bg = load_meta(dsg, root).get("face_bg", style.face_layer)
            cache[key] = face_texture(face, style, target_h, bg)
        return cache[key]
    return tex_fn


def _draw_props(rng, cv: Canvas, scene: _Composition, dice_t: list[Tile], light: np.ndarray) -> dict:
    """The dice, and now and then coins, a cup and a finger; returns how many of each."""
    cam, centre = scene.shot.cam, scene.centre
    for t in dice_t:
        draw_dice(cv, cam, t, light, rng)
    props = {"dice": len(dice_t), "coins": 0, "cups": 0, "fingers": 0}
    if rng.random() < 0.3:
        for _ in range(int(rng.integers(1, 6))):
            props["coins"] += 1
            c = [(200, 170, 80), (190, 190, 195), (200, 60, 50), (40, 90, 180)][rng.integers(4)]
            draw_disc(cv, cam, centre[:2] + rng.normal(0, 15, 2), rng.uniform(0.9, 2.0), rng.uniform(0.15, 0.4), c, light)
    if rng.random() < 0.2:
        props["cups"] = 1
        draw_cup(cv, cam, centre[:2] + rng.normal(0, 20, 2), rng, light)
    if rng.random() < 0.25:
        props["fingers"] = 1
        draw_finger(cv, rng)
    return props


def _develop(rng, cv: Canvas, scene: _Composition, light: np.ndarray) -> tuple[np.ndarray, dict]:
    """The photo's light (with the lamp's glare on glossy tiles), blur and noise; with their truth."""
    cam, dims = scene.shot.cam, scene.dims
    # Specular glare: the mirror image of the lamp in the tile-top plane, seen by the camera.
    lamp = scene.shot.target + light * rng.uniform(80, 200)
    mirror = lamp * np.array([1, 1, -1]) + np.array([0, 0, 2 * dims[2]])
    dvec = mirror - cam.C
    tt = (dims[2] - cam.C[2]) / dvec[2]
    g_uv, g_z = cam.project((cam.C + tt * dvec)[None])
    img, light_info = lighting(cv.image, rng, cv.glossy, g_uv[0] if g_z[0] > 0 else None, scene.style.gloss)
    img, blur_info = blur_noise(img, rng, _depth_mask(cam, rng))
    return img, {**light_info, **blur_info}


def _labels(cv: Canvas, scene: _Composition, quads: dict[int, np.ndarray]) -> tuple[list[dict], list[str]]:
    """The truth of every hand tile and of each labelled distractor, and the YOLO lines of the labelled."""
    W, H = scene.size
    cls = class_index()
    truth_tiles, yolo = [], []
    for k, t in enumerate(scene.tiles):
        quad = quads.get(k)
        vis = visible_fraction(cv, quad, k + 1) if quad is not None else 0.0
        box = _box(quad, vis, scene.size)
        if t.group == "distractor" and box is None:
            continue  # unlabelled distractors are not listed one by one
        label = (t.code if t.face_up else "back") if box else None
        truth_tiles.append(_tile_truth(t, label, cls[label] if label else None, box, quad, vis))
        if box:
            cx, cy, bw, bh = (box[0] + box[2]) / 2 / W, (box[1] + box[3]) / 2 / H, (box[2] - box[0]) / W, (box[3] - box[1]) / H
            yolo.append(f"{cls[label]} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
    return truth_tiles, yolo


def _box(quad: np.ndarray | None, vis: float, size: tuple[int, int]) -> list[float] | None:
    """The face's xyxy box inside the image, if enough of it shows and it is large enough to read."""
    if quad is None or vis < MIN_VISIBLE:
        return None
    W, H = size
    x0, y0 = np.clip(quad.min(0), 0, [W, H])
    x1, y1 = np.clip(quad.max(0), 0, [W, H])
    if x1 - x0 >= MIN_BOX_PX and y1 - y0 >= MIN_BOX_PX:
        return [round(float(v), 2) for v in (x0, y0, x1, y1)]
    return None


def _tile_truth(t: Tile, label: str | None, class_id: int | None, box, quad, vis: float) -> dict:
    return {"code": t.code, "label": label, "class_id": class_id, "box": box,
            "quad": None if quad is None else [[round(float(x), 2), round(float(y), 2)] for x, y in quad],
            "rotation": None if quad is None else round(_rotation(quad), 1), "yaw": round(float(t.meta["yaw"]), 1),
            "face": "up" if t.face_up else "down", "standing": t.standing, "group": t.group,
            "visible": round(vis, 3), "design": t.design}


def _truth(seed: int, index: int, scene: _Composition, truth_tiles: list[dict], photo: dict, background: dict,
           props: dict) -> dict:
    W, H = scene.size
    hand, style, tiles = scene.hand, scene.style, scene.tiles
    return {
        "seed": seed, "index": index, "width": W, "height": H,
        "hand": {"notation": hand.notation, "shape": hand.shape, "bonus": list(hand.bonus), "winning": hand.winning,
                 "winning_apart": any(t.group == "winning" for t in tiles), "seat_wind": None, "round_wind": None,
                 "melds": [{"kind": m.kind, "tiles": list(m.tiles), "offer": m.offer} for m in hand.melds]},
        "tiles": truth_tiles,
        "design": {"primary": scene.design, "secondary": scene.second, "face_layer": list(style.face_layer),
                   "back_layer": list(style.back_layer), "face_layer_share": round(style.face_frac, 3),
                   "corner_radius": round(style.radius, 3), "margin": round(style.margin, 3),
                   "gloss": round(style.gloss, 3), "tile_cm": [round(float(x), 2) for x in scene.dims]},
        "camera": scene.shot.truth(),
        "photo": photo,
        "background": background, "props": props,
        "distractor_tiles": int(sum(t.group == "distractor" for t in tiles)),
    }


def _depth_mask(cam, rng) -> np.ndarray:
    """0 where the table is in focus, towards 1 where it is far behind the subject."""
    gx, gy = np.meshgrid(np.linspace(0, cam.width, 16), np.linspace(0, cam.height, 12))
    pts, ok = cam.ray_to_plane(np.column_stack([gx.ravel(), gy.ravel()]))
    dist = np.where(ok, np.linalg.norm(pts - cam.C, axis=1), 1e4).reshape(12, 16).astype(np.float32)
    focus = float(np.median(dist))
    m = np.clip((dist / focus - 1.1) / 0.6, 0, 1).astype(np.float32)
    return cv2.resize(m, (cam.width, cam.height), interpolation=cv2.INTER_LINEAR)


def _lender(code: str, names: list[str], root) -> str:
    """A design that has `code`: one of the run's designs if any has it, else any design in
    the cache (the truth JSON records which), so a narrow --designs choice never aborts a run."""
    cached = list_designs(root)
    # training designs first, so that a training run never borrows a held-out face
    for pool in (names, [n for n in cached if n not in NEVER_LEARNT], cached):
        for n in pool:
            if code in load_meta(n, root)["present"]:
                return n
    raise ValueError(f"no design in the art cache has a face for {code}; run datasets/art/install_art.sh")
