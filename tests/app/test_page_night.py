"""The night's choices live with the night: the rule set the table chose is there again after
a reload, and the night's totals show MCR table points only for a night scored under MCR."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app.ledger import HandEntry, Ledger
from app_fixtures import PAGE


def _open() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("chosen", ["hk001", "classical", "mcr"])
def test_the_rule_set_outlasts_a_reload(data_dir, chosen):
    page = _open()
    assert page.segmented_control(key="rules").value == "mcr"
    page.segmented_control(key="rules").set_value("hk002").run()
    page.segmented_control(key="rules").set_value(chosen).run()
    assert _open().segmented_control(key="rules").value == chosen  # a reload, another phone


def test_a_night_keeps_its_own_rule_set(data_dir):
    ledger = Ledger(data_dir)
    first = ledger.current_night()
    _open().segmented_control(key="rules").set_value("hk001").run()
    second = ledger.new_night()
    assert _open().segmented_control(key="rules").value == "hk001"  # the table's last choice
    ledger.set_setting(f"rules.night.{second}", "classical")
    ledger.reopen(first)
    assert _open().segmented_control(key="rules").value == "hk001"


MCR = HandEntry("mcr", "123m456p789sEEESS", 15, "E", {"E": 47, "S": -23, "W": -8, "N": -16},
                discarder="S", preset="wmo")
HK = HandEntry("hk001", "[CCC1][FFF1]234p56pPP7p", 3, "E", {"E": 16, "S": -8, "W": -4, "N": -4},
               discarder="S", preset="hk001")


@pytest.mark.parametrize("night, chosen, points", [
    ((HK,), "mcr", False),          # a night of Hong Kong hands: no table points
    ((MCR,), "hk001", True),        # MCR hands: table points, whatever is chosen for the next
    ((MCR,), "mcr", True),
    ((MCR, HK), "mcr", False),      # a night under more than one rule set
])
def test_table_points_belong_to_a_night_scored_under_mcr(data_dir, night, chosen, points):
    ledger = Ledger(data_dir)
    for i, entry in enumerate(night):
        ledger.add_hand(ledger.current_night(), entry, f"t{i}")
    page = _open()
    page.segmented_control(key="rules").set_value(chosen).run()
    totals = next(m.value for m in page.markdown if m.value.startswith("| Player"))
    assert ("Table points" in totals) == points


@pytest.mark.parametrize("value, money", [
    (None, None),                                   # no value of a point set: points only
    ("0.01", ("At 0.01 a point", "| East | E | **+1,536** | +15.36 |")),
    ("2.5", ("At 2.5 a point", "| South | S | **−1,536** | −3,840 |")),
])
def test_a_hands_payments_in_money_at_the_tables_value_of_a_point(data_dir, value, money):
    """Hong Kong: what a hand pays is in points (a limit hand from one discard 8,192 a share),
    and in money where the table set what a point is worth (Settle up, kept in the ledger)."""
    if value is not None:
        Ledger(data_dir).set_setting("stake", value)
    page = _open()
    page.segmented_control(key="rules").set_value("hk001").run()
    page.segmented_control(key="mode__win").set_value("Manual").run()
    page.text_input(key="notation__win__0").set_value("[CCC1][FFF1]234p56pPP7p").run()
    page.pills(key="how__0__0").set_value(1).run()  # South discarded
    table = next(m.value for m in page.markdown if m.value.startswith("| Player | Seat"))
    assert table.splitlines()[0].startswith("| Player | Seat | Gets (points) |")
    if money is None:
        assert "a point" not in table
    else:
        assert money[0] in table.splitlines()[0] and money[1] in table


def test_the_value_of_a_point_can_be_set_before_the_first_hand(data_dir):
    page = _open()
    assert page.number_input(key="stake").value == 1.0
    page.number_input(key="stake").set_value(0.5).run()
    assert Ledger(data_dir).setting("stake") == "0.5"
