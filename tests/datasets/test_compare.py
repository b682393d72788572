"""Two evaluation reports compared photo by photo (datasets/eval/compare.py)."""
import json

import numpy as np
import pytest

from datasets.eval.compare import main, paired
from datasets.eval.metrics import f1_interval


def _report(counts, name="dev"):
    return {"set": name, "photo_counts": [[f"{i}.jpg", *c] for i, c in enumerate(counts)]}


def test_the_interval_of_f1_over_photos_holds_the_f1_of_all_photos():
    counts = np.array([[18, 2, 2], [20, 0, 0], [15, 5, 5], [19, 1, 1]])
    lo, hi = f1_interval(counts)
    assert lo < 72 / 80 < hi <= 1.0


@pytest.mark.parametrize("base, new, change, interval_holds_zero", [
    ([[10, 0, 0]] * 20, [[10, 0, 0]] * 20, 0.0, True),                 # the same reading
    ([[8, 2, 2]] * 20, [[10, 0, 0]] * 20, 0.2, False),                  # every photo better
    ([[10, 0, 0]] * 19 + [[8, 2, 2]], [[10, 0, 0]] * 20, 0.01, True),   # one photo better: noise
])
def test_a_change_is_given_with_its_interval_over_paired_photos(base, new, change, interval_holds_zero):
    row = paired(_report(base), _report(new))
    assert row["change"] == pytest.approx(change, abs=1e-4)
    lo, hi = row["change_95"]
    assert (lo <= 0 <= hi) == interval_holds_zero and lo <= row["change"] <= hi


@pytest.mark.parametrize("new, message", [
    (_report([[10, 0, 0]] * 3), "different photos"),
    ({"set": "dev"}, "no photo counts"),
])
def test_reports_that_cannot_be_paired_are_refused(new, message):
    with pytest.raises(ValueError, match=message):
        paired(_report([[10, 0, 0]] * 4), new)


def test_the_command_compares_the_sets_both_reports_hold(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps({"reports": [_report([[9, 1, 1]] * 5), _report([[1, 0, 0]], "only a")]}))
    b.write_text(json.dumps({"reports": [_report([[10, 0, 0]] * 5)]}))
    assert main([str(a), str(b), "--json", str(tmp_path / "c.json")]) == 0
    assert "tiles right 45 -> 50" in capsys.readouterr().out
    assert [r["set"] for r in json.loads((tmp_path / "c.json").read_text())] == ["dev"]
    assert main([str(a), str(tmp_path / "missing.json")]) == 2
    assert "compare:" in capsys.readouterr().err
