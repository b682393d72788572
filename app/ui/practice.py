"""The Practice page: one hand of Hong Kong mahjong (preset hk001) against three computer
players, on the engine of `game`.

Your tiles are large buttons: tap one, then confirm to discard it. When you may claim a
discard (or rob a kong) the page shows one button per legal claim and "Pass", and waits for
you. The other hands stay face down, with their exposed sets and flowers; every discard
pool, the wall count and whose turn it is are on show. At the end the winning hand is
explained by the scorer's own view (fans and payments), or the hand is a draw with no
payment. The seed is shown so that a hand can be replayed; a new hand takes one tap.
Computer turns are played at once, up to your next decision, and listed in a short log.
"""
from __future__ import annotations

import logging
import random
import time

import streamlit as st

from app import evaluate
from app.i18n import N_, _, ngettext, pgettext
from app.ui import result
from app.ui.hand import spoken_name
from game.engine import apply, legal_moves, new_game, to_move
from game.players import choose
from game.state import Action, Move, Phase, State
from game.tiles import code
from scoring.hand import MeldKind
from scoring.tiles import BACK, NAMES, TILES

log = logging.getLogger("mahjong_lens.practice")
KEY = "practice"
WIND_NAMES = (N_("East"), N_("South"), N_("West"), N_("North"))  # shown through `_`
RECENT = 8             # log lines shown
MAX_SEED = 999_999

CSS = """
<style>
div[class*="st-key-ptile__"] {
  --tile-w: min(54px, calc((100vw - 1.4rem - 6 * 4px - 8px) / 7));
  flex: 0 0 var(--tile-w) !important; width: var(--tile-w) !important; }
div[class*="st-key-ptile__"] button {
  width: 100%%; min-width: 0; aspect-ratio: 42 / 74; height: auto; min-height: 0 !important;
  padding: 0 0 1px 0; display: flex; align-items: flex-end; justify-content: center;
  border-radius: 7px; border: 1px solid #bbb; background-color: #fbf8ef;
  background-repeat: no-repeat; background-position: center top; background-size: 100%% auto; }
div[class*="st-key-ptile__"][class*="__sel__"] button { border: 3px solid #1f5fd0;
  box-shadow: 0 0 0 3px #9bbcf2; transform: translateY(-6px); }
div[class*="st-key-ptile__"][class*="__new__"] button { border: 2px solid #d08a00; }
div[class*="st-key-phand"] { gap: 4px; }
.pt-row { display: flex; flex-wrap: wrap; align-items: center; gap: 2px; margin: 1px 0 3px 0; }
.pt-row img { height: 30px; width: auto; }
.pt-row img.pt-small { height: 22px; }
.pt-row .pt-gap { width: 8px; }
.pt-who { font-size: 0.92rem; margin-top: 0.35rem; }
%(tiles)s
</style>
""" % {"tiles": "\n".join(
    f'div[class*="st-key-ptile__"][class*="__{c}__"] button '
    f'{{ background-image: url("app/static/{c}.png"); }}' for c in TILES)}


# --- the game kept between reruns of the page -------------------------------------------

def _game() -> dict:
    if KEY not in st.session_state:
        st.session_state[KEY] = {"human": 0, "rotate": False, "slowest": 0.0}
        _start(random.SystemRandom().randrange(MAX_SEED + 1))
    return st.session_state[KEY]


def _start(seed: int) -> None:
    game = st.session_state[KEY]
    game.update(seed=seed, state=new_game(seed), sel=None, seen=0)


def _advance(game: dict) -> None:
    """Play the computers' decisions up to the player's next one (or the end)."""
    state = game["state"]
    while not state.over and to_move(state) != game["human"]:
        began = time.perf_counter()
        state = apply(state, choose(state))
        game["slowest"] = max(game["slowest"], time.perf_counter() - began)
    game["state"] = state


