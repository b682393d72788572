"""A club night on one laptop: tables x phones real browser pages upload a 12 MP photo each
within one minute; how long until each photo's hand is on its phone, and whether every hand
reaches its table's night once.

    python -m scripts.club_night [--tables 4] [--phones 4] [--spread 60] [--limit 600] [--json OUT]

Each table is its own `mahjong-lens app` (its own night) on 127.0.0.1, reading with the
committed models; the phones are pages of one headless Debian chromium. Each page uploads
its own drawn 12 MP photo of a hand (4000 x 3000; a different noise on each) at a random
moment of the first `--spread` seconds, and the time runs from the upload until the hand's
14 tiles are shown on that page. Then it taps who discarded and *Add to the ledger*; at the
end every table's ledger must hold each of its phones' hands once. The browsers share this
machine's cores with the servers, which phones at a table would not. Bounded: everything is
stopped after `--limit` seconds. Nothing leaves the loopback address.
"""
from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np
from PIL import Image

from app.ledger import Ledger
from app.tiles_art import tile_png

ROOT = Path(__file__).resolve().parent.parent
# read right by the committed models (the page's own 8s picture is read as 9s)
HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7m", "8m", "9m", "1z", "1z", "1z", "2z", "2z"]
SIZE, TILE = (4000, 3000), (190, 253)
LAUNCH = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync"]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"


def photo(seed: int) -> bytes:
    """A 12 MP JPEG of HAND in a row on a cloth, the winning tile set apart."""
    rng = np.random.default_rng(seed)
    cloth = rng.normal((30, 100, 60), 10, (SIZE[1] // 8, SIZE[0] // 8, 3)).clip(0, 255)
    image = Image.fromarray(cloth.astype(np.uint8)).resize(SIZE, Image.BILINEAR)
    x, y = 300, 1300 + int(rng.integers(-200, 200))
    for i, code in enumerate(HAND):
        x += 80 if i == len(HAND) - 1 else 0
        tile = Image.open(io.BytesIO(tile_png(code))).convert("RGBA").resize(TILE, Image.LANCZOS)
        image.paste(tile, (x, y), tile)
        x += TILE[0] + 8
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=90)
    return out.getvalue()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_table(folder: Path) -> tuple[subprocess.Popen, str]:
    folder.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAHJONG_LENS_")}
    env.update(HOME=str(folder), LANG="C.UTF-8")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "app", "--server.address", "127.0.0.1",
                             "--server.port", str(port), "--data-dir", str(folder / "data")],
                            cwd=ROOT, env=env, stdout=open(folder / "server.log", "wb"),
                            stderr=subprocess.STDOUT)
    return proc, f"http://127.0.0.1:{port}/"


def wait_up(url: str, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while True:
        try:
            with urllib.request.urlopen(url + "_stcore/health", timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit(f"club_night: the page at {url} did not start")
            time.sleep(0.3)


async def open_phone(browser, url: str):
    page = await (await browser.new_context(viewport={"width": 390, "height": 844})).new_page()
    await page.goto(url)
    await page.wait_for_selector(IDLE, timeout=60_000)
    return page


async def one_phone(page, data: bytes, delay: float) -> dict:
    """Upload after `delay` s; seconds until the hand is shown, whether it said it waited;
    then add it to the night."""
    await asyncio.sleep(delay)
    start = time.monotonic()
    await page.locator("input[type=file]").first.set_input_files(
        files=[{"name": "hand.jpg", "mimeType": "image/jpeg", "buffer": data}])
    tiles, waited = page.locator('[class*="st-key-tile__win__"]'), False
    while await tiles.count() < len(HAND):
        waited = waited or await page.get_by_text("Waiting:").count() > 0
        await asyncio.sleep(0.05)
    seconds = time.monotonic() - start
    return {"seconds": round(seconds, 2), "waited": waited, "added": await add(page)}


async def add(page) -> bool:
    """Who discarded, then *Add to the ledger*; whether the page says the hand is in."""
    try:
        await page.wait_for_selector(IDLE, timeout=120_000)
        await page.locator(".st-key-howrow").get_by_text("South discarded", exact=True).click()
        await page.wait_for_timeout(200)
        await page.wait_for_selector(IDLE, timeout=120_000)
        await page.locator(".st-key-tally").get_by_role("button", name="Add to the ledger").click()
        await page.get_by_text("In the ledger as hand").wait_for(timeout=120_000)
        return True
    except Exception:  # noqa: BLE001 - a timeout is a result here: the ledger is checked after
        return False


async def night(urls: list[str], phones: int, spread: float) -> list[dict]:
    from playwright.async_api import async_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium, args=LAUNCH)
        pages = [await open_phone(browser, url) for url in urls for _ in range(phones)]
        rng = random.Random(1)
        runs = [one_phone(page, photo(k), rng.uniform(0, spread)) for k, page in enumerate(pages)]
        results = await asyncio.gather(*runs)
        await browser.close()
    return [{"table": k // phones, **r} for k, r in enumerate(results)]


def summary(results: list[dict], folders: list[Path], phones: int) -> dict:
    seconds = sorted(r["seconds"] for r in results)
    hands = [len(Ledger(f / "data").hands(Ledger(f / "data").current_night())) for f in folders]
    return {"phones": len(results), "median_s": statistics.median(seconds),
            "p90_s": statistics.quantiles(seconds, n=10, method="inclusive")[-1], "max_s": seconds[-1],
            "waited": sum(r["waited"] for r in results),
            "added": sum(r["added"] for r in results), "hands_per_table": hands,
            "nothing_lost": hands == [phones] * len(folders), "results": results}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--phones", type=int, default=4, help="phones at each table")
    ap.add_argument("--spread", type=float, default=60.0, help="uploads within these seconds")
    ap.add_argument("--limit", type=float, default=600.0, help="stop everything after these seconds")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="club-night-"))
    folders = [base / f"table{t}" for t in range(args.tables)]
    servers = [start_table(f) for f in folders]
    try:
        for _, url in servers:
            wait_up(url)
        results = asyncio.run(asyncio.wait_for(
            night([url for _, url in servers], args.phones, args.spread), args.limit))
        out = summary(results, folders, args.phones)
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait(20)
    print(json.dumps({k: v for k, v in out.items() if k != "results"}))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    shutil.rmtree(base, ignore_errors=True)
    return 0 if out["nothing_lost"] else 1


if __name__ == "__main__":
    sys.exit(main())
