"""The night's ledger on the page: players and seats, add a scored hand with one tap, running
totals, MCR table points, who pays whom to settle up, undo of the last hand, CSV export. The
data lives in `app.ledger`."""
from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

import streamlit as st

from app import evaluate, i18n
from app.i18n import _, ngettext
from app.i18n.messages import translate
from app.ledger import Ledger, LedgerError
from scoring.payments import SEATS, settle_up, table_points

from . import photo, state, tileset
from .language import player_name
from .literal import literal
from .result import hand_words
from .situation import RULE_SHORT

_LEDGERS: dict[str, Ledger] = {}
PAST_SHOWN = 12  # past nights listed, the latest first
# how often a page looks whether another phone changed the ledger: a hand added on one phone
# shows on every other within this and one page run
FOLLOW_S = 2.0
STAKE, MAX_STAKE = "stake", 1e6  # the value of a point: its ledger setting and widget, its most


def open_ledger(folder) -> Ledger | str:
    """The ledger in `folder` (opened once per process), or why it cannot be used."""
    key = str(folder)
    if key not in _LEDGERS:
        try:
            _LEDGERS[key] = Ledger(folder)
        except LedgerError as exc:
            return _("The ledger is off: {reason}").format(reason=exc)
    return _LEDGERS[key]


def _fmt(x: float) -> str:
    """A running total as the player's language writes it, sign always shown (+12, −3,5)."""
    return i18n.format_amount(x) or "0"


# --- callbacks ---------------------------------------------------------------------------

def on_add(ledger: Ledger, night: int, entry, token: str) -> None:
    try:
        hand_id = ledger.add_hand(night, entry, token)
    except LedgerError as exc:
        st.session_state["ledger_flash"] = str(exc)
        state.whole_page()  # the ledger says why
        return
    number = next((h.number for h in ledger.hands(night) if h.id == hand_id), None)
    st.session_state["added"] = {**st.session_state["added"], token: number}
    if tileset.chosen():  # the table's set learns the hand's tiles as corrected
        tileset.after_add(ledger, hand_id, token, photo.reader())
    state.whole_page()  # the night's totals and hands, beside the hand


def on_undo(ledger: Ledger, night: int, hand_id: int) -> None:
    try:
        ledger.undo(night, hand_id)
        st.session_state["added"] = {}
        tileset.after_undo(ledger, hand_id)  # and the sets forget what it taught them
    except LedgerError as exc:
        st.session_state["ledger_flash"] = str(exc)


def _night_change(change, new_night: bool = False) -> None:
    """A change to the night's players or to which night is tonight: its error is said on
    the next run, and the seat boxes are drawn again from the ledger."""
    try:
        change()
    except LedgerError as exc:
        st.session_state["ledger_flash"] = str(exc)
    if new_night:
        st.session_state["added"] = {}
    st.session_state["names_rev"] = st.session_state.get("names_rev", 0) + 1


def on_names(ledger: Ledger, night: int, keys: list[str]) -> None:
    # a box left as shown keeps its name: a seat's default name stays the seat's, in every language
    shown = ledger.names(night)
    _night_change(lambda: ledger.set_names(night, [
        name if st.session_state[k] == player_name(name) else st.session_state[k]
        for k, name in zip(keys, shown)]))


def on_rotate(ledger: Ledger, night: int) -> None:
    _night_change(lambda: ledger.rotate(night))


def on_new_night(ledger: Ledger, night: int) -> None:
    _night_change(lambda: ledger.new_night(ledger.names(night)), new_night=True)


def on_reopen(ledger: Ledger, night: int) -> None:
    _night_change(lambda: ledger.reopen(night), new_night=True)


# --- views -------------------------------------------------------------------------------

def render_add(ledger: Ledger | str, night: int | None, entry, session_id: str, generation: int) -> None:
    """The one-tap 'Add to the ledger' under a result, or why it is not there yet."""
    if isinstance(ledger, str):
        return
    if isinstance(entry, str) or ledger.read_only:
        st.button(_("Add to the ledger"), key="ledger_add", disabled=True, width="stretch",
                  icon=":material/playlist_add:")
        # why not yet is said once, with the running total above the button
        return
    token = evaluate.entry_token(session_id, generation, entry)
    added = st.session_state["added"].get(token)
    if added:
        st.success(_("In the ledger as hand {number}.").format(number=added), icon=":material/task_alt:")
        tileset.render_note(token)
        st.button(_("Next hand"), key="next_hand", type="primary", width="stretch",
                  icon=":material/arrow_forward:", on_click=state.on_next_hand)
        return
    st.button(_("Add to the ledger"), key="ledger_add", type="primary", width="stretch",
              icon=":material/playlist_add:", on_click=on_add, args=(ledger, night, entry, token))


