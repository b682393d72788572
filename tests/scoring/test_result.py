"""ScoreResult.to_dict: the JSON-ready object of every rule set, as plain data that shares
nothing with the frozen result."""
from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from scoring.hand import WinContext, parse_hand
from scoring.result import FanHit, ScoreResult
from scoring.rules import score

# (rules, hand, how it was won): valid, below the minimum, incomplete, with flowers
CASES = [
    ("mcr", "[123m1][EEEE]456p789sNN", WinContext(discarder=1)),
    ("mcr", "123m456p789s123mN3m", WinContext(self_drawn=True)),
    ("mcr", "123m456p789sEEEN1f2f3f4f", WinContext(self_drawn=True)),
    ("hk001", "[111p2][NNN2][222s2][333m2]CC", WinContext(self_drawn=True)),
    ("hk002", "1133m5577p99sEECC", WinContext(self_drawn=True, seat=1)),
    ("classical", "[123m1][EEEE]456p789sNN", WinContext(self_drawn=True, kong=True)),
    ("classical", "123m456p789sEEEN1s", WinContext(discarder=2)),
]


def _as_asdict(result: ScoreResult) -> dict:
    """The object as the dataclasses module spells it: the reference to_dict keeps."""
    d = asdict(result)
    d["fans"] = [dict(asdict(f), sets=list(f.sets)) for f in result.fans]
    d["error"] = None
    return d


@pytest.mark.parametrize("rules, text, ctx", CASES)
def test_to_dict_is_the_fields_as_plain_data(rules, text, ctx):
    result = score(parse_hand(text), ctx, rules)
    got = result.to_dict()
    assert json.dumps(got, ensure_ascii=False) == json.dumps(_as_asdict(result), ensure_ascii=False)
    assert got == _as_asdict(result)


def test_to_dict_shares_nothing_with_the_result():
    result = ScoreResult("mcr", "x", True, 9, (FanHit("A", "甲", 8, 1, ("123m",)),),
                         payments={"E": 9.0}, details={"sets": ["123m"], "nested": {"k": [1]}})
    d = result.to_dict()
    d["fans"][0]["sets"].append("x")
    d["payments"]["E"] = 0
    d["details"]["sets"].append("x")
    d["details"]["nested"]["k"].append(2)
    assert result.fans[0].sets == ("123m",) and result.payments == {"E": 9.0}
    assert result.details == {"sets": ["123m"], "nested": {"k": [1]}}
