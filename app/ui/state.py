"""Everything the page keeps in `st.session_state`, in one place, with the callbacks that
change it. Callbacks run before the script, so the page always draws the state after the
tap. Drafts are keyed by whose hand they are: `win` (the winner), `o0`..`o3` (Classical: the
other players by seat).
"""
from __future__ import annotations

import dataclasses
import functools
import uuid

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from app import edit
from app.i18n import N_, _
from app.i18n.messages import translate

DEFAULTS = {
    "sel": None,        # (who, ref, index) of the selected tile
    "target": None,     # dict who → group ref that palette taps add to
    "flash": None,      # one line to show once (an edit that was refused)
    "generation": 0,    # bumped for a new photo or a new hand: resets per-hand widgets
    "recog": None,      # dict who → Recognition | message
    "photo_ids": None,  # dict who → id of the upload already read
    "added": None,      # dict token → hand number, hands this browser session put in the ledger
    "adding": None,     # dict who → True while the palette stays open to add tiles
}


DICTS = ("target", "recog", "photo_ids", "added", "adding")  # per-player values, start empty

# Choices that must outlast a visit to another page: Streamlit forgets a widget's value when
# a run does not draw it, so the Score page came back from Tile sets with MCR for HK001 and
# Upload for Manual, and a half-typed sheet lost its codes. Each is saved again on every run
# (Streamlit, "Working with widgets in multipage apps", option 3). Only widgets whose value
# may be set: a button's or an upload's may not.
KEPT = frozenset({"rules", "dealer", "round", "winner", "protate", "stake",
                  "teach_name", "teach_codes", "teach_mode"})
KEPT_PREFIXES = ("preset__", "opt__", "mode__", "how__", "whose__", "notation__", "last_tile__",
                 "kong__", "fourth_tile__", "blessing__", "tileset_menu__", "teach_code__")


def keep_choices() -> None:
    """Save the KEPT widgets' values again, before the page runs (app.page.main)."""
    ss = st.session_state
    for key in list(ss.keys()):
        if isinstance(key, str) and (key in KEPT or key.startswith(KEPT_PREFIXES)):
            ss[key] = ss[key]


def init() -> None:
    ss = st.session_state
    for key, value in DEFAULTS.items():
        if key not in ss:
            ss[key] = {} if value is None and key in DICTS else value
    if "drafts" not in ss:
        ss["drafts"] = {"win": edit.Draft()}
    if "session_id" not in ss:
        ss["session_id"] = uuid.uuid4().hex


def draft(who: str) -> edit.Draft:
    return st.session_state["drafts"].get(who) or edit.Draft()


def set_draft(who: str, value: edit.Draft) -> None:
    st.session_state["drafts"] = {**st.session_state["drafts"], who: value}


def target(who: str) -> str:
    return st.session_state["target"].get(who, edit.HAND)


def palette_open(who: str) -> bool:
    return bool(st.session_state["adding"].get(who))


def flash(message: str | None) -> None:
    st.session_state["flash"] = message


def take_flash() -> str | None:
    message, st.session_state["flash"] = st.session_state.get("flash"), None
    return message


def new_hand() -> None:
    """Forget the hands and photos (keep players, rules and the round)."""
    ss = st.session_state
    ss["drafts"] = {"win": edit.Draft()}
    ss["sel"] = None
    ss["target"] = {}
    ss["adding"] = {}
    ss["recog"] = {}
    ss["generation"] += 1


def on_next_hand() -> None:
    new_hand()
    whole_page()  # a new photo box and the ledger's "Next hand" gone


# --- callbacks -----------------------------------------------------------------------------

# The parts of the Score page that a tap runs alone (keys of their Streamlit fragments,
# app.page): the hand editor, and how it was won with the running total and the score.
HAND_PART, SCORE_PART = "hand_part", "score_part"


def _run_both_parts() -> None:
    """Widen a tap that runs one part alone to both; a tap that runs the whole page (one
    outside them, or a script test's) draws both anyway, and narrowing it would leave the
    rest of the page undrawn."""
    ctx = get_script_run_ctx()
    if ctx is not None and ctx.fragment_ids_this_run:
        st.rerun([HAND_PART, SCORE_PART])


def redraws_score(callback):
    """A callback of a tap in the hand editor: when it changed a hand, the score's part runs
    too (the score and the tools follow the hand); else the hand's part alone (a tile
    selected, the palette opened, an edit refused)."""
    @functools.wraps(callback)
    def tapped(*args, **kwargs):
        before = st.session_state.get("drafts")
        callback(*args, **kwargs)
        if st.session_state.get("drafts") != before:
            _run_both_parts()
    return tapped


def redraws_hand(callback):
    """A callback of the whole-hand tools, in the score's part: the hand's part runs too
    (the hand, its palette or the line saying why an edit was refused)."""
    @functools.wraps(callback)
    def tapped(*args, **kwargs):
        callback(*args, **kwargs)
        _run_both_parts()
    return tapped


