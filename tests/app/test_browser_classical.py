"""Classical from four phones, in Debian's chromium: three players each enter their own hand on
their own page and send it; the winner's page sees them arrive without a tap, and the hand it
adds to the ledger is the one typed on a single page would give, zero-sum."""
from __future__ import annotations

import pytest

from app import edit, evaluate
from app.ledger import Ledger
from browser_fixtures import open_page, settle, type_hand
from scoring.hand import parse_hand

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PHONE = {"width": 390, "height": 844}
WINNER = "123m456p789sEEESS"
# seat (1 South, 2 West, 3 North) -> the tiles that player shows
LOSERS = {1: ["5z", "5z", "5z"], 2: ["9m", "9m"], 3: ["7z", "7z", "7z"]}
SEAT_NAMES = ["East", "South", "West", "North"]
ARRIVE_MS = 15_000  # the pages look every 2 s; a page run on a loaded machine takes a few more


def _classical(page) -> None:
    page.locator(".st-key-rulesrow").get_by_text("Classical", exact=True).click()
    settle(page)


def _send_own_hand(page, seat: int, tiles: list[str]) -> None:
    _classical(page)
    page.locator(".st-key-whose__0").get_by_text(SEAT_NAMES[seat], exact=True).click()
    settle(page)
    page.locator(f".st-key-mode__o{seat}").get_by_text("Manual", exact=True).click()
    settle(page)
    shown = page.locator(f'[class*="st-key-tile__o{seat}__"]')
    for count, code in enumerate(tiles, start=1):
        page.locator(f".st-key-pal__{code}__o{seat} button").click()
        page.wait_for_function("([sel, n]) => document.querySelectorAll(sel).length === n",
                               arg=[f'[class*="st-key-tile__o{seat}__"]', count])
        settle(page)
    assert shown.count() == len(tiles)
    page.get_by_role("button", name=f"Send {SEAT_NAMES[seat]}'s hand to the table").click()
    # the phone that sent it says so, as every phone does once the hand is there
    page.locator("[data-testid=stCaptionContainer]", has_text="Sent from their phones").filter(
        has_text=SEAT_NAMES[seat]).wait_for(timeout=ARRIVE_MS)
    settle(page)


def _expected() -> dict[str, float]:
    """What the winner's page gives with every hand entered on it."""
    drafts = {"win": edit.from_hand(parse_hand(WINNER)),
              **{f"o{s}": edit.Draft(hand=tuple(edit.Slot(c) for c in tiles)) for s, tiles in LOSERS.items()}}
    situation = evaluate.Situation(winner=0, discarder=1)
    outcome = evaluate.score_table(drafts, situation)
    return dict(evaluate.ledger_entry(outcome, situation, "classical", None).amounts)


def test_four_phones_send_their_hands_and_one_settles(tmp_path, app_server, new_page):
    url = app_server({})
    winner, *losers = (open_page(new_page, url, viewport=PHONE) for _ in range(4))
    _classical(winner)
    type_hand(winner, WINNER, "South")
    for page, (seat, tiles) in zip(losers, LOSERS.items()):
        _send_own_hand(page, seat, tiles)
    winner.get_by_text("Sent from their phones for this hand: South, West, North").wait_for(
        timeout=ARRIVE_MS)
    settle(winner)
    winner.locator(".st-key-tally").get_by_role("button", name="Add to the ledger").click()
    winner.get_by_text("In the ledger as hand 1").wait_for()
    ledger = Ledger(tmp_path / "app0" / "home" / ".mahjong-lens")
    hand, = ledger.hands(ledger.current_night())
    amounts = {SEAT_NAMES["ESWN".index(seat)]: amount for seat, amount in _expected().items()}
    assert hand.rules == "classical" and hand.amounts == amounts, (hand, amounts, [ledger.setting(f"sent.{i}") for i in range(4)])
    assert abs(sum(hand.amounts.values())) < 1e-9 and all(hand.amounts.values())
    for page in losers:  # the hand is in the ledger: what was sent for it is gone from every phone
        page.get_by_text("Sent from their phones").wait_for(state="detached",
                                                            timeout=2 * ARRIVE_MS)