def on_tile(tile: int) -> None:
    game = st.session_state[KEY]
    game["sel"] = None if game["sel"] == tile else tile


def on_move(move: Move) -> None:
    game = st.session_state[KEY]
    if move in legal_moves(game["state"]):  # a stale button (double tap) does nothing
        game["seen"] = len(game["state"].log)
        game["state"] = apply(game["state"], move)
    game["sel"] = None


def on_new(seed: int | None) -> None:
    game = st.session_state[KEY]
    if game.get("rotate") and seed is None:
        game["human"] = (game["human"] + 3) % 4  # the dealer passes on: you sit one wind later
    _start(random.SystemRandom().randrange(MAX_SEED + 1) if seed is None else seed)


# --- words and pictures -------------------------------------------------------------------

def wind(seat: int) -> str:
    return _(WIND_NAMES[seat])


def name(seat: int, human: int) -> str:
    if seat == human:
        return _("You ({wind})").format(wind=wind(seat))
    return _("{wind} (computer)").format(wind=wind(seat))


def tile_name(c: str) -> str:
    return pgettext("tile", NAMES[c][0]) if c in NAMES else c


def _img(c: str, small: bool = False) -> str:
    cls = ' class="pt-small"' if small else ""
    title = tile_name(c) if c != BACK else _("hidden")
    return f'<img src="app/static/{c}.png" alt="{c}" title="{title}"{cls}>'


def _row(groups, small: bool = False) -> str:
    parts = []
    for g in groups:
        if not g:
            continue
        if parts:
            parts.append('<span class="pt-gap"></span>')
        parts.extend(_img(c, small) for c in g)
    return f'<div class="pt-row">{"".join(parts)}</div>' if parts else ""


def _html(body: str) -> None:
    if body:
        st.html(body)


def _set_faces(m) -> tuple[str, ...]:
    faces = tuple(code(t) for t in m.tiles)
    if m.kind is MeldKind.CONCEALED_KONG:  # shown as on the table: two face down at the ends
        return (BACK, faces[1], faces[2], BACK)
    return faces


# what a move says in the log: the player's own moves, then another player's ({who}); a
# drawn tile of another player is not shown
YOUR_MOVES = {
    Action.DISCARD: N_("You discard {tile}"), Action.WIN: N_("You win on {tile}"),
    Action.CHOW: N_("You chow {tile}"), Action.PUNG: N_("You pung {tile}"), Action.KONG: N_("You kong {tile}"),
    Action.CONCEALED_KONG: N_("You declare a concealed kong of {tile}"),
    Action.PROMOTED_KONG: N_("You promote a pung of {tile} to a kong"), Action.PASS: N_("You pass"),
    Action.DRAW: N_("You draw {tile}"), Action.BONUS: N_("You lay aside {tile}"),
    Action.REPLACEMENT: N_("You draw a replacement ({tile})"), Action.DEAL: N_("You are dealt"),
}
THEIR_MOVES = {
    Action.DISCARD: N_("{who} discards {tile}"), Action.WIN: N_("{who} wins on {tile}"),
    Action.CHOW: N_("{who} chows {tile}"), Action.PUNG: N_("{who} pungs {tile}"),
    Action.KONG: N_("{who} kongs {tile}"), Action.CONCEALED_KONG: N_("{who} declares a concealed kong of {tile}"),
    Action.PROMOTED_KONG: N_("{who} promotes a pung of {tile} to a kong"), Action.PASS: N_("{who} passes"),
    Action.DRAW: N_("{who} draws"), Action.BONUS: N_("{who} lays aside {tile}"),
    Action.REPLACEMENT: N_("{who} draws a replacement"), Action.DEAL: N_("{who} is dealt"),
}


def describe(move: Move, human: int) -> str:
    tile = tile_name(code(move.tile)) if move.tile is not None else ""
    if move.seat == human:
        return _(YOUR_MOVES[move.action]).format(tile=tile)
    return _(THEIR_MOVES[move.action]).format(who=wind(move.seat), tile=tile)


