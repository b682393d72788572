"""Classical: each player photographs (or types) their own hand on their own phone and sends
it to the hand being settled; every phone takes the hands sent (a newer one replaces the one
taken, and a correction made here stays until another arrives), and any phone settles."""
from __future__ import annotations

import streamlit as st

from app import edit, hands_sent
from app.i18n import _
from app.ledger import Ledger, LedgerError

from . import state

TAKEN = "sent_taken"  # seat -> (when it was sent, the draft as taken), in this browser session


def _night(ledger) -> int | None:
    if isinstance(ledger, str):
        return None
    try:
        return ledger.current_night()
    except LedgerError:
        return None


def _whose(seat: int, winner: int) -> str:
    return "win" if seat == winner else f"o{seat}"


def receive(ledger: Ledger | str, winner: int, names: list[str]) -> None:
    """Take the hands sent for the hand being settled into this phone's drafts; a hand taken
    for a hand now in the ledger is dropped again where it was not changed here."""
    night = _night(ledger)
    if night is None:
        return
    sent = hands_sent.received(ledger, night)
    taken = dict(st.session_state.get(TAKEN) or {})
    for seat, (at, draft) in sent.items():
        if taken.get(seat, (0.0, None))[0] < at:
            state.set_draft(_whose(seat, winner), draft)
            taken[seat] = (at, draft)
    for seat in [s for s in taken if s not in sent]:
        draft = taken.pop(seat)[1]
        for who in ("win", f"o{seat}"):
            if state.draft(who) == draft:
                state.set_draft(who, edit.Draft())
    st.session_state[TAKEN] = taken
    if sent:
        st.caption(_("Sent from their phones for this hand: {names}").format(
            names=", ".join(names[s] for s in sorted(sent))))


def _on_send(ledger: Ledger, night: int, seat: int, draft: edit.Draft) -> None:
    try:
        hands_sent.send(ledger, night, seat, draft)
    except LedgerError as exc:
        st.session_state["ledger_flash"] = str(exc)
    state.whole_page()  # the hands sent, above the photo; the ledger's line if it failed


def render_send(ledger: Ledger | str, who: str, winner: int, names: list[str]) -> None:
    """'Send this hand to the table', under a hand with tiles in it."""
    night, draft = _night(ledger), state.draft(who)
    if night is None or ledger.read_only or not (draft.codes() or draft.bonus):
        return
    seat = winner if who == "win" else int(who[1:])
    st.button(_("Send {name}'s hand to the table").format(name=names[seat]), key=f"send__{who}",
              icon=":material/send:", on_click=_on_send, args=(ledger, night, seat, draft))
