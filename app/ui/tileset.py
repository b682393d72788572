"""The table's own tile set on the score page: which set the night plays with, reading each
photo with it, and learning each added hand's tiles under their final codes.

The choice is a small menu in the photo row ("No tile set", the sets in the data folder, or a
new name, which creates one); it is remembered in the ledger like the language. A photo is
read with the set through the page's one reader (`TaughtClassifier(base, set)` per photo,
sharing its ONNX session); a damaged set, or one taught with another model, is said in one
line and the photo is read without it. The sets themselves: vision.tileset.
"""
from __future__ import annotations

import copy
import os
from pathlib import Path

import numpy as np
import streamlit as st

from app import edit
from app.i18n import _, ngettext
from app.i18n.messages import translate
from app.ledger import Ledger, LedgerError
from scoring.errors import one_line
from scoring.tiles import TILES
from vision.tileset import (TaughtClassifier, TileSet, TileSetError, check_name, forget_hand,
                            learn_hand, load_set, save_set)
from vision.layout.table import hand_tiles
from vision.tileset.store import set_names, set_path

from .literal import literal

STATE_KEY = "tileset"       # the chosen set's name; "" for none
SETTING = "tileset"         # the ledger's setting that remembers it for the night
FOLDER_KEY = "data_folder"  # the data folder, for the callbacks and the photo path
NONE = ""
NEW = "\x00new"       # the menu's "New tile set…" (never a set name)
ERRORS = (ValueError, OSError)
MENU_WIDTH = 120  # beside Camera · Upload · Manual on one line of a phone (390 px)


def chosen() -> str | None:
    return st.session_state.get(STATE_KEY) or None


def folder() -> Path | None:
    value = st.session_state.get(FOLDER_KEY)
    return Path(value) if value else None


def resolve(ledger: Ledger | str, data: Path) -> None:
    """The night's set, decided once per browser session: the ledger's setting, else none."""
    ss = st.session_state
    ss[FOLDER_KEY] = str(data)
    if STATE_KEY in ss:
        return
    remembered = NONE
    if not isinstance(ledger, str):
        try:
            stored = ledger.setting(SETTING)
            remembered = check_name(stored) if stored else NONE
        except (LedgerError, TileSetError):
            remembered = NONE
    ss[STATE_KEY] = remembered


def remember(ledger: Ledger | str, name: str) -> None:
    st.session_state[STATE_KEY] = name
    if not isinstance(ledger, str):
        try:
            ledger.set_setting(SETTING, name)
        except LedgerError:
            pass  # the choice holds in this browser session; the ledger says why it is off


# --- reading and learning with the page's reader ---------------------------------------------

def plain_learner(reader) -> TaughtClassifier:
    """The page reader's crop reader as a set learns with it (no set); ValueError (one line)
    when it cannot learn (no crop reader, or one without features)."""
    if isinstance(reader, str):
        raise ValueError(reader)
    base = getattr(reader.refiner, "base", reader.refiner)
    return TaughtClassifier(base, None)


def create(name: str, reader, data) -> TileSet:
    """A new empty set for the page reader's model (an existing one is kept as it is)."""
    name = check_name(name)
    if set_path(name, data).is_file():
        return load_set(name, data)
    tileset = TileSet(name, np.asarray(plain_learner(reader).probe(), np.float32))
    save_set(tileset, data)
    return tileset


def version(data) -> str:
    """What the page's cached reading of a photo depends on: the chosen set and when it last
    changed (a photo read before a set is taught is read again after)."""
    name = chosen()
    if not name or data is None:
        return NONE
    try:
        return f"{name}@{os.stat(set_path(name, data)).st_mtime_ns}"
    except (OSError, TileSetError):
        return f"{name}@-"


def reader_for_photo(reader, data):
    """(reader to read this photo with, one line or None): the page's reader reading with the
    chosen set, or the reader itself and why the set is not used."""
    name = chosen()
    if not name or isinstance(reader, str):
        return reader, None
    try:
        learner = plain_learner(reader)
        tileset = load_set(name, data, learner.probe())
    except ERRORS as exc:
        return reader, _("Read without the tile set: {reason}").format(
            reason=translate(one_line(exc)))
    taught = copy.copy(reader)  # shares the detector and the ONNX sessions
    taught.refiner = TaughtClassifier(learner.base, tileset)
    return taught, None


def boxed_tiles(draft: edit.Draft) -> tuple[list[str], list[tuple[float, ...]]]:
    """The hand's face-up tiles that came from the photo: final codes and boxes (full
    resolution); tiles entered from the palette have no box and are left out."""
    slots = list(draft.hand) + [s for m in draft.melds for s in m.tiles] + list(draft.bonus) \
        + ([draft.winning] if draft.winning else [])
    kept = [s for s in slots if s.box is not None and s.code in TILES]
    return [s.code for s in kept], [s.box for s in kept]


def fixed_tiles(codes: list[str], boxes: list[tuple[float, ...]], layout) -> list[bool]:
    """Which of a hand's photographed tiles the player changed from what the page read."""
    def at(box) -> tuple[float, ...]:
        return tuple(round(float(v), 1) for v in box)
    laid = hand_tiles(layout) + list(layout.bonus) + list(layout.ignored)
    read = {at(t.box): t.code for t in laid}
    return [read.get(at(box), code) != code for code, box in zip(codes, boxes)]


