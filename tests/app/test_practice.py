"""The Practice page in AppTest: a seeded hand played to its end by taps, claims offered as
exactly the legal ones, a discard that needs a tap and a confirmation, the end of a hand
(a win explained by the score view, or a draw with no payment), a new hand in one tap."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from game.engine import apply, legal_moves
from game.state import Action, Move, Phase
from tests.game.positions import table

SCRIPT = "from app.ui import practice\npractice.render()"


@pytest.fixture
def page():
    at = AppTest.from_string(SCRIPT, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def game(at):
    return at.session_state["practice"]


def play_seed(at, seed: int):
    at.number_input(key=f"pseed__{game(at)['seed']}").set_value(seed).run()
    at.button(key="preplay").click().run()
    assert game(at)["seed"] == seed and not at.exception
    return at


def hand_keys(at):
    return [b.key for b in at.button if b.key.startswith("ptile__")]


def test_a_discard_is_a_tap_then_a_confirmation(page):
    play_seed(page, 5)
    tiles = [b for b in page.button if b.key.startswith("ptile__") and not b.disabled]
    assert len(tiles) == 14 and "Your turn" in page.markdown[0].value
    assert "seed `5`" in page.markdown[0].value
    tiles[0].click().run()
    assert any("__sel__" in k for k in hand_keys(page))
    chosen = game(page)["sel"]
    page.button(key="pdiscard").click().run()
    state = game(page)["state"]
    assert chosen not in state.players[0].concealed
    assert any(m.seat == 0 and m.action is Action.DISCARD and m.tile == chosen for m in state.log)


def test_tapping_the_selected_tile_again_unselects_it(page):
    play_seed(page, 5)
    first = next(b for b in page.button if b.key.startswith("ptile__"))
    first.click().run()
    next(b for b in page.button if b.key.startswith("ptile__") and "__sel__" in b.key).click().run()
    assert game(page)["sel"] is None and "pdiscard" not in [b.key for b in page.button]


def _claim_buttons(at):
    return [b for b in at.button if b.key.startswith("pmove__")]


@pytest.mark.parametrize("seed", [11, 23])
def test_a_hand_played_to_the_end(page, seed):
    from app.ui.practice import move_label
    play_seed(page, seed)
    prompts = 0
    for _ in range(150):
        state = game(page)["state"]
        if state.over:
            break
        buttons = _claim_buttons(page)
        if state.phase in (Phase.CLAIM, Phase.ROB):
            prompts += 1
            own = any(m.action is Action.DISCARD for m in legal_moves(state))
            assert [b.label for b in buttons] == [move_label(m, own) for m in legal_moves(state)]
            win = [b for b in buttons if "__win" in b.key]
            (win or [b for b in buttons if b.key.endswith("__pass")])[0].click().run()
            continue
        win = [b for b in buttons if "__win" in b.key]
        if win:
            win[0].click().run()
            continue
        tiles = [b for b in page.button if b.key.startswith("ptile__") and not b.disabled]
        tiles[-1].click().run()
        page.button(key="pdiscard").click().run()
        assert not page.exception, [e.value for e in page.exception]
    state = game(page)["state"]
    assert state.over and "Hand over" in page.markdown[0].value
    if state.outcome.winner is None:
        assert "Draw: no payment" in page.info[0].value
    else:
        assert "fan" in page.success[0].value
        said = " ".join(m.value for m in page.markdown)
        assert "Total:" in said and state.outcome.result.fans[0].name in said
    assert game(page)["slowest"] < 0.3
    page.button(key="pnew").click().run()
    assert game(page)["seed"] != seed or not game(page)["state"].over


def test_a_drawn_hand_says_no_payment(page):
    state = table({0: "5p1357m1357sSWNFC"}, wall_left=0)
    state = apply(state, Move(0, Action.DISCARD, next(t for t in state.players[0].concealed if t >> 2 == 13)))
    assert state.over and state.outcome.winner is None
    game(page).update(state=state, seed=0, sel=None, seen=0)
    page.run()
    assert "Draw: no payment" in page.info[0].value and "Hand over" in page.markdown[0].value


def test_claim_buttons_are_exactly_the_legal_claims_and_pass(page):
    state = table({0: "5p1357m1357sSWNFC", 1: "46p55p2468m2468sE"})
    state = apply(state, Move(0, Action.DISCARD, next(t for t in state.players[0].concealed if t >> 2 == 13)))
    game(page).update(state=state, human=1, seed=0, sel=None, seen=0)
    page.run()
    assert [b.label for b in _claim_buttons(page)] == ["Pung 5p", "Chow 4-5-6p", "Pass"]
    assert "Your claim?" in page.markdown[0].value
    page.button(key=_claim_buttons(page)[0].key).click().run()
    state = game(page)["state"]
    assert state.turn == 1 and state.claimed and state.players[1].melds[0].kind.value == "pung"
    assert all(b.disabled is False for b in page.button if b.key.startswith("ptile__"))


def test_new_hand_in_one_tap_with_the_seed_shown(page):
    play_seed(page, 5)
    page.button(key="pnew").click().run()
    g = game(page)
    assert g["state"].seed == g["seed"] and f"seed `{g['seed']}`" in page.markdown[0].value
    assert not g["state"].over and g["state"].players[0].discards == ()


def test_a_broken_game_shows_one_line_and_a_new_hand(page):
    game(page)["state"] = "not a game"
    page.run()
    assert not page.exception
    assert "Something went wrong in the practice game" in page.error[0].value
    page.button(key="pnew_after_error").click().run()
    assert not page.error and not game(page)["state"].over
