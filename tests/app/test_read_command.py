"""`mahjong-lens read PHOTO --json` and `mahjong-lens score PHOTO`, end to end on a stub model
whose fixed output is a hand laid out on the table."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from app.cli import main
from scoring.tiles import VISION_CLASSES

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))
from layout_scenes import detections
from vision_onnx_stub import write_stub_model

SIZE = 640
HAND = ["4p5p6p7s8s9sN N", "1m^2m3m #EE# 3f"]


def _model(tmp_path: Path, rows, span: float = SIZE - 80) -> Path:
    """A stub detector that finds the tiles of `rows`, fitted into `span` pixels of a 640x640
    photo (the whole photo: tiles about 59 pixels across)."""
    found = detections(rows, angle_deg=90)
    xyxy = found.xyxy - np.tile(found.xyxy[:, :2].min(axis=0), 2)
    xyxy = xyxy * span / xyxy.max() + 40
    out = np.concatenate([xyxy, np.full((len(xyxy), 1), 0.9), found.class_id[:, None]], axis=1)
    return write_stub_model(tmp_path / "hand.onnx", out[None].astype(np.float32), imgsz=(SIZE, SIZE),
                            names=list(VISION_CLASSES))


@pytest.fixture
def photo(tmp_path):
    path = tmp_path / "table.jpg"
    Image.new("RGB", (SIZE, SIZE), (40, 110, 60)).save(path)
    return path


def test_read_json_gives_the_layout(tmp_path, photo, capsys):
    model = _model(tmp_path, HAND)
    assert main(["read", str(photo), "--json", "--model", str(model)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["concealed", "melds", "bonus", "winning", "ignored", "notation", "confidence",
                         "notes", "winning_guessed", "alternatives", "rereads"]
    assert out["notation"] == "[123m1][EEEE]456p789sNN3f"
    assert [t["code"] for t in out["bonus"]] == ["3f"]
    assert out["winning"]["code"] == "4z" and not out["winning_guessed"]
    assert {m["kind"] for m in out["melds"]} == {"chow", "concealed_kong"}
    assert all(len(t["box"]) == 4 for t in out["concealed"])


def test_score_a_photo(tmp_path, photo, capsys):
    model = _model(tmp_path, HAND)
    assert main(["score", str(photo), "--rules", "hk001", "--self-drawn", "--json",
                 "--model", str(model)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hand"].startswith("[123m1][EEEE]") and out["error"] is None


# (rules and flags, --flowers given with the photo, the same with the photo's 3f)
PHOTO_SCORES = [
    (["--rules", "hk001", "--self-drawn"], "", "3f"),
    (["--rules", "mcr", "--discarder", "S"], "2f,1f", "1f,2f,3f"),
    (["--rules", "classical", "--self-drawn", "--fourth-tile"], "", "3f"),  # a flag the tiles rule out
]


@pytest.mark.parametrize("flags, given, flowers", PHOTO_SCORES, ids=[" ".join(c[0]) for c in PHOTO_SCORES])
def test_score_a_photo_scores_the_layouts_hand_as_read(tmp_path, photo, capsys, monkeypatch, flags, given,
                                                        flowers):
    """The hand the layout read goes to the scorer as it is, never through its notation,
    and scores as the same hand typed in."""
    import scoring.request
    model = _model(tmp_path, HAND)

    def no_parsing(*args, **kwargs):
        raise AssertionError("the layout's hand was parsed back from its notation")
    with monkeypatch.context() as patch:
        patch.setattr(scoring.request, "parse_hand", no_parsing)
        assert main(["score", str(photo), "--json", "--model", str(model), "--flowers", given, *flags]) == 0
    from_photo = capsys.readouterr().out
    assert main(["score", "--hand", "[123m1][EEEE]456p789sNN", "--json", "--flowers", flowers, *flags]) == 0
    assert from_photo == capsys.readouterr().out


def test_photo_without_a_complete_hand_is_one_line_exit_2(tmp_path, photo, capsys):
    model = _model(tmp_path, ["1m2m3m4p5p6p7s8s9sEEENNN"])
    assert main(["score", str(photo), "--rules", "mcr", "--model", str(model)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "complete hand" in err


def test_photo_with_no_tiles_is_one_line_exit_2(tmp_path, photo, capsys):
    empty = np.array([[[16, 24, 32, 40, 0.01, 1]]], np.float32)
    model = write_stub_model(tmp_path / "none.onnx", empty, imgsz=(SIZE, SIZE), names=list(VISION_CLASSES))
    assert main(["read", str(photo), "--json", "--model", str(model)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no tiles" in err


@pytest.mark.parametrize("span, small", [(SIZE - 80, False), ((SIZE - 80) / 2, True)])
def test_small_tiles_add_a_note(tmp_path, photo, capsys, span, small):
    """The same hand read at full size and at half size (tiles about 29 pixels across)."""
    model = _model(tmp_path, HAND, span)
    assert main(["read", str(photo), "--model", str(model)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "[123m1][EEEE]456p789sNN3f"
    assert ("tiles are small in this photo" in out) == small


@pytest.mark.parametrize("command", ["read", "score"])
def test_a_black_and_white_photo_is_told_colour_reads_better(tmp_path, command, capsys):
    model = _model(tmp_path, HAND)
    grey = tmp_path / "grey.jpg"
    Image.new("L", (SIZE, SIZE), 90).save(grey)
    assert main([command, str(grey), "--model", str(model)]) == 0
    said = capsys.readouterr()
    assert "Colour photos read better" in said.out + said.err
    colour = tmp_path / "colour.jpg"
    Image.new("RGB", (SIZE, SIZE), (40, 110, 60)).save(colour)
    assert main([command, str(colour), "--model", str(model)]) == 0
    said = capsys.readouterr()
    assert "Colour photos read better" not in said.out + said.err


def _ledger_csv_notation(photo: Path, model: str, folder: Path) -> str:
    """The hand's notation in the ledger's CSV, the page's way from a photo: the layout as a
    draft, scored self-drawn under hk001, added to a night."""
    from app import edit, evaluate
    from app.commands.read import read_photo
    from app.ledger import Ledger
    draft = edit.from_layout(read_photo(str(photo), model))
    situation = evaluate.Situation(self_drawn=True)
    entry = evaluate.ledger_entry(evaluate.score_draft(draft, situation, "hk001"), situation,
                                  "hk001", None)
    ledger = Ledger(folder)
    night = ledger.current_night()
    ledger.add_hand(night, entry, "t1")
    import csv
    import io
    return next(csv.DictReader(io.StringIO(ledger.to_csv(night))))["notation"]


def test_one_notation_for_the_hand_with_its_bonus_tiles(tmp_path, photo, capsys):
    """read's text and JSON, score's JSON and the ledger's CSV write the hand with its
    bonus tiles alike, and that notation parses back to the same hand."""
    from scoring.hand import format_hand, parse_hand
    model = str(_model(tmp_path, HAND))
    assert main(["read", str(photo), "--model", model]) == 0
    text = capsys.readouterr().out.splitlines()[0]
    assert main(["read", str(photo), "--json", "--model", model]) == 0
    from_json = json.loads(capsys.readouterr().out)["notation"]
    assert main(["score", str(photo), "--rules", "hk001", "--self-drawn", "--json", "--model", model]) == 0
    scored = json.loads(capsys.readouterr().out)["hand"]
    assert text == from_json == scored == "[123m1][EEEE]456p789sNN3f"
    hand = parse_hand(scored)
    assert hand.bonus == ("3f",) and hand.winning == "4z" and format_hand(hand) == scored
    in_csv = _ledger_csv_notation(photo, model, tmp_path / "data")
    assert in_csv.endswith("456p789sNN3f") and format_hand(parse_hand(in_csv)) == in_csv


@pytest.mark.parametrize("command, extra, first", [
    ("read", [], "[123m1][EEEE]56p789sNN4p3f"),
    ("read", ["--json"], '"notation": "[123m1][EEEE]56p789sNN4p3f"'),
    ("score", ["--rules", "hk001", "--self-drawn"], "[123m1][EEEE]56p789sNN4p3f  "),
])
def test_winning_tile_given_on_the_command_line(tmp_path, photo, capsys, command, extra, first):
    model = str(_model(tmp_path, HAND))
    assert main([command, str(photo), "--winning", "4p", "--model", model, *extra]) == 0
    assert first in capsys.readouterr().out


@pytest.mark.parametrize("argv, said", [
    (["read", "PHOTO", "--winning", "1m"], "1m is not among the hand's concealed tiles (456p789sNN)"),
    (["score", "PHOTO", "--winning", "C", "--self-drawn"], "C is not among the hand's concealed tiles"),
    (["score", "--hand", "123m456p789sEEESS", "--winning", "5p"], "--winning is for a photo"),
    (["read", "PHOTO", "--winning", "5x"], "argument --winning: expected one tile, e.g. 5p or F, got '5x'"),
])
def test_a_winning_tile_that_cannot_be_is_one_line(tmp_path, photo, capsys, argv, said):
    if "PHOTO" in argv:
        argv = [str(photo) if a == "PHOTO" else a for a in argv] + ["--model", str(_model(tmp_path, HAND))]
    try:
        code = main(argv)
    except SystemExit as done:  # argparse's own line, after its usage
        code = done.code
    err = capsys.readouterr().err
    assert code == 2 and said in err.splitlines()[-1]


def test_a_guessed_winning_tile_is_named_as_the_notation_names_it(tmp_path, photo, capsys):
    model = str(_model(tmp_path, ["4p5p6p7s8s9sNN", "1m^2m3m #EE# 3f"]))
    assert main(["read", str(photo), "--model", model]) == 0
    out = capsys.readouterr().out
    assert "winning tile not set apart: N chosen" in out and "4z" not in out
    assert main(["read", str(photo), "--model", model, "--winning", "8s"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[123m1][EEEE]456p79sNN8s3f\n") and "not set apart" not in out
