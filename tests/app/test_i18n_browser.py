"""The page in Polish, German and Chinese in a real browser (Debian's chromium through
playwright) on a 390 px wide phone screen: the browser's language is picked, a hand is read
from a photo, fixed and scored, and no long label makes the page wider than the screen.
Screenshots go to artifacts/browser/i18n-<lang>.png."""
from __future__ import annotations

import pytest

from app_fixtures import table_photo
from browser_fixtures import ARTIFACTS, settle, upload

pytestmark = [pytest.mark.browser, pytest.mark.slow]
WIDTH = 390

# per browser language: what the page must say once the hand is fixed and scored
CASES = {
    "pl-PL": ("Zmiksowany Strit", "ręka ważna", "Dodaj do rozliczeń"),
    "de-DE": ("Gemischte Straße", "gültige Hand", "In die Abrechnung"),
    "zh-CN": ("花龙", "有效和牌", "记入账本"),
}


def _overflow(page) -> list[str]:
    """The page's width past the screen, and the visible elements that stick out of it."""
    return page.evaluate("""(width) => {
        const out = [];
        const doc = document.documentElement;
        if (doc.scrollWidth > width) out.push('page ' + doc.scrollWidth);
        for (const el of document.querySelectorAll('[data-testid=stMain] *')) {
            const r = el.getBoundingClientRect();
            if (r.width > 0 && r.right > width + 1 && getComputedStyle(el).visibility !== 'hidden'
                && !el.closest('[data-testid=stDataFrame]'))
                out.push((el.innerText || el.tagName).slice(0, 40) + ' ' + Math.round(r.right));
        }
        return out.slice(0, 10);
    }""", WIDTH)


@pytest.mark.parametrize("locale", list(CASES))
def test_a_phone_in_the_players_language(shared_server, new_page, locale):
    """One server for every language: none is chosen on the page, so its ledger remembers
    none and the browser's language decides."""
    fan, valid, add = CASES[locale]
    server = shared_server
    page = new_page(viewport={"width": WIDTH, "height": 844}, device_scale_factor=2,
                    locale=locale, is_mobile=True, has_touch=True)
    page.goto(server)
    settle(page)
    upload(page, table_photo())
    page.locator(".st-key-tally [data-testid=stAlert]").first.wait_for(timeout=30_000)
    settle(page)
    page.locator('[class*="st-key-tile__win__"][class*="__dbt__"] button').click()  # 9p → 6p
    settle(page)
    page.locator('[class*="st-key-pal__6p__win"] button').click()
    settle(page)
    page.locator("[data-testid=stAlert]", has_text=valid).first.wait_for(timeout=30_000)
    page.get_by_text(fan).first.wait_for(timeout=30_000)
    assert page.get_by_role("button", name=add).count() >= 1
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"i18n-{locale[:2]}.png"), full_page=True)
    assert _overflow(page) == []
    page.get_by_text(fan).first.scroll_into_view_if_needed()  # the fans, with their names
    page.screenshot(path=str(ARTIFACTS / f"i18n-{locale[:2]}-fans.png"))
    for expander in page.locator("[data-testid=stExpander] summary").all():  # the long option labels
        expander.click()
        settle(page)
    assert _overflow(page) == []
    page.goto(server + "practice")  # the Practice page, in the language remembered for the table
    settle(page)
    page.locator(".st-key-phand").wait_for(timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / f"i18n-{locale[:2]}-practice.png"))
    assert _overflow(page) == []
    page.goto(server + "tilesets")  # the tile-set page
    settle(page)
    page.locator("[data-testid=stHeading]").first.wait_for(timeout=30_000)
    assert _overflow(page) == []
