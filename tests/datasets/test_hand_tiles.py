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


def _truth(n: int = 5) -> dict:
    return {"tiles": [{"label": "1m", "group": "concealed", "box": box(i)} for i in range(n)]}


def test_a_fault_takes_away_or_halves_one_or_two_boxes_of_the_hand_and_weak_boxes_on_them():
    import numpy as np

    from datasets.eval.hand_tiles import faults
    from vision.types import Detections

    names = ("1m", "tile")
    kept = Detections(np.array([box(i) for i in range(5)], np.float32), np.zeros(5, np.int64),
                      np.full(5, 0.9, np.float32), names)
    weak = Detections(np.array([box(i) for i in range(5)], np.float32), np.zeros(5, np.int64),
                      np.full(5, 0.1, np.float32), names)
    for seed in range(20):
        edit, changed = faults(_truth(), seed)
        after, weak_after = edit(kept, weak, (1.0, 1.0))
        gone = len(kept) - len(after)
        halved = int((np.diff(after.xyxy[:, 1::2], axis=1)[:, 0] < 40).sum())
        assert 1 <= len(changed) <= 2 and gone + halved == len(changed)
        assert len(weak_after) == len(weak) - gone       # a tile taken away leaves no weak box


def test_recovery_counts_the_changed_tiles_the_hand_has_again():
    from datasets.eval.hand_tiles import recovery

    truth = _truth()
    changed = [truth["tiles"][2], truth["tiles"][0]]      # an inner tile and a row's end
    layout = TableLayout(concealed=(LaidTile("1m", tuple(box(2)), 0.4, looked_again=True),))
    counts = recovery(truth, changed, layout)
    assert (counts["faulted"], counts["recovered"], counts["recovered_right"]) == (2, 1, 1)
    assert (counts["faulted_inner"], counts["recovered_inner"]) == (1, 1)
