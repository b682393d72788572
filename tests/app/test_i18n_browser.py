"""The page in Polish, German and Chinese in a real browser (Debian's chromium through
playwright) on a 390 px wide phone screen: the browser's language is picked, a hand is read
from a photo, fixed and scored, and no long label makes the page wider than the screen.
Screenshots go to artifacts/browser/i18n-<lang>.png."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from app_fixtures import table_photo

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
WIDTH = 390

if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")

# per browser language: what the page must say once the hand is fixed and scored
CASES = {
    "pl-PL": ("Zmiksowany Strit", "ręka ważna", "Dodaj do rozliczeń"),
    "de-DE": ("Gemischte Straße", "gültige Hand", "In die Abrechnung"),
    "zh-CN": ("花龙", "有效和牌", "记入账本"),
}


@pytest.fixture
def server(tmp_path, stub_model):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    log = open(tmp_path / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "app", "--server.port", str(port),
                             "--server.address", "127.0.0.1", "--data-dir", str(tmp_path / "data")],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "_stcore/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the app did not start: {(tmp_path / 'server.log').read_text()[-2000:]}")
                time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield b
        b.close()


def settle(page, timeout=30_000):
    page.wait_for_timeout(150)
    page.wait_for_selector(IDLE, timeout=timeout)
    page.wait_for_timeout(100)
    page.wait_for_selector(IDLE, timeout=timeout)


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
def test_a_phone_in_the_players_language(server, browser, locale):
    fan, valid, add = CASES[locale]
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, device_scale_factor=2,
                                  locale=locale, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server)
    settle(page)
    page.locator("input[type=file]").first.set_input_files(
        files=[{"name": "hand.jpg", "mimeType": "image/jpeg", "buffer": table_photo()}])
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
    context.close()
