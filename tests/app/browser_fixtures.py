"""The page in a real browser: a started Streamlit server and Debian's chromium through
playwright, shared by the browser tests (the fixtures are in conftest.py).

One chromium serves the whole run, each test gets its own context (nothing shared between
tests but the browser process). A server holds one data folder: tests that add to the ledger
start their own (`app_server`), the others share one (`shared_server`).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
START_S = 40
# what the tests' own autouse fixtures set for them (tests/conftest.py), set here too for a
# server started before any test's fixtures run
TEST_ENV = {"MAHJONG_LENS_CLASSIFIER": "none", "MAHJONG_LENS_STACKING": "none", "LANG": "C.UTF-8"}
UNSET = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "MAHJONG_LENS_LANG", "MAHJONG_LENS_DATA")


def sync_api():
    """playwright's sync API, or a skip where chromium or playwright is missing."""
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    return pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_S
    while True:
        try:
            with urllib.request.urlopen(url + "_stcore/health", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"the app exited: {log.read_text()[-2000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"the app did not start in {START_S} s: {log.read_text()[-2000:]}")
            time.sleep(0.25)


@contextlib.contextmanager
def serve(folder: Path, env: dict[str, str], data: Path | None = None, wrap: tuple = ()):
    """`mahjong-lens app` on a free port, HOME in `folder`, the data folder `data` (else
    ~/.mahjong-lens in that HOME, where a user's ledger is); yields the page's URL. `wrap`:
    a command the server runs under (strace ...), stopped with it as one process group."""
    folder.mkdir(parents=True, exist_ok=True)
    home = folder / "home"
    data = data or home / ".mahjong-lens"
    full = {k: v for k, v in os.environ.items() if k not in UNSET}
    full.update(TEST_ENV, HOME=str(home), **env)
    port, log_path = free_port(), folder / "server.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([*wrap, sys.executable, "-m", "app.cli", "app",
                                 "--server.port", str(port),
                                 "--server.address", "127.0.0.1", "--data-dir", str(data)],
                                cwd=ROOT, env=full, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=bool(wrap))
        url = f"http://127.0.0.1:{port}/"
        try:
            _wait_healthy(url, proc, log_path)
            yield url
        finally:
            if wrap:  # the wrapper and the server together
                os.killpg(proc.pid, signal.SIGTERM)
            else:
                proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def stub_env(model: Path) -> dict[str, str]:
    """A stub detector read alone: its score is the confidence (doubtful under 0.5)."""
    return {"MAHJONG_LENS_MODEL": str(model), "MAHJONG_LENS_CLASSIFIER": "none",
            "MAHJONG_LENS_CONF": "0.25"}


def settle(page, timeout=30_000):
    """Wait until the script has run after an action (it may take a moment to start)."""
    page.wait_for_timeout(150)
    page.wait_for_selector(IDLE, timeout=timeout)
    page.wait_for_timeout(100)
    page.wait_for_selector(IDLE, timeout=timeout)


def open_page(new_page, url: str, **options):
    """A fresh page at `url`, once the script has run."""
    page = new_page(**options)
    page.goto(url)
    settle(page)
    return page


def type_hand(page, notation: str, discarder: str) -> None:
    """Manual, the hand typed and Enter, then who discarded (a seat's name)."""
    page.locator(".st-key-mode__win").get_by_text("Manual", exact=True).click()
    settle(page)
    box = page.get_by_role("textbox", name="Type the hand")
    box.fill(notation)
    box.press("Enter")
    settle(page)
    page.locator(".st-key-howrow").get_by_text(f"{discarder} discarded", exact=True).click()
    settle(page)


def upload(page, data: bytes, name: str = "hand.jpg"):
    page.locator("input[type=file]").first.set_input_files(
        files=[{"name": name, "mimeType": "image/jpeg", "buffer": data}])


def shot(page, name: str, full_page: bool = True) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
