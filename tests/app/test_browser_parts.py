"""A tap redraws only the part of the page it changes, in a real browser (Debian's chromium
through playwright). Every element a run draws reaches the page over its websocket as a
delta naming the Streamlit fragment it was drawn in (none: drawn by a run of the whole
page outside the fragments). After
each tap every delta must come from the parts that tap changes: the hand editor (its tile
buttons) and the score (who won and how, the running total, "Add to the ledger"), never
from the whole page, so the photo is neither read nor drawn again, nor the rules or the
ledger; on the Practice page, from the table of the game. Adding the hand to the ledger
runs the whole page, whose night's totals it changes.
"""
from __future__ import annotations

import pytest

from app_fixtures import table_photo
from browser_fixtures import IDLE, settle, stub_env, upload

pytestmark = pytest.mark.browser

SELECTED = "document.querySelector('[class*=\"st-key-tile__win__\"][class*=\"__sel__\"]')"
# each tap of the stub's photo (its 6th tile, 6p, misread as a doubtful 9p), in turn: what
# is tapped, what the page shows once it has drawn the tap (JS), and the parts it draws
# (None: the whole page, as adding to the ledger changes the night's totals beside the hand)
TAPS = [
    ("a hand tile", '[class*="st-key-tile__win__hand__5__9p__"] button', f"{SELECTED} !== null",
     {"hand"}),
    ("a palette tile", ".st-key-pal__6p__win button",
     f"{SELECTED} === null && document.querySelector('[class*=\"st-key-tile__win__hand__5__6p__\"]') !== null",
     {"hand", "score"}),
    ("who discarded", ".st-key-howrow >> text='South discarded'",
     "document.querySelector('.st-key-ledger_add button:not([disabled])') !== null", {"score"}),
    ("Add to the ledger", ".st-key-ledger_add button",
     "document.querySelector('.st-key-next_hand') !== null", None),
]
# a part of the Score page is named by a widget it draws
PART_OF = {"tile__": "hand", "ledger_add": "score"}


class Deltas:
    """The deltas a page receives, decoded as they are taken (a message sent in full once
    may come again as a reference to it: resolved)."""

    def __init__(self, page) -> None:
        self.frames: list[bytes] = []
        self.sent: dict = {}
        page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: self.frames.append(frame)))

    def take(self) -> list[tuple[str, str]]:
        """(fragment id, widget key or "") of each element drawn since the last take."""
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
        out = []
        for frame in [f for f in self.frames if isinstance(f, bytes)]:
            msg = ForwardMsg()
            msg.ParseFromString(frame)
            if msg.hash:
                self.sent[msg.hash] = msg
            if msg.WhichOneof("type") == "ref_hash":
                msg = self.sent[msg.ref_hash]
            if msg.WhichOneof("type") == "delta":
                out.append((msg.delta.fragment_id, _widget_key(msg.delta)))
        self.frames.clear()
        return out


def _widget_key(delta) -> str:
    """The key given to the widget a delta draws ('' for anything else): a widget's id is
    '$$ID-<hash>-<key>'."""
    if delta.WhichOneof("type") != "new_element":
        return ""
    element = delta.new_element
    widget_id = getattr(getattr(element, element.WhichOneof("type")), "id", "")
    return widget_id.split("-", 2)[-1] if isinstance(widget_id, str) and widget_id.startswith("$$ID-") else ""


def parts_drawn(deltas: list[tuple[str, str]]) -> set[str]:
    """The Score page's parts these deltas drew, each known by a widget it draws."""
    return {part for _fragment, key in deltas for prefix, part in PART_OF.items()
            if key.startswith(prefix)}


def tapped(page, deltas: Deltas, target, shown: str) -> list[tuple[str, str]]:
    """The deltas drawn by one tap on `target` (a locator), once the page shows `shown`
    (JS) at rest."""
    deltas.take()
    target.click()
    page.wait_for_function(f"() => {shown} && document.querySelector('{IDLE}') !== null",
                           timeout=30_000)
    return deltas.take()


def test_a_tap_on_the_score_page_redraws_only_its_parts(app_server, stub_model, new_page):
    page = new_page(viewport={"width": 390, "height": 844})
    deltas = Deltas(page)
    page.goto(app_server(stub_env(stub_model)))
    settle(page)
    upload(page, table_photo())
    page.wait_for_selector('[class*="st-key-tile__win__hand__5__9p__"]', timeout=30_000)
    settle(page)
    for name, target, shown, parts in TAPS:
        drawn = tapped(page, deltas, page.locator(target).first, shown)
        whole = [key for fragment, key in drawn if not fragment]
        if parts is None:  # "Next hand", which replaces the button, drawn in a run of the whole page
            first = [key for _fragment, key in drawn].index("next_hand")
            assert any(not fragment for fragment, _key in drawn[:first]), name
            continue
        assert not whole, f"{name}: the whole page ran ({len(whole)} elements drawn outside the parts)"
        assert parts_drawn(drawn) == parts, name


def test_a_practice_tap_redraws_the_table_alone(app_server, new_page):
    page = new_page(viewport={"width": 390, "height": 844})
    deltas = Deltas(page)
    page.goto(app_server({}) + "practice")
    settle(page)
    tile = page.locator('[class*="st-key-ptile__"] button:not([disabled])').last
    number = tile.evaluate("b => b.closest('[class*=\"st-key-ptile__\"]').className"
                           ).split("st-key-ptile__")[1].split("__")[0]
    own = f"document.querySelector('[class*=\"st-key-ptile__{number}__\"]')"
    # the player's tile (chosen), then its discard (gone from the hand)
    for target, shown in ((tile, f"{own}.className.includes('__sel__')"),
                          (page.locator(".st-key-pdiscard button"), f"{own} === null")):
        drawn = tapped(page, deltas, target, shown)
        assert drawn and all(fragment for fragment, _key in drawn), "the whole page ran"
        assert len({fragment for fragment, _key in drawn}) == 1
