"""`Ledger.mark`: what a page compares to know that another phone changed the night. Every
change a phone makes changes it; reading changes nothing."""
from __future__ import annotations

import pytest

from app.ledger import HandEntry, Ledger

WIN = HandEntry("mcr", "123m456p789sEEESS", 15, "E", {"E": 47, "S": -23, "W": -8, "N": -16},
                discarder="S")


def _undo_and_add_again(ledger, night):
    ledger.undo(night, ledger.hands(night)[-1].id)
    ledger.add_hand(night, WIN, "again")


CHANGES = {
    "a hand added": lambda ledger, night: ledger.add_hand(night, WIN, "next"),
    "the last hand undone": lambda ledger, night: ledger.undo(night, ledger.hands(night)[-1].id),
    "undone and another added in its place": _undo_and_add_again,
    "a player renamed": lambda ledger, night: ledger.set_names(night, ["Ann", "South", "West", "North"]),
    "the winds moved on": lambda ledger, night: ledger.rotate(night),
    "a new night": lambda ledger, night: ledger.new_night(),
    "a past night reopened": lambda ledger, night: (ledger.new_night(), ledger.reopen(night)),
    "the value of a point": lambda ledger, night: ledger.set_setting("stake", "0.5"),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_every_change_of_the_night_changes_the_mark(tmp_path, change):
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    ledger.add_hand(night, WIN, "first")
    before = ledger.mark()
    change(Ledger(tmp_path), night)  # another phone: another process's ledger on the same file
    assert ledger.mark() != before


def test_reading_leaves_the_mark_as_it_was(tmp_path):
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    ledger.add_hand(night, WIN, "first")
    before = ledger.mark()
    ledger.hands(night), ledger.totals(night), ledger.nights(), ledger.to_csv(night)
    assert ledger.mark() == before
