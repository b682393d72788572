"""The perturbed-sheet evaluation: each perturbation does what it says, a label stored on
another tile counts as wrong, and the reading comparison's difference and error."""
from __future__ import annotations

import numpy as np
import pytest

from datasets.eval import sheet_align as S
from datasets.eval.sheet_reading import compared, shifted
from scoring.tiles import parse_tiles


def fake_sheet(rows):
    """A sheet of these rows: a grey photo, the codes, a box per tile (40 x 54, in rows)."""
    codes, boxes = [], []
    for r, row in enumerate(rows):
        for c, code in enumerate(parse_tiles(row, allow_bonus=True)):
            codes.append(code)
            boxes.append([20 + 46 * c, 20 + 80 * r, 60 + 46 * c, 74 + 80 * r])
    return np.full((500, 600, 3), 90, np.uint8), codes, np.array(boxes, np.float64)


@pytest.mark.parametrize("kind", S.PERTURBATIONS)
def test_each_perturbation_does_what_it_says(kind):
    case = S.perturbed(kind, fake_sheet, np.random.default_rng(0), with_rows=True)
    typed = parse_tiles(case.typed.replace(" ", ""), allow_bonus=True)
    changes = {"missed": len(case.drop), "missed_white": len(case.drop), "half": len(case.halve),
               "extra": len(case.add), "misread": len(case.misread)}
    if kind in changes:
        assert changes[kind] == 1
    if kind == "extra":
        assert all(S._iou(case.add[0], b) == 0 for b in case.boxes)
    if kind.startswith("turn"):
        assert case.rgb.shape[:2] == ((600, 500) if kind in ("turn90", "turn270") else (500, 600))
        assert (case.boxes[:, 2:] <= case.rgb.shape[1::-1]).all()
    if kind == "rows_swapped":
        assert sorted(typed) == sorted(case.codes) and typed != case.codes
    if kind == "absent":
        assert len(typed) == len(case.codes) + 1
    if kind in ("short", "repeated"):
        assert typed == case.codes and len(set(typed)) == (4 if kind == "short" else 1)


def test_a_label_on_another_tile_is_wrong_and_one_on_no_tile_too():
    _, codes, boxes = fake_sheet(("123m",))
    case = S.Case("none", None, codes, boxes, "123m")
    taught = [(0, boxes[0], "1m"), (0, boxes[1], "3m"), (0, np.array([500, 400, 540, 454.0]), "2m")]
    assert S.score(case, taught) == {"present": 3, "right": 1, "wrong": 2, "untaught": 2,
                                     "refused": False}


def test_the_first_row_typed_shifted_by_one():
    assert shifted("123456789m 1234567z") == "912345678m 1234567z"


def test_a_mode_read_as_untaught_differs_by_nothing():
    counts = [(10, 1, 2), (8, 0, 1), (12, 2, 0)]
    out = compared({"untaught": counts, "taught": counts})
    assert out["taught_minus_untaught"] == 0 and out["taught_se"] == 0 and out["photos"] == 3
