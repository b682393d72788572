"""The mahjong-lens page (`mahjong-lens app`, or `streamlit run app/page.py -- --data-dir DIR`).

Three columns on a wide screen, one under the other on a phone, in the order a hand is
scored at the table: (1) rules, photo, the hand as read (fix it), how it was won and the
running total with "Add to the ledger", which a phone keeps in view at the foot of the
screen; (2) what else the photo cannot show and the score in full; (3) the night's ledger.
Each section is guarded: whatever goes wrong in one shows as one plain line and the rest
of the page goes on. `score_page` is the page itself, for a navigation to call.

A tap redraws only what it changes: the hand editor and the score are each a Streamlit
fragment (`_hand_part`, `_score_part`) that a tap in it runs alone, both when the hand
changed; the photo is read once and kept in the page's state, and the rules, the photo and the
ledger run again only for a tap of their own or one that changes them.
"""
from __future__ import annotations

import contextlib
import logging
import sys
from pathlib import Path

# Run as a script by `streamlit run`: make `app` importable. Streamlit runs this file again
# at every tap, so the folder is added once, not once per tap over a whole night.
_REPO = str(Path(__file__).resolve().parent.parent)
if __package__ in (None, "") and _REPO not in sys.path:
    sys.path.insert(0, _REPO)

import streamlit as st

from app import evaluate
from app.i18n import _
from app.ledger import LedgerError
from app.ui import (hand, join, language, ledger_view, photo, result, send, situation, state, style,
                    tileset)
from app.ui.args import data_folder
from app.ui.literal import literal

log = logging.getLogger("mahjong_lens.page")


@contextlib.contextmanager
def guarded(where: str):
    """One plain line instead of a traceback; Streamlit's own rerun/stop signals pass."""
    try:
        yield
    except Exception as exc:  # the page's last line of defence: no traceback reaches the player
        log.exception("error in %s", where)
        text = " ".join(str(exc).split())[:200] or type(exc).__name__
        st.error(_("Something went wrong in {where} ({text}). The rest of the page still works.").format(
            where=where, text=text))


def _names(ledger, night) -> list[str]:
    """The players' names as the page shows them: in labels, options and Markdown, where a
    typed name must read as itself (escaped), never as markup."""
    if isinstance(ledger, str) or night is None:
        stored = st.session_state.get("names") or ("East", "South", "West", "North")
    else:
        stored = ledger.names(night)
    return [literal(language.player_name(n)) for n in stored]


def _whose_hand(names: list[str], winner: int) -> str:
    """Classical: which player's hand is being entered (the winner's, or another's)."""
    options = ["win"] + [f"o{s}" for s in range(4) if s != winner]
    label = {"win": _("{name} (winner)").format(name=names[winner]),
             **{f"o{s}": names[s] for s in range(4)}}
    who = st.segmented_control(_("Hand of"), options, key=f"whose__{winner}", default="win",
                               required=True, format_func=label.get)
    if who != "win":
        st.caption(_("A loser's hand: any tiles they hold, sets as declared, bonus tiles. "
                     "Leave it empty if they do not show it."))
    return who


def score_page() -> None:
    """The scoring page: photo to score to ledger."""
    state.init()
    language.install()
    folder = data_folder()
    ledger = ledger_view.open_ledger(folder)
    lang = language.resolve(ledger)
    tileset.resolve(ledger, folder)
    night = None
    with guarded(_("the ledger")):
        if not isinstance(ledger, str):
            try:
                night = ledger.current_night()
            except LedgerError as exc:
                ledger = _("The ledger is off: {reason}").format(reason=exc)
    names = _names(ledger, night)
    hand_col, score_col, ledger_col = st.columns([1.1, 1, 1], gap="medium")
    with hand_col:
        rules, who = _photo_part(names, ledger, night)
        _hand_part(names, ledger, rules, who)
        _score_part(names, ledger, night, rules, who, score_col)
    with ledger_col, guarded(_("the ledger")):
        ledger_view.render(ledger, night)
    with ledger_col:  # rarely changed: last on a phone, under the ledger on a wide screen
        language.render_menu(ledger, lang)
        join.render()


