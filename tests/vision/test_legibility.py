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
