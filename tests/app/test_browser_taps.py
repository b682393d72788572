"""Taps and scrolling at the table, counted in a real browser on a phone's screen (390x844):
from opening the page to a hand in the ledger, for (a) a photo read right, (b) a photo with
one misread tile, (c) a hand typed in. A thumb taps only what it can see: before each tap
the page is scrolled, just enough, until the target shows above the running total kept at
the foot of the screen, and that scroll is measured.

Taking or choosing the photo counts as two taps (the photo box, then the camera's shutter or
the photo in the phone's list); typing the hand counts as one tap into the box and one on
the keyboard's Enter, the letters not counted. The counts go to artifacts/browser/taps.json,
and pictures of each step to artifacts/browser/phone-*.png (the README's come from here).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from app_fixtures import HAND, table_photo, write_misread_model, write_model
from browser_fixtures import ARTIFACTS, open_page, settle, stub_env, upload
from browser_fixtures import shot as screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PHONE = {"width": 390, "height": 844}
MAIN = "document.querySelector('[data-testid=stMain]')"
TARGETS = {"photo read right": 4, "one misread tile": 6}


class Thumb:
    """Taps what it can see; scrolls (and measures it) only when it cannot."""

    def __init__(self, page):
        self.page, self.taps, self.scrolls = page, 0, []

    def _visible_until(self, locator) -> float:
        """The lowest y a target may reach and still be seen: above the running total, unless
        it is in the total's own bar."""
        if locator.evaluate("e => !!e.closest('.st-key-tally')"):
            return PHONE["height"]
        bar = self.page.locator(".st-key-tally").bounding_box()
        return min(PHONE["height"], bar["y"]) if bar else PHONE["height"]

    def reach(self, locator) -> None:
        locator.wait_for()
        box = locator.bounding_box()
        low = self._visible_until(locator) - 6
        delta = 0.0
        if box["y"] + box["height"] > low:
            delta = box["y"] + box["height"] - low
        elif box["y"] < 6:
            delta = box["y"] - 6
        if delta:
            self.page.evaluate(f"d => {MAIN}.scrollBy(0, d)", delta)
            self.page.wait_for_timeout(150)
            self.scrolls.append(round(abs(delta)))

    def tap(self, locator, count: int = 1) -> None:
        self.reach(locator)
        locator.click(no_wait_after=True)
        self.taps += count
        settle(self.page)

    def photo(self, data: bytes) -> None:
        """The photo box, then the shutter (or the photo in the list): two taps."""
        self.reach(self.page.locator("[data-testid=stFileUploaderDropzone]").first)
        upload(self.page, data)
        self.taps += 2
        self.page.locator(".st-key-tally [data-testid=stAlert]").first.wait_for()
        settle(self.page)

    def result(self) -> dict:
        return {"taps": self.taps, "scrolls": len(self.scrolls),
                "longest_scroll_px": max(self.scrolls, default=0),
                "total_scroll_px": sum(self.scrolls)}


def shot(page, name: str) -> None:
    """A small picture of the phone's screen (quantised: the README shows these)."""
    from PIL import Image
    path = screenshot(page, f"phone-{name}", full_page=False)
    Image.open(path).convert("RGB").quantize(colors=96, method=Image.Quantize.MEDIANCUT).save(
        path, optimize=True)


def _to_ledger(thumb: Thumb, page) -> None:
    thumb.tap(page.locator(".st-key-howrow").get_by_text("South discarded", exact=True))
    thumb.tap(page.locator(".st-key-tally").get_by_role("button", name="Add to the ledger"))
    page.get_by_text("In the ledger as hand 1").wait_for()


def _open(app_server, new_page, model: Path):
    """A page on a phone's screen, on a server of its own: each flow adds hand 1 to a fresh
    ledger."""
    return open_page(new_page, app_server(stub_env(model)), viewport=PHONE, device_scale_factor=1)


def _record(name: str, counts: dict) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "taps.json"
    known = json.loads(path.read_text()) if path.is_file() else {}
    known[name] = counts
    path.write_text(json.dumps(known, indent=1))
    print(name, counts)


def test_taps_for_a_photo_read_right(tmp_path, app_server, new_page):
    page = _open(app_server, new_page, write_model(tmp_path / "right.onnx", HAND))
    thumb = Thumb(page)
    thumb.photo(table_photo())
    assert page.locator('[class*="__dbt__"]').count() == 0
    _to_ledger(thumb, page)
    counts = thumb.result()
    _record("photo read right", counts)
    assert counts["taps"] <= TARGETS["photo read right"]
    assert counts["longest_scroll_px"] <= PHONE["height"]


def test_taps_for_a_photo_with_one_misread_tile(tmp_path, app_server, new_page):
    page = _open(app_server, new_page, write_misread_model(tmp_path / "misread.onnx"))
    shot(page, "0-open")
    thumb = Thumb(page)
    thumb.photo(table_photo())
    shot(page, "1-read")
    doubtful = page.locator('[class*="st-key-tile__win__"][class*="__dbt__"] button')
    assert doubtful.inner_text().strip() == "9 of Dots"  # its name, as a screen reader says it
    thumb.tap(doubtful)
    shot(page, "2-palette")
    thumb.tap(page.locator('[class*="st-key-pal__6p__win"] button'))
    page.locator(".st-key-tally [data-testid=stAlert]", has_text="a valid hand").wait_for()
    shot(page, "3-fixed")
    _to_ledger(thumb, page)
    shot(page, "4-added")
    counts = thumb.result()
    _record("one misread tile", counts)
    assert counts["taps"] <= TARGETS["one misread tile"]
    assert counts["longest_scroll_px"] <= PHONE["height"]


def test_taps_for_a_typed_hand(tmp_path, app_server, new_page):
    page = _open(app_server, new_page, write_model(tmp_path / "right.onnx", HAND))
    thumb = Thumb(page)
    thumb.tap(page.locator("[data-testid=stButtonGroup]").get_by_text("Manual", exact=True))
    box = page.get_by_role("textbox", name="Type the hand")
    thumb.tap(box)
    box.fill("123m456p789sEEESS")
    box.press("Enter")
    thumb.taps += 1
    settle(page)
    page.locator(".st-key-tally [data-testid=stAlert]", has_text="a valid hand").wait_for()
    _to_ledger(thumb, page)
    counts = thumb.result()
    _record("typed hand", counts)
    assert counts["longest_scroll_px"] <= PHONE["height"]
