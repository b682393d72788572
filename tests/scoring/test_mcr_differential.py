"""Differential test against PyMahjongGB (docs/rules.md §5.1): 1,000 random winning hands of every
shape and flag, scored with our preset `china`; total and fan multiset must agree.
The full run (20,000+ hands) is `python -m scripts.diff_pymahjonggb`."""
from __future__ import annotations

import importlib.util

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("MahjongGB") is None,
                                reason="PyMahjongGB (pip install pymahjonggb) is not installed")

def test_agrees_with_pymahjonggb_on_1000_random_hands():
    from scripts.diff_pymahjonggb import run
    report = run(count=1000, seed=20240601, verbose=False)
    assert report["mismatches"] == 0, report["cases"][:5]
    stats = report["stats"]
    assert stats["agree"] + stats.get("allow_listed", 0) == 1000
    for shape in ("standard", "seven_pairs", "thirteen_orphans", "honours_knitted", "knitted_straight", "nine_gates"):
        assert stats.get(shape, 0) > 0, f"the sample has no {shape} hand"


def test_adapter_matches_the_spec_examples():
    """docs/rules.md §5.1: the three documented PyMahjongGB calls, through our adapter."""
    from scoring.hand import WinContext, parse_hand
    from scripts.mcr_oracle import pmgb_score
    total, fans = pmgb_score(parse_hand("[EEE1][WWW2]SSSNNCCN"), WinContext(discarder=1))
    assert (total, dict(fans)) == (152, {"Big Four Winds": 1, "All Honors": 1})
    total, _ = pmgb_score(parse_hand("[678s1]678p345m78m99p6m", "1f"), WinContext(self_drawn=True))
    assert total == 13
    total, fans = pmgb_score(parse_hand("[1111s][9999p1]123m456m7m7m"), WinContext(discarder=1))
    assert total == 9 and fans["Concealed Kong and Melded Kong"] == 1
