"""Hong Kong golden vectors: docs/rules.md §4.5 (H-01..H-13 under both presets) and the HK
settlement vectors checked against yawnoc/mahjong-scorer."""
from __future__ import annotations

import pytest

from scoring.errors import InvalidHandError
from scoring.hand import WinContext, parse_hand
from scoring.payments import hk as hk_pay, hk_false_win, hk_multiplier
from scoring.rules import RuleSet, make_options, score
from scoring.rules import hk

E, S, W, N = range(4)


def ctx(win: str, seat: int, round_: int = E) -> WinContext:
    """'self' or 'disc' (the discarder is the seat before the winner, any loser would do)."""
    if win == "self":
        return WinContext(self_drawn=True, seat=seat, round=round_)
    return WinContext(discarder=(seat + 3) % 4, seat=seat, round=round_)


# id, hand, win, seat, bonus, {preset: (valid, total, fans {name: value}, payment)}
# payment: what the discarder pays on a discard win, what each loser pays on a self-draw.
LT3D = "Little Three Dragons"
CASES = [
    ("H-01", "123m456m789p2355s4s", "disc", S, "",
     {"hk001": (True, 3, {"All Chows": 1, "Concealed Hand": 1, "No Flowers": 1}, 24),
      "hk002": (True, 3, {"All Chows": 1, "Concealed Hand": 1, "No Flowers": 1}, 24)}),
    ("H-02", "[CCC1][123m1]456m789m9m9m", "self", W, "8f",
     {"hk001": (True, 5, {"Half Flush": 3, "Dragon Pung": 1, "Self-Drawn": 1}, 32),
      "hk002": (True, 5, {"Half Flush": 3, "Dragon Pung": 1, "Self-Drawn": 1}, 32)}),
    ("H-03", "[CCC1][FFF1]234p56pPP7p", "disc", N, "",
     {"hk001": (True, 9, {LT3D: 5, "Half Flush": 3, "No Flowers": 1}, 1536),
      "hk002": (True, 9, {LT3D: 5, "Half Flush": 3, "No Flowers": 1}, 1536)}),
    ("H-04", "[CCC1][FFF1][PPP1]234m5m5m", "disc", S, "",
     {"hk001": (True, 13, {"Great Three Dragons": 13}, 24576),
      "hk002": (True, 10, {"Great Three Dragons": 8, "Half Flush": 3, "No Flowers": 1}, 3072)}),
    ("H-05", "1133m5577p99sEENN", "disc", S, "",
     {"hk001": (True, 5, {"Seven Pairs": 4, "No Flowers": 1}, 96),
      "hk002": (False, 0, {}, None)}),
    ("H-06", "111m444p777sEEE9p9p", "self", E, "",
     {"hk001": (True, 13, {"Four Concealed Pungs": 13}, 8192),
      "hk002": (True, 10, {"Four Concealed Pungs": 10}, 1024)}),
    ("H-07", "111m444p77sEEE99p7s", "disc", E, "",
     {p: (True, 7, {"All Pungs": 3, "Concealed Hand": 1, "Seat Wind": 1, "Prevalent Wind": 1, "No Flowers": 1}, 384)
      for p in ("hk001", "hk002")}),
    ("H-08", "123m456m789p2355s4s", "disc", S, "2f,6f",
     {p: (True, 4, {"All Chows": 1, "Concealed Hand": 1, "Own Flower": 2}, 48) for p in ("hk001", "hk002")}),
    ("H-09", "123m456m789p2355s4s", "disc", S, "5f,6f,7f,8f,2f",
     {p: (True, 5, {"All Chows": 1, "Concealed Hand": 1, "Flower Set": 2, "Own Flower": 1}, 96)
      for p in ("hk001", "hk002")}),
    ("H-10", "19m19p19sESWNCFPN", "disc", S, "",
     {"hk001": (True, 13, {"Thirteen Orphans": 13}, 24576),
      "hk002": (True, 10, {"Thirteen Orphans": 10}, 3072)}),
    ("H-11", "[111m1][999p1]EEENNWWW", "disc", S, "",
     {"hk001": (True, 5, {"All Pungs": 3, "Prevalent Wind": 1, "No Flowers": 1}, 96),
      "hk002": (True, 6, {"All Pungs": 3, "Prevalent Wind": 1, "Mixed Terminals": 1, "No Flowers": 1}, 192)}),
    ("H-12", "[EEE1][SSS1][WWW1]23mNN4m", "disc", S, "",
     {"hk001": (True, 6, {"Half Flush": 3, "Seat Wind": 1, "Prevalent Wind": 1, "No Flowers": 1}, 192),
      "hk002": (True, 10, {"Little Four Winds": 10}, 3072)}),
    ("H-13", "[CCC1]123m456p78s11p9s", "disc", S, "",
     {p: (False, 2, {"Dragon Pung": 1, "No Flowers": 1}, None) for p in ("hk001", "hk002")}),
]

