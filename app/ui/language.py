"""The page's language: the player's choice in the menu, kept in the address (`?lang=pl`) and
remembered with the players' names in the ledger; else the browser's language; else the
language `mahjong-lens app --lang` was started with; else English.

The choice lives in this browser session's state, and `install` makes it the language of
everything said in that session's runs, its button callbacks included (they run before the
page body); so two phones at one server each keep their own language.
"""
from __future__ import annotations

import os

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from app import i18n
from app.ledger import DEFAULT_NAMES, Ledger, LedgerError

STATE_KEY = "lang"
MENU_KEY = "language_menu"
ENV = "MAHJONG_LENS_LANG"   # set by `mahjong-lens app --lang`


def session_language() -> str | None:
    """The language of the browser session this thread runs for; None outside a page run."""
    if get_script_run_ctx() is None:
        return None
    return st.session_state.get(STATE_KEY)


def install() -> None:
    i18n.set_fallback(session_language)


def browser_language() -> str | None:
    """The supported language the browser prefers: navigator.language, else Accept-Language."""
    try:
        context = st.context
        return (i18n.normalise(context.locale)
                or i18n.from_accept_language(context.headers.get("Accept-Language")))
    except Exception:  # no browser behind this run (a script test): nothing to go by
        return None


def _remembered(ledger: Ledger | str) -> str | None:
    if isinstance(ledger, str):
        return None
    try:
        return i18n.normalise(ledger.setting("language"))
    except LedgerError:
        return None


def resolve(ledger: Ledger | str) -> str:
    """This browser session's language, decided once and then kept."""
    chosen = st.session_state.get(STATE_KEY)
    if chosen in i18n.LANGUAGES:
        return chosen
    code = (i18n.normalise(st.query_params.get("lang")) or _remembered(ledger)
            or browser_language() or i18n.normalise(os.environ.get(ENV)) or i18n.SOURCE)
    st.session_state[STATE_KEY] = code
    return code


def on_choose(ledger: Ledger | str) -> None:
    code = st.session_state[MENU_KEY]
    st.session_state[STATE_KEY] = code
    st.query_params["lang"] = code
    if not isinstance(ledger, str):
        try:
            ledger.set_setting("language", code)
        except LedgerError:
            pass  # the choice still holds in this browser session; the ledger says why it is off elsewhere


def render_menu(ledger: Ledger | str, lang: str) -> None:
    """A compact menu of the languages, each named in itself."""
    codes = list(i18n.LANGUAGES)
    st.selectbox(i18n._("Language"), codes, index=codes.index(lang), key=MENU_KEY,
                 format_func=i18n.LANGUAGES.get, on_change=on_choose, args=(ledger,),
                 label_visibility="collapsed", width=140)


def said(options, label) -> object:
    """A widget's `format_func` whose words are fixed now, in this run's language: Streamlit
    may call a format_func again outside the run (to compare a widget's value), where the
    session's language is not known."""
    words = {option: label(option) for option in options}
    return lambda option: words.get(option, str(option))


def player_name(name: str) -> str:
    """A player's name as the page shows it: a seat's default name ('East') in the page's
    language, a name the players typed as typed."""
    return i18n._(name) if name in DEFAULT_NAMES else name
