"""The page in a real browser: seconds from a tap until the page has drawn what it changed.

    python -m datasets.eval.timing taps PHOTO [--repeat 7] [--hands N] [--root DIR] [--before DIR]
        [--json OUT]

Starts `mahjong-lens app` on 127.0.0.1 with the committed models (the tree at `--root`,
default this one), opens it in Debian's chromium through playwright on a phone's screen
(390 x 844), uploads PHOTO (a hand with a 9m among its concealed tiles, as
`scripts.club_night.photo` draws one) and then taps, `--repeat` times each after one round
to warm up: a hand tile (selected), a palette tile (the selected tile replaced: 9m and 6m in
turn), who discarded (South and West in turn), and on the Practice page (a seeded hand) a
tile of the player's hand and its discard. A time runs from the click until the page shows
what the tap changed, drawn by the server (the tile framed as selected, the new tile, the
discarder paying the most, the discarded tile gone from the hand), with the script at rest,
both read on the page's own clock; `--hands N` puts N hands in tonight's ledger first (a
night in progress, its table and totals on the page). Medians printed. With `--before DIR`
that tree's page
is served too and the two take their rounds in turn, so that a load on the machine weighs
on both alike: their medians and ratio.
"""
from __future__ import annotations

import json
from pathlib import Path

from datasets.eval.timing_page import IDLE, say, served, trees

KINDS = ("tile", "palette", "discarder", "practice tile", "practice discard")
PRACTICE_SEED = 11
HAND_TILE = '[class*="st-key-tile__win__hand__"][class*="__{code}__"]'
# what each tap changes, as drawn by the server: a JS function of the tap's argument
SHOWN = {
    "tile": "c => document.querySelector(`" + HAND_TILE.replace("{code}", "${c}")
            + "[class*=\"__sel__\"]`) !== null",
    "palette": "c => document.querySelector(`" + HAND_TILE.replace("{code}", "${c}") + "`) !== null"
               " && document.querySelector('[class*=\"st-key-tile__win__\"][class*=\"__sel__\"]') === null",
    # the discarder pays the most: the lowest amount of the score's payments is their seat's
    "discarder": """seat => { const rows = [...document.querySelectorAll('.st-key-score table tbody tr')];
        const amount = r => parseFloat(r.cells[2].innerText.replace('\\u2212', '-'));
        return rows.length > 0 && rows.reduce((a, b) => amount(b) < amount(a) ? b : a)
            .cells[1].innerText.trim() === seat; }""",
    "practice tile": "t => document.querySelector(`[class*=\"st-key-ptile__${t}__\"][class*=\"__sel__\"]`)"
                     " !== null && document.querySelector('.st-key-pdiscard') !== null",
    "practice discard": "t => document.querySelector(`[class*=\"st-key-ptile__${t}__\"]`) === null",
}


# the moment of a click and of the first frame its change is shown in, on the page's own clock
# (playwright's checks before a click and its polling after are not counted)
CLOCK = """() => { if (window.tapClock) return;
    window.tapClock = true;
    document.addEventListener('click', () => { window.tapAt = performance.now(); }, true); }"""


def _tap(page, kind: str, click, arg) -> float:
    """Seconds from `click()` until SHOWN[kind](arg) holds and the script is at rest."""
    page.evaluate(CLOCK)
    page.evaluate("() => { window.tapAt = null; }")
    click()
    try:
        done = page.wait_for_function(
            f"""arg => window.tapAt !== null && ({SHOWN[kind]})(arg)
                && document.querySelector('{IDLE}') !== null && performance.now() - window.tapAt""",
            arg=arg, timeout=120_000, polling="raf")
    except Exception as exc:  # a timeout: which tap it was, in one line
        raise SystemExit(f"timing taps: after a tap on {kind} ({arg}) the page did not show it "
                         f"in 120 s ({type(exc).__name__})") from None
    return done.json_value() / 1000


def _settle(page) -> None:
    """At rest after an untimed step (the run may take a moment to start)."""
    for _ in range(2):
        page.wait_for_timeout(200)
        page.wait_for_selector(IDLE, timeout=120_000)


def _score_round(page, turn: int) -> dict[str, float]:
    """A hand tile, a palette tile that replaces it, who discarded."""
    old, new = ("9m", "6m") if turn % 2 == 0 else ("6m", "9m")
    seat, name = ("S", "South") if turn % 2 == 0 else ("W", "West")
    tile = page.locator(HAND_TILE.format(code=old) + " button").first
    return {"tile": _tap(page, "tile", tile.click, old),
            "palette": _tap(page, "palette", page.locator(f".st-key-pal__{new}__win button").click, new),
            "discarder": _tap(page, "discarder", page.locator(".st-key-howrow").get_by_text(
                f"{name} discarded", exact=True).click, seat)}


