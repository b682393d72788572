"""Things on and over the table that are not labelled: dice, coins and chips, cups, fingers.

They are drawn into the same id map as the tiles (id -1), so a finger over a tile lowers that
tile's visible share and can drop its label.
"""
from __future__ import annotations

import cv2
import numpy as np

from datasets.synth.camera import Camera
from datasets.synth.placement import Occupancy
from datasets.synth.render import Canvas, Style, Tile, draw_tile, plain_texture

SKIN = [(224, 172, 140), (198, 134, 100), (150, 100, 70), (240, 200, 170), (110, 70, 50)]


def _circle(c, r, z, k=24):
    a = np.linspace(0, 2 * np.pi, k, endpoint=False)
    return np.column_stack([c[0] + r * np.cos(a), c[1] + r * np.sin(a), np.full(k, z)])


def dice(rng, occ: Occupancy, centre) -> list[Tile]:
    """Dice as small white (or red) cubes: boxes drawn with the tile renderer."""
    out = []
    for _ in range(int(rng.integers(2, 4))):
        s = rng.uniform(1.2, 1.8)
        xy = centre[:2] + rng.normal(0, 6, 2)
        if not occ.free(xy, s):
            continue
        occ.add(xy, s)
        a = rng.uniform(0, 2 * np.pi)
        u, v = np.array([np.cos(a), np.sin(a), 0]), np.array([-np.sin(a), np.cos(a), 0])
        out.append(Tile("dice", np.array([*xy, s / 2]), u, v, np.array([0, 0, 1.0]), (s, s, s), labelled=False,
                        meta={"ff": 1.0, "pips": int(rng.integers(1, 7))}))
    return out


def draw_dice(cv: Canvas, cam: Camera, t: Tile, light, rng):
    col = (245, 245, 240) if rng.random() < 0.8 else (200, 40, 40)
    st = Style(col, col, 1.0, 0.15, 0.0, 0.5)
    tex = plain_texture(col, st, (48, 48))
    pip = (30, 30, 30) if col[1] > 100 else (250, 250, 250)
    n = t.meta["pips"]
    spots = {1: [(24, 24)], 2: [(12, 12), (36, 36)], 3: [(12, 12), (24, 24), (36, 36)],
             4: [(12, 12), (36, 12), (12, 36), (36, 36)], 5: [(12, 12), (36, 12), (24, 24), (12, 36), (36, 36)],
             6: [(12, 10), (36, 10), (12, 24), (36, 24), (12, 38), (36, 38)]}[n]
    for p in spots:
        cv2.circle(tex, p, 4, (200, 30, 30) + (255,) if n == 1 else pip + (255,), -1, cv2.LINE_AA)
    draw_tile(cv, cam, t, -1, st, lambda *_: tex, light, tex)


def draw_disc(cv: Canvas, cam: Camera, xy, r, height, color, light, rim=0.8):
    """A coin, chip or cup seen in perspective: side wall hull, then the top ellipse."""
    bot, top = _circle(xy, r, 0.0), _circle(xy, r, height)
    uvb, zb = cam.project(bot)
    uvt, zt = cam.project(top)
    if (zb < 1).any() or (zt < 1).any():
        return
    hull = cv2.convexHull(np.concatenate([uvb, uvt]).astype(np.float32)).reshape(-1, 2)
    cv.fill(hull, np.array(color) * rim, -1)
    cv.fill(uvt, color, -1)


def draw_cup(cv: Canvas, cam: Camera, xy, rng, light):
    r, h = rng.uniform(3, 4.5), rng.uniform(6, 10)
    col = np.array([(240, 240, 235), (200, 60, 50), (60, 90, 160), (230, 200, 120)][rng.integers(4)], float)
    draw_disc(cv, cam, xy, r, h, col, light, rim=0.75)
    uvt, zt = cam.project(_circle(xy, r * 0.85, h))
    if (zt > 1).all():
        cv.fill(uvt, [(60, 35, 20), (150, 110, 40), (200, 190, 150)][rng.integers(3)], -1)


def draw_finger(cv: Canvas, rng, light_rgb=1.0):
    """A finger (or two) entering from an image edge, often over a tile, as in real photos."""
    H, W = cv.image.shape[:2]
    side = rng.integers(4)
    t = rng.uniform(0.15, 0.85)
    start = [(t * W, H + 10), (t * W, -10), (-10, t * H), (W + 10, t * H)][side]
    ang = [-np.pi / 2, np.pi / 2, 0, np.pi][side] + rng.normal(0, 0.35)
    length = rng.uniform(0.15, 0.45) * min(W, H)
    width = rng.uniform(0.035, 0.07) * min(W, H)
    skin = np.array(SKIN[rng.integers(len(SKIN))], float)
    d = np.array([np.cos(ang), np.sin(ang)])
    p = np.array([-d[1], d[0]])
    for k in range(int(rng.integers(1, 3))):
        s = np.array(start) + p * width * 1.1 * k
        e = s + d * length * (1 - 0.15 * k)
        poly = np.array([s + p * width / 2, e + p * width / 2, e - p * width / 2, s - p * width / 2])
        col = skin * rng.uniform(0.85, 1.05)
        cv.fill(poly, col * 0.9, -1)
        cv2.circle(cv.image, tuple(np.round(e).astype(int)), int(width / 2), tuple(col.tolist()), -1, cv2.LINE_AA)
        cv2.circle(cv.ids, tuple(np.round(e).astype(int)), int(width / 2), -1, -1)
        nail = e - d * width * 0.35
        cv2.ellipse(cv.image, tuple(np.round(nail).astype(int)), (int(width * 0.3), int(width * 0.22)),
                    float(np.rad2deg(ang)), 0, 360, tuple((col * 1.1 + 15).clip(0, 255).tolist()), -1, cv2.LINE_AA)
        # a soft highlight along the finger gives it volume
        cv2.line(cv.image, tuple(np.round(s + p * width * 0.2).astype(int)), tuple(np.round(e + p * width * 0.2).astype(int)),
                 tuple((col * 1.12).clip(0, 255).tolist()), max(1, int(width * 0.15)), cv2.LINE_AA)
