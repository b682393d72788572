"""Turned training images keep their boxes on their tiles."""
from __future__ import annotations

import numpy as np
import pytest

from datasets.train.detector import turned


def _box_of_ink(image: np.ndarray) -> tuple[float, float, float, float]:
    """YOLO (cx, cy, w, h) of the non-zero pixels."""
    ys, xs = np.nonzero(image)
    h, w = image.shape[:2]
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    return (x0 + x1) / 2 / w, (y0 + y1) / 2 / h, (x1 - x0) / w, (y1 - y0) / h


@pytest.mark.parametrize("turns", [0, 1, 2, 3, 5])
def test_rows_follow_the_turned_pixels(turns):
    image = np.zeros((60, 100), np.uint8)
    image[10:20, 70:90] = 255   # a tile 20 wide, 10 tall, off centre
    rows = np.array([[3, *_box_of_ink(image)]])
    out, out_rows = turned(image, rows, turns)
    assert out.shape == ((60, 100) if turns % 2 == 0 else (100, 60))
    assert out_rows[0, 0] == 3
    np.testing.assert_allclose(out_rows[0, 1:], _box_of_ink(out), atol=1e-9)
