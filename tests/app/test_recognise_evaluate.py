"""The page's pure middle: photo bytes → overlay + layout with a fake reader (app/recognise),
and draft + answers → result, waits, payments by name, ledger entry (app/evaluate)."""
from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import pytest
from PIL import Image

from app import edit, evaluate, recognise
from app.evaluate import Situation
from scoring.hand import parse_hand
from vision.types import Detections
from vision.image import Photo, load_photo

from app_fixtures import table_photo


@dataclass
class Reading:
    photo: Photo
    detections: Detections
    seconds: float = 0.01


class FakeReader:
    """Stands in for `vision.pipeline.TileReader`: decodes for real, 'detects' given tiles."""

    def __init__(self, codes, confidence=0.9, fail=None, width=50):
        self.codes, self.confidence, self.fail, self.width = codes, confidence, fail, width

    def read(self, source):
        if self.fail:
            raise self.fail
        photo = load_photo(source)
        n = len(self.codes)
        boxes = [[40 + 60 * i, 50, 40 + self.width + 60 * i, 120] for i in range(n)]
        names = sorted(set(self.codes)) or ["1m"]
        return Reading(photo, Detections(np.array(boxes, np.float32).reshape(-1, 4),
                                         [names.index(c) for c in self.codes],
                                         [self.confidence] * n, names))


def test_recognise_gives_an_overlay_and_a_layout():
    codes = ["1m", "2m", "3m", "6f"]
    found = recognise.recognise(table_photo(), FakeReader(codes, confidence=0.4))
    assert isinstance(found, recognise.Recognition)
    assert found.tiles == 4 and found.doubtful == 4 and found.message is None
    assert Image.open(io.BytesIO(found.overlay_jpeg)).format == "JPEG"
    laid = [t.code for t in found.layout.concealed] + [t.code for m in found.layout.melds for t in m.tiles]
    laid += [t.code for t in found.layout.bonus] + ([found.layout.winning.code] if found.layout.winning else [])
    assert sorted(laid) == sorted(codes)


@pytest.mark.parametrize("data, expected", [
    (b"GIF89a-not-really", "Could not use this photo"),
    (b"hello", "not an image"),
    (b"", "empty file"),
])
def test_recognise_turns_bad_photos_into_one_line(data, expected):
    message = recognise.recognise(data, FakeReader(["1m"]))
    assert isinstance(message, str) and expected in message and "\n" not in message


def test_a_failing_reader_is_a_message_not_an_exception():
    message = recognise.recognise(table_photo(), FakeReader([], fail=RuntimeError("onnx: bad\nthing")))
    assert message.startswith("The tile reader failed") and "\n" not in message


def test_small_tiles_ask_for_a_closer_photo():
    codes = ["1m", "2m", "3m", "6f"]
    assert recognise.recognise(table_photo(), FakeReader(codes, width=50)).message is None
    found = recognise.recognise(table_photo(), FakeReader(codes, width=20))
    assert found.tiles == 4 and "about 20 pixels" in found.message and "closer" in found.message


def _stroked_tiles(n: int, width: int, blur: float) -> bytes:
    """PNG bytes with white tiles bearing dark strokes where FakeReader puts its boxes,
    blurred by a Gaussian of `blur` tile widths."""
    import cv2
    rng = np.random.default_rng(0)
    rgb = np.full((200, 60 * n + 100, 3), (40, 120, 60), np.uint8)
    for i in range(n):
        x = 40 + 60 * i
        rgb[50:120, x:x + width] = 235
        for _ in range(6):
            cv2.line(rgb, (int(x + rng.integers(3, width - 3)), int(rng.integers(53, 117))),
                     (int(x + rng.integers(3, width - 3)), int(rng.integers(53, 117))), (30, 30, 160), 3)
    if blur:
        rgb = cv2.GaussianBlur(rgb, (0, 0), blur * width)
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize("blur, hint", [(0.0, False), (0.12, True)])
def test_a_blurred_photo_asks_for_a_steadier_one(blur, hint):
    codes = ["1m", "2m", "3m", "4m", "5m"]
    found = recognise.recognise(_stroked_tiles(len(codes), 50, blur), FakeReader(codes, width=50))
    assert found.tiles == 5
    assert (found.message is not None and "blurred" in found.message) == hint


def test_no_tiles_is_a_plain_note():
    found = recognise.recognise(table_photo(codes=[]), FakeReader([]))
    assert found.tiles == 0 and "No tiles found" in found.message


def test_missing_model_is_a_message(tmp_path):
    message = recognise.load_reader(tmp_path / "none.onnx")
    assert isinstance(message, str) and "No tile model" in message
    (tmp_path / "broken.onnx").write_bytes(b"junk")
    message = recognise.load_reader(tmp_path / "broken.onnx")
    assert isinstance(message, str) and "could not be loaded" in message


def test_baseline_layout_reads_left_to_right_and_sets_bonus_and_backs_aside():
    layout = recognise.baseline_layout(["2m", "6f", "1m", "back"],
                                       np.array([[50, 0, 60, 10], [0, 0, 10, 10], [20, 0, 30, 10],
                                                 [80, 0, 90, 10]]), np.array([0.9, 0.8, 0.7, 0.6]))
    assert [t.code for t in layout.concealed] == ["1m", "2m"]
    assert [t.code for t in layout.bonus] == ["6f"] and [t.code for t in layout.ignored] == ["back"]


