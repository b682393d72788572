"""The page in a real browser: seconds from a photo's upload to its hand shown.

    python -m datasets.eval.timing page PHOTO [--repeat 5] [--root DIR] [--before DIR]

Starts `mahjong-lens app` on 127.0.0.1 with the committed models (the tree at `--root`,
default this one), opens it in Debian's chromium through playwright, and uploads PHOTO
`--repeat` times, each into a fresh page after one upload to warm up. A time runs from the
upload to the script at rest with "tiles read in" on the page; medians printed. With
`--before DIR` that tree's page is served too and the two are timed in turn (one upload
each), so that a load on the machine weighs on both alike: their medians and ratio.
"""
from __future__ import annotations

import contextlib
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


@contextlib.contextmanager
def _server(root: Path, prepare=None):
    """The page of the tree at `root` served on loopback (its own HOME and data folder, given
    to `prepare` first when there is one): yields its URL; stopped after."""
    with tempfile.TemporaryDirectory() as home:
        if prepare is not None:
            prepare(Path(home) / "data")
        proc, url = _start(root, Path(home))
        try:
            yield url
        finally:
            proc.terminate()
            proc.wait(10)


@contextlib.contextmanager
def served(roots: dict[str, Path], prepare=None):
    """The page of each tree in `roots` (name -> tree) served by its own server (its data
    folder given to `prepare` first), and one Debian chromium: yields (browser, name -> url);
    all stopped after."""
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with contextlib.ExitStack() as stack:
        urls = {name: stack.enter_context(_server(root, prepare)) for name, root in roots.items()}
        pw = stack.enter_context(sync_playwright())
        yield pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS), urls


def trees(root: Path, before: Path | None) -> dict[str, Path]:
    """The trees timed: this one alone, or the one `--before` and this one, in turn."""
    return {"before": before.resolve(), "after": root.resolve()} if before else {"page": root.resolve()}


def page_seconds(photo: Path, repeat: int, roots: dict[str, Path]) -> dict[str, list[float]]:
    """Per tree, `repeat` times of a photo's upload to its hand shown, the trees in turn."""
    with served(roots) as (browser, urls):
        for url in urls.values():
            _one(browser, url, photo)  # warm-up: the models load on the first photo
        times: dict[str, list[float]] = {name: [] for name in urls}
        for _ in range(repeat):
            for name, url in urls.items():
                times[name].append(_one(browser, url, photo))
    return times


def say(label: str, times: dict[str, list[float]]) -> dict:
    """Print the medians of each tree (and after / before), return them with the times."""
    out = {name: {"median_s": round(float(np.median(v)), 3), "seconds": [round(s, 3) for s in v]}
           for name, v in times.items()}
    line = "; ".join(f"{name} median {row['median_s']:.2f} s "
                     f"({', '.join(f'{s:.2f}' for s in row['seconds'])})" for name, row in out.items())
    if {"before", "after"} <= out.keys():
        out["ratio"] = round(out["after"]["median_s"] / out["before"]["median_s"], 2)
        line += f"; after / before {out['ratio']:.2f}"
    print(f"{label}: {line}")
    return out


def main(argv: list[str]) -> int:
    import argparse
    parser = argparse.ArgumentParser(prog="timing page", description=__doc__.split("\n\n")[0])
    parser.add_argument("photo", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2],
                        help="the tree whose page is timed")
    parser.add_argument("--before", type=Path, help="a tree timed in turn with --root, for a ratio")
    args = parser.parse_args(argv)
    times = page_seconds(args.photo.resolve(), args.repeat, trees(args.root, args.before))
    say(f"{args.photo.name}, upload to hand shown", times)
    return 0
