"""Classical hands sent from the players' phones: kept in the ledger for the hand being
settled, read back as sent, out of date once that hand is in the ledger, and a damaged entry
is left out (the ledger is shared: anything may be there)."""
from __future__ import annotations

import json

import pytest

from app import edit, hands_sent
from app.ledger import HandEntry, Ledger

WIN = HandEntry("classical", "123m456p789sEEESS", 15, "E", {"E": 30, "S": -10, "W": -10, "N": -10})
PUNG = edit.Draft(hand=(edit.Slot("5z", 0.4),) * 3, bonus=(edit.Slot("2f"),),
                  melds=(edit.MeldDraft("chow", (edit.Slot("1m"), edit.Slot("2m"), edit.Slot("3m"))),))


@pytest.fixture
def night_ledger(tmp_path):
    ledger = Ledger(tmp_path)
    return ledger, ledger.current_night()


def test_a_sent_hand_arrives_as_sent(night_ledger):
    ledger, night = night_ledger
    hands_sent.send(ledger, night, 1, PUNG)
    (at, draft), = hands_sent.received(Ledger(ledger.folder), night).values()
    assert draft == edit.Draft(hand=(edit.Slot("5z"),) * 3, bonus=PUNG.bonus, melds=PUNG.melds)
    assert list(hands_sent.received(ledger, night)) == [1] and at > 0


def test_what_was_sent_is_out_of_date_once_the_hand_is_in_the_ledger(night_ledger):
    ledger, night = night_ledger
    hands_sent.send(ledger, night, 2, PUNG)
    ledger.add_hand(night, WIN, "settled")
    assert hands_sent.received(ledger, night) == {}
    assert hands_sent.received(ledger, ledger.new_night()) == {}


@pytest.mark.parametrize("stored", [
    "not json", "[]", json.dumps({"night": 1, "hand": 1, "at": 1}),
    json.dumps({"night": 1, "hand": 1, "at": 1, "draft": {"hand": ["9x"]}}),
    json.dumps({"night": 1, "hand": 1, "at": 1, "draft": {"melds": [["triple", ["1m"] * 3]]}}),
    json.dumps({"night": 1, "hand": 1, "at": 1, "draft": {"hand": ["1m"] * 40}}),
    json.dumps({"night": 1, "hand": 1, "at": "soon", "draft": {"hand": ["1m"]}}),
])
def test_a_damaged_entry_is_left_out(night_ledger, stored):
    ledger, night = night_ledger
    ledger.set_setting("sent.3", stored)
    hands_sent.send(ledger, night, 1, PUNG)
    assert list(hands_sent.received(ledger, night)) == [1]
