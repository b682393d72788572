"""The Practice page in a real browser at a phone's width (390 px): a seeded hand played to
its end by tapping tiles and confirming, passing on claims, winning when offered. Screenshots
go to artifacts/browser/practice-*.png."""
from __future__ import annotations

import pytest

from browser_fixtures import open_page, settle
from browser_fixtures import shot as screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SEED = 11


def shot(page, name):
    screenshot(page, f"practice-{name}")


def over(page) -> bool:
    return page.get_by_text("Hand over").count() > 0


def test_a_hand_played_to_the_end_on_a_phone(shared_server, new_page):
    page = open_page(new_page, shared_server + "practice", viewport={"width": 390, "height": 844},
                     device_scale_factor=2)
    seed = page.get_by_label("Seed")
    seed.fill(str(SEED))
    seed.press("Enter")
    settle(page)
    page.locator(".st-key-preplay button").click()
    settle(page)
    assert page.get_by_text(f"seed {SEED}").count() + page.locator(f"code:text('{SEED}')").count() >= 1
    shot(page, "start")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    for step in range(200):
        if over(page):
            break
        moves = page.locator('[class*="st-key-pmove__"] button')
        if moves.count():
            wins = page.locator('[class*="st-key-pmove__"][class*="__win"] button')
            (wins.first if wins.count() else page.locator('[class*="__pass"] button').first
             if page.locator('[class*="__pass"] button').count() else moves.first).click()
            settle(page)
            continue
        tiles = page.locator('[class*="st-key-ptile__"] button:not([disabled])')
        tiles.last.click()
        settle(page)
        if step == 0:
            shot(page, "selected")
        page.locator(".st-key-pdiscard button").click()
        settle(page)
    assert over(page)
    shot(page, "end")
    ended = page.get_by_text("Draw: no payment").count() + page.get_by_text("fan").count()
    assert ended >= 1
    page.locator(".st-key-pnew button").click()
    settle(page)
    assert not over(page)
