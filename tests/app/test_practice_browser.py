"""The Practice page in a real browser at a phone's width (390 px): a seeded hand played to
its end by tapping tiles and confirming, passing on claims, winning when offered. Screenshots
go to artifacts/browser/practice-*.png."""
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

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
SEED = 11

if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    port = _free_port()
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    log = open(tmp_path / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "app", "--server.port", str(port),
                             "--server.address", "127.0.0.1", "--data-dir", str(tmp_path / "data")],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(url + "_stcore/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail(f"the app exited: {(tmp_path / 'server.log').read_text()[-2000:]}")
                time.sleep(0.25)
        else:
            pytest.fail("the app did not start in 30 s")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def settle(page, timeout=30_000):
    page.wait_for_timeout(150)
    page.wait_for_selector(IDLE, timeout=timeout)
    page.wait_for_timeout(100)
    page.wait_for_selector(IDLE, timeout=timeout)


def shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"practice-{name}.png"), full_page=True)


def over(page) -> bool:
    return page.get_by_text("Hand over").count() > 0


def test_a_hand_played_to_the_end_on_a_phone(server):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        page.goto(server + "practice")
        settle(page)
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
        browser.close()
