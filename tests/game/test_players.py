"""Computer players' choices in set positions: wins taken, kongs only when they keep the
hand as near a win, claims only towards a win worth 3 fan, a ready hand kept on waits that
score."""
from __future__ import annotations

import pytest

from scoring.hand import MeldKind

from game.engine import apply, legal_moves
from game.players import choose
from game.state import Action, Move, Phase
from game.tiles import code
from tests.game.positions import table

E, S, W, N = range(4)


@pytest.mark.parametrize("hand, action", [
    ("5555m123p456s789sE", Action.CONCEALED_KONG),   # the kong keeps the hand ready
    ("34555567m19p19sEP", Action.DISCARD),            # the 5m are needed in chows
])
def test_a_kong_only_when_it_keeps_the_hand_as_near_a_win(hand, action):
    state = table({E: hand})
    assert any(m.action is Action.CONCEALED_KONG for m in legal_moves(state))
    assert choose(state).action is action


def test_a_win_offered_is_taken():
    state = table({E: "123m456m789s99p46p5p"}, drawn="5p")
    assert choose(state).action is Action.WIN


def discard_to(state, face):
    tile = next(t for t in state.players[state.turn].concealed if code(t) == face)
    return apply(state, Move(state.turn, Action.DISCARD, tile))


@pytest.mark.parametrize("south, face, claims", [
    ("77z123m456p99s2468s", "7z", True),     # red dragon pung: a fan of its own
    ("55p123m456m77s24sE", "5p", False),     # a plain pung: nearer a win, but no fan left
    ("11p23p46p789pSSWN", "5p", True),       # a chow towards a one-suit hand
])
def test_claims_keep_a_way_to_3_fan(south, face, claims):
    east = "7z5p1357m1357sSWN"
    state = discard_to(table({E: east, S: south}), face)
    assert state.phase is Phase.CLAIM
    move = choose(state)
    assert (move.action is not Action.PASS) is claims
