"""The night's ledger on the page: players and seats, add a scored hand with one tap, running
totals, MCR table points, undo of the last hand, CSV export. The data lives in `app.ledger`."""
from __future__ import annotations

import time
from pathlib import Path

import streamlit as st

from app import evaluate
from app.ledger import Ledger, LedgerError
from scoring.payments import SEATS, table_points

from . import state

_LEDGERS: dict[str, Ledger] = {}


def open_ledger(folder) -> Ledger | str:
    """The ledger in `folder` (opened once per process), or why it cannot be used."""
    key = str(folder)
    if key not in _LEDGERS:
        try:
            _LEDGERS[key] = Ledger(folder)
        except LedgerError as exc:
            return f"The ledger is off: {exc}"
    return _LEDGERS[key]


def _fmt(x: float) -> str:
    return f"{x:+g}".replace("-", "−") if x else "0"


# --- callbacks ---------------------------------------------------------------------------

def on_add(ledger: Ledger, night: int, entry, token: str) -> None:
    try:
        hand_id = ledger.add_hand(night, entry, token)
    except LedgerError as exc:
        st.session_state["ledger_flash"] = str(exc)
        return
    number = next((h.number for h in ledger.hands(night) if h.id == hand_id), None)
    st.session_state["added"] = {**st.session_state["added"], token: number}


def on_undo(ledger: Ledger, night: int, hand_id: int) -> None:
    try:
        ledger.undo(night, hand_id)
        st.session_state["added"] = {}
    except LedgerError as exc:
        st.session_state["ledger_flash"] = str(exc)


def on_names(ledger: Ledger, night: int, keys: list[str]) -> None:
    try:
        ledger.set_names(night, [st.session_state[k] for k in keys])
    except LedgerError as exc:
        st.session_state["ledger_flash"] = str(exc)
    st.session_state["names_rev"] = st.session_state.get("names_rev", 0) + 1


def on_rotate(ledger: Ledger, night: int) -> None:
    names = ledger.names(night)
    try:
        ledger.set_names(night, names[1:] + names[:1])
    except LedgerError as exc:
        st.session_state["ledger_flash"] = str(exc)
    st.session_state["names_rev"] = st.session_state.get("names_rev", 0) + 1


def on_new_night(ledger: Ledger, night: int) -> None:
    ledger.new_night(ledger.names(night))
    st.session_state["added"] = {}
    st.session_state["names_rev"] = st.session_state.get("names_rev", 0) + 1


# --- views -------------------------------------------------------------------------------

def render_add(ledger: Ledger | str, night: int | None, entry, session_id: str, generation: int) -> None:
    """The one-tap 'Add to the ledger' under a result, or why it is not there yet."""
    if isinstance(ledger, str):
        return
    if isinstance(entry, str):
        st.button("Add to the ledger", key="ledger_add", disabled=True, width="stretch",
                  icon=":material/playlist_add:")
        # why not yet is said once, with the running total above the button
        return
    token = evaluate.entry_token(session_id, generation, entry)
    added = st.session_state["added"].get(token)
    if added:
        st.success(f"In the ledger as hand {added}.", icon=":material/task_alt:")
        st.button("Next hand", key="next_hand", type="primary", width="stretch",
                  icon=":material/arrow_forward:", on_click=state.new_hand)
        return
    st.button("Add to the ledger", key="ledger_add", type="primary", width="stretch",
              icon=":material/playlist_add:", on_click=on_add, args=(ledger, night, entry, token))


def render_names(ledger: Ledger, night: int) -> None:
    names = ledger.names(night)
    rev = st.session_state.get("names_rev", 0)
    keys = [f"name__{i}__{night}__{rev}" for i in range(4)]
    for row in ((0, 1), (2, 3)):
        for col, i in zip(st.columns(2), row):
            with col:
                st.text_input(f"{SEATS[i]} seat", value=names[i], key=keys[i], max_chars=24,
                              on_change=on_names, args=(ledger, night, keys))
    st.button("Winds move on (South becomes East)", key="rotate", icon=":material/autorenew:",
              on_click=on_rotate, args=(ledger, night))


def render(ledger: Ledger | str, night: int | None, rules: str) -> None:
    st.subheader("Tonight", anchor=False)
    if isinstance(ledger, str):
        st.warning(ledger)
        return
    message = st.session_state.pop("ledger_flash", None)
    if message:
        st.warning(message)
    render_names(ledger, night)
    hands = ledger.hands(night)
    totals = ledger.totals(night)
    points = table_points(totals) if hands else {}
    show_points = rules == "mcr" and hands
    lines = ["| Player | Total |" + (" Table points |" if show_points else ""),
             "|---|---:|" + ("---:|" if show_points else "")]
    for name, total in totals.items():
        lines.append(f"| {name} | **{_fmt(total)}** |" + (f" {points[name]:g} |" if show_points else ""))
    st.markdown("\n".join(lines))
    if show_points:
        st.caption("Table points 4/2/1/0 by rank (ties share) if the night ended now.")
    if hands:
        rows = [{"#": h.number, "Hand": h.notation, "Rules": h.rules, "Won": h.winner,
                 **{name: h.amounts.get(name, 0) for name in totals}} for h in hands]
        st.dataframe(rows, hide_index=True, width="stretch", key="ledger_table")
        last = hands[-1]
        with st.container(horizontal=True):
            st.button(f"Undo hand {last.number}", key="undo", icon=":material/undo:",
                      on_click=on_undo, args=(ledger, night, last.id))
            st.download_button("CSV", ledger.to_csv(night).encode("utf-8"),
                               file_name=f"mahjong-night-{night}-{time.strftime('%Y%m%d')}.csv",
                               mime="text/csv", key="csv", icon=":material/download:",
                               on_click="ignore")
            st.button("New night", key="new_night", icon=":material/nights_stay:",
                      on_click=on_new_night, args=(ledger, night))
    else:
        st.caption("No hands yet tonight. Score a hand, then 'Add to the ledger'.")
    st.caption(f"Saved in {home_relative(ledger.path)}")


def home_relative(path) -> str:
    """`~/...` for a path in the home folder (shorter on a phone), else the path as is."""
    path = Path(path)
    try:
        return "~/" + path.resolve().relative_to(Path.home().resolve()).as_posix()
    except (ValueError, RuntimeError, OSError):
        return str(path)
