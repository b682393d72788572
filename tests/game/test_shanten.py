"""The distance to a win, against hands whose distance is known and against its own
definition (a ready hand is one tile from complete)."""
from __future__ import annotations

import random

import pytest

from scoring.tiles import INDEX, parse_tiles

from game import shanten


def counts(text: str) -> list[int]:
    c = [0] * 34
    for t in parse_tiles(text):
        c[INDEX[t]] += 1
    return c


@pytest.mark.parametrize("hand, melds, expected", [
    ("123m456m789p11sEEE", 0, -1),
    ("123m456m789p1sEEE", 0, 0),
    ("19m19p19s1234567z", 0, 0),          # thirteen orphans, thirteen-sided
    ("19m19p19s1234567z1m", 0, -1),
    ("1122m3344p5566sEE", 0, -1),         # seven pairs
    ("1122m3344p5566sE", 0, 0),
    ("1199m1199p55sEE", 0, 1),            # six pairs: seven pairs is nearest
    ("1199m1199p55sEE", 1, 2),            # with a declared set seven pairs do not count
    ("456m789s99p46p", 1, 0),
    ("99p", 4, -1),
    ("9p", 4, 0),
    ("147m258p369sESWN", 0, 6),
])
def test_known_distances(hand, melds, expected):
    assert shanten.shanten(counts(hand), melds) == expected


def random_hands(n: int, size: int, seed: int):
    rng = random.Random(seed)
    ids = list(range(136))
    for _ in range(n):
        rng.shuffle(ids)
        c = [0] * 34
        for t in ids[:size]:
            c[t >> 2] += 1
        yield c


@pytest.mark.parametrize("melds, size", [(0, 13), (1, 10), (2, 7)])
def test_ready_means_some_tile_completes(melds, size):
    for c in random_hands(300, size, melds):
        assert (shanten.shanten(c, melds) == 0) == bool(shanten.waits(c, melds))


@pytest.mark.parametrize("melds, size, delta", [(0, 13, 1), (1, 10, 1), (0, 14, -1), (2, 8, -1)])
def test_after_each_agrees_with_the_count_one_tile_at_a_time(melds, size, delta):
    for c in random_hands(200, size, 7 + melds):
        kinds = [k for k in range(34) if 0 <= c[k] + delta <= 4]
        got = shanten.after_each(c, melds, kinds, delta)
        for k in kinds:
            c[k] += delta
            assert got[k] == shanten.shanten(c, melds)
            c[k] -= delta


def test_a_complete_hand_less_any_tile_is_ready():
    for hand in ("123m456m789p11sEEE", "1122m3344p5566sEE", "19m19p19s1234567z1m", "11122345678999m"):
        c = counts(hand)
        for k in range(34):
            if c[k]:
                c[k] -= 1
                assert shanten.shanten(c) == 0 and k in shanten.waits(c)
                c[k] += 1
