"""The decomposition engine and waits: golden shapes and properties."""
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings

from scoring.decompose import SetKind, Shape, decompositions, is_complete, tiles_complete, waits
from scoring.hand import parse_hand
from scoring.tiles import PLAYING, parse_tiles

from .strategies import complete_hands, thirteen_tile_hands


@pytest.mark.parametrize("text, shapes, count", [
    ("[EEEE1]SSSWWWNN11s1s", {Shape.STANDARD}, 1),
    ("1122334455667m7m", {Shape.STANDARD, Shape.SEVEN_PAIRS}, 4),
    ("19m19s19pESWNCFPN", {Shape.THIRTEEN_ORPHANS}, 1),
    ("17m36s25pESWNCFP9s", {Shape.HONOURS_KNITTED}, 1),
    ("258m147s36pESWFPC", {Shape.HONOURS_KNITTED}, 1),
    ("13347s12369m258p3m", {Shape.KNITTED_STRAIGHT}, 2),   # 3m completes the chow or the knit
    ("[678s3]147m369s25pSS8p", {Shape.KNITTED_STRAIGHT}, 1),
    ("1199m1199s11999p9p", {Shape.SEVEN_PAIRS}, 1),
    ("1112345678999m9m", {Shape.STANDARD}, 2),              # 9m in 789m or in 999m
    ("123m456p789s11zEE9p", set(), 0),
])
def test_shapes(text, shapes, count):
    found = decompositions(parse_hand(text))
    assert {d.shape for d in found} == shapes
    assert len(found) == count


@pytest.mark.parametrize("text, expected", [
    ("1112345678999m", "123456789m"),            # nine gates
    ("[NNN3]78889m11888p", "8m1p"),
    ("[NNN3]77789m11888p", "7m1p"),               # not an edge wait: 1p too
    ("19m19s19pESWNCFP", "19m19p19sESWNPFC"),      # thirteen-sided
    ("1122334455667m", "147m"),                   # seven pairs on 7m, or chows + a pair
    ("123m456p789s1122zE", "12z"),                # two pairs: either makes the pung
    ("123m456p789s1357z", ""),                    # not ready
])
def test_waits(text, expected):
    assert set(waits(parse_hand(text))) == set(parse_tiles(expected))


def test_tile_held_four_times_is_not_a_wait():
    # 1111m + 23m... : 1m would complete 123m but all four 1m are in the hand
    assert "1m" not in waits(parse_hand("1111234m567p789s"))


@given(complete_hands)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
def test_every_decomposition_recomposes_to_the_hand(hand):
    found = decompositions(hand)
    assert found, "a generated complete hand must decompose"
    for d in found:
        tiles = [t for s in d.sets for t in s.tiles] + list(d.singles)
        assert Counter(tiles) == Counter(hand.all_tiles)
        if d.win_set is not None:
            assert hand.winning in d.sets[d.win_set].tiles
            assert d.sets[d.win_set].meld is None
        if d.shape is Shape.STANDARD:
            assert sum(s.kind is SetKind.PAIR for s in d.sets) == 1 and len(d.sets) == 5


@given(thirteen_tile_hands())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
def test_waits_equal_brute_force(hand):
    held = Counter(hand.all_tiles)
    brute = {t for t in PLAYING if held[t] < 4 and decompositions(hand.with_winning(t))}
    assert set(waits(hand)) == brute
    assert all(is_complete(hand.with_winning(t)) for t in brute)


# waits into the named shapes only (Hong Kong and Classical allow a few)
SHAPE_WAITS_CASES = [
    ("1122334455667m", {Shape.SEVEN_PAIRS}, "7m"),
    ("1122334455667m", {Shape.STANDARD}, "147m"),
    ("19m19s19pESWNCFP", {Shape.STANDARD}, ""),
    ("19m19s19pESWNCFP", {Shape.STANDARD, Shape.THIRTEEN_ORPHANS}, "19m19p19sESWNPFC"),
    ("17m369s25pESWNCF", {Shape.HONOURS_KNITTED}, "4m8pP"),
    ("17m369s25pESWNCF", {Shape.STANDARD, Shape.SEVEN_PAIRS}, ""),
    ("1334s12369m258p3m", {Shape.KNITTED_STRAIGHT}, "7s"),
    ("1334s12369m258p3m", {Shape.STANDARD}, ""),
]


@pytest.mark.parametrize("text, shapes, expected", SHAPE_WAITS_CASES)
def test_waits_into_some_shapes(text, shapes, expected):
    assert set(waits(parse_hand(text), shapes=frozenset(shapes))) == set(parse_tiles(expected))


@given(thirteen_tile_hands())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
def test_waits_into_each_shape_equal_brute_force(hand):
    held = Counter(hand.all_tiles)
    for shape in Shape:
        brute = {t for t in PLAYING if held[t] < 4
                 and any(d.shape is shape for d in decompositions(hand.with_winning(t)))}
        assert set(waits(hand, shapes=frozenset({shape}))) == brute, shape


# (concealed tiles, declared sets beside them, complete in some split?)
TILES_COMPLETE_CASES = [
    ("123m456p789sEEENN", 0, True),
    ("123m456p78sEEENNN", 0, False),
    ("1133m5577p99sEECC", 0, True),         # seven pairs
    ("19m19p19sESWNPFCC", 0, True),         # thirteen orphans
    ("456p789sEEENN", 1, True),             # beside one set (a kong, say)
    ("456p789sEEENN", 0, False),            # too few tiles
    ("456p789sNN", 1, False),
    ("", 4, False),
]


@pytest.mark.parametrize("tiles,sets,complete", TILES_COMPLETE_CASES)
def test_tiles_complete_in_any_split(tiles, sets, complete):
    assert tiles_complete(parse_tiles(tiles) if tiles else [], sets) is complete
