"""The table rules, position by position: claims and their priority, chows from the left
only, kongs and their replacements, robbing, the wall's end, the 3-fan minimum, payments."""
from __future__ import annotations

import pytest

from scoring.hand import MeldKind

from game.engine import IllegalMove, apply, legal_moves, new_game, tile_places, to_move
from game.rules import CLAIM_PRIORITY
from game.state import Action, Move, Phase
from game.tiles import code
from tests.game.positions import table

E, S, W, N = range(4)
DISCARDER = "5p1357m1357sSWNFC"      # East's 14 tiles; East discards the 5p
WIN_A = "123m456m789s99p46p"         # wins on 5p: concealed, all chows, no flowers = 3 fan
WIN_B = "234m567m123s11s46p"         # the same fans, other tiles
PUNG = "55p2468m2468sEPF"
KONG = "555p2468m2468sEP"
CHOW = "46p2468m2468sEPF"
FILL = "2468m2468sESWNP"             # nothing to claim


def discard(state, face: str):
    tile = next(t for t in state.players[state.turn].concealed if code(t) == face)
    return apply(state, Move(state.turn, Action.DISCARD, tile))


def strongest(state):
    """Every asked player makes its strongest claim."""
    moves = legal_moves(state)
    return max(moves, key=lambda m: CLAIM_PRIORITY[m.action])


def settle(state, policy=strongest):
    asked = []
    while state.phase in (Phase.CLAIM, Phase.ROB):
        asked.append(to_move(state))
        state = apply(state, policy(state))
    return state, asked


def claimed_by(state):
    """(seat, action) of what happened to the discard."""
    last = [m for m in state.log if m.action.is_claim and m.action is not Action.PASS]
    if state.outcome and state.outcome.winner is not None:
        return state.outcome.winner, Action.WIN
    return (last[-1].seat, last[-1].action) if last else None


@pytest.mark.parametrize("turn, hands, expected", [
    (E, {S: CHOW, W: PUNG, N: FILL}, (W, Action.PUNG)),      # pung beats chow
    (E, {S: CHOW, W: FILL, N: WIN_A}, (N, Action.WIN)),      # win beats chow
    (E, {S: FILL, W: PUNG, N: WIN_A}, (N, Action.WIN)),      # win beats pung
    (E, {S: WIN_A, W: FILL, N: WIN_B}, (S, Action.WIN)),     # two wins: the nearer
    (E, {S: FILL, W: WIN_A, N: WIN_B}, (W, Action.WIN)),
    (E, {S: CHOW, W: FILL, N: FILL}, (S, Action.CHOW)),
    (E, {S: FILL, W: KONG, N: FILL}, (W, Action.KONG)),
    (E, {S: CHOW, W: FILL, N: KONG}, (N, Action.KONG)),      # kong beats chow
    (W, {W: DISCARDER, E: WIN_A, S: WIN_B, N: FILL}, (E, Action.WIN)),  # E is nearer after W
    (W, {W: DISCARDER, N: WIN_A, E: WIN_B, S: FILL}, (N, Action.WIN)),
])
def test_claim_priority(turn, hands, expected):
    hands = {E: DISCARDER, **hands}
    state, _ = settle(discard(table(hands, turn=turn), "5p"))
    assert claimed_by(state) == expected
    tile_places(state)


@pytest.mark.parametrize("hands, asked", [
    ({S: WIN_A, W: PUNG, N: WIN_B}, [S]),        # nobody can beat the nearest win
    ({S: CHOW, W: PUNG, N: WIN_A}, [S, W, N]),   # each later claim could beat the one before
    ({S: PUNG, W: CHOW, N: FILL}, [S]),          # W holds 46p but only S may chow: nothing for W
])
def test_only_players_who_could_still_win_the_claim_are_asked(hands, asked):
    state, seen = settle(discard(table({E: DISCARDER, **hands}), "5p"))
    assert seen == asked


@pytest.mark.parametrize("holder, chow_offered", [(S, True), (W, False), (N, False)])
def test_chow_only_by_the_next_player(holder, chow_offered):
    hands = {E: DISCARDER, holder: CHOW}
    state = discard(table(hands), "5p")
    options = dict(state.options)
    assert any(m.action is Action.CHOW for m in options.get(holder, ())) is chow_offered
    if not chow_offered:
        assert state.phase is Phase.ACT and state.turn == S  # passed on at once: S drew