def render_names(ledger: Ledger, night: int) -> None:
    names = ledger.names(night)
    rev = st.session_state.get("names_rev", 0)
    # the language in the key: after a switch the boxes are drawn again, default names in it
    keys = [f"name__{i}__{night}__{rev}__{i18n.current()}" for i in range(4)]
    for row in ((0, 1), (2, 3)):
        for col, i in zip(st.columns(2), row):
            with col:
                st.text_input(_("{seat} seat").format(seat=SEATS[i]), value=player_name(names[i]), key=keys[i],
                              max_chars=24,
                              on_change=on_names, args=(ledger, night, keys))
    st.button(_("Winds move on (South becomes East)"), key="rotate", icon=":material/autorenew:",
              on_click=on_rotate, args=(ledger, night))


def render(ledger: Ledger | str, night: int | None) -> None:
    st.subheader(_("Tonight"), anchor=False)
    if isinstance(ledger, str):
        st.warning(ledger)
        return
    seen = _mark(ledger)  # before reading: a change made while this run reads is drawn by the next
    message = st.session_state.pop("ledger_flash", None)
    if message:
        st.warning(translate(message))
    render_names(ledger, night)
    hands = ledger.hands(night)
    totals = ledger.totals(night)
    off = ledger.off_rows(night)
    if off:  # a hand-edited or damaged file: the rest is shown, the file is left as it is
        st.warning(ngettext("The ledger is off: {count} row of tonight could not be read and "
                            "is left out.", "The ledger is off: {count} rows of tonight could "
                            "not be read and are left out.", off).format(count=off))
    # table points rank a night of MCR hands, whichever rule set is chosen for the next one
    _render_totals(ledger, totals, show_points=bool(hands) and all(h.rules == "mcr" for h in hands))
    if hands:
        _render_hands(ledger, night, hands, totals)
    else:
        st.caption(_("No hands yet tonight. Score a hand, then 'Add to the ledger'."))
    render_past(ledger, night)
    if ledger.read_only:
        st.info(_("The ledger can be viewed but not changed here (a read-only file or a full "
                  "disk): hands are not added."))
    st.caption(_("Saved in {path}").format(path=home_relative(ledger.path)))
    _follow(ledger, seen)


def _mark(ledger: Ledger) -> tuple | None:
    try:
        return ledger.mark()
    except LedgerError:
        return None  # said where the ledger is shown


@st.fragment(run_every=FOLLOW_S)
def _follow(ledger: Ledger, seen: tuple | None) -> None:
    """One night on every phone: the page is drawn again when the ledger is no longer what
    this run showed (a hand added, undone, a name or a night changed on another phone)."""
    if _mark(ledger) != seen:
        st.rerun()


def _render_totals(ledger: Ledger, totals: dict, show_points: bool) -> None:
    """Each player's total, and under MCR the table points if the night ended now."""
    points = table_points(totals) if show_points else {}
    heads = [_("Player"), _("Total")] + ([_("Table points")] if show_points else [])
    lines = ["| " + " | ".join(heads) + " |", "|---|---:|" + ("---:|" if show_points else "")]
    for name, total in totals.items():
        lines.append(f"| {literal(player_name(name))} | **{_fmt(total)}** |" +
                     (f" {i18n.format_number(points[name])} |" if show_points else ""))
    st.markdown("\n".join(lines))
    if show_points:
        st.caption(_("Table points 4/2/1/0 by rank (ties share) if the night ended now."))
    _render_settle_up(ledger, totals)  # its value of a point can be set before the first hand


def stake(ledger: Ledger | str) -> float:
    """The table's value of a point, as the ledger keeps it (1 until one is set, or with the
    ledger off)."""
    if isinstance(ledger, str):
        return 1.0
    try:
        value = float(ledger.setting(STAKE) or 1.0)
    except (LedgerError, ValueError):
        return 1.0
    return value if 0 <= value <= MAX_STAKE else 1.0


def on_stake(ledger: Ledger) -> None:
    try:
        ledger.set_setting(STAKE, st.session_state[STAKE])
    except LedgerError:
        pass  # it holds in this browser session; the ledger says why it is off


