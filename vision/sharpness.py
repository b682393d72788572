"""How sharp a photo's tiles look, in tile units.

A Gaussian blur of 0.06 of a tile's short side (a shaking hand in dim light) left the
finder's tile score under the operating point on 10 of 297 real training tiles and 43 of 236
held-out ones, and at 0.08 on 65 and 93 (`datasets.eval.reader --blur`; docs/experiments.md,
"Pipeline changes"): the tiles still get boxes, scored too low to show. Blur is measured per
tile, whatever its size, and the photo's value is the median over its tiles
(`photo_sharpness`); vision.legibility turns it into a hint. (Reading a blurred photo again unsharp-masked brought
most of the lost tiles back, but cost a development scene 4 tiles, so it was not kept:
docs/experiments.md, "Pipeline changes".)
"""
from __future__ import annotations

import cv2
import numpy as np

SHARP_SIDE = 36     # tiles are compared shrunk to this short side; smaller ones are not measured
                    # (vision.legibility asks for a closer photo under 36 px)
SHARP_MIN_TILES = 3
BLURRED = 0.14      # median tile sharpness under which the photo is called blurred (chosen on
                    # development photos, docs/experiments.md, "Pipeline changes")


def tile_sharpness(rgb: np.ndarray, box) -> float | None:
    """How sharp one tile looks, whatever its size: the mean |Laplacian| of the grey tile
    shrunk to SHARP_SIDE pixels on its short side, over its contrast (std + 5, so that a plain
    white dragon is not called blurred for having no ink). None for a tile under SHARP_SIDE
    pixels, which would have to be enlarged, and so blurred, to be compared."""
    height, width = rgb.shape[:2]
    x1, y1 = max(0, int(round(box[0]))), max(0, int(round(box[1])))
    x2, y2 = min(width, int(round(box[2]))), min(height, int(round(box[3])))
    if min(x2 - x1, y2 - y1) < SHARP_SIDE:
        return None
    factor = SHARP_SIDE / min(x2 - x1, y2 - y1)
    grey = cv2.cvtColor(np.ascontiguousarray(rgb[y1:y2, x1:x2]), cv2.COLOR_RGB2GRAY)
    tile = cv2.resize(grey, (max(SHARP_SIDE, round((x2 - x1) * factor)),
                             max(SHARP_SIDE, round((y2 - y1) * factor))),
                      interpolation=cv2.INTER_AREA).astype(np.float32)
    return float(np.abs(cv2.Laplacian(tile, cv2.CV_32F)).mean() / (tile.std() + 5.0))


def photo_sharpness(rgb: np.ndarray, boxes: np.ndarray) -> float | None:
    """Median `tile_sharpness` of the tiles at `boxes` (N, 4) in `rgb`'s pixels; None when
    fewer than SHARP_MIN_TILES are large enough to measure."""
    values = [v for box in np.asarray(boxes, np.float64).reshape(-1, 4)
              if (v := tile_sharpness(rgb, box)) is not None]
    return float(np.median(values)) if len(values) >= SHARP_MIN_TILES else None
