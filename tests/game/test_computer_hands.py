"""Seeded computer-only hands, checked after every move: every tile in exactly one place,
every move one the engine offered, every win valid at 3 fan or more and scored as the scorer
scores it from its notation, payments zero-sum, every hand over in a bounded number of moves.

GAME_HANDS=N plays N hands in the slow variant (default 300)."""
from __future__ import annotations

import os

import pytest

from scoring.hand import WinContext, parse_hand
from scoring.rules import RuleSet, score

from game.auto import hand_record, play_hand, summarise
from game.engine import legal_moves, tile_places
from game.players import choose
from game.state import DEALER, ROUND_WIND, SEATS, Action
from game.tiles import codes

MAX_LOG = 1000


def checked_hand(seed: int):
    seen = []

    def check(before, move, after):
        assert move in legal_moves(before)
        tile_places(after)
        seen.append(move)
        assert len(after.log) < MAX_LOG

    state = play_hand(seed, choose, check)
    return state, seen


def check_outcome(state) -> None:
    o = state.outcome
    assert sum(o.payments) == 0
    if o.winner is None:
        assert state.wall_left == 0 and o.payments == (0, 0, 0, 0)
        return
    r = o.result
    assert r.valid and r.total >= 3
    bonus = codes(state.players[o.winner].bonus)
    ctx = WinContext(self_drawn=o.self_drawn, discarder=o.discarder, seat=o.winner, round=ROUND_WIND,
                     dealer=DEALER, last_tile=any(f.name.startswith("Win on Last") for f in r.fans),
                     kong=any(f.name in ("Robbing the Kong", "Win on Kong Replacement") for f in r.fans))
    again = score(parse_hand(r.hand, bonus=bonus), ctx, RuleSet.HK001)
    assert (again.total, again.valid) == (r.total, True)
    base = 2 ** r.total
    if o.self_drawn:
        expected = [-base] * 4
        expected[o.winner] = 3 * base
    else:
        expected = [0] * 4
        expected[o.winner], expected[o.discarder] = 3 * base, -3 * base
    assert list(o.payments) == expected
    assert state.log[-1].action is Action.WIN and state.log[-1].seat == o.winner


def run_hands(seeds) -> None:
    for seed in seeds:
        state, moves = checked_hand(seed)
        assert state.over
        check_outcome(state)


def test_fifteen_seeded_hands_keep_every_rule():
    run_hands(range(1000, 1015))


@pytest.mark.slow
def test_many_seeded_hands_keep_every_rule():
    run_hands(range(int(os.environ.get("GAME_HANDS", "300"))))


def test_the_same_seed_plays_the_same_hand():
    a, b = play_hand(42), play_hand(42)
    assert a.log == b.log and a.outcome == b.outcome
    assert play_hand(43).log != a.log


def test_hand_records_are_zero_sum_and_summarised():
    records = [hand_record(play_hand(seed)) for seed in range(5)]
    for r in records:
        assert set(r) == {"seed", "winner", "self_drawn", "discarder", "hand", "bonus", "total",
                          "fans", "payments", "moves"}
        assert sum(r["payments"].values()) == 0 and set(r["payments"]) == set(SEATS)
    summary = summarise(records)
    assert summary.hands == 5 and summary.won == sum(r["winner"] is not None for r in records)
