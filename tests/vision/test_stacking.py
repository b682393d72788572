"""vision.recognition.stacking: lines of three like tiles, the crop along them, and the committed stack
classifier on scenes it never saw (drawn here with procedural designs, kongs often laid with
a tile on top)."""
from __future__ import annotations


import numpy as np
import pytest

from vision.recognition.stacking import HEIGHT, WIDTH, StackReader, set_crop, three_alike
from vision.runtime import DEFAULT_STACK_PATH

needs_model = pytest.mark.skipif(not DEFAULT_STACK_PATH.is_file(),
                                 reason="no committed stack classifier")


def _row(codes: list[str], step: float = 32.0, angle_deg: float = 0.0) -> tuple[np.ndarray, list[str]]:
    """Boxes of 30 x 40 tiles in a row turned by `angle_deg` (centres `step` apart)."""
    a = np.radians(angle_deg)
    centres = [(500 + k * step * np.cos(a), 400 + k * step * np.sin(a)) for k in range(len(codes))]
    return np.array([[x - 15, y - 20, x + 15, y + 20] for x, y in centres], np.float32), codes


LINES = [  # (tiles along a row, angle, the lines of three like tiles expected)
    ("9p 9p 9p", 0, [(0, 1, 2)]),
    ("9p 9p 9p", 90, [(0, 1, 2)]),
    ("9p 9p 9p", 33, [(0, 1, 2)]),
    ("9p 1m 9p", 0, []),                   # not alike
    ("9p 9p 1m 9p", 0, []),                # not touching
    ("5z 9p 9p 9p 9p", 0, [(1, 2, 3), (2, 3, 4)]),  # four alike: two lines, each once
    ("back back back back", 0, []),        # a wall makes no pung
    ("1f 1f 1f", 0, []),                   # nor do bonus tiles
]


@pytest.mark.parametrize("codes,angle,lines", LINES)
def test_lines_of_three_like_tiles(codes, angle, lines):
    xyxy, codes = _row(codes.split(), angle_deg=angle)
    assert sorted(three_alike(xyxy, codes)) == lines


def test_three_alike_in_an_l_shape_is_no_line():
    xyxy = np.array([[0, 0, 30, 40], [32, 0, 62, 40], [32, 42, 62, 82]], np.float32)
    assert three_alike(xyxy, ["3s", "3s", "3s"]) == []


@pytest.mark.parametrize("angle", [0, 90, 180, 37])
def test_the_crop_runs_along_the_line_at_any_angle(angle):
    """A white middle tile between two grey ones shows in the middle of the crop, whichever
    way the row runs through the photo; the crop is black beyond the photo."""
    rgb = np.zeros((800, 1000, 3), np.uint8)
    xyxy, _ = _row(["9p"] * 3, angle_deg=angle)
    for k, (x1, y1, x2, y2) in enumerate(xyxy.astype(int)):
        rgb[y1 + 6:y2 - 6, x1 + 6:x2 - 6] = 255 if k == 1 else 120
    crop = set_crop(rgb, xyxy)
    assert crop.shape == (HEIGHT, WIDTH, 3)
    assert crop[HEIGHT // 2, WIDTH // 2].min() == 255
    assert crop[HEIGHT // 2, WIDTH // 2 - 32].max() == 120 == crop[HEIGHT // 2, WIDTH // 2 + 32].max()
    assert set_crop(rgb, xyxy - 520)[:, :20].max() == 0  # the photo's corner: black beyond


@needs_model
def test_tiles_in_no_line_are_not_measured():
    xyxy, codes = _row(["9p", "9p", "9p", "1m", "2m"])
    p = StackReader().on_top(np.zeros((800, 1000, 3), np.uint8), xyxy, codes)
    assert np.isfinite(p[:3]).all() and np.isnan(p[3:]).all()
    assert StackReader().on_top(np.zeros((9, 9, 3), np.uint8), np.zeros((0, 4)), []).shape == (0,)
