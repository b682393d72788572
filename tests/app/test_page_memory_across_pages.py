"""What a player chose on one page is still chosen after a visit to another: Streamlit
forgets the value of a widget a run does not draw (app/ui/state.py KEPT)."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

# One page's widgets, drawn or not as a visit to another page would leave them.
PAGE = """
import streamlit as st
from app.ui import state
state.keep_choices()
if st.session_state.get("on_this_page", True):
    st.selectbox("Winner", [0, 1, 2, 3], key="winner")
    st.text_input("Codes", key="teach_codes", value="123m")
    st.selectbox("Not kept", [0, 1, 2, 3], key="scratch")
    st.button("Add", key="ledger_add")
"""


@pytest.fixture
def page():
    at = AppTest.from_string(PAGE, default_timeout=30)
    at.run()
    at.selectbox(key="winner").set_value(2)
    at.text_input(key="teach_codes").set_value("456p")
    at.selectbox(key="scratch").set_value(3)
    at.run()
    return at


def away_and_back(at):
    at.session_state["on_this_page"] = False
    at.run()
    at.session_state["on_this_page"] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]  # a button's key is left alone


def test_the_kept_choices_outlast_a_visit_to_another_page(page):
    away_and_back(page)
    assert page.selectbox(key="winner").value == 2
    assert page.text_input(key="teach_codes").value == "456p"


def test_without_keeping_a_choice_is_forgotten(page):
    away_and_back(page)
    assert page.selectbox(key="scratch").value == 0  # why the page keeps its choices