def move_label(move: Move, own_turn: bool) -> str:
    """The button of a claim (`own_turn` False) or of a declaration on the player's turn."""
    if move.action is Action.PASS:
        return _("Pass")
    c = code(move.tile)
    if move.action is Action.CHOW:
        faces = sorted([c] + [code(t) for t in move.tiles])
        return _("Chow {tiles}").format(tiles=f"{'-'.join(f[0] for f in faces)}{c[1]}")
    if move.action is Action.WIN:
        return (_("Win, self-drawn {tile}!") if own_turn else _("Win on {tile}!")).format(tile=c)
    return {Action.PUNG: _("Pung {tile}"), Action.KONG: _("Kong {tile}"),
            Action.CONCEALED_KONG: _("Concealed kong {tile}"),
            Action.PROMOTED_KONG: _("Kong {tile} (add to your pung)")}[move.action].format(tile=c)


# --- the page -----------------------------------------------------------------------------

def render() -> None:
    """The page. Whatever goes wrong shows as one plain line with a way to a new hand."""
    st.html(CSS)
    _table()


@st.fragment
def _table() -> None:
    """Everything a tap changes, so a tap (a tile, a discard, a claim) runs this part alone
    (a Streamlit fragment), not the page's navigation and style around it."""
    try:
        _render()
    except Exception as exc:  # the page's last line of defence: never a traceback
        log.exception("error in the practice game")
        text = " ".join(str(exc).split())[:200] or type(exc).__name__
        st.error(_("Something went wrong in the practice game ({text}). Start a new hand.").format(text=text))
        st.button(_("New hand"), key="pnew_after_error", on_click=on_new, args=(None,))


def _render() -> None:
    game = _game()
    _advance(game)
    state, human = game["state"], game["human"]
    _header(game, state, human)
    for step in (1, 2, 3):
        _opponent(state, (human + step) % 4, human)
    _own(state, human, game)
    _recent(state, human, game)
    if state.over:
        _end(state, human)
    _footer(game)


def _header(game: dict, state: State, human: int) -> None:
    if state.over:
        turn = _("Hand over")
    elif to_move(state) == human:
        turn = _("Your claim?") if state.phase in (Phase.CLAIM, Phase.ROB) else _("Your turn")
    else:
        turn = _("{wind} to play").format(wind=wind(state.turn))
    st.markdown(_("**{turn}** · wall **{left}** · seed `{seed}` · you are {wind}").format(
        turn=turn, left=state.wall_left, seed=game["seed"], wind=wind(human)))


def _opponent(state: State, seat: int, human: int) -> None:
    p = state.players[seat]
    marker = "▶ " if state.turn == seat and not state.over else ""
    with st.container(key=f"popp__{seat}"):
        held = ngettext("{n} in hand", "{n} in hand", len(p.concealed)).format(n=len(p.concealed))
        bonus = " · " + ngettext("{n} bonus", "{n} bonus", len(p.bonus)).format(n=len(p.bonus)) if p.bonus else ""
        st.html(f'<div class="pt-who">{marker}<b>{name(seat, human)}</b> · {held}{bonus}</div>')
        hidden = tuple(code(t) for t in p.concealed) if state.over else (BACK,) * len(p.concealed)
        _html(_row([hidden] + [_set_faces(m) for m in p.melds] + [tuple(code(t) for t in p.bonus)], small=True))
        _html(_row([tuple(code(t) for t in p.discards)], small=True))