def _render_settle_up(ledger: Ledger, totals: dict) -> None:
    """Who pays whom to end the night even, in the fewest payments, at the table's value of
    a point (kept in the ledger, for every phone at the table)."""
    with st.popover(_("Settle up"), icon=":material/payments:"):
        if STAKE not in st.session_state:
            st.session_state[STAKE] = stake(ledger)
        value = st.number_input(_("Value of a point"), key=STAKE, min_value=0.0,
                                max_value=MAX_STAKE, step=0.05, format="%.2f",
                                on_change=on_stake, args=(ledger,))
        payments = settle_up(totals)
        for payer, payee, amount in payments:
            st.markdown(_("{payer} pays {payee} {amount}").format(
                payer=literal(player_name(payer)), payee=literal(player_name(payee)),
                amount=f"**{i18n.format_number(amount * value)}**"))
        # the night in plain text, with the code block's copy button: for the table's chat
        st.code("\n".join([f"{player_name(n)} {_fmt(t)}" for n, t in totals.items()] + [
            _("{payer} pays {payee} {amount}").format(
                payer=player_name(a), payee=player_name(b), amount=i18n.format_number(x * value))
            for a, b, x in payments]), language=None, wrap_lines=True)


def _render_hands(ledger: Ledger, night: int, hands: list, totals: dict) -> None:
    """Tonight's hands, with undo of the last, the CSV and a new night."""
    # columns keyed by position, named by their labels: a player called "#" or "Time" is a
    # column of their own, not the hand number's or the time's
    heads = ["#", _("Time"), _("Hand"), _("Rules"), _("Won")] + [player_name(n) for n in totals]
    rows = [dict(zip(map(str, range(len(heads))), [
        h.number, i18n.format_time(dt.datetime.fromtimestamp(h.created)), hand_words(h.notation),
        RULE_SHORT.get(h.rules, h.rules), h.winner_name or h.winner,
        *[h.amounts.get(name, 0) for name in totals]])) for h in hands]
    st.dataframe(rows, hide_index=True, width="stretch", key="ledger_table",
                 column_config={str(i): st.column_config.Column(head)
                                for i, head in enumerate(heads)})
    last = hands[-1]
    with st.container(horizontal=True):
        st.button(_("Undo hand {number}").format(number=last.number), key="undo", icon=":material/undo:",
                  on_click=on_undo, args=(ledger, night, last.id))
        # the language's delimiter and decimal mark; a byte-order mark so that a spreadsheet
        # opening the file by double click reads its names as UTF-8
        csv_text = ledger.to_csv(night, **i18n.csv_options())
        st.download_button("CSV", ("\ufeff" + csv_text).encode("utf-8"),
                           file_name=f"mahjong-night-{night}-{time.strftime('%Y%m%d')}.csv",
                           mime="text/csv", key="csv", icon=":material/download:",
                           on_click="ignore")
        with st.popover(_("New night"), icon=":material/nights_stay:"):
            st.write(_("Start a new night? Tonight's {count} hands stay under Past nights, "
                       "to reopen or export.").format(count=len(hands)))
            st.button(_("Start a new night"), key="new_night", type="primary",
                      on_click=on_new_night, args=(ledger, night))


def render_past(ledger: Ledger, night: int) -> None:
    """The nights before tonight: each to reopen (go on with it) or export."""
    past = [n for n in ledger.nights() if n.id != night][:PAST_SHOWN]
    if not past:
        return
    with st.expander(_("Past nights ({count})").format(count=len(past)), icon=":material/history:"):
        for n in past:
            when = i18n.format_datetime(dt.datetime.fromtimestamp(n.started))
            st.markdown(f"**{literal(when)}** · {literal(', '.join(n.names))} · "
                        + _("{count} hands").format(count=n.hands))
            with st.container(horizontal=True):
                st.button(_("Reopen"), key=f"reopen__{n.id}", icon=":material/restore:",
                          on_click=on_reopen, args=(ledger, n.id))
                st.download_button("CSV", ("\ufeff" + ledger.to_csv(n.id, **i18n.csv_options())).encode("utf-8"),
                                   file_name=f"mahjong-night-{n.id}.csv", mime="text/csv",
                                   key=f"csv__{n.id}", icon=":material/download:", on_click="ignore")


def home_relative(path) -> str:
    """`~/...` for a path in the home folder (shorter on a phone), else the file's name alone:
    the page does not tell the table where on the server the ledger lives."""
    path = Path(path)
    try:
        return "~/" + path.resolve().relative_to(Path.home().resolve()).as_posix()
    except (ValueError, RuntimeError, OSError):
        return path.name
