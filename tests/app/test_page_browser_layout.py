"""The running total that a phone keeps at the foot of its screen (390x844, Debian's chromium)
never covers what a thumb taps: wherever the page is scrolled, a target in view is not under
it (the palette while it is open, the whole-hand buttons New set and Clear)."""
from __future__ import annotations

import pytest

from app_fixtures import table_photo
from browser_fixtures import open_page, settle, upload

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PHONE = {"width": 390, "height": 844}
STEP = 40  # px a scroll step: finer than any target's height
# the targets in view (under the page's top bar, above the screen's foot) that something
# else covers, at the present scroll
COVERED = """(sel) => {
  const out = [];
  const bar = document.querySelector('[data-testid=stHeader]');
  const top = bar ? bar.getBoundingClientRect().bottom : 0;
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (!r.width || r.top < top || r.bottom > window.innerHeight) continue;  // not in view
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(el.contains(hit) || hit.contains(el))) out.push(el.innerText.trim().slice(-14));
  }
  return out;
}"""


def _covered_anywhere(page, selector: str) -> list[tuple[int, list[str]]]:
    """Scrolled from the top to the foot of the page, step by step: what is covered where."""
    main = "document.querySelector('[data-testid=stMain]')"
    page.evaluate(f"() => {main}.scrollTo(0, 0)")
    out, last = [], -1
    while True:
        top = page.evaluate(f"() => {main}.scrollTop")
        if top == last:
            return out
        page.wait_for_timeout(30)
        covered = page.evaluate(COVERED, selector)
        if covered:
            out.append((top, covered))
        last = top
        page.evaluate(f"d => {main}.scrollBy(0, d)", STEP)


@pytest.mark.parametrize("flow, selector", [
    ("photo", '[class*="st-key-newset__"] button, [class*="st-key-clear__"] button'),
    ("manual", '[class*="st-key-pal__"] button'),
])
def test_the_running_total_covers_no_target(shared_server, new_page, flow, selector):
    page = open_page(new_page, shared_server, viewport=PHONE, device_scale_factor=1,
                     is_mobile=True, has_touch=True)
    if flow == "photo":
        upload(page, table_photo())
    else:
        page.locator('[class*="st-key-mode__win"] button').nth(2).click()  # Manual
        settle(page)
        for code in ("1m", "2m", "3m"):  # a hand being built: the palette stays open
            page.locator(f'[class*="st-key-pal__{code}__win"] button').click()
            settle(page)
    page.locator(".st-key-tally").first.wait_for(timeout=30_000)
    settle(page)
    page.locator(selector).nth(1).wait_for(timeout=30_000)  # a slow read draws them late
    assert page.locator(selector).count() >= 2
    assert _covered_anywhere(page, selector) == []


def _pixels(locator):
    """The locator's pixels once the page has stopped changing them (pictures still loading,
    or a redraw, would show as a code or a picture where there is none)."""
    import io
    import time

    import numpy as np
    from PIL import Image

    def shot():
        return np.asarray(Image.open(io.BytesIO(locator.screenshot())).convert("L"), np.int16)

    last = shot()
    for _ in range(20):
        time.sleep(0.25)
        now = shot()
        if now.shape == last.shape and np.array_equal(now, last):
            return now
        last = now
    return last


def test_the_palettes_codes_lie_under_the_pictures_and_tiles_are_named(shared_server, new_page):
    """The code drawn on a palette tile touches none of its picture's pixels, and a screen
    reader hears the tile's name ("North wind"), not its code."""
    page = open_page(new_page, shared_server, viewport=PHONE, device_scale_factor=2,
                     is_mobile=True, has_touch=True)
    page.locator('[class*="st-key-mode__win"] button').nth(2).click()  # Manual: the palette
    settle(page)
    palette = page.locator('[class*="st-key-palette__win"]')
    palette.wait_for(timeout=30_000)
    assert page.get_by_role("button", name="North wind", exact=True).count() == 1
    assert page.get_by_role("button", name="4z", exact=True).count() == 0
    whole = _pixels(palette)
    page.add_style_tag(content='[class*="st-key-pal__"] button::before { content: none !important; }'
                               '[class*="st-key-pal__"] button p { visibility: hidden; }')
    no_code = _pixels(palette)
    page.add_style_tag(content='[class*="st-key-pal__"] button { background-image: none !important; }')
    neither = _pixels(palette)
    code, picture = abs(whole - no_code) > 24, abs(no_code - neither) > 24
    assert code.sum() > 500 and picture.sum() > 10_000  # both were drawn
    assert (code & picture).sum() == 0


@pytest.mark.parametrize("width, path", [(390, "practice"), (390, "tilesets"), (1280, None)])
def test_the_pages_are_one_tap_away_on_a_phone(shared_server, new_page, width, path):
    """A phone shows Practice and Tile sets in the top bar (Streamlit folds its own top
    navigation into the sidebar there); a wide screen shows Streamlit's, not a second row."""
    page = open_page(new_page, shared_server, viewport={"width": width, "height": 844})
    links = page.locator(".st-key-pagenav a")
    if path is None:
        for link in links.all():  # the page's style may arrive a moment after its links
            link.wait_for(state="hidden", timeout=10_000)
        assert page.locator("[data-testid=stHeader] a", has_text="Practice").is_visible()
        return
    title = {"practice": "Practice", "tilesets": "Tile sets"}[path]
    link = links.filter(has_text=title)
    box = link.bounding_box()
    assert link.is_visible() and box["y"] >= 0 and box["x"] + box["width"] <= width
    link.click()
    settle(page)
    assert page.url.rstrip("/").endswith(path)
