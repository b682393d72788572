"""Property tests of the MCR scorer on generated hands (tests/scoring/strategies.py)."""
from __future__ import annotations

import importlib.util
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.decompose import waits
from scoring.hand import WinContext
from scoring.rules.mcr import PRESETS, Options, score
from scoring.rules.mcr.fans import BY_NAME, FANS
from scoring.rules.mcr.view import HandFacts
from scoring.rules.mcr.waiting import waits_of

from .strategies import complete_hands, thirteen_tile_hands

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large])


@st.composite
def contexts(draw) -> WinContext:
    seat = draw(st.integers(0, 3))
    self_drawn = draw(st.booleans())
    discarder = None if self_drawn else draw(st.sampled_from([None] + [s for s in range(4) if s != seat]))
    return WinContext(self_drawn=self_drawn, discarder=discarder, seat=seat, round=draw(st.integers(0, 3)),
                      last_tile=draw(st.booleans()), kong=draw(st.booleans()), fourth_tile=draw(st.booleans()))


options = st.sampled_from(list(PRESETS.values()) + [
    Options(mixed_kongs_points=3, lesser_honors_with_knitted_straight=False, knitted_straight_wait_fans=False,
            seven_pairs_allow_four_of_a_kind=False, last_tile_auto_from_melds=False)])


@SETTINGS
@given(complete_hands, contexts(), options)
def test_result_is_consistent(hand, ctx, opts):
    result = score(hand, ctx, opts)
    flowers = len(hand.bonus)
    assert result.rules == "mcr"
    assert result.total == sum(f.points * f.count for f in result.fans)
    points = result.total - flowers
    if result.fans:  # complete: at least one fan besides flowers (Chicken Hand at worst)
        assert any(f.name != "Flower Tiles" for f in result.fans)
        assert result.valid == (points >= opts.minimum)
        assert (result.reason is None) == result.valid
        assert result.details["points_without_flowers"] == points
    else:  # four of a kind as two pairs may be refused by the options
        assert not opts.seven_pairs_allow_four_of_a_kind and not result.valid and result.total == 0
    for fan in result.fans:
        assert fan.count >= 1 and fan.sets, fan
        if fan.name not in ("Two Concealed Kongs", "Concealed Kong and Melded Kong"):
            assert fan.points == BY_NAME[fan.name].points
    values = [f.points for f in result.fans if f.name != "Flower Tiles"]
    assert values == sorted(values, reverse=True)


@SETTINGS
@given(complete_hands, contexts(), options)
def test_payments_sum_to_zero(hand, ctx, opts):
    result = score(hand, ctx, opts)
    if result.payments is not None:
        assert result.valid
        assert sum(result.payments.values()) == 0
        assert result.payments["ESWN"[ctx.seat]] > 0
    else:
        assert not result.valid or (not ctx.self_drawn and ctx.discarder is None)


@SETTINGS
@given(complete_hands, contexts())
def test_exclusions_hold_in_every_result(hand, ctx):
    """No fan in a result is excluded by another fan of the same result (Non-Repeat)."""
    for opts in PRESETS.values():
        names = {f.name for f in score(hand, ctx, opts).fans}
        for fan in FANS:
            if fan.name in names and fan.id not in (4,):  # Nine Gates' exclusions depend on the preset
                assert not {BY_NAME[n].id for n in names} & fan.excludes, (fan.name, names)


@settings(max_examples=400, deadline=None)
@given(thirteen_tile_hands(), st.booleans())
def test_fast_waits_equal_decompose_waits(hand, count_exhausted):
    assert waits_of(hand, count_exhausted) == waits(hand, count_exhausted)


@SETTINGS
@given(complete_hands, st.sampled_from(list(PRESETS.values())))
def test_unique_wait_equals_decompose_waits(hand, opts):
    facts = HandFacts(hand, WinContext(discarder=1), opts)
    expected = waits(hand.without_winning(), opts.waits_count_exhausted_tiles) == (hand.winning,)
    assert facts.unique_wait == expected


@pytest.mark.skipif(importlib.util.find_spec("MahjongGB") is None, reason="PyMahjongGB is not installed")
@SETTINGS
@given(complete_hands, contexts())
def test_china_preset_agrees_with_pymahjonggb(hand, ctx):
    from scripts.mcr_oracle import pmgb_score
    ours = score(hand, ctx, PRESETS["china"])
    total, fans = pmgb_score(hand, ctx)
    assert (ours.total, Counter({f.name: f.count for f in ours.fans})) == (total, fans)
