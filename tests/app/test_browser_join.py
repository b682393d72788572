"""Joining the table from a phone, in Debian's chromium: `mahjong-lens app --https` under a
made-up host name mapped to 127.0.0.1 (localhost is a secure origin over plain http too, so
it would prove nothing) is a secure origin with the camera available once the test accepts
the certificate, and plain http under the same name is not; the QR code printed in the
terminal and the one on the "Join this table" panel both decode to the printed address.
Every request goes to 127.0.0.1."""
from __future__ import annotations

import contextlib
import os
import re
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest

import browser_fixtures as bf
from app import qr

pytestmark = [pytest.mark.browser, pytest.mark.slow]
HOST = "table.test"
# a fake camera, allowed without asking: what a player's tap on "Allow" does
CAMERA_ARGS = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
CAMERA_STATE = """() => {
  const available = !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
  return {secure: window.isSecureContext, camera: available};
}"""


def _wait_healthy(url: str, proc: subprocess.Popen, log: Path) -> None:
    unverified = ssl._create_unverified_context()  # the server's own certificate
    deadline = time.monotonic() + bf.START_S
    while True:
        try:
            with urllib.request.urlopen(url + "_stcore/health", timeout=1, context=unverified):
                return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the app did not start: {log.read_text()[-2000:]}")
            time.sleep(0.25)


@contextlib.contextmanager
def serve_https(folder: Path):
    """`mahjong-lens app --https` on 127.0.0.1 and a free port; yields (URL, its log)."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in bf.UNSET}
    env.update(bf.TEST_ENV, HOME=str(folder))
    port, log = bf.free_port(), folder / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "app.cli", "app", "--https", "--server.port",
                                 str(port), "--server.address", "127.0.0.1", "--data-dir",
                                 str(folder / "data")], cwd=bf.ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        _wait_healthy(f"https://127.0.0.1:{port}/", proc, log)
        yield f"https://127.0.0.1:{port}/", log
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """The https page and a plain http one."""
    with serve_https(tmp_path_factory.mktemp("https")) as (https, log), \
            bf.serve(tmp_path_factory.mktemp("http"), {}) as http:
        yield {"https": https, "http": http, "log": log}


@pytest.fixture(scope="module")
def mapped_browser(browser):
    """chromium resolving table.test to 127.0.0.1, and nothing else mapped (a second one, by
    the run's playwright: one playwright a process)."""
    args = [*bf.LAUNCH_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1", *CAMERA_ARGS]
    mapped = browser.browser_type.launch(executable_path=bf.CHROMIUM, args=args)
    yield mapped
    mapped.close()


def _page(browser, url: str):
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(url.replace("127.0.0.1", HOST))
    bf.settle(page)
    return page


@pytest.mark.parametrize("scheme, secure", [("https", True), ("http", False)])
def test_the_camera_is_offered_over_https_under_a_host_name_only(servers, mapped_browser, scheme, secure):
    page = _page(mapped_browser, servers[scheme])
    try:
        assert page.url.startswith(f"{scheme}://{HOST}:")
        assert page.evaluate(CAMERA_STATE) == {"secure": secure, "camera": secure}
    finally:
        page.context.close()


def test_the_live_camera_streams_on_the_https_page(servers, mapped_browser):
    page = _page(mapped_browser, servers["https"])
    try:
        page.locator("[data-testid=stButtonGroup]").get_by_text("Camera", exact=True).first.click()
        video = page.locator("video").first
        video.wait_for(timeout=20_000)
        page.wait_for_function("() => { const v = document.querySelector('video');"
                               " return v && v.readyState >= 2 && v.videoWidth > 0; }", timeout=20_000)
    finally:
        page.context.close()


def printed_address(log: Path) -> str:
    return re.search(r"Open (\S+) on a phone", log.read_text()).group(1)


def terminal_modules(text: str) -> list[list[bool]]:
    """The terminal's half blocks back to modules, dark True (a block is a light module)."""
    rows = []
    for line in text.splitlines():
        rows.append([c not in "█▀" for c in line])
        rows.append([c not in "█▄" for c in line])
    return rows


def decode(modules: list[list[bool]]) -> str:
    """The code read by OpenCV's QR decoder from a picture of the modules."""
    picture = np.where(np.array(modules, bool), 0, 255).astype(np.uint8)
    picture = cv2.copyMakeBorder(cv2.resize(picture, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST),
                                 32, 32, 32, 32, cv2.BORDER_CONSTANT, value=255)
    return cv2.QRCodeDetector().detectAndDecode(picture)[0]


def test_the_terminal_code_is_the_printed_address(servers):
    url, text = printed_address(servers["log"]), servers["log"].read_text()
    assert url == f"{servers['https']}"
    block = [line for line in text.splitlines() if line and set(line) <= set("█▀▄ ")]
    size = len(qr.matrix(url)) + 2 * qr.QUIET_ZONE
    modules = [row[qr.QUIET_ZONE:size - qr.QUIET_ZONE]
               for row in terminal_modules("\n".join(block))[qr.QUIET_ZONE:size - qr.QUIET_ZONE]]
    assert modules == qr.matrix(url)
    assert decode(modules) == url


def _decoded(image, path, tries: int = 10) -> str:
    """The QR code in a screenshot of `image`, once the folding panel has stopped moving."""
    text = ""
    for _ in range(tries):
        image.screenshot(path=str(path))
        text = cv2.QRCodeDetector().detectAndDecode(cv2.imread(str(path)))[0]
        if text:
            break
        image.page.wait_for_timeout(300)
    return text


def test_the_join_panel_shows_the_same_code(servers, mapped_browser, tmp_path):
    url = printed_address(servers["log"])
    page = _page(mapped_browser, servers["https"])
    try:
        page.get_by_text("Join this table").click()
        image = page.locator("[data-testid=stExpander] img").first
        image.wait_for(timeout=10_000)
        assert url in page.get_by_text("Scan this code").inner_text()
        image.evaluate("img => img.decode()")  # drawn, not only in the page
        assert _decoded(image, tmp_path / "join.png") == url
    finally:
        page.context.close()
