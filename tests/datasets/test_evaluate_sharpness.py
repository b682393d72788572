"""datasets.eval.sharpness: the spread and flag rates the blur hint's threshold is chosen by."""
from __future__ import annotations

import pytest

from datasets.eval.sharpness import GRID, main, summary

# (id, measures, measured, min, flagged at 0.08)
CASES = [
    ("all sharp", [0.4, 0.5, 0.6], 3, 0.4, 0.0),
    ("half blurred", [0.05, 0.07, 0.3, 0.5], 4, 0.05, 0.5),
    ("unmeasured photos do not count", [None, 0.05, None], 1, 0.05, 1.0),
]


@pytest.mark.parametrize("values, measured, low, flagged", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_summary(values, measured, low, flagged):
    out = summary(values)
    assert out["photos"] == len(values) and out["measured"] == measured
    assert out["spread"]["min"] == low
    assert set(out["flagged"]) == {str(t) for t in GRID} and out["flagged"]["0.08"] == flagged


def test_summary_of_nothing_measured():
    assert summary([None, None]) == {"photos": 2, "measured": 0}


@pytest.mark.parametrize("argv", [[], ["--camerash", "x", "--blur", "0,a"], ["--camerash", "x", "--grid", "0.1,b"],
                                  ["--camerash", "x", "--side", "2"]])
def test_bad_arguments_are_one_line(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2 and "error:" in capsys.readouterr().err.strip().splitlines()[-1]
