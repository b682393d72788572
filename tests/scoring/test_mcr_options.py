"""MCR options (docs/rules.md §1.6 and the two readings the spec leaves open), flag handling,
the sets each fan names, and the result's details. Golden vectors: test_mcr_golden.py."""
from __future__ import annotations

import pytest

from scoring.errors import InvalidHandError
from scoring.hand import WinContext, parse_hand
from scoring.rules import make_options, score

DISCARD = WinContext(discarder=1)
SELF = WinContext(self_drawn=True)


def _score(text, ctx=DISCARD, preset="wmo", bonus=None, **overrides):
    return score(parse_hand(text, bonus), ctx, "mcr", make_options("mcr", preset, overrides))


def _fans(result) -> dict[str, int]:
    return {f.name: f.count for f in result.fans}


@pytest.mark.parametrize("text, ctx, overrides, total, present, absent", [
    # two_concealed_kongs_points (D-01)
    ("[1111s][9999p]123m456m7m7m", DISCARD, {}, 14, "Two Concealed Kongs", ""),
    ("[1111s][9999p]123m456m7m7m", DISCARD, {"two_concealed_kongs_points": 6}, 12, "Two Concealed Kongs", ""),
    # mixed_kongs_points (D-02): 6, 5, or Melded Kong + Concealed Kong
    ("[1111s][9999p1]123m456m7m7m", DISCARD, {}, 10, "Concealed Kong and Melded Kong", "Melded Kong"),
    ("[1111s][9999p1]123m456m7m7m", DISCARD, {"mixed_kongs_points": 5}, 9, "Concealed Kong and Melded Kong", ""),
    ("[1111s][9999p1]123m456m7m7m", DISCARD, {"mixed_kongs_points": 3}, 7, "Melded Kong", "Concealed Kong and Melded Kong"),
    # fully_concealed_with_special_hands (D-04)
    ("1133m2277p99sEENN", SELF, {}, 28, "Fully Concealed Hand", "Self-Drawn"),
    ("1133m2277p99sEENN", SELF, {"fully_concealed_with_special_hands": False}, 25, "Self-Drawn", "Fully Concealed Hand"),
    # all_terminals_excludes_double_pung (D-03)
    ("[111m1][111s1][999m1]99s1p1p9s", DISCARD, {}, 68, "Double Pung", ""),
    ("[111m1][111s1][999m1]99s1p1p9s", DISCARD, {"all_terminals_excludes_double_pung": True}, 64, "", "Double Pung"),
    # lesser_honors_with_knitted_straight (D-06)
    ("258m147s369pESWCF", DISCARD, {}, 24, "Knitted Straight", ""),
    ("258m147s369pESWCF", DISCARD, {"lesser_honors_with_knitted_straight": False}, 12, "", "Knitted Straight"),
    # knitted_straight_wait_fans (M-18)
    ("13347s12369m258p3m", DISCARD, {}, 17, "Edge Wait", ""),
    ("13347s12369m258p3m", DISCARD, {"knitted_straight_wait_fans": False}, 16, "", "Edge Wait"),
    # last_tile_auto_from_melds: the other three 8m are in a declared pung
    ("[888m1][123p1][456p1]79mEE8m", DISCARD, {}, None, "Last Tile", ""),
    ("[888m1][123p1][456p1]79mEE8m", DISCARD, {"last_tile_auto_from_melds": False}, None, "", "Last Tile"),
    # waits_count_exhausted_tiles: 1m also completes, but all four 1m are in the hand
    ("[123m][123m]1122334m4m", DISCARD, {}, 87, "Single Wait", ""),
    ("[123m][123m]1122334m4m", DISCARD, {"waits_count_exhausted_tiles": True}, 86, "", "Single Wait"),
    # nine_gates_excludes_terminal_pungs: a win on 5 leaves 111 and 999 as pungs
    ("1112345678999m5m", DISCARD, {}, 90, "Two Concealed Pungs", "Pung of Terminals or Honors"),
    ("1112345678999m5m", DISCARD, {"nine_gates_excludes_terminal_pungs": False}, 91, "Pung of Terminals or Honors", ""),
])
def test_option(text, ctx, overrides, total, present, absent):
    result = _score(text, ctx, **overrides)
    if total is not None:
        assert result.total == total, [(f.name, f.count) for f in result.fans]
    if present:
        assert present in _fans(result)
    if absent:
        assert absent not in _fans(result)


