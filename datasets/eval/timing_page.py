"""The page in a real browser: seconds from a photo's upload to its hand shown.

    python -m datasets.eval.timing page PHOTO [--repeat 5] [--root DIR]

Starts `mahjong-lens app` on 127.0.0.1 with the committed models (the tree at `--root`,
default this one), opens it in Debian's chromium through playwright, and uploads PHOTO
`--repeat` times, each into a fresh page after one upload to warm up. A time runs from the
upload to the script at rest with "tiles read in" on the page; medians printed.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np

IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
READ = "text=tiles read in"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(root: Path, home: Path) -> tuple[subprocess.Popen, str]:
    """The page server of the tree at `root` on a free loopback port, once it answers."""
    port = _port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAHJONG_LENS_")}
    env.update(HOME=str(home), PYTHONPATH=str(root), LANG="C.UTF-8")
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "app", "--server.port", str(port),
                             "--server.address", "127.0.0.1", "--data-dir", str(home / "data")],
                            cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "_stcore/health", timeout=1):
                return proc, url
        except OSError:
            time.sleep(0.25)
    proc.terminate()
    raise SystemExit("the page did not start in 60 s")


def _one(browser, url: str, photo: Path) -> float:
    """Seconds from the upload of `photo` to its hand shown, in a fresh page."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(url)
        page.wait_for_selector(IDLE, timeout=60_000)
        start = time.perf_counter()
        page.locator("input[type=file]").first.set_input_files(str(photo))
        page.wait_for_selector(READ, timeout=120_000)
        page.wait_for_selector(IDLE, timeout=120_000)
        return time.perf_counter() - start
    finally:
        page.close()


def page_seconds(photo: Path, repeat: int, root: Path) -> list[float]:
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with tempfile.TemporaryDirectory() as home:
        proc, url = _start(root, Path(home))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                _one(browser, url, photo)  # warm-up: the models load on the first photo
                return [_one(browser, url, photo) for _ in range(repeat)]
        finally:
            proc.terminate()
            proc.wait(10)


def main(argv: list[str]) -> int:
    import argparse
    parser = argparse.ArgumentParser(prog="timing page", description=__doc__.split("\n\n")[0])
    parser.add_argument("photo", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2],
                        help="the tree whose page is timed")
    args = parser.parse_args(argv)
    seconds = page_seconds(args.photo.resolve(), args.repeat, args.root.resolve())
    print(f"{args.photo.name}: upload to hand shown, median {np.median(seconds):.2f} s "
          f"({', '.join(f'{s:.2f}' for s in seconds)})")
    return 0
