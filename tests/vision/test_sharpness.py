"""vision.sharpness: the blur measure in tile units."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.sharpness import BLURRED, photo_sharpness


def _row(tile_w: int, tile_h: int, n: int = 13, blur: float = 0.0, seed: int = 0):
    """A row of `n` tiles (white faces with dark strokes) on green, blurred by a Gaussian of
    `blur` tile short sides, and their boxes."""
    rng = np.random.default_rng(seed)
    rgb = np.full((tile_h + 40, n * tile_w + 40, 3), (40, 120, 60), np.uint8)
    boxes = []
    for i in range(n):
        x, y = 20 + i * tile_w, 20
        rgb[y:y + tile_h, x:x + tile_w] = 235
        for _ in range(6):
            cv2.line(rgb, (int(x + rng.integers(4, tile_w - 8)), int(y + rng.integers(4, tile_h - 8))),
                     (int(x + rng.integers(4, tile_w - 4)), int(y + rng.integers(4, tile_h - 4))),
                     (30, 30, 160), max(1, tile_w // 20))
        boxes.append([x, y, x + tile_w, y + tile_h])
    if blur:
        rgb = cv2.GaussianBlur(rgb, (0, 0), blur * min(tile_w, tile_h))
    return rgb, np.array(boxes, np.float64)


# (id, tile width, height, tiles, blur, expected: "sharp", "blurred" or None)
CASES = [
    ("sharp", 80, 100, 13, 0.0, "sharp"),
    ("a little soft", 80, 100, 13, 0.01, "sharp"),
    ("blurred by 0.08 of a tile", 80, 100, 13, 0.08, "blurred"),
    ("large tiles blurred alike", 160, 200, 13, 0.08, "blurred"),
    ("tiles under 36 px are not measured", 30, 40, 13, 0.08, None),
    ("two tiles are too few", 80, 100, 2, 0.08, None),
]


@pytest.mark.parametrize("w, h, n, blur, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_photo_sharpness(w, h, n, blur, expected):
    value = photo_sharpness(*_row(w, h, n, blur))
    if expected is None:
        assert value is None
    else:
        assert (value < BLURRED) == (expected == "blurred")
