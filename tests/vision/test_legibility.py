"""vision.legibility: the hint to come closer, from the hand's tile size in photo pixels."""
from __future__ import annotations

import pytest

from vision.layout import LaidMeld, LaidTile, TableLayout
from vision.legibility import SMALL_TILE_PX, closer_hint, tile_size


def _tile(code: str, width: float, height: float, x: float = 0.0) -> LaidTile:
    return LaidTile(code, (x, 0.0, x + width, height), 0.9)


def _row(width: float, height: float, n: int = 13) -> tuple[LaidTile, ...]:
    return tuple(_tile("1m", width, height, x=i * width) for i in range(n))


# (id, layout, expected median short side, hint expected)
CASES = [
    ("close shot", TableLayout(_row(60, 80)), 60.0, False),
    ("far shot", TableLayout(_row(22, 30)), 22.0, True),
    ("just at the threshold", TableLayout(_row(SMALL_TILE_PX, 50)), float(SMALL_TILE_PX), False),
    ("sideways tiles: the short side is the height", TableLayout(_row(48, 30)), 30.0, True),
    ("no hand tiles", TableLayout(()), None, False),
    ("face-down kong tiles do not count",
     TableLayout(_row(50, 70, n=10), melds=(LaidMeld("concealed_kong", (
         _tile("back", 10, 12), _tile("1z", 50, 70), _tile("1z", 50, 70), _tile("back", 10, 12)),
         0.9, None),)), 50.0, False),
    ("bonus and winning tiles count", TableLayout((), bonus=(_tile("1f", 20, 28),),
                                                  winning=_tile("2m", 24, 30)), 22.0, True),
]


@pytest.mark.parametrize("layout, size, hint", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_closer_hint(layout, size, hint):
    assert tile_size(layout) == size
    line = closer_hint(layout)
    assert (line is not None) == hint
    if hint:
        assert f"about {size:.0f} pixels" in line and "\n" not in line


def _photo(tile_w: int, tile_h: int, n: int = 13, blur: float = 0.0):
    """test_sharpness's row of tiles, laid out as concealed tiles."""
    from test_sharpness import _row
    rgb, boxes = _row(tile_w, tile_h, n, blur)
    return rgb, TableLayout(tuple(LaidTile("1m", tuple(map(float, b)), 0.9) for b in boxes))


# (id, tile width, height, tiles, blur, hint expected); the measure's own cases: test_sharpness
SHARP_CASES = [
    ("sharp", 80, 100, 13, 0.0, False),
    ("blurred by 0.08 of a tile", 80, 100, 13, 0.08, True),
    ("blurred, but tiles under 36 px are not measured", 30, 40, 13, 0.08, False),
]


@pytest.mark.parametrize("w, h, n, blur, hint", [c[1:] for c in SHARP_CASES],
                         ids=[c[0] for c in SHARP_CASES])
def test_steady_hint(w, h, n, blur, hint):
    from vision.legibility import steady_hint
    rgb, layout = _photo(w, h, n, blur)
    line = steady_hint(rgb, layout)
    assert (line is not None) == hint
    if hint:
        assert "blurred" in line and "\n" not in line


def test_sharpness_reads_decoded_pixels_with_full_resolution_boxes():
    """The app decodes a large JPEG at reduced scale while the layout's boxes stay in
    full-resolution pixels: `scale` maps them, and the measure hardly moves."""
    import cv2

    from vision.legibility import sharpness
    rgb, layout = _photo(160, 200)
    half = cv2.resize(rgb, (rgb.shape[1] // 2, rgb.shape[0] // 2), interpolation=cv2.INTER_AREA)
    full, decoded = sharpness(rgb, layout), sharpness(half, layout, scale=(2.0, 2.0))
    assert full is not None and decoded is not None
    assert abs(full - decoded) < 0.25 * full


def test_photo_hint_asks_closer_first():
    from vision.legibility import photo_hint
    rgb, layout = _photo(24, 30, blur=0.08)   # small and blurred: coming closer fixes both
    assert "closer" in photo_hint(rgb, layout)
    rgb, layout = _photo(80, 100, blur=0.08)
    assert "blurred" in photo_hint(rgb, layout)
    rgb, layout = _photo(80, 100)
    assert photo_hint(rgb, layout) is None
