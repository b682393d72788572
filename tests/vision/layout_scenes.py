"""Hand-made detection layouts for the layout tests: tiles laid out in rows, then turned
and seen in perspective, and boxed the way a detector boxes them (axis-aligned).

A row is a string of groups separated by spaces (one space: a gap of 0.6 tile widths;
each extra `_` token adds one tile width). A group is touching tiles written as codes:
`1m2m3m`, honours as `1z`..`7z` or letters `ESWNPFC`, bonus tiles `1f`..`8f`, `#` a
face-down tile, a `^` after a tile turns it sideways (a claimed tile), and a `*` after a
tile puts it on top of a hidden one: seen from a low camera it shows lifted towards the
far side of the row (half a tile), and the tile under it is not detected.
"""
from __future__ import annotations

import re

import numpy as np

from scoring.tiles import LETTER_TO_CODE, VISION_CLASSES
from vision.types import Detections

TILE_W, TILE_H = 30.0, 40.0
GAP = 0.6
_TOKEN = re.compile(r"([1-9][mpszf]|[ESWNPFC]|#)(\^?)(\*?)")
LIFT = 0.5  # of a tile height: how far a tile on top of another shows above its row


def parse_row(text: str) -> list[tuple[str, bool, float, bool]]:
    """(code, sideways, x of the tile's left edge in tile widths, on top) for one row."""
    out, x = [], 0.0
    for k, group in enumerate(text.split()):
        if group == "_":
            x += 1.0
            continue
        if k and out:
            x += GAP
        pos = 0
        for m in _TOKEN.finditer(group):
            if m.start() != pos:
                raise ValueError(f"bad tile text {group!r}")
            pos = m.end()
            code = "back" if m.group(1) == "#" else LETTER_TO_CODE.get(m.group(1), m.group(1))
            sideways = bool(m.group(2))
            out.append((code, sideways, x, bool(m.group(3))))
            x += TILE_H / TILE_W if sideways else 1.0
        if pos != len(group):
            raise ValueError(f"bad tile text {group!r}")
    return out


def quads(rows: list[str], row_gap: float = 0.4, tile=(TILE_W, TILE_H), offsets=None
          ) -> tuple[list[str], list[np.ndarray]]:
    """Codes and 4-corner quads (table plane, +y toward the player) of every tile."""
    w, h = tile
    codes, out = [], []
    for r, text in enumerate(rows):
        x_off = (offsets or [0.0] * len(rows))[r]
        y0 = r * h * (1 + row_gap)
        for code, sideways, x, on_top in parse_row(text):
            tw, th = (h, w) if sideways else (w, h)
            x1 = (x + x_off) * w
            y1 = y0 + (h - th) - LIFT * h * on_top  # turned tiles keep to the near edge
            codes.append(code)
            out.append(np.array([[x1, y1], [x1 + tw, y1], [x1 + tw, y1 + th], [x1, y1 + th]]))
    return codes, out


def detections(rows: list[str], angle_deg: float = 0.0, tilt: float = 0.0,
               row_gap: float = 0.4, extra: list[tuple[str, tuple]] | None = None,
               confidence: float = 0.9, offsets=None) -> Detections:
    """Detections of the rows turned by `angle_deg` about the origin, with a perspective
    `tilt` (0: seen from above; 0.3: the far side 30% smaller per 1000 px), placed well
    inside a photo. `extra`: more tiles as (code, quad) in table coordinates."""
    codes, qs = quads(rows, row_gap, offsets=offsets)
    for code, quad in extra or []:
        codes.append(code)
        qs.append(np.asarray(quad, float))
    pts = np.concatenate(qs)
    centre = pts.mean(axis=0)
    a = np.radians(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    boxes = []
    for q in qs:
        p = q - centre
        if tilt:  # far (small y) is smaller: a simple pinhole look along the table
            depth = 1 + tilt * (-p[:, 1]) / 1000
            p = p / depth[:, None]
        p = p @ rot.T + 2000
        boxes.append([p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()])
    ids = [VISION_CLASSES.index(c) for c in codes]
    return Detections(np.array(boxes, np.float32), np.array(ids), np.full(len(ids), confidence,
                                                                           np.float32),
                      VISION_CLASSES)