def whole_page() -> None:
    """Called last in a callback of a tap inside one of those parts: the whole page runs
    instead, for a change shown outside them (the ledger, a new photo box, a Classical
    night's hands)."""
    st.rerun()


def _apply(who: str, fn, *args, **kwargs) -> bool:
    try:
        set_draft(who, fn(draft(who), *args, **kwargs))
    except edit.EditError as exc:
        flash(str(exc))
        return False
    return True


@redraws_score
def on_tile(who: str, ref: str, index: int) -> None:
    ss = st.session_state
    ss["sel"] = None if ss["sel"] == (who, ref, index) else (who, ref, index)


@redraws_score
def on_palette(who: str, code: str, need_winning: bool) -> None:
    sel = st.session_state["sel"]
    if sel and sel[0] == who:
        _apply(who, edit.replace_tile, sel[1], sel[2], code)
        st.session_state["sel"] = None
    else:
        _apply(who, edit.add_next, target(who), code, need_winning=need_winning)


@redraws_score
def on_target(who: str, ref: str) -> None:
    st.session_state["target"] = {**st.session_state["target"], who: ref}
    st.session_state["adding"] = {**st.session_state["adding"], who: True}
    st.session_state["sel"] = None


@redraws_score
def on_close_palette(who: str) -> None:
    st.session_state["adding"] = {**st.session_state["adding"], who: False}
    st.session_state["target"] = {**st.session_state["target"], who: edit.HAND}


@redraws_score
def on_bring_back(who: str, index: int | None) -> None:
    """A tile the layout set aside goes back into the hand (None: all of them)."""
    _apply(who, edit.bring_back, index)
    st.session_state["sel"] = None


@redraws_hand
def on_new_set(who: str) -> None:
    try:
        value, ref = edit.new_meld(draft(who))
    except edit.EditError as exc:
        flash(str(exc))
        return
    set_draft(who, value)
    on_target(who, ref)


@redraws_score
def on_action(who: str, action: str, dest: str | None = None) -> None:
    sel = st.session_state["sel"]
    st.session_state["sel"] = None
    if not sel or sel[0] != who or action == "cancel":
        return
    _who, ref, index = sel
    if action == "remove":
        _apply(who, edit.remove_tile, ref, index)
    elif action == "winning":
        _apply(who, edit.set_winning, ref, index)
    elif action == "move" and dest:
        _apply(who, edit.move_tile, ref, index, dest)


@redraws_score
def on_move(who: str, key: str) -> None:
    """The 'Move to' menu of a tapped tile."""
    dest = st.session_state.get(key)
    if dest:
        on_action(who, "move", dest)


@redraws_score
def on_kind(who: str, ref: str, key: str) -> None:
    st.session_state["sel"] = None
    _apply(who, edit.set_meld_kind, ref, st.session_state[key])
    st.session_state["target"] = {**st.session_state["target"], who: edit.HAND}


@redraws_hand
def on_clear(who: str) -> None:
    set_draft(who, edit.Draft())
    st.session_state["adding"] = {**st.session_state["adding"], who: False}
    st.session_state["sel"] = None
    st.session_state["target"] = {**st.session_state["target"], who: edit.HAND}


@redraws_hand
def on_confirm_all(who: str) -> None:
    set_draft(who, edit.confirm_all(draft(who)))


def _take_notation(who: str, text: str, failure: str) -> bool:
    """The hand in `text` becomes `who`'s draft (bonus tiles kept); a bad one is flashed."""
    from scoring.errors import InvalidHandError
    from scoring.hand import parse_hand
    try:
        hand = parse_hand(text)
    except InvalidHandError as exc:
        flash(_(failure).format(text=text, reason=translate(str(exc))))
        return False
    set_draft(who, dataclasses.replace(edit.from_hand(hand), bonus=draft(who).bonus,
                                       aside=draft(who).aside))
    st.session_state["sel"] = None
    return True


def on_reading(who: str, notation: str) -> None:
    """Take another reading the layout found for the photo (bonus tiles kept)."""
    # the layout offers complete hands only; a bad one is still a message, not a crash
    if _take_notation(who, notation, N_("Could not use {text}: {reason}")):
        flash(_("Now reading the hand as {notation}.").format(notation=notation))


# The longest hand written out (four kongs claimed, eight bonus tiles) is about 60
# characters; a box's text beyond this is not a hand, and is not parsed or echoed back.
MAX_NOTATION = 200


def on_notation(who: str, key: str, need_winning: bool) -> None:
    text = (st.session_state.get(key) or "").strip()
    if len(text) > MAX_NOTATION:
        flash(_("A hand is at most {limit} characters; this one has {count}.").format(
            limit=MAX_NOTATION, count=len(text)))
    elif text:
        _take_notation(who, text, N_("Could not read {text}: {reason}"))
