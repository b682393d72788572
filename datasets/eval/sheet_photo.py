"""A generated teaching photo: one design's tiles laid in rows on a table, as a player lays
the sheet (`mahjong-lens teach`), drawn with its own camera, light and table.

    python -m datasets.eval.sheet_photo --design kmj_traditional --seed 1 --out sheet.jpg

The suggested sheet is five rows: 1-9 characters, 1-9 dots, 1-9 bamboo, the seven honours,
flowers 1-4 then seasons 1-4 (SHEET_CODES). The camera stands on the player's side, 45-88°
above the table, framing the sheet; light, shadows, glare, blur and noise come from the
scene generator (datasets.synth.scene), drawn from Generator([seed, SHEET_STREAM]), never the
stream of a test scene.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from datasets.art.atlas import load_faces, load_meta
from datasets.synth.camera import make_camera
from datasets.classes import TILE_CODES
from datasets.synth.placement import lying
from datasets.synth.photo import apply_shadows, blur_noise, lighting
from datasets.synth.render import Canvas, draw_tile, face_texture, plain_texture, shadow_polygons
from datasets.synth.scene import _style
from datasets.synth.tables import draw_table

SHEET_ROWS = ("123456789m", "123456789p", "123456789s", "1234567z", "12345678f")
SHEET_CODES = " ".join(SHEET_ROWS)
SHEET_STREAM = 7_000_001  # a stream index no scene of a run reaches


def sheet_layout(rng, rows: list[list[str]], dims) -> list:
    """Tiles lying face up, upright for the player (at y < 0), row by row away from him."""
    w, h, _ = dims
    step, row_step = w * rng.uniform(1.04, 1.15), h * rng.uniform(1.2, 1.5)
    tiles = []
    for r, row in enumerate(rows):
        y = (len(rows) - 1 - r) * row_step
        x = -(len(row) - 1) * step / 2
        for code in row:
            tiles.append(lying(code, x + rng.normal(0, w * 0.02), y + rng.normal(0, w * 0.03),
                               rng.normal(0, 2.0), dims, group="sheet"))
            x += step
    return tiles


def make_sheet(seed: int, design: str, rows=SHEET_ROWS, long_side: int = 1280, root=None):
    """(RGB image, truth: `codes` in reading order and their `boxes`)."""
    from scoring.tiles import parse_tiles

    rng = np.random.default_rng([seed, SHEET_STREAM])
    present = set(load_meta(design, root)["present"])  # a set without a face has no such tile
    codes = [[c for c in parse_tiles(r, allow_bonus=True) if c in present] for r in rows]
    width, height = (long_side, long_side * 3 // 4)
    w = float(rng.uniform(2.4, 3.1))
    dims = (w, w / float(rng.uniform(0.70, 0.79)), w * float(rng.uniform(0.55, 0.85)))
    tiles = sheet_layout(rng, codes, dims)
    centres = np.array([t.center for t in tiles])
    lo, hi = centres.min(0) - dims[1], centres.max(0) + dims[1]
    target = (lo + hi) / 2 * np.array([1, 1, 0])
    elev = float(rng.uniform(45, 88))
    focal = float(rng.uniform(24, 40))
    f_px = focal / 36.0 * width
    span = max(hi[0] - lo[0], (hi[1] - lo[1]) * width / height)
    dist = f_px * span / (width * rng.uniform(0.75, 0.95))
    cam = make_camera(width, height, focal, target, dist, elev, -90 + rng.normal(0, 6),
                      rng.normal(0, 3))
    style = _style(rng, design, root)
    img, _ = draw_table(rng, cam, target + np.array([0, 20, 0]), float(rng.uniform(95, 170)))
    light = _light(rng)
    shadow = np.zeros((height, width), np.uint8)
    for t in tiles:
        for poly in shadow_polygons(t, cam, light):
            cv2.fillConvexPoly(shadow, np.round(poly * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    apply_shadows(img, shadow, rng, softness_px=float(f_px * w / dist) * rng.uniform(0.03, 0.2))
    canvas = Canvas(img)
    faces, bg = load_faces(design, root), load_meta(design, root).get("face_bg", style.face_layer)
    back = plain_texture(style.back_layer, style)
    boxes = []
    for k, t in enumerate(tiles):
        r = draw_tile(canvas, cam, t, k + 1, style,
                      lambda tile, th: face_texture(faces[TILE_CODES.index(tile.code)], style,
                                                    th, bg), light, back)
        quad = r["quad"]
        boxes.append([*np.clip(quad.min(0), 0, [width, height]),
                      *np.clip(quad.max(0), 0, [width, height])])
    img, _ = lighting(canvas.image, rng, canvas.glossy, None, style.gloss)
    img, _ = blur_noise(img, rng)
    return img, {"codes": [c for row in codes for c in row], "boxes": boxes, "design": design}


def _light(rng) -> np.ndarray:
    le, la = np.deg2rad(rng.uniform(35, 80)), rng.uniform(0, 2 * np.pi)
    return np.array([np.cos(le) * np.cos(la), np.cos(le) * np.sin(la), np.sin(le)])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--design", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    img, _ = make_sheet(args.seed, args.design)
    cv2.imwrite(str(args.out), cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    return 0


if __name__ == "__main__":
    sys.exit(main())