def learn_added(hand_id: int, data, reader, drafts: dict, found: dict
                ) -> tuple[int, int] | None:
    """Teach the chosen set the tiles of a hand just added to the ledger (each player's hand
    read from a photo): (tiles learnt, of them fixed by the player), None when there was
    nothing to learn."""
    name = chosen()
    pieces = []
    for who, draft in drafts.items():
        recognition = found.get(who)
        photo = getattr(recognition, "photo", None)
        codes, boxes = boxed_tiles(draft)
        if photo is not None and codes:
            pieces.append((photo, codes, boxes, fixed_tiles(codes, boxes, recognition.layout)))
    if not name or not pieces:
        return None
    learner = plain_learner(reader)
    total = 0
    for photo, codes, boxes, fixed in pieces:
        sx, sy = photo.scale
        pixels = np.asarray(boxes, np.float32) / np.array([sx, sy, sx, sy], np.float32)
        total += learn_hand(name, photo.rgb, pixels, codes, hand_id, data, refiner=learner,
                            corrected=fixed)
    return total, sum(sum(p[3]) for p in pieces)


def after_add(ledger: Ledger, hand_id: int, token: str, reader) -> None:
    """The Add callback's second half: learn the hand, and keep one line to say so."""
    ss = st.session_state
    name = chosen()
    try:
        learnt = learn_added(hand_id, ledger.folder, reader, ss["drafts"], ss["recog"])
    except ERRORS as exc:
        note = _("The tile set '{name}' did not learn this hand: {reason}").format(
            name=name, reason=translate(one_line(exc)))
    else:
        if learnt is None:
            return
        count, fixes = learnt
        note = ngettext("{count} tile added to set '{name}'.",
                        "{count} tiles added to set '{name}'.", count).format(count=count, name=name)
        if fixes:
            note += " " + ngettext("Your fix is among them.", "Your {count} fixes are among them.",
                                   fixes).format(count=fixes)
    ss["tileset_notes"] = {**ss.get("tileset_notes", {}), token: note}
    _keep_readings(ledger.folder)


def after_undo(ledger: Ledger, hand_id: int) -> int:
    """Undo in the ledger: every set forgets what that hand taught it."""
    removed = 0
    for name in set_names(ledger.folder):  # each set read once, by forget_hand
        try:
            removed += forget_hand(name, hand_id, ledger.folder)
        except ERRORS:
            continue  # a damaged set, or one that cannot be written, stays as it is
    _keep_readings(ledger.folder)
    return removed


def _keep_readings(data) -> None:
    """The photos on the page stay as corrected: what they taught a set (or stopped
    teaching it) is no reason to read them again."""
    ss = st.session_state
    now = version(data)
    ss["photo_ids"] = {who: pid.split("|")[0] + "|" + now for who, pid in ss["photo_ids"].items()}


def render_note(token: str) -> None:
    note = st.session_state.get("tileset_notes", {}).get(token)
    if note:
        st.caption(note)


# --- the choice -------------------------------------------------------------------------------

def on_choose(ledger: Ledger | str, key: str) -> None:
    ss = st.session_state
    value = ss.get(key) or NONE
    ss["tileset_rev"] = ss.get("tileset_rev", 0) + 1
    ss["tileset_naming"] = value == NEW
    if value != NEW:
        remember(ledger, value)


def on_new_name(ledger: Ledger | str, key: str, reader_fn) -> None:
    """A typed name: checked, created when new (for the page reader's model), chosen."""
    ss = st.session_state
    try:
        name = check_name(ss.get(key) or "")
        data = folder()
        if not set_path(name, data).is_file():
            create(name, reader_fn(), data)
            ss["tileset_created"] = name  # said once: how a new set learns
    except ERRORS as exc:
        ss["tileset_error"] = translate(one_line(exc))
        return
    ss["tileset_naming"] = False
    ss["tileset_rev"] = ss.get("tileset_rev", 0) + 1  # the menu drawn afresh, showing it
    remember(ledger, name)


def render_choice(ledger: Ledger | str) -> None:
    """The compact menu: no set, the sets in the data folder, or a new one."""
    ss = st.session_state
    current = chosen() or NONE
    try:
        names = set_names(folder())
    except ERRORS:
        names = []
    options = [NONE] + sorted(set(names) | ({current} - {NONE}), key=str.lower) + [NEW]
    key = f"tileset_menu__{ss.get('tileset_rev', 0)}"
    labels = {NONE: _("No tile set"), NEW: _("New tile set…")}
    st.selectbox(_("Tile set"), options, index=options.index(current), key=key,
                 format_func=lambda n: labels.get(n, n), on_change=on_choose, args=(ledger, key),
                 label_visibility="collapsed", width=MENU_WIDTH,
                 help=_("The table's own tiles: photos are read with this set, and each hand "
                        "added to the ledger teaches it."))


def render_below(ledger: Ledger | str, reader_fn) -> None:
    """Under the menu's row: the new set's name while it is typed, and why one was refused."""
    ss = st.session_state
    if ss.get("tileset_naming"):
        key = "tileset_new"
        st.text_input(_("Name of the new tile set"), key=key, max_chars=64,
                      placeholder=_("e.g. Jade"), on_change=on_new_name,
                      args=(ledger, key, reader_fn))
    error = ss.pop("tileset_error", None)
    if error:
        st.error(error)
    created = ss.pop("tileset_created", None)
    if created:  # a table that teaches its sheet first needs about a third fewer fixes a hand
        st.info(_("New tile set '{name}': it learns from each hand added to the ledger. A photo "
                  "of its tiles on the Tile sets page teaches it all at once, flowers and "
                  "seasons too.").format(name=literal(created)), icon=":material/school:")
