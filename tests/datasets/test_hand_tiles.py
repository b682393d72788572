"""The hand-tiles evaluation counts a tile of the hand as missed (not found, left out, or
lost), and a tile of the hand read on no tile of the hand as invented."""
from __future__ import annotations

from datasets.eval.hand_tiles import tally
from vision.layout.table import LaidTile, TableLayout


def box(i: int) -> list[float]:
    return [10.0 + 50 * i, 10.0, 50.0 + 50 * i, 64.0]


def test_missed_tiles_are_told_apart_and_invented_ones_counted():
    truth = {"tiles": [{"label": c, "group": "concealed", "box": box(i)}
                       for i, c in enumerate(["1m", "2m", "5z", "4m"])]
             + [{"label": "7p", "group": "distractor", "box": box(9)}]}
    found = [box(0), box(1), box(2), box(7)]            # 4m not found by the finder
    layout = TableLayout(concealed=(LaidTile("1m", tuple(box(0)), 0.9),
                                    LaidTile("5z", tuple(box(7)), 0.6)),   # on no tile of it
                         ignored=(LaidTile("2m", tuple(box(1)), 0.8),))   # put aside
    counts = tally(truth, found, layout)
    assert (counts["tiles"], counts["missed"], counts["not_found"], counts["left_out"],
            counts["lost"]) == (4, 3, 1, 1, 1)             # 5z found, read, then lost
    assert (counts["invented"], counts["invented_5z"], counts["missed_5z"]) == (1, 1, 1)
