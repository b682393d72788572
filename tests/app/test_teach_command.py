"""`mahjong-lens teach PHOTO... --tiles CODES --set NAME`: a sheet photo of a set the reader
never learnt (the page's own tile art) is taught, and a photo that does not match CODES is
refused in one line with nothing stored."""
from __future__ import annotations

import pytest
from PIL import Image

from app.cli import main
from tests.vision.tileset_art import SHEET_ROWS, lay_out
from vision.runtime import DEFAULT_CLASSIFIER_PATH, DEFAULT_MODEL_PATH

CODES = "123456789m123456789p123456789s1234567z12345678f"


@pytest.fixture
def sheet_photo(tmp_path, monkeypatch):
    if not (DEFAULT_MODEL_PATH.is_file() and DEFAULT_CLASSIFIER_PATH.is_file()):
        pytest.skip("the committed models are not there")
    monkeypatch.delenv("MAHJONG_LENS_CLASSIFIER", raising=False)
    rgb, _, _ = lay_out(SHEET_ROWS, scale=0.8, seed=0)
    path = tmp_path / "sheet.png"
    Image.fromarray(rgb).save(path)
    return path


@pytest.mark.slow
def test_teach_stores_a_sheet_and_refuses_a_wrong_count_in_one_line(sheet_photo, tmp_path,
                                                                     capsys):
    data = tmp_path / "data"
    assert main(["teach", str(sheet_photo), "--tiles", CODES[:-2] + "f", "--set", "home",
                 "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "mahjong-lens teach: found 42 tiles in 5 rows (9,9,9,7,8), CODES has 41"
    assert not (data / "tilesets").exists()
    assert main(["teach", str(sheet_photo), "--tiles", CODES, "--set", "home",
                 "--data-dir", str(data)]) == 0
    assert "taught 42 tiles to set 'home'" in capsys.readouterr().out
    assert (data / "tilesets" / "home.npz").is_file()


@pytest.mark.parametrize("argv, message", [
    (["--set", "../x", "--tiles", CODES], "is not a tile set name"),
    (["--set", "a/b", "--tiles", CODES], "is not a tile set name"),
    (["--set", "", "--tiles", CODES], "a tile set needs a name"),
    (["--set", "x" * 200, "--tiles", CODES], "at most 64 characters"),
    (["--set", "home", "--tiles", "12x"], "CODES: unexpected character 'x'"),
])
def test_teach_refuses_a_bad_name_or_bad_codes_in_one_line(tmp_path, capsys, argv, message):
    photo = tmp_path / "sheet.png"
    Image.new("RGB", (64, 64)).save(photo)
    assert main(["teach", str(photo), *argv, "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mahjong-lens teach: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "tilesets").exists()


@pytest.mark.slow
def test_a_data_folder_that_cannot_hold_sets_is_one_line_with_its_path(sheet_photo, tmp_path,
                                                                       capsys):
    data = tmp_path / "data"
    data.write_text("a file, not a folder")
    assert main(["teach", str(sheet_photo), "--tiles", CODES, "--set", "home",
                 "--data-dir", str(data)]) == 2
    assert capsys.readouterr().err == f"mahjong-lens teach: {data}/tilesets: Not a directory\n"


@pytest.mark.slow
def test_codes_in_another_order_than_the_tiles_lie_are_taught_with_a_note(sheet_photo, tmp_path,
                                                                           capsys):
    swapped = "123456789p 123456789s 123456789m 1234567z 12345678f"
    assert main(["teach", str(sheet_photo), "--tiles", swapped, "--set", "home",
                 "--data-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert err.startswith("note: only ") and "look like their codes" in err
    assert err.rstrip().endswith("seem to be " + " ".join(SHEET_ROWS))
    assert err.count("\n") == 1 and "taught 42 tiles" in out