def test_chow_choices_name_each_way_to_use_the_tile():
    state = discard(table({E: DISCARDER, S: "34p67p2468m2468sE"}), "5p")
    chows = [m for m in dict(state.options)[S] if m.action is Action.CHOW]
    assert sorted(tuple(code(t) for t in m.tiles) for m in chows) == [("3p", "4p"), ("4p", "6p"), ("6p", "7p")]


PROMOTED = dict(hands={E: "5p1357m1357sSW", S: WIN_A}, melds={E: [(MeldKind.PUNG, "555p", W)]})
CONCEALED = dict(hands={E: "5555p1357m1357sSW", S: WIN_A})


@pytest.mark.parametrize("position, action, robbed", [
    (PROMOTED, Action.PROMOTED_KONG, True),
    (CONCEALED, Action.CONCEALED_KONG, False),
])
def test_a_promoted_kong_can_be_robbed_a_concealed_one_cannot(position, action, robbed):
    state = table(**position)
    kong = next(m for m in legal_moves(state) if m.action is action)
    state = apply(state, kong)
    if not robbed:
        assert state.phase is Phase.ACT and state.turn == E and state.after_kong
        return
    assert state.phase is Phase.ROB and legal_moves(state) == (Move(S, Action.WIN, kong.tile), Move(S, Action.PASS))
    state = apply(state, legal_moves(state)[0])
    o = state.outcome
    assert (o.winner, o.discarder, o.robbed, o.self_drawn) == (S, E, True, False)
    assert "Robbing the Kong" in [f.name for f in o.result.fans]
    assert o.payments[E] == -3 * 2 ** o.result.total
    assert state.players[E].melds[0].kind is MeldKind.PUNG  # the kong never stood
    tile_places(state)


def test_a_kong_not_robbed_stands_and_draws_its_replacement():
    state = table(**PROMOTED, end="9s")
    state = apply(state, next(m for m in legal_moves(state) if m.action is Action.PROMOTED_KONG))
    state = apply(state, Move(S, Action.PASS))
    e = state.players[E]
    assert e.melds[0].kind is MeldKind.PROMOTED_KONG and len(e.melds[0].tiles) == 4
    assert state.turn == E and state.after_kong and code(state.drawn) == "9s"
    assert state.log[-1].action is Action.REPLACEMENT


@pytest.mark.parametrize("position, action", [
    (CONCEALED, Action.CONCEALED_KONG),
    (PROMOTED, Action.PROMOTED_KONG),
    (dict(hands={E: DISCARDER, W: KONG}), Action.KONG),
])
@pytest.mark.parametrize("wall_left, allowed", [(0, False), (1, True)])
def test_no_kong_without_a_replacement_tile(position, action, wall_left, allowed):
    state = table(**position, wall_left=wall_left)
    if action is Action.KONG:
        state = discard(state, "5p")
        moves = [m for _, ms in state.options for m in ms]
    else:
        moves = legal_moves(state)
    assert any(m.action is action for m in moves) is allowed


@pytest.mark.parametrize("front, end, bonus, tile", [
    ("1f", "9s", ("1f",), "9s"),            # a flower drawn: laid aside, replaced from the end
    ("5f", "9s2f", ("2f", "5f"), "9s"),     # the replacement is a flower too: replaced again
    ("7z", "9s", (), "7z"),
])
def test_bonus_tiles_drawn_are_laid_aside_and_replaced_from_the_end(front, end, bonus, tile):
    state = discard(table({E: DISCARDER}, front=front, end=end), "5p")
    assert state.turn == S and state.phase is Phase.ACT
    assert tuple(code(t) for t in state.players[S].bonus) == bonus
    assert code(state.drawn) == tile and tile in map(code, state.players[S].concealed)
    actions = [m.action for m in state.log]
    assert actions.count(Action.BONUS) == len(bonus) == actions.count(Action.REPLACEMENT)


