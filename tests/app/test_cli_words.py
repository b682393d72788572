"""What the command line says: help without an argument and for each command in the
player's words, the tiles read when a photo makes no complete hand, `detect` in reading
order, flowers typed in the notation, and "not both" for a photo and a typed hand."""
from __future__ import annotations

import re

import pytest

from app.cli import main
from app.commands.detect import reading_order
from app_fixtures import table_photo
from scoring.errors import one_line
from scoring.hand import parse_hand


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _help(capsys, *argv):
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_plain_command_prints_the_help(capsys):
    code, out, err = _run(capsys)
    assert code == 0 and out.startswith("usage: mahjong-lens") and "score" in out and not err


def test_score_rules_says_what_it_is_and_its_default(capsys):
    text = " ".join(_help(capsys, "score").split())
    assert re.search(r"--rules \{mcr,hk001,hk002,classical\} \S.*default mcr", text)


def test_detect_help_has_no_internal_names(capsys):
    text = _help(capsys, "detect")
    for internal in ("vision.", "OPERATING_CONF", "models/", ".onnx)", "'s limit"):
        assert internal not in text


def test_read_help_says_what_it_does(capsys):
    text = " ".join(_help(capsys, "read").split())
    assert "Read the hand in a photo" in text and "no complete hand" in text


@pytest.fixture
def incomplete_photo(tmp_path, stub_model):
    """The stub's photo: 9p read for 6p, so the tiles make no complete hand."""
    path = tmp_path / "hand.jpg"
    path.write_bytes(table_photo())
    return str(path)


def test_read_on_an_incomplete_hand_prints_the_tiles_it_read(capsys, incomplete_photo):
    code, out, _ = _run(capsys, "read", incomplete_photo)
    first = out.splitlines()[0]
    assert code == 0 and first.startswith("no complete hand; the tiles read: ")
    assert first.split(": ", 1)[1].split() == ["1m", "2m", "3m", "4p", "5p", "9p", "7s", "8s",
                                               "9s", "1z", "1z", "1z", "2z", "2z"]


def test_score_on_an_incomplete_hand_says_the_tiles_in_one_plain_line(capsys, incomplete_photo):
    code, out, err = _run(capsys, "score", incomplete_photo, "--self-drawn")
    assert code == 2 and not out and len(err.strip().splitlines()) == 1
    assert "no complete hand: 1m 2m 3m 4p 5p 9p" in err
    assert not re.search(r"\([^)]*\(", err)  # no parentheses inside parentheses


def test_score_a_photo_and_a_typed_hand_is_not_both(capsys, tmp_path):
    code, _, err = _run(capsys, "score", str(tmp_path / "hand.jpg"), "--hand", "123m456p789sEEESS")
    assert code == 2 and "not both" in err


@pytest.mark.parametrize("boxes, order", [
    # one row, written right to left
    ([(200, 0, 250, 70), (100, 0, 150, 70), (0, 2, 50, 72)], [2, 1, 0]),
    # two rows (sets above, the hand below), tiles a little uneven, given scrambled
    ([(60, 205, 110, 275), (0, 0, 50, 70), (0, 200, 50, 270), (55, 8, 105, 78),
      (120, 196, 170, 266)], [1, 3, 2, 0, 4]),
    ([], []),
])
def test_detect_lists_tiles_in_reading_order(boxes, order):
    assert reading_order(boxes) == order


@pytest.mark.parametrize("notation, bonus", [
    ("[123m][EEE1]456p789sSS1f", ("1f",)),
    ("[123m][EEE1]456p789sS6f1fS", ("1f", "6f")),
    ("123m456p789sEEESS8f", ("8f",)),
])
def test_flowers_can_be_typed_in_the_notation(notation, bonus):
    hand = parse_hand(notation)
    assert hand.bonus == bonus and hand.winning == "2z" and len(hand.concealed) + 3 * len(hand.melds) == 13


def test_a_typed_flower_scores(capsys):
    code, out, _ = _run(capsys, "score", "--hand", "[123m][EEE1]456p789sSS1f", "--self-drawn")
    assert code == 0 and "Flower Tiles" in out


@pytest.mark.parametrize("confidence, says_check", [(0.92, False), (0.31, True)])
def test_read_asks_to_check_doubtful_tiles_only_when_there_are_some(
        capsys, tmp_path, monkeypatch, confidence, says_check):
    from app_fixtures import HAND, write_model
    codes, scores = list(HAND), [0.92] * len(HAND)
    codes[5], scores[5] = "9p", confidence  # 6p read as 9p: no complete hand either way
    monkeypatch.setenv("MAHJONG_LENS_MODEL", str(write_model(tmp_path / "m.onnx", codes, scores)))
    monkeypatch.setenv("MAHJONG_LENS_CLASSIFIER", "none")
    monkeypatch.setenv("MAHJONG_LENS_CONF", "0.25")
    path = tmp_path / "hand.jpg"
    path.write_bytes(table_photo())
    code, out, _ = _run(capsys, "read", str(path))
    assert code == 0 and out.startswith("no complete hand")
    assert ("marked doubtful" in out) == says_check


