"""The mahjong-lens page (`mahjong-lens app`, or `streamlit run app/page.py -- --data-dir DIR`).

Top to bottom, the way a hand is scored at the table: rules, photo, the hand as read (fix
it), how it was won, the score, the night's ledger. Each section is guarded: whatever goes
wrong in one shows as one plain line and the rest of the page goes on.
"""
from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script by `streamlit run`: make `app` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import streamlit as st

from app import evaluate
from app.ledger import LedgerError, data_dir
from app.ui import hand, ledger_view, photo, result, situation, state, style

log = logging.getLogger("mahjong_lens.page")


def page_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--data-dir", default=None)
    return parser.parse_known_args(argv)[0]


@contextlib.contextmanager
def guarded(where: str):
    """One plain line instead of a traceback; Streamlit's own rerun/stop signals pass."""
    try:
        yield
    except Exception as exc:  # the page's last line of defence (issue 6, item 7)
        log.exception("error in %s", where)
        text = " ".join(str(exc).split())[:200] or type(exc).__name__
        st.error(f"Something went wrong in {where} ({text}). The rest of the page still works.")


def _names(ledger, night) -> list[str]:
    if isinstance(ledger, str) or night is None:
        return list(st.session_state.get("names") or ("East", "South", "West", "North"))
    return ledger.names(night)


def _whose_hand(names: list[str], winner: int) -> str:
    """Classical: which player's hand is being entered (the winner's, or another's)."""
    options = ["win"] + [f"o{s}" for s in range(4) if s != winner]
    label = {"win": f"{names[winner]} (winner)",
             **{f"o{s}": names[s] for s in range(4)}}
    who = st.segmented_control("Hand of", options, key=f"whose__{winner}", default="win",
                               required=True, format_func=label.get)
    if who != "win":
        st.caption("A loser's hand: any tiles they hold, sets as declared, bonus tiles. "
                   "Leave it empty if they do not show it.")
    return who


def main() -> None:
    st.set_page_config(page_title="mahjong-lens", page_icon="🀄", layout="centered")
    st.html(style.CSS)
    state.init()
    folder = data_dir(page_args(sys.argv[1:]).data_dir)
    ledger = ledger_view.open_ledger(folder)
    night = None
    with guarded("the ledger"):
        if not isinstance(ledger, str):
            try:
                night = ledger.current_night()
            except LedgerError as exc:
                ledger = f"The ledger is off: {exc}"
    names = _names(ledger, night)

    st.markdown("#### 🀄 mahjong-lens")
    rules, preset, overrides = "mcr", None, {}
    with guarded("the rules"):
        rules, preset, overrides = situation.render_rules()
    classical = rules == "classical"
    winner = st.session_state.get("winner", 0) or 0

    who = "win"
    with guarded("the photo"):
        if classical:
            who = _whose_hand(names, winner)
        photo.render(who, need_winning=who == "win")
    with guarded("the hand"):
        hand.render(who, need_winning=who == "win")

    st.subheader("How it was won", anchor=False)
    sit = evaluate.Situation()
    with guarded("how it was won"):
        sit = situation.render_situation(names, rules)

    st.subheader("Score", anchor=False)
    with st.container(key="score"), guarded("the score"):
        drafts = st.session_state["drafts"]
        if classical:
            outcome = evaluate.score_table(drafts, sit, preset, overrides)
        else:
            outcome = evaluate.score_draft(drafts.get("win") or state.draft("win"), sit, rules,
                                           preset, overrides)
        result.render(outcome, names, rules)
        if outcome.players:
            result.render_table(outcome, names)
        entry = evaluate.ledger_entry(outcome, sit, rules, preset, overrides)
        ledger_view.render_add(ledger, night, entry, st.session_state["session_id"],
                               st.session_state["generation"])

    with guarded("the ledger"):
        ledger_view.render(ledger, night, rules)


if __name__ == "__main__":
    main()