PARAMS = [pytest.param(cid, text, win, seat, bonus, preset, *expected[preset], id=f"{cid}-{preset}")
          for cid, text, win, seat, bonus, expected in CASES for preset in ("hk001", "hk002")]


@pytest.mark.parametrize("cid,text,win,seat,bonus,preset,valid,total,fans,pays", PARAMS)
def test_hk_vectors(cid, text, win, seat, bonus, preset, valid, total, fans, pays):
    c = ctx(win, seat)
    result = score(parse_hand(text, bonus), c, RuleSet(preset))
    assert (result.valid, result.total) == (valid, total), result.reason
    assert {f.name: f.value for f in result.fans} == fans
    if pays is None:
        assert result.payments is None
        assert result.reason
        return
    payer = "ESWN"[c.discarder] if c.discarder is not None else "ESWN"[(seat + 1) % 4]
    assert result.payments[payer] == -pays
    assert sum(result.payments.values()) == 0
    assert result.details["base"] == 2 ** total


def test_fans_name_their_sets_in_english_and_chinese():
    result = hk.score(parse_hand("[CCC1][FFF1]234p56pPP7p"), ctx("disc", N))
    by_name = {f.name: f for f in result.fans}
    assert by_name[LT3D].sets == ("[CCC]", "[FFF]", "PP")
    assert by_name[LT3D].name_zh == "小三元"
    assert all(f.name and f.name_zh for f in result.fans)


def test_below_minimum_and_incomplete_reasons():
    low = hk.score(parse_hand("[CCC1]123m456p78s11p9s"), ctx("disc", S))
    assert low.reason == "2 fan is below the minimum of 3"
    incomplete = hk.score(parse_hand("123m456m789p2355s9s"), ctx("disc", S))
    assert not incomplete.valid and incomplete.reason == "not a complete hand; waits on 1s, 4s"
    seven = hk.score(parse_hand("1133m5577p99sEENN"), ctx("disc", S), hk.PRESETS["hk002"])
    assert "seven pairs" in seven.reason


def test_seven_pairs_adds_concealed_option():
    options = make_options("hk001", overrides={"seven_pairs_adds_concealed": "true"})
    result = hk.score(parse_hand("1133m5577p99sEENN"), ctx("disc", S), options)
    assert result.total == 6 and result.payments["E"] == -192


def test_four_concealed_pungs_on_a_discard_that_completes_the_pair():
    hand = parse_hand("111m444p777sEEE9p9p")
    assert hk.score(hand, ctx("disc", E), hk.PRESETS["hk001"]).details["limit_hand"] is None
    assert hk.score(hand, ctx("disc", E), hk.PRESETS["hk002"]).details["limit_hand"] == "four_concealed_pungs"


def test_flowers_toward_minimum_option():
    hand, c = parse_hand("[CCC1]123m456p78s11p9s", "7f"), ctx("disc", W)  # West owns 7f (autumn)
    assert hk.score(hand, c).valid is False  # dragon 1 + own flower 1 = 2
    hand = parse_hand("[CCC1]123m456p78s11p9s", "3f,7f")
    assert hk.score(hand, c).total == 3 and hk.score(hand, c).valid
    off = make_options("hk001", overrides={"flowers_count_toward_minimum": "false"})
    result = hk.score(hand, c, off)
    assert not result.valid and "not counting bonus-tile fans" in result.reason


def test_flower_win_needs_no_complete_hand_in_hk002():
    hand = parse_hand("123m456m789p2355s", "1f,2f,3f,4f,5f,6f,7f,8f")
    robbed = hk.score(hand, WinContext(discarder=E, seat=S), hk.PRESETS["hk002"])
    assert robbed.valid and robbed.total == 10 and robbed.fans[0].name == "Seven Flowers Rob One"
    assert not hk.score(hand, WinContext(discarder=E, seat=S), hk.PRESETS["hk001"]).valid


