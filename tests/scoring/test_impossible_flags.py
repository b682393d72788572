"""A flag the tiles rule out (a kong replacement without a kong, a robbed kong of a tile the
winner holds, the last copy of a tile held twice) scores nothing in every rule set and is
named in `ignored_flags`; a possible one still scores."""
from __future__ import annotations

import pytest

from scoring.hand import WinContext, parse_hand
from scoring.rules import RuleSet, score
from scoring.rules.flags import NO_REPLACEMENT, NOT_FOURTH, NOT_ROBBED

SELF_S = dict(self_drawn=True, seat=1)
ROB_S = dict(discarder=0, seat=1)


def _both(rules, text, flags, bonus=None, **ctx):
    hand = parse_hand(text, bonus)
    plain = score(hand, WinContext(**ctx), rules)
    flagged = score(hand, WinContext(**ctx, **flags), rules)
    return plain, flagged


@pytest.mark.parametrize("rules", [r.value for r in RuleSet])
@pytest.mark.parametrize("text, ctx, flags, note", [
    ("[123m1]456m789p2355s4s", SELF_S, {"kong": True}, NO_REPLACEMENT),       # no kong in the hand
    ("[123m1]456m789p234s4s4s", ROB_S, {"kong": True}, NOT_ROBBED),           # holds two more 4s
    ("[345s1]123m456m789p5s5s", ROB_S, {"kong": True}, NOT_ROBBED),            # 5s in a chow too
    ("123m456m789p234s4s4s", ROB_S, {"fourth_tile": True}, NOT_FOURTH),        # a 4s concealed
])
def test_a_flag_the_tiles_rule_out_scores_nothing(rules, text, ctx, flags, note):
    plain, flagged = _both(rules, text, flags, **ctx)
    assert (flagged.total, flagged.valid, flagged.fans) == (plain.total, plain.valid, plain.fans)
    assert flagged.payments == plain.payments
    if flagged.details.get("ignored_flags") is not None or flagged.valid:
        assert note in flagged.details["ignored_flags"]


@pytest.mark.parametrize("rules", ["hk001", "hk002", "mcr", "classical"])
@pytest.mark.parametrize("text, ctx", [
    ("[1111s]123m456m789p5s5s", SELF_S),    # a concealed kong: the replacement draw is real
    ("[123m1]456m789p55s67s8s", ROB_S),      # one 8s, the winning tile: a kong of 8s robbed
])
def test_a_possible_kong_flag_still_scores(rules, text, ctx):
    plain, flagged = _both(rules, text, {"kong": True}, **ctx)
    assert flagged.total > plain.total or (flagged.fans != plain.fans)
    assert not flagged.details.get("ignored_flags")


def test_the_hong_kong_reproducers_are_no_paid_win():
    hand = parse_hand("[123m1]456m789p2355s4s", ("1f",))
    result = score(hand, WinContext(self_drawn=True, seat=1, kong=True), "hk001")
    assert not result.valid and result.payments is None
    assert "Win on Kong Replacement" not in {f.name for f in result.fans}
    robbed = score(parse_hand("[123m1]456m789p234s4s4s"), WinContext(discarder=0, seat=1, kong=True), "hk001")
    assert not robbed.valid and "Robbing the Kong" not in {f.name for f in robbed.fans}