def test_seven_pairs_with_four_of_a_kind_can_be_refused():
    assert _score("33336688m22557s7s").total == 29
    result = _score("33336688m22557s7s", seven_pairs_allow_four_of_a_kind=False)
    assert (result.valid, result.total) == (False, 0)
    assert "four identical tiles are not two pairs" in result.reason


def test_bad_option_values_are_refused():
    with pytest.raises(InvalidHandError):
        make_options("mcr", "wmo", {"mixed_kongs_points": "4"})
    with pytest.raises(InvalidHandError):
        make_options("mcr", "wmo", {"no_such_option": "1"})
    assert make_options("mcr", "china", {"mixed_kongs_points": "3"}).mixed_kongs_points == 3


@pytest.mark.parametrize("text, ctx, fan, ignored", [
    # robbing a kong of a tile you hold: impossible, dropped
    ("[123m1]456p789s789p2m2m", WinContext(discarder=1, kong=True), "Robbing the Kong", True),
    ("[123m1]456p789s78p22m9p", WinContext(discarder=1, kong=True, fourth_tile=True), "Robbing the Kong", False),
    # a replacement tile without a declared kong: dropped
    ("[123m1]456p789s78p22m9p", WinContext(self_drawn=True, kong=True), "Out with Replacement Tile", True),
    ("[2222m1]456p789s78p33m9p", WinContext(self_drawn=True, kong=True), "Out with Replacement Tile", False),
    # Last Tile with another copy of the tile in the hand: dropped
    ("[123m1]456p789s789p2m2m", WinContext(discarder=1, fourth_tile=True), "Last Tile", True),
])
def test_impossible_flags_are_dropped_and_reported(text, ctx, fan, ignored):
    result = _score(text, ctx)
    assert (fan in _fans(result)) != ignored
    assert bool(result.details["ignored_flags"]) == ignored


def test_robbing_the_kong_excludes_last_tile():
    result = _score("[123m1]456p789s78p22m9p", WinContext(discarder=1, kong=True, fourth_tile=True))
    assert "Robbing the Kong" in _fans(result) and "Last Tile" not in _fans(result)


def test_fans_name_their_sets():
    result = _score("[123m1]456p789s78p22m9p")  # M-07
    sets = {f.name: f.sets for f in result.fans}
    assert sets["Mixed Straight"] == ("[123m]", "789s", "456p")
    assert sets["Mixed Double Chow"] == ("789s", "789p")
    result = _score("[1111s][9999p]123m456m7m7m")  # D-01
    sets = {f.name: f.sets for f in result.fans}
    assert sets["Two Concealed Kongs"] == ("[1111s]", "[9999p]")
    assert sets["Pung of Terminals or Honors"] == ("[1111s]", "[9999p]")
    assert sets["No Honors"] == ("1234567m9p1s",)  # a tile-attribute fan names the tiles


def test_details_show_the_reading_used():
    result = _score("[678s1][678m1]123p78p99s6p", bonus="1f")  # M-05
    assert result.details["shape"] == "standard"
    assert sorted(result.details["sets"]) == sorted(["[678s]", "[678m]", "123p", "678p", "99s"])
    assert result.details["winning_set"] == "678p"
    assert result.details["flowers"] == 1 and result.details["points_without_flowers"] == 10
    assert [f.name for f in result.fans][-1] == "Flower Tiles"


def test_discarded_winning_tile_makes_its_pung_exposed():
    # 999m completed by the discarded 9m is exposed: one concealed pung left (docs/rules.md §1.2)
    discard = _score("[123m1]111p789s99s99m9m")
    self_drawn = _score("[123m1]111p789s99s99m9m", SELF)
    assert "Two Concealed Pungs" not in _fans(discard)
    assert "Two Concealed Pungs" in _fans(self_drawn)
