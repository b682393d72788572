"""MCR golden vectors: docs/rules.md §4.1 (M-01..M-18), §4.2 (D-01..D-06), §4.4 (settlement)
and Appendix A, read from tests/scoring/data/mcr_golden.tsv. Each row is checked under its
preset (wmo = the spec's expected value, china = PyMahjongGB's) on the total and on the
multiset of fan names."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from scoring.hand import WinContext, parse_hand
from scoring.payments import table_points
from scoring.rules import make_options, score
from scoring.tiles import BONUS

DATA = Path(__file__).parent / "data" / "mcr_golden.tsv"


def _rows():
    lines = [ln for ln in DATA.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, ln.split("\t"))) for ln in lines[1:]]


ROWS = _rows()


def _context(row) -> WinContext:
    win = row["win"].split("+")
    seat, prevalent = ("ESWN".index(c) for c in row["winds"])
    self_drawn = win[0] == "self"
    return WinContext(self_drawn=self_drawn, discarder=None if self_drawn else (seat + 1) % 4,
                      seat=seat, round=prevalent, last_tile="last" in win, kong="kong" in win,
                      fourth_tile="fourth" in win)


def _fans(text: str) -> Counter:
    out: Counter = Counter()
    for item in filter(None, (x.strip() for x in text.split(";"))):
        name, _, count = item.partition(" x")
        out[name] += int(count or 1)
    return out


def _score(row):
    hand = parse_hand(row["hand"], BONUS[:int(row["flowers"])])
    return score(hand, _context(row), "mcr", make_options("mcr", row["preset"]))


def test_every_vector_is_in_the_table():
    ids = {r["id"] for r in ROWS}
    assert {f"M-{i:02d}" for i in range(1, 19)} <= ids
    assert {f"D-{i:02d}" for i in range(1, 7)} <= ids
    assert sum(1 for i in ids if i.startswith("A-")) == 111
    assert all({r["preset"] for r in ROWS if r["id"] == i} == {"wmo", "china"} for i in ids if not i.startswith("A-"))


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['id']}-{r['preset']}" for r in ROWS])
def test_golden(row):
    result = _score(row)
    got = Counter({f.name: f.count for f in result.fans})
    assert (result.total, got) == (int(row["total"]), _fans(row["fans"])), row["note"]
    points = result.total - int(row["flowers"])
    assert result.valid == (points >= 8)


@pytest.mark.parametrize("vector, self_drawn, total, discarder_pays, others_pay, winner_gets", [
    ("M-05", False, 11, 19, 8, 35),
    ("M-06", True, 13, 21, 21, 63),
    ("M-02", False, 129, 137, 8, 153),
])
def test_settlement(vector, self_drawn, total, discarder_pays, others_pay, winner_gets):
    """docs/rules.md §4.4: the winner sits East; on a discard South discarded."""
    row = next(r for r in ROWS if r["id"] == vector and r["preset"] == "wmo")
    hand = parse_hand(row["hand"], BONUS[:int(row["flowers"])])
    ctx = WinContext(self_drawn=self_drawn, discarder=None if self_drawn else 1, seat=0,
                     round="ESWN".index(row["winds"][1]))
    result = score(hand, ctx, "mcr", make_options("mcr", "wmo"))
    assert result.total == total
    pay = result.payments
    assert sum(pay.values()) == 0
    assert pay["E"] == winner_gets
    assert pay["S"] == -discarder_pays
    assert pay["W"] == pay["N"] == -others_pay


def test_standings_split_ties():
    assert table_points({"A": 120, "B": 40, "C": 40, "D": -200}) == {"A": 4, "B": 1.5, "C": 1.5, "D": 0}


def test_invalid_hand_has_no_payments_and_says_why():
    row = next(r for r in ROWS if r["id"] == "M-04" and r["preset"] == "wmo")
    result = _score(row)
    assert not result.valid and result.payments is None
    assert result.reason == "7 points without flowers, below the 8-point minimum"


def test_incomplete_hand_reports_waits():
    result = score(parse_hand("123m456p789sEESS9p"), WinContext(discarder=1), "mcr")
    assert (result.valid, result.total, result.fans, result.payments) == (False, 0, (), None)
    assert result.reason == "not a complete hand; waits on ES"
    result = score(parse_hand("123m456p789s1357z9p"), WinContext(discarder=1), "mcr")
    assert result.reason == "not a complete hand; no tile completes it"
