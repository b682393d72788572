"""The ledger on the page: names typed by the players are text everywhere (never Markdown),
renaming after a hand keeps four players, "New night" asks first and keeps the past nights
to reopen or export."""
from __future__ import annotations

import csv
import io

import pytest
from streamlit.testing.v1 import AppTest

from app.ledger import HandEntry, Ledger
from app.ui.literal import literal
from app_fixtures import PAGE, click, texts

WIN = HandEntry("mcr", "123m456p789sEEESS", 15, "E", {"E": 47, "S": -23, "W": -8, "N": -16},
                discarder="S", preset="wmo")
ATTACKS = ["**bold**", "![](//127.0.0.1:9/x)", "a|b|c", "[c](javascript:alert(1))"]


def _shown(at) -> str:
    """Everything the page renders as Markdown: text, and the labels and options of widgets."""
    parts = [texts(at)]
    for kind in ("button", "pills", "segmented_control", "selectbox", "text_input", "toggle",
                 "radio", "expander", "popover"):
        for element in at.get(kind):
            parts.append(str(getattr(element, "label", "") or ""))
            parts += [str(o) for o in getattr(element, "options", []) or []]
    return "\n".join(parts)


def _started(folder) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("name", ATTACKS + ["Ann", "Zoë 李"])
def test_literal_shows_a_name_as_typed(name):
    escaped = literal(name)
    unescaped = escaped.replace("\\", "").replace("\u2060", "")  # escapes, link breakers
    assert unescaped == name
    assert all(escaped[i - 1] == "\\" for i, c in enumerate(escaped) if c in "*![]()|:/")


def test_player_names_are_text_everywhere_on_the_page(data_dir):
    ledger = Ledger(data_dir)
    night = ledger.current_night()
    ledger.set_names(night, ATTACKS)
    ledger.add_hand(night, WIN, "t1")
    shown = _shown(_started(data_dir))
    for name in ATTACKS:
        assert name not in shown, f"{name!r} reached the page as Markdown"
    assert literal("a|b|c") in shown and "**+47**" in shown  # its amount is in the table


def test_renaming_the_seats_after_a_hand_keeps_four_players(page, data_dir):
    ledger = Ledger(data_dir)
    ledger.add_hand(ledger.current_night(), WIN, "t1")
    page.run()
    for i, name in enumerate(["Ann", "Bo", "Cai", "Dee"]):
        box = next(t for t in page.text_input if t.key.startswith(f"name__{i}__"))
        box.set_value(name).run()
    totals = next(m.value for m in page.markdown if "| **" in m.value and "Ann" in m.value)
    assert [line.split("|")[1].strip() for line in totals.splitlines()[2:]] == ["Ann", "Bo", "Cai", "Dee"]
    assert "| Ann | **+47** |" in totals and "| Dee | **−16** |" in totals
    header = next(csv.reader(io.StringIO(ledger.to_csv(ledger.current_night()))))
    assert header[7:] == ["Ann", "Bo", "Cai", "Dee"]


def test_settling_up_says_who_pays_whom_at_the_value_of_a_point(page, data_dir):
    ledger = Ledger(data_dir)
    night = ledger.current_night()
    ledger.set_names(night, ["Ann", "Bo", "**Cai**", "Dee"])
    ledger.add_hand(night, WIN, "t1")                     # Ann +47, Bo −23, Cai −8, Dee −16
    page.run()

    def said() -> list[str]:
        return [m.value for m in page.markdown if " pays " in m.value]
    assert said() == ["Bo pays Ann **23**", "Dee pays Ann **16**", f"{literal('**Cai**')} pays Ann **8**"]
    page.number_input(key="stake").set_value(0.25).run()
    assert said()[0] == "Bo pays Ann **5.75**"
    copied = [c.value for c in page.code if "pays" in c.value]  # plain text, names as typed
    assert copied == ["Ann +47\nBo −23\n**Cai** −8\nDee −16\n"
                      "Bo pays Ann 5.75\nDee pays Ann 4\n**Cai** pays Ann 2"]
    again = _started(data_dir)                            # another phone at the table
    assert [m.value for m in again.markdown if " pays " in m.value][0] == "Bo pays Ann **5.75**"


@pytest.mark.parametrize("kept", ["abc", "-5", "1e400", "nan"])
def test_a_value_of_a_point_the_page_cannot_use_is_one(data_dir, kept):
    ledger = Ledger(data_dir)
    ledger.add_hand(ledger.current_night(), WIN, "t1")
    ledger.set_setting("stake", kept)
    said = [m.value for m in _started(data_dir).markdown if " pays " in m.value]
    assert said[0] == "South pays East **23**"


def test_new_night_asks_first_and_keeps_the_night_to_reopen(page, data_dir):
    ledger = Ledger(data_dir)
    first = ledger.current_night()
    ledger.add_hand(first, WIN, "t1")
    page.run()
    assert "Start a new night?" in _shown(page) or page.get("popover")
    click(page, "new_night")                               # the button inside the popover
    assert Ledger(data_dir).current_night() != first
    assert f"reopen__{first}" in [b.key for b in page.button]
    assert page.get("download_button") and any(
        d.key == f"csv__{first}" for d in page.get("download_button"))
    click(page, f"reopen__{first}")
    assert Ledger(data_dir).current_night() == first


@pytest.mark.parametrize("first, then, before, after", [
    ("en", "pl", "East", "Wschód"),
    ("de", "en", "Ost", "East"),
    ("en", "zh", "North", "北"),
])
def test_the_seat_boxes_follow_a_language_switch(data_dir, first, then, before, after):
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params["lang"] = first
    at.run()
    seat = 3 if after == "北" else 0

    def box():
        return next(t for t in at.text_input if t.key.startswith(f"name__{seat}__"))
    assert box().value == before
    other = next(t for t in at.text_input if t.key.startswith("name__1__"))
    other.set_value("Ann").run()  # the other boxes are saved as they are shown
    at.selectbox(key="language_menu").set_value(then).run()
    assert not at.exception, [e.value for e in at.exception]
    assert box().value == after
    assert Ledger(data_dir).names(Ledger(data_dir).current_night())[seat] == ("North" if seat else "East")
