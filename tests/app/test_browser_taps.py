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

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from app_fixtures import HAND, table_photo, write_model
from test_browser import CHROMIUM, LAUNCH_ARGS, _free_port, settle, sync_api

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "browser"
PHONE = {"width": 390, "height": 844}
MAIN = "document.querySelector('[data-testid=stMain]')"
TARGETS = {"photo read right": 4, "one misread tile": 6}


@contextlib.contextmanager
def serve(tmp_path: Path, model: Path):
    port = _free_port()
    env = {**os.environ, "MAHJONG_LENS_MODEL": str(model), "MAHJONG_LENS_CLASSIFIER": "none",
           "MAHJONG_LENS_CONF": "0.25", "HOME": str(tmp_path / "home")}
    log = open(tmp_path / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "app", "--server.port", str(port),
                             "--server.address", "127.0.0.1",
                             "--data-dir", str(tmp_path / "home" / ".mahjong-lens")],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(160):
            try:
                with urllib.request.urlopen(url + "_stcore/health", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail((tmp_path / "server.log").read_text()[-2000:])
                time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


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
        self.page.locator("input[type=file]").first.set_input_files(
            files=[{"name": "hand.jpg", "mimeType": "image/jpeg", "buffer": data}])
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
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"phone-{name}.png"
    page.screenshot(path=str(path))
    Image.open(path).convert("RGB").quantize(colors=96, method=Image.Quantize.MEDIANCUT).save(
        path, optimize=True)


def _to_ledger(thumb: Thumb, page) -> None:
    thumb.tap(page.locator(".st-key-howrow").get_by_text("South discarded", exact=True))
    thumb.tap(page.locator(".st-key-tally").get_by_role("button", name="Add to the ledger"))
    page.get_by_text("In the ledger as hand 1").wait_for()


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield b
        b.close()


def _open(browser, url):
    page = browser.new_page(viewport=PHONE, device_scale_factor=1)
    page.goto(url)
    settle(page)
    return page


def _record(name: str, counts: dict) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "taps.json"
    known = json.loads(path.read_text()) if path.is_file() else {}
    known[name] = counts
    path.write_text(json.dumps(known, indent=1))
    print(name, counts)


def test_taps_for_a_photo_read_right(tmp_path, browser):
    with serve(tmp_path, write_model(tmp_path / "right.onnx", HAND)) as url:
        page = _open(browser, url)
        thumb = Thumb(page)
        thumb.photo(table_photo())
        assert page.locator('[class*="__dbt__"]').count() == 0
        _to_ledger(thumb, page)
        counts = thumb.result()
    _record("photo read right", counts)
    assert counts["taps"] <= TARGETS["photo read right"]
    assert counts["longest_scroll_px"] <= PHONE["height"]


def test_taps_for_a_photo_with_one_misread_tile(tmp_path, browser):
    codes, confidences = list(HAND), [0.92] * len(HAND)
    codes[5], confidences[5] = "9p", 0.31
    with serve(tmp_path, write_model(tmp_path / "misread.onnx", codes, confidences)) as url:
        page = _open(browser, url)
        shot(page, "0-open")
        thumb = Thumb(page)
        thumb.photo(table_photo())
        shot(page, "1-read")
        doubtful = page.locator('[class*="st-key-tile__win__"][class*="__dbt__"] button')
        assert doubtful.inner_text().strip() == "9p"
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


def test_taps_for_a_typed_hand(tmp_path, browser):
    with serve(tmp_path, write_model(tmp_path / "right.onnx", HAND)) as url:
        page = _open(browser, url)
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