@pytest.mark.parametrize("seed", range(12))
def test_the_deal(seed):
    state = new_game(seed)
    assert [len(p.concealed) for p in state.players] == [14, 13, 13, 13]
    assert all(t < 136 for p in state.players for t in p.concealed)
    assert all(t >= 136 for p in state.players for t in p.bonus)
    assert state.wall_left == 144 - 53 - sum(len(p.bonus) for p in state.players)
    assert [m.action for m in state.log[:4]] == [Action.DEAL] * 4
    assert state.turn == E and state.drawn in state.players[E].concealed
    tile_places(state)


S_CHOWS = dict(melds={S: [(MeldKind.CHOW, "123m", E)]})


@pytest.mark.parametrize("position, turn, offered", [
    (dict(hands={E: DISCARDER, S: WIN_A}), E, True),                  # 3 fan on a discard
    (dict(hands={E: DISCARDER, S: "456m789s99p46p"}, **S_CHOWS), E, False),   # 2 fan
    (dict(hands={S: "456m789s99p456p"}, **S_CHOWS), S, True),        # self-drawn: 3 fan
    (dict(hands={S: "456m789s99p456p"}, bonus={S: "1f"}, **S_CHOWS), S, False),  # no "no flowers"
])
def test_a_win_is_offered_only_at_3_fan_or_more(position, turn, offered):
    state = table(**position, turn=turn, drawn="5p")
    if turn == E:
        state = discard(state, "5p")
        moves = dict(state.options).get(S, ())
    else:
        moves = legal_moves(state)
    assert any(m.action is Action.WIN for m in moves) is offered


@pytest.mark.parametrize("position, turn, expected", [
    (dict(hands={E: DISCARDER, S: WIN_A}), E, (-24, 24, 0, 0)),        # discarder pays 3 × 2^3
    (dict(hands={S: "456m789s99p456p"}, **S_CHOWS), S, (-8, 24, -8, -8)),  # each pays 2^3
])
def test_payments(position, turn, expected):
    state = table(**position, turn=turn, drawn="5p")
    if turn == E:
        state, _ = settle(discard(state, "5p"))
    else:
        state = apply(state, next(m for m in legal_moves(state) if m.action is Action.WIN))
    assert state.outcome.result.total == 3
    assert state.outcome.payments == expected and sum(expected) == 0


def test_after_a_pung_the_player_discards_before_any_kong():
    hands = {E: DISCARDER, W: "555p9999s2468mEP"}
    state = discard(table(hands), "5p")
    pung = next(m for m in legal_moves(state) if m.action is Action.PUNG)
    state, _ = settle(state, lambda s: pung if to_move(s) == W else Move(to_move(s), Action.PASS))
    assert state.turn == W and state.claimed
    assert {m.action for m in legal_moves(state)} == {Action.DISCARD}


@pytest.mark.parametrize("hands, offered", [
    ({S: CHOW, W: PUNG, N: FILL}, False),     # nobody could draw after it: no sets
    ({S: FILL, W: PUNG, N: WIN_A}, True),     # a win still may
])
def test_the_last_discard_is_claimed_only_for_a_win(hands, offered):
    state = discard(table({E: DISCARDER, **hands}, wall_left=0), "5p")
    if not offered:
        assert state.over and state.outcome.winner is None and state.outcome.payments == (0, 0, 0, 0)
        return
    assert [m.action for _, ms in state.options for m in ms] == [Action.WIN]
    state, _ = settle(state)
    assert "Win on Last Discard" in [f.name for f in state.outcome.result.fans]


def test_a_move_not_offered_is_refused():
    state = table({E: DISCARDER})
    with pytest.raises(IllegalMove, match="not a legal move"):
        apply(state, Move(S, Action.DISCARD, state.players[S].concealed[0] if state.players[S].concealed else 0))


def test_a_win_on_the_kong_replacement_scores_it():
    state = table({E: "456m789s99p45p5555s"}, end="6p")
    state = apply(state, next(m for m in legal_moves(state) if m.action is Action.CONCEALED_KONG))
    assert code(state.drawn) == "6p" and state.after_kong
    state = apply(state, next(m for m in legal_moves(state) if m.action is Action.WIN))
    fans = [f.name for f in state.outcome.result.fans]
    assert "Win on Kong Replacement" in fans and "Self-Drawn" in fans
    assert state.outcome.payments == tuple(x * 2 ** state.outcome.result.total for x in (3, -1, -1, -1))