@pytest.mark.parametrize("exc, line", [
    (NotADirectoryError(20, "Not a directory", "/d/tilesets"), "/d/tilesets: Not a directory"),
    (PermissionError(13, "Permission denied"), "Permission denied"),
    (OSError("disk on fire"), "disk on fire"),
    (ValueError("CODES is empty"), "CODES is empty"),
    (ValueError("two\n  lines"), "two lines"),
    (RuntimeError(), "RuntimeError"),
])
def test_an_error_is_said_without_pythons_errno(exc, line):
    assert one_line(exc) == line


@pytest.mark.parametrize("argv, never", [
    # --help: no sub-command, rule set, game or model runtime; it starts about as fast as Python
    (["--help"], ("app.commands.", "scoring.rules", "scoring.request", "game", "numpy",
                  "onnxruntime", "vision")),
    # a typed hand: no photo reader
    (["score", "--hand", "123m456p789sEEESS", "--self-drawn"], ("numpy", "onnxruntime", "cv2", "vision")),
    # tiles from a photo (the reader is built, the missing file is an error line): no
    # grouping into a hand, no scorer's decompositions, no HEIC plugin for a JPEG
    (["detect", "no-such-photo.jpg"], ("vision.layout.table", "scoring.decompose", "pillow_heif")),
])
def test_a_command_imports_only_what_it_needs(argv, never):
    import subprocess
    import sys
    code = (f"import sys\nfrom app.cli import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n"
            "    pass\nprint(' '.join(sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    loaded = done.stdout.splitlines()[-1].split()
    assert "app.cli" in loaded
    assert [m for m in loaded if m.startswith(never)] == []


@pytest.mark.parametrize("command, says, never", [
    ("score", "name_local", "page"),
    ("app", "page's language", "name_local"),
    ("teach", "language of the text output", "name_local"),
    ("sets", "language of the text output", "name_local"),
    ("play", "language of the text output", "name_local"),
    ("detect", "language of the text output", "name_local"),
])
def test_each_commands_lang_says_what_it_does_there(capsys, command, says, never):
    text = " ".join(_help(capsys, command).split())
    lang = text[text.rindex("--lang en|pl|uk|de|zh"):]
    assert says in lang and never not in lang


def test_top_level_help_names_lang(capsys):
    text = " ".join(_help(capsys).split())
    assert "--lang en|pl|uk|de|zh language of the text output and of the help, before or after the command" in text


@pytest.mark.parametrize("command", ["score", "read"])
def test_a_missing_photo_is_said_before_any_model(capsys, monkeypatch, tmp_path, command):
    monkeypatch.setenv("MAHJONG_LENS_MODEL", str(tmp_path / "absent.onnx"))
    code, out, err = _run(capsys, command, str(tmp_path / "photo.jpg"), "--set", "nowhere")
    assert code == 2 and not out
    assert err == f"mahjong-lens {command}: {tmp_path / 'photo.jpg'}: cannot read file (No such file or directory)\n"


@pytest.mark.parametrize("given, quoted", [
    ("123m456p789sEEESS", "123m456p789sEEESS"),
    ("[123m][EEE1]456p789sSS1f", "'[123m][EEE1]456p789sSS1f'"),  # as a shell takes it back
])
def test_a_hand_typed_where_the_photo_goes_is_told_to_use_hand(capsys, given, quoted):
    code, _, err = _run(capsys, "score", given)
    assert code == 2
    assert err == f"mahjong-lens score: {quoted} is a hand in notation, not a photo: give it as --hand {quoted}\n"


@pytest.mark.parametrize("rules, flags, hint", [
    ("hk001", [], True), ("mcr", [], True), ("classical", [], False),  # Classical: all pay alike
    ("hk001", ["--self-drawn"], False), ("mcr", ["--discarder", "S"], False),
])
def test_a_score_without_how_it_was_won_says_which_flag_settles_the_payments(capsys, rules, flags, hint):
    code, out, _ = _run(capsys, "score", "--rules", rules, "--hand", "[CCC1][FFF1]234p56pPP7p", *flags)
    assert code == 0
    said = "  payments: add --self-drawn, or --discarder E|S|W|N for a win on a discard" in out.splitlines()
    assert said == hint and ("payments: E" in out) != hint


def test_a_practice_hand_is_written_once_with_its_bonus_tiles(capsys):
    code, out, _ = _run(capsys, "play", "--auto", "--seed", "3")
    first = out.splitlines()[0]
    assert code == 0 and ", 2344m123456p456s1m46f: " in first and "+4f" not in first
