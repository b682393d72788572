"""The page at the table: tiles the layout set aside are shown and come back with one tap,
only the hand's tiles are counted and framed, a guessed winning tile says so on the tile,
and the page's words are whole sentences (no raw option names, no "1 tiles")."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from app_fixtures import HAND, IMGSZ, PHOTO_SIZE, TILE, click, keys, table_photo, texts, tile_boxes
from scoring.tiles import VISION_CLASSES
from vision_onnx_stub import write_stub_model


def _stub(tmp_path, monkeypatch, tiles):
    """A stub detector reporting `tiles`: (code, (x1, y1, x2, y2) in photo pixels, score)."""
    scale = IMGSZ / max(PHOTO_SIZE)
    pad_y = round((IMGSZ - PHOTO_SIZE[1] * scale) / 2 - 0.1)
    rows = [[x1 * scale, y1 * scale + pad_y, x2 * scale, y2 * scale + pad_y, conf,
             VISION_CLASSES.index(code)] for code, (x1, y1, x2, y2), conf in tiles]
    path = write_stub_model(tmp_path / "tiles.onnx", np.array([rows], np.float32),
                            imgsz=(IMGSZ, IMGSZ), names=list(VISION_CLASSES))
    monkeypatch.setenv("MAHJONG_LENS_MODEL", str(path))
    monkeypatch.setenv("MAHJONG_LENS_CLASSIFIER", "none")
    monkeypatch.setenv("MAHJONG_LENS_CONF", "0.05")


def _upload(at, codes=HAND):
    at.file_uploader[0].set_value(("hand.jpg", table_photo(codes), "image/jpeg")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _draft(at):
    return at.session_state["drafts"]["win"]


def _hand(codes, conf=0.9):
    return [(c, box, conf) for c, box in zip(codes, tile_boxes(len(codes)))]


SEVENTEEN = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p",
             "6p", "7p", "8p"]


def test_a_phantom_face_down_box_at_the_rows_end_does_not_take_the_hand(page, tmp_path, monkeypatch):
    """17 standing tiles read right and a thin face-down box at the photo's edge: the row
    stays the hand (it was one lone tile, the 17 thrown away)."""
    boxes = [(30 + 72 * i + 10 * (i == 16), 300, 30 + 72 * i + 10 * (i == 16) + 68, 393)
             for i in range(17)]
    row = [(code, box, 0.9) for code, box in zip(SEVENTEEN, boxes)]
    _stub(tmp_path, monkeypatch, row + [("back", (1262, 300, 1280, 393), 0.2)])
    _upload(page, SEVENTEEN)
    assert sorted(_draft(page).codes()) == sorted(SEVENTEEN)
    said = texts(page)
    assert "Remove 3 tiles" in said and "add them to: Winning" not in said


def test_tiles_set_aside_are_shown_and_one_tap_brings_one_back(page, tmp_path, monkeypatch):
    far = [("5s", (900, 600, 900 + TILE[0], 600 + TILE[1]), 0.9),
           ("6s", (1100, 40, 1100 + TILE[0], 40 + TILE[1]), 0.9)]
    _stub(tmp_path, monkeypatch, _hand(HAND) + far)
    _upload(page)
    assert sorted(_draft(page).codes()) == sorted(HAND)
    assert "2 tiles of the photo were set aside" in texts(page)
    aside = keys(page, "aside__win__")
    assert [k.split("__")[3] for k in aside] == ["5s", "6s"]
    click(page, aside[0])
    assert _draft(page).codes().count("5s") == 1 and [s.code for s in _draft(page).aside] == ["6s"]
    assert "1 tile of the photo was set aside" in texts(page)


def test_only_the_hands_tiles_are_counted_and_framed(page, tmp_path, monkeypatch):
    """Boxes the finder doubts outside the hand (a table edge) are neither counted as
    doubtful, nor framed, nor offered back."""
    edges = [("3m", (20, 650, 20 + TILE[0], 650 + TILE[1]), 0.18),
             ("9s", (1180, 620, 1180 + TILE[0], 620 + TILE[1]), 0.09)]
    _stub(tmp_path, monkeypatch, _hand(HAND) + edges)
    _upload(page)
    said = texts(page)
    assert "14 tiles read" in said and "doubtful" not in said
    assert not [k for k in keys(page, "tile__") if "__dbt__" in k]
    assert not keys(page, "aside__")
    assert page.session_state["recog"]["win"].doubtful == 0


def test_a_guessed_winning_tile_is_marked_on_the_tile(page, stub_model, monkeypatch):
    import vision.layout
    real = vision.layout.read_layout
    monkeypatch.setattr(vision.layout, "read_layout",
                        lambda d: dataclasses.replace(real(d), winning_guessed=True))
    _upload(page)
    guessed = [k for k in keys(page, "tile__win__win__") if "__gss__" in k]
    assert len(guessed) == 1
    said = texts(page)
    assert "was guessed" in said and "Single Wait" in said
    index = [s.code for s in _draft(page).hand].index("7s")
    click(page, keys(page, f"tile__win__hand__{index}__")[0])
    click(page, "act__win__winning")
    assert _draft(page).winning.code == "7s" and not _draft(page).guessed
    assert not [k for k in keys(page, "tile__") if "__gss__" in k] and "was guessed" not in texts(page)


@pytest.mark.parametrize("taps, said, not_said", [
    ((), "No hand yet", "Not yet"),
    (("5p",), "this one has 1", "1 tiles"),
])
def test_the_hand_is_told_in_whole_sentences(page, taps, said, not_said):
    page.segmented_control(key="mode__win").set_value("Manual").run()
    for code in taps:
        click(page, f"pal__{code}__win")
    text = texts(page)
    assert said in text and not_said not in text and ".." not in text and "below" not in text


def test_rule_sets_and_options_are_named_in_words(page):
    page.segmented_control(key="rules").set_value("hk001").run()
    assert "HK001: Hong Kong old style" in texts(page)
    page.segmented_control(key="rules").set_value("mcr").run()
    preset = page.selectbox(key="preset__mcr")
    assert "World Mahjong Organisation rules" in preset.options and "wmo" not in preset.options
    labels = [t.label for t in page.toggle] + [n.label for n in page.number_input]
    assert labels and not [label for label in labels if "_" in label or label[0].islower()]


def test_details_are_words():
    from app.ui.result import detail_line
    assert detail_line("limit_hand", "great_three_dragons") == "Limit hand: Great Three Dragons"