def _practice_turn(page, _turn: int) -> dict[str, float]:
    """Play on to the player's own turn (passing on claims, a new hand when one ends), then a
    tile of the hand and its discard."""
    tile = page.locator('[class*="st-key-ptile__"] button:not([disabled])').last
    while True:
        if page.get_by_text("Hand over").count():
            page.locator(".st-key-pnew button").click()
        elif tile.count():  # the player's turn (a declaration offered beside it is let be)
            break
        else:  # a claim offered on another's discard: passed
            page.locator('[class*="st-key-pmove__"][class*="__pass"] button').first.click()
        _settle(page)
    key = tile.evaluate("b => b.closest('[class*=\"st-key-ptile__\"]').className")
    number = key.split("st-key-ptile__")[1].split("__")[0]
    return {"practice tile": _tap(page, "practice tile", tile.click, number),
            "practice discard": _tap(page, "practice discard",
                                     page.locator(".st-key-pdiscard button").click, number)}


def _score_page(browser, url: str, photo: Path):
    """A phone's page with PHOTO read, its hand shown."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url)
    page.wait_for_selector(IDLE, timeout=60_000)
    page.locator("input[type=file]").first.set_input_files(str(photo))
    page.wait_for_selector(HAND_TILE.format(code="9m"), timeout=180_000)
    _settle(page)
    return page


def _practice_page(browser, url: str):
    """A phone's Practice page with the seeded hand dealt."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url + "practice")
    page.wait_for_selector(IDLE, timeout=60_000)
    seed = page.get_by_label("Seed")
    seed.fill(str(PRACTICE_SEED))
    seed.press("Enter")
    _settle(page)
    page.locator(".st-key-preplay button").click()
    _settle(page)
    return page


def night_of(hands: int):
    """What fills a data folder's ledger with `hands` hands of tonight (MCR, 9 points won on
    a discard, each seat winning in turn), as a night in progress shows them."""
    def fill(data: Path) -> None:
        from app.ledger import HandEntry, Ledger
        ledger = Ledger(data)
        night = ledger.current_night()
        for i in range(hands):
            winner, discarder = "ESWN"[i % 4], "ESWN"[(i + 1) % 4]
            amounts = {seat: -8 for seat in "ESWN"} | {winner: 33, discarder: -17}
            ledger.add_hand(night, HandEntry(rules="mcr", notation="[123m]456p789m111z2z2z",
                                             total=9, winner=winner, amounts=amounts,
                                             discarder=discarder, preset="wmo"), f"night-{i}")
    return fill


def tap_seconds(photo: Path, repeat: int, roots: dict[str, Path],
                hands: int = 0) -> dict[str, dict[str, list[float]]]:
    """Kind of tap -> tree -> seconds, `repeat` of each after one round to warm up, with
    `hands` hands in tonight's ledger; the trees' pages take their rounds in turn."""
    times = {kind: {name: [] for name in roots} for kind in KINDS}
    with served(roots, night_of(hands)) as (browser, urls):
        for start, play in ((lambda url: _score_page(browser, url, photo), _score_round),
                            (lambda url: _practice_page(browser, url), _practice_turn)):
            pages = {name: start(url) for name, url in urls.items()}
            for turn in range(repeat + 1):
                for name, page in pages.items():
                    for kind, seconds in play(page, turn).items():
                        times[kind][name] += [seconds] if turn else []
            for page in pages.values():
                page.close()
    return times


def main(argv: list[str]) -> int:
    import argparse
    parser = argparse.ArgumentParser(prog="timing taps", description=__doc__.split("\n\n")[0])
    parser.add_argument("photo", type=Path, help="a photo of a hand with a 9m among its concealed tiles")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2],
                        help="the tree whose page is timed")
    parser.add_argument("--before", type=Path, help="a tree timed in turn with --root, for a ratio")
    parser.add_argument("--hands", type=int, default=0, help="hands already in tonight's ledger")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    times = tap_seconds(args.photo.resolve(), args.repeat, trees(args.root, args.before), args.hands)
    out = {kind: say(kind, by_tree) for kind, by_tree in times.items()}
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0