# --- evaluate --------------------------------------------------------------------------

HAND = "123m456p789sEEESS"


def test_discard_win_pays_by_name():
    draft = edit.from_hand(parse_hand(HAND))
    out = evaluate.score_draft(draft, Situation(winner=0, discarder=1), "mcr")
    assert out.valid and out.result.total >= 8
    rows = evaluate.payments_by_name(out.result.payments, ["Ann", "Bo", "Cy", "Di"])
    assert rows[0][:2] == ("Ann", "E") and sum(r[2] for r in rows) == 0
    assert dict((r[0], r[2]) for r in rows)["Bo"] == -(out.result.total + 8)


def test_messages_for_what_is_not_a_score_yet():
    assert "No hand yet" in evaluate.score_draft(edit.Draft(), Situation(), "mcr").message
    thirteen = edit.from_hand(parse_hand("123m456p789sEEES"))
    out = evaluate.score_draft(thirteen, Situation(), "mcr")
    assert out.result is None and "add the winning tile" in out.message and out.waits == ("2z",)
    own = evaluate.score_draft(edit.from_hand(parse_hand(HAND)), Situation(winner=1, discarder=1), "mcr")
    assert "own discard" in own.message


def test_incomplete_hand_says_what_it_waits_on():
    draft = edit.from_hand(parse_hand("123m456p789sEEESN"))
    out = evaluate.score_draft(draft, Situation(self_drawn=True), "mcr")
    assert out.result is not None and not out.valid and out.message
    assert set(out.waits) == {"2z"}


def test_below_the_minimum_is_not_valid_with_a_reason():
    draft = edit.from_hand(parse_hand("[123m]456m789p345s55p"))
    out = evaluate.score_draft(draft, Situation(discarder=1), "mcr")
    assert out.result is not None and not out.valid and out.message


def test_option_fields_are_generic_over_each_rule_set():
    for rules in ("mcr", "hk001", "classical"):
        fields = evaluate.option_fields(rules, None)
        assert fields and all(f.kind in ("bool", "int", "float", "choice", "text") for f in fields)
    hk = {f.name: f for f in evaluate.option_fields("hk001", "hk001")}
    assert hk["limit"].kind == "int" and hk["limit"].value == 13
    assert hk["multiplier"].kind == "choice" and "half_spicy" in hk["multiplier"].choices
    assert evaluate.changed_options(list(hk.values()), {"limit": 10, "minimum": 3}) == {"limit": 10}


@pytest.mark.parametrize("rules, preset, name, kind, allowed", [
    ("hk001", "hk001", "limit", "int", (1, 20)),
    ("hk001", "hk001", "unit", "float", (0.01, 1_000_000)),
    ("mcr", None, "minimum", "int", (0, 88)),
    ("mcr", None, "mixed_kongs_points", "choice", (3, 5, 6)),
    ("classical", None, "loser_pairs", "int", (0, 7)),
])
def test_option_widgets_know_the_rule_sets_ranges(rules, preset, name, kind, allowed):
    """The page bounds its number inputs by the ranges the scorer checks, so a player cannot
    type a limit that would take the server minutes to settle."""
    field = {f.name: f for f in evaluate.option_fields(rules, preset)}[name]
    assert field.kind == kind
    assert (field.choices if kind == "choice" else field.bounds) == allowed


def test_an_option_change_changes_the_score():
    draft = edit.from_hand(parse_hand("123m456p789sEEESS"))
    base = evaluate.score_draft(draft, Situation(self_drawn=True), "hk001")
    lower = evaluate.score_draft(draft, Situation(self_drawn=True), "hk001", "hk001", {"minimum": 99})
    assert base.valid and not lower.valid


def test_ledger_entry_and_token():
    draft = edit.from_hand(parse_hand(HAND))
    sit = Situation(winner=0, discarder=2)
    out = evaluate.score_draft(draft, sit, "mcr")
    entry = evaluate.ledger_entry(out, sit, "mcr", "wmo")
    assert entry.winner == "E" and entry.discarder == "W" and sum(entry.amounts.values()) == 0
    assert entry.detail["fans"] and entry.notation == out.result.hand
    token = evaluate.entry_token("s", 0, entry)
    assert token == evaluate.entry_token("s", 0, entry) != evaluate.entry_token("s", 1, entry)
    unknown = evaluate.score_draft(draft, Situation(winner=0), "mcr")
    assert "who discarded" in evaluate.ledger_entry(unknown, Situation(winner=0), "mcr", "wmo")


def test_classical_scores_the_other_hands_and_settles_among_all():
    drafts = {"win": edit.from_hand(parse_hand(HAND)),
              "o1": edit.Draft(hand=tuple(edit.Slot(c) for c in ["5z"] * 3 + ["9m", "9m", "3p"]))}
    out = evaluate.score_table(drafts, Situation(winner=0, self_drawn=True), None)
    assert out.valid and out.players["S"] is not None and out.players["S"].total > 0
    assert out.players["W"] is None and sum(out.result.payments.values()) == 0


@pytest.mark.parametrize("sets, expected", [
    (("[123m]", "EEE"), (("1m", "2m", "3m"), ("1z", "1z", "1z"))),
    (("[EEE1]", "5p"), (("1z", "1z", "1z"), ("5p",))),
    (("6f",), (("6f",),)),
])
def test_fan_sets_become_tile_groups(sets, expected):
    assert evaluate.sets_tiles(sets) == expected
