"""Classical: each player's hand sent from their own phone to the hand being settled.

A hand sent is kept in the ledger's settings (`sent.<seat>`), for the night and the number
of the hand it belongs to, so every phone at the table reads it (and is drawn again when one
arrives: `Ledger.mark`). Once that hand is in the ledger, what was sent for it is no longer
current; nothing needs clearing. A draft travels as plain data: its tiles, sets and their
kinds; what the photo said of each tile (scores, boxes) stays on the phone that read it.
"""
from __future__ import annotations

import json
import time

from app import edit
from app.ledger import Ledger
from scoring.tiles import BACK, TILES

KEY = "sent.{seat}"


def _codes(values) -> tuple[edit.Slot, ...]:
    if not isinstance(values, list) or len(values) > 18:
        raise ValueError("a sent hand's tiles are a list of at most 18")
    for code in values:
        if code not in TILES and code != BACK:
            raise ValueError(f"a sent hand holds an unknown tile {code!r}")
    return tuple(edit.Slot(code) for code in values)


def to_data(draft: edit.Draft) -> dict:
    return {"hand": [s.code for s in draft.hand], "bonus": [s.code for s in draft.bonus],
            "melds": [[m.kind, [s.code for s in m.tiles]] for m in draft.melds],
            "winning": draft.winning.code if draft.winning else None}


def from_data(data: dict) -> edit.Draft:
    """The draft a phone sent; anything else is a ValueError."""
    melds = []
    for kind, tiles in data.get("melds") or []:
        if kind not in edit.MELD_KINDS:
            raise ValueError(f"a sent hand holds an unknown kind of set {kind!r}")
        melds.append(edit.MeldDraft(kind, _codes(tiles)))
    winning = data.get("winning")
    return edit.Draft(hand=_codes(data.get("hand") or []), melds=tuple(melds[:4]),
                      bonus=_codes(data.get("bonus") or []),
                      winning=_codes([winning])[0] if winning else None)


def next_hand(ledger: Ledger, night: int) -> int:
    """The number the hand being settled will have in the night."""
    return len(ledger.hands(night)) + 1


def send(ledger: Ledger, night: int, seat: int, draft: edit.Draft) -> None:
    ledger.set_setting(KEY.format(seat=seat), json.dumps(
        {"night": night, "hand": next_hand(ledger, night), "at": time.time(),
         "draft": to_data(draft)}))


def received(ledger: Ledger, night: int) -> dict[int, tuple[float, edit.Draft]]:
    """Seat → (when it was sent, the draft) for the hand being settled; a damaged or
    out-of-date entry is left out."""
    number, out = next_hand(ledger, night), {}
    for seat in range(4):
        try:
            sent = json.loads(ledger.setting(KEY.format(seat=seat)) or "null")
            if sent and sent["night"] == night and sent["hand"] == number:
                out[seat] = (float(sent["at"]), from_data(sent["draft"]))
        except (ValueError, TypeError, KeyError):
            continue
    return out