def test_blessings_are_limit_hands_in_hk002_and_checked():
    hand = parse_hand("123m456m789p2355s4s")
    heavenly = WinContext(self_drawn=True, seat=E, dealer=E, blessing="heavenly")
    assert hk.score(hand, heavenly, hk.PRESETS["hk002"]).total == 10
    assert hk.score(hand, heavenly, hk.PRESETS["hk001"]).total == 4  # AC + CH + SD + NF, no limit
    with pytest.raises(InvalidHandError, match="heavenly hand is the dealer"):
        hk.score(hand, WinContext(self_drawn=True, seat=S, dealer=E, blessing="heavenly"), hk.PRESETS["hk002"])


def test_bad_options_are_one_line_errors():
    with pytest.raises(InvalidHandError, match="discard_split"):
        make_options("hk001", overrides={"discard_split": "pao"})
    with pytest.raises(InvalidHandError, match="unknown option"):
        make_options("hk002", overrides={"limit_fan": "5"})


# --- settlement (yawnoc/mahjong-scorer, docs/rules.md §4.5) ------------------------------------

FULL = dict(multiplier="spicy", discard_split="full_responsibility", unit=1)


@pytest.mark.parametrize("fan,win,expected", [
    (3, "self", {"E": 24, "S": -8, "W": -8, "N": -8}),
    (3, "disc", {"E": 16, "S": 0, "W": 0, "N": -16}),
    (13, "self", {"E": 3 * 8192, "S": -8192, "W": -8192, "N": -8192}),
])
def test_yawnoc_full_responsibility_spicy(fan, win, expected):
    assert hk_pay(fan, ctx(win, E), **FULL) == expected


def test_half_spicy_table():
    assert [hk_multiplier(f, "half_spicy") for f in range(14)] == [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384]


def test_yawnoc_bundled_example():
    """B=2, M=6, half responsibility, half-spicy: a draw, a false win by D, a 1-fan self-draw
    by A, a 2-fan win by B off C, a 6-fan self-draw by C guaranteed by D."""
    A, B, C, D = range(4)
    opts = dict(multiplier="half_spicy", discard_split="half_responsibility", unit=2)
    games = [
        {s: 0 for s in "ESWN"},  # draw
        hk_false_win(D, 6, multiplier="half_spicy", unit=2),
        hk_pay(1, WinContext(self_drawn=True, seat=A), **opts),
        hk_pay(2, WinContext(discarder=C, seat=B), **opts),
        hk_pay(6, WinContext(self_drawn=True, seat=C), guarantor=D, **opts),
    ]
    net = {s: sum(g[s] for g in games) for s in "ESWN"}
    assert net == {"E": 200, "S": 204, "W": 372, "N": -776}


@pytest.mark.parametrize("split,expected", [
    ("seed001", {"E": 24, "S": 0, "W": 0, "N": -24}),
    ("full_responsibility", {"E": 16, "S": 0, "W": 0, "N": -16}),
    ("half_responsibility", {"E": 16, "S": -4, "W": -4, "N": -8}),
    ("classic_modifier", {"E": 32, "S": -8, "W": -8, "N": -16}),
])
def test_discard_splits(split, expected):
    assert hk_pay(3, ctx("disc", E), discard_split=split) == expected


def test_self_draw_each_two_and_unit():
    assert hk_pay(3, ctx("self", S), self_draw_each=2, unit=0.5) == {"E": -8, "S": 24, "W": -8, "N": -8}


def test_discard_without_discarder_cannot_be_settled():
    assert hk_pay(3, WinContext(seat=E)) is None
    result = hk.score(parse_hand("123m456m789p2355s4s"), WinContext(seat=S))
    assert result.valid and result.payments is None


@pytest.mark.parametrize("text,limit_hand", [
    ("1112345678999m5m", "nine_gates"),
    ("EEESSSWWWCCPPC", "all_honours"),
    ("111m999p111s99s99m9s", "all_terminals"),
    ("[1111m][2222m1][3333p][EEEE1]NN", "four_kongs"),
    ("[EEE1][SSS1][WWW1]NN1m1mN", "great_four_winds"),
])
@pytest.mark.parametrize("preset,limit", [("hk001", 13), ("hk002", 10)])
def test_limit_hands_score_exactly_the_limit(text, limit_hand, preset, limit):
    result = hk.score(parse_hand(text), ctx("disc", S), hk.PRESETS[preset])
    assert result.total == limit and result.details["limit_hand"] == limit_hand
    assert len(result.fans) == 1  # no other fan is added to a limit hand
