"""Money is exact: for any allowed unit and every rule set, a hand's payments sum to zero
in decimals, and the ledger's CSV row says the same amounts as the page and sums to zero."""
from __future__ import annotations

import csv
import io
import tempfile
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.evaluate import payments_by_name
from app.ledger import HandEntry, Ledger
from scoring.payments import DISCARD_SPLITS, MULTIPLIERS, money, money_sum, settle_up
from scoring.request import score_request

NAMES = ["Ann", "Bo", "Cy", "Di"]
# winning hands of every rule set: a limit hand, a middling one, a small one
HANDS = ["1m9m1p9p1s9sESWNPFCC", "[CCC1][FFF1]234p56pPP7p", "[123m][EEE1]456p789sNN"]
RULES = [("mcr", "wmo"), ("mcr", "china"), ("hk001", None), ("hk002", None), ("classical", None)]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def requests(draw) -> tuple[dict, str, str | None]:
    rules, preset = draw(st.sampled_from(RULES))
    seat = draw(st.sampled_from("ESWN"))
    request = {"hand": draw(st.sampled_from(HANDS)), "seat": seat}
    if draw(st.booleans()):
        request["self_drawn"] = True
    else:
        request["discarder"] = draw(st.sampled_from([s for s in "ESWN" if s != seat]))
    if rules.startswith("hk"):
        request["options"] = {  # any unit of whole hundredths, 0.01 .. 1,000,000
            "unit": draw(st.integers(1, 100_000_000)) / 100,
            "multiplier": draw(st.sampled_from(MULTIPLIERS)),
            "discard_split": draw(st.sampled_from(list(DISCARD_SPLITS))),
            "self_draw_each": draw(st.sampled_from([1, 2])), "minimum": 0}
    return request, rules, preset


def csv_rows(ledger: Ledger, night: int) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(ledger.to_csv(night))))


@SETTINGS
@given(requests())
def test_payments_sum_to_zero_and_the_csv_says_the_page_s_amounts(case):
    request, rules, preset = case
    result = score_request(request, rules, preset)
    payments = result["payments"]
    if not result["valid"] or payments is None:
        return
    assert money_sum(payments.values()) == 0, payments
    with tempfile.TemporaryDirectory() as folder:
        ledger = Ledger(folder)
        night = ledger.current_night()
        ledger.set_names(night, NAMES)
        entry = HandEntry(rules, result["hand"], result["total"], request["seat"], payments)
        ledger.add_hand(night, entry, "t")
        row, total = csv_rows(ledger, night)
        names = list(ledger.totals(night))
        page = {name: money(paid) for name, _, paid in payments_by_name(payments, names)}
        assert {name: Decimal(row[name]) for name in names} == page
        assert sum(Decimal(row[name]) for name in names) == 0
        assert {name: Decimal(total[name]) for name in names} == page
        assert money_sum(paid for _, _, paid in settle_up(ledger.totals(night))) \
            == sum(v for v in page.values() if v > 0)


@pytest.mark.parametrize("unit, shown", [
    (512.07, {"E": "12584632.32", "S": "-4194877.44"}),  # as binary floats these do not sum to 0
    (1220.7, {"E": "29999923.2"}),
])
def test_a_thirteen_orphans_self_drawn_in_hk_is_exact_to_the_cent(unit, shown, tmp_path):
    result = score_request({"hand": "1m9m1p9p1s9sESWNPFCC", "self_drawn": True},
                           "hk001", None, {"unit": unit})
    assert money_sum(result["payments"].values()) == 0
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    ledger.add_hand(night, HandEntry("hk001", result["hand"], result["total"], "E",
                                     result["payments"]), "t")
    row = csv_rows(ledger, night)[0]
    by_seat = dict(zip("ESWN", list(ledger.totals(night))))
    assert {seat: row[by_seat[seat]] for seat in shown} == shown


@pytest.mark.parametrize("paid, written", [
    (474071.04, "474071.04"), (1279998.72, "1279998.72"), (-0.005, "-0.005"), (24, "24"),
    (24.0, "24"), (1e16, "10000000000000000")])
def test_csv_amounts_are_written_in_full(paid, written):
    from scoring.payments import money_text
    assert money_text(paid) == written


@pytest.mark.parametrize("unit", [1.005, 0.015, 999999.999])
def test_a_unit_finer_than_a_hundredth_is_one_line(unit):
    from scoring.errors import InvalidHandError
    with pytest.raises(InvalidHandError, match="option unit must be in whole hundredths"):
        score_request({"hand": HANDS[0], "self_drawn": True}, "hk001", None, {"unit": unit})


def test_the_command_line_writes_the_amounts_in_full(capsys):
    from app.cli import main
    assert main(["score", "--rules", "hk001", "--hand", "1m9m1p9p1s9sESWNPFCC", "--self-drawn",
                 "--option", "unit=512.07", "--lang", "en"]) == 0
    assert "payments: E +12584632.32, S -4194877.44," in capsys.readouterr().out
