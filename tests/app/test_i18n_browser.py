"""The page in each of its languages in a real browser (Debian's chromium through
playwright) on a 390x844 phone screen: the browser's language is picked, a hand is read from
a photo, fixed, scored and added to the ledger; no long label makes the page wider than the
screen, and no visible text of the Score page (the ledger with it) or the Practice page is
left in English on a page in another language, outside a short list of words that are the
same in every language. Screenshots go to artifacts/browser/i18n-<lang>.png."""
from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from app import i18n
from app.i18n import catalog
from app_fixtures import table_photo
from browser_fixtures import ARTIFACTS, settle, upload

pytestmark = [pytest.mark.browser, pytest.mark.slow]
WIDTH = 390

# per browser language: what the page must say once the hand is fixed and scored
CASES = {
    "en-US": ("Mixed Straight", "a valid hand", "Add to the ledger"),
    "pl-PL": ("Zmiksowany Strit", "ręka ważna", "Dodaj do rozliczeń"),
    "uk-UA": ("Змішаний стріт", "рука дійсна", "Додати до журналу"),
    "de-DE": ("Gemischte Straße", "gültige Hand", "In die Abrechnung"),
    "zh-CN": ("花龙", "有效和牌", "记入账本"),
}
# the same in every language: rule sets, the CSV button, a chosen photo's name and size, and
# what Streamlit draws itself (its Upload button; README, Languages)
ALLOWED = {"mcr", "hk001", "hk002", "csv", "jpg", "upload", "kb", "mb"}
WORD = re.compile(r"[A-Za-z][A-Za-z']+")
FILE_NAME = re.compile(r"\S+\.\w+")  # a file's name is as it was given (ledger.sqlite3)
# not words of the language: placeholders, options, variables, code
CODE = re.compile(r"\{[^}]*\}|%\([^)]*\)\w|--[\w-]+|\$\w+|`[^`]*`")
# the visible text of the page: an icon's name left out (drawn as the icon), and what only a
# screen reader reads (a 1-pixel box: Streamlit's own "Skip to main content", "add icon")
VISIBLE_TEXT = """() => {
    const out = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
        const el = node.parentElement, text = node.textContent.trim();
        if (!text || !el || el.closest('[data-testid=stIconMaterial], style, script')) continue;
        const r = el.getBoundingClientRect(), css = getComputedStyle(el);
        if (r.width > 1 && r.height > 1 && css.visibility !== 'hidden' && css.display !== 'none'
            && !el.closest('[aria-hidden=true]')) out.push(text);
    }
    return out;
}"""


def _words(lang: str) -> set[str]:
    """Every word a language's catalogue says (English: the words the page can say)."""
    with catalog.po_path(lang).open("rb") as f:
        strings = [s for m in read_po(f) if m.id
                   for s in (m.string if isinstance(m.string, (list, tuple)) else [m.string])]
    return {w.casefold() for text in strings for w in WORD.findall(CODE.sub(" ", text))}


def _english_left(page, lang: str) -> list[str]:
    """The visible texts holding an English word of the page's own that the language's
    catalogue never says."""
    if lang == "en":
        return []
    english = _words("en") - _words(lang) - ALLOWED
    return sorted({text for text in page.evaluate(VISIBLE_TEXT)
                   if any(w.casefold() in english for w in WORD.findall(FILE_NAME.sub("", text)))})


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
    lang = locale[:2]
    with i18n.using(lang):
        discarded = i18n._("{name} discarded").format(name=i18n._("South"))
        added = i18n._("In the ledger as hand {number}.").split("{number}")[0].strip()
    page.locator(".st-key-howrow").get_by_text(discarded, exact=True).click()
    settle(page)
    page.locator(".st-key-tally").get_by_role("button", name=add).click()  # the ledger has a hand
    settle(page)
    page.get_by_text(added).first.wait_for(timeout=30_000)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"i18n-{lang}.png"), full_page=True)
    assert _overflow(page) == []
    assert _english_left(page, lang) == []  # the Score page with the night's ledger
    page.locator("[data-testid=stHeading]").last.scroll_into_view_if_needed()  # the ledger
    page.screenshot(path=str(ARTIFACTS / f"i18n-{lang}-ledger.png"))
    page.get_by_text(fan).first.scroll_into_view_if_needed()  # the fans, with their names
    page.screenshot(path=str(ARTIFACTS / f"i18n-{lang}-fans.png"))
    for expander in page.locator("[data-testid=stExpander] summary").all():  # the long option labels
        expander.click()
        settle(page)
    assert _overflow(page) == []
    assert _english_left(page, lang) == []
    page.goto(server + "practice")  # the Practice page, in the language remembered for the table
    settle(page)
    page.locator(".st-key-phand").wait_for(timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / f"i18n-{lang}-practice.png"))
    assert _overflow(page) == []
    assert _english_left(page, lang) == []
    page.goto(server + "tilesets")  # the tile-set page
    settle(page)
    page.locator("[data-testid=stHeading]").first.wait_for(timeout=30_000)
    assert _overflow(page) == []