def _own(state: State, human: int, game: dict) -> None:
    p = state.players[human]
    marker = "▶ " if state.turn == human and not state.over else ""
    st.html(f'<div class="pt-who">{marker}<b>{name(human, human)}</b></div>')
    _html(_row([_set_faces(m) for m in p.melds] + [tuple(code(t) for t in p.bonus)]))
    _html(_row([tuple(code(t) for t in p.discards)], small=True))
    moves = legal_moves(state) if to_move(state) == human else ()
    discards = {m.tile for m in moves if m.action is Action.DISCARD}
    tiles = list(p.concealed)
    if state.drawn in tiles and state.turn == human:
        tiles.remove(state.drawn)
        tiles.append(state.drawn)
    with st.container(horizontal=True, key="phand"):
        for t in tiles:
            flags = ("sel__" if game["sel"] == t else "") + ("new__" if t == state.drawn and state.turn == human else "")
            st.button(spoken_name(code(t)), key=f"ptile__{t}__{code(t)}__{flags}", disabled=t not in discards,
                      on_click=on_tile, args=(t,), help=tile_name(code(t)))
    _actions(moves, game)


def _actions(moves: tuple[Move, ...], game: dict) -> None:
    if not moves:
        return
    own_turn = any(m.action is Action.DISCARD for m in moves)
    with st.container(horizontal=True, key="pactions"):
        sel = game["sel"]
        if sel is not None and Move(moves[0].seat, Action.DISCARD, sel) in moves:
            st.button(_("Discard {tile}").format(tile=tile_name(code(sel))), key="pdiscard", type="primary",
                      on_click=on_move, args=(Move(moves[0].seat, Action.DISCARD, sel),))
        for i, m in enumerate(moves):
            if m.action is Action.DISCARD:
                continue
            kind = "primary" if m.action is Action.WIN else "secondary"
            st.button(move_label(m, own_turn), key=f"pmove__{i}__{m.action.value}", type=kind, on_click=on_move,
                      args=(m,))
    if own_turn and sel is None:
        st.caption(_("Tap a tile, then confirm to discard it."))


def _recent(state: State, human: int, game: dict) -> None:
    shown = [m for m in state.log[max(game["seen"], 0):] if m.action is not Action.DEAL]
    if not shown:
        return
    lines = [describe(m, human) for m in shown[-RECENT:]]
    more = len(shown) - len(lines)
    st.caption(("… " if more > 0 else "") + " · ".join(lines))


def _end(state: State, human: int) -> None:
    o = state.outcome
    st.divider()
    if o.winner is None:
        st.info(_("Draw: no payment. The wall ran out without a winner."))
        return
    loser = name(o.discarder, human) if o.discarder is not None else ""
    if o.self_drawn:
        how = _("self-drawn")
    elif o.robbed:
        how = _("robbing your kong") if o.discarder == human else _("robbing the kong of {loser}").format(loser=loser)
    else:
        how = _("on your discard") if o.discarder == human else _("on the discard of {loser}").format(loser=loser)
    verdict = _("You win") if o.winner == human else _("{winner} wins").format(winner=name(o.winner, human))
    r = o.result
    st.success(_("**{verdict}** {how}: **{value}**").format(verdict=verdict, how=how,
                                                            value=result.value_text(r.total, "hk001")),
               icon=":material/check_circle:")
    st.caption(f"`{r.hand}`" + (f" + {', '.join(code(t) for t in state.players[o.winner].bonus)}"
                                if state.players[o.winner].bonus else ""))
    names = [name(s, human) for s in range(4)]
    result.render(evaluate.Outcome(result=r, notation=r.hand), names, "hk001")


def _footer(game: dict) -> None:
    st.divider()
    with st.container(horizontal=True, vertical_alignment="bottom", key="pfooter"):
        st.button(_("New hand"), key="pnew", type="primary" if game["state"].over else "secondary",
                  on_click=on_new, args=(None,))
        seed = st.number_input(_("Seed"), min_value=0, max_value=MAX_SEED, value=game["seed"], step=1,
                               key=f"pseed__{game['seed']}")
        st.button(_("Play this seed"), key="preplay", on_click=on_new, args=(int(seed),))
    game["rotate"] = st.checkbox(_("Rotate the dealer for the next hand"), value=game["rotate"], key="protate")