def _photo_part(names: list[str], ledger, night) -> tuple[str, str]:
    """The rules and the photo (or the typed hand), which a tap on the hand leaves as they
    are; returns the rule set and whose hand is being entered."""
    rules = "mcr"
    with guarded(_("the rules")):
        rules = situation.render_rules(ledger, night)
    winner = st.session_state.get("winner", 0) or 0
    who = "win"
    with guarded(_("the photo")):
        if rules == "classical":  # the hands sent from the players' phones first
            send.receive(ledger, winner, names)
            who = _whose_hand(names, winner)
        photo.render(who, need_winning=who == "win",
                     header=lambda: tileset.render_choice(ledger),
                     below=lambda: tileset.render_below(ledger, photo.reader))
    return rules, who


@st.fragment(key=state.HAND_PART)
def _hand_part(names: list[str], ledger, rules: str, who: str) -> None:
    """The hand editor. A tap on a tile or the palette runs this part alone (a Streamlit
    fragment, its arguments this run's), and the score's part with it when the hand changed
    (`state.redraws_score`)."""
    winner = st.session_state.get("winner", 0) or 0
    with guarded(_("the hand")):
        hand.render(who, need_winning=who == "win")
        if rules == "classical":
            send.render_send(ledger, who, winner, names)


@st.fragment(key=state.SCORE_PART)
def _score_part(names: list[str], ledger, night, rules: str, who: str, score_col) -> None:
    """How it was won, the running total with "Add to the ledger", the whole-hand tools and
    the score column: a tap on who discarded or an option runs this part alone. A tap that
    changes the rest of the page (the ledger, the next hand, the winner) runs the whole page
    from its callback (`state.whole_page`)."""
    how = (st.session_state.get("winner", 0) or 0, False, None)
    with guarded(_("how it was won")):
        how = situation.render_how(names)
    tally = st.container(key="tally", horizontal=True, vertical_alignment="center")
    # under the running total, which a phone keeps at its foot over what lies above it
    with guarded(_("the hand")):
        hand.render_tools(who)
    with score_col:
        preset, overrides, sit = _options(rules, how)
        st.subheader(_("Score"), anchor=False)
        details = st.container(key="score")
    outcome = evaluate.Outcome(message=_("The hand could not be scored."))
    with details, guarded(_("the score")):
        outcome = _score(rules, preset, overrides, sit)
        result.render(outcome, names, rules, ledger_view.stake(ledger))
        if outcome.players:
            result.render_table(outcome, names)
    with tally, guarded(_("the score")):
        entry = evaluate.ledger_entry(outcome, sit, rules, preset, overrides)
        result.render_tally(outcome, entry, rules)
        ledger_view.render_add(ledger, night, entry, st.session_state["session_id"],
                               st.session_state["generation"])


def _options(rules: str, how) -> tuple:
    """The rule set's options and what else the photo cannot show; returns the preset, the
    options changed from it and the situation."""
    preset, overrides, more = None, {}, {}
    with guarded(_("the rules")):
        preset, overrides = situation.render_options(rules)
    with guarded(_("how it was won")):
        more = situation.render_more(rules, how[1])
    return preset, overrides, situation.situation(how, more)


def _score(rules, preset, overrides, sit) -> evaluate.Outcome:
    drafts = st.session_state["drafts"]
    manual = st.session_state.get("mode__win") == "Manual"
    if rules == "classical":
        return evaluate.score_table(drafts, sit, preset, overrides, manual=manual)
    return evaluate.score_draft(drafts.get("win") or state.draft("win"), sit, rules, preset,
                                overrides, manual=manual)


def main() -> None:
    st.set_page_config(page_title="mahjong-lens", page_icon="🀄", layout="wide")
    st.html(style.CSS)
    language.install()  # the session's language, chosen before the navigation is named
    language.resolve(ledger_view.open_ledger(data_folder()))
    from app.ui import practice  # a practice hand of Hong Kong mahjong against the computer
    from app.ui import teach  # teach the table's own tile set from a photo of it
    state.keep_choices()  # what was chosen on one page is still there after visiting another
    pages = [st.Page(score_page, title=_("Score"), default=True),
             st.Page(practice.render, title=_("Practice"), url_path="practice"),
             st.Page(teach.render, title=_("Tile sets"), url_path="tilesets")]
    chosen = st.navigation(pages, position="top")
    _phone_navigation(pages)
    chosen.run()


def _phone_navigation(pages) -> None:
    """The pages as links in the top bar of a phone, where Streamlit folds its own top
    navigation into the sidebar (hidden on a wide screen, which shows Streamlit's)."""
    with st.container(key="pagenav", horizontal=True, gap="small"):
        for page in pages:
            st.page_link(page, label=page.title)


if __name__ == "__main__":
    main()
