"""`mahjong-lens teach PHOTO... --tiles CODES --set NAME`: a sheet photo of a set the reader
never learnt (the page's own tile art) is taught by aligning CODES with what is found: what is
not taught is named, and photos that do not fit are refused in one line with nothing stored."""
from __future__ import annotations

import pytest
from PIL import Image

from app.cli import main
from tests.vision.tileset_art import SHEET_ROWS, lay_out
from vision.runtime import DEFAULT_CLASSIFIER_PATH, DEFAULT_MODEL_PATH
from vision.tileset import load_set

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
def test_teach_names_a_code_with_no_tile_and_stores_the_sure_tiles(tmp_path, capsys,
                                                                    sheet_photo):
    """The white dragon is not on the table although typed: its code is named, the rest is
    taught with no code slid along."""
    rows = SHEET_ROWS[:3] + ("123467z", SHEET_ROWS[4])
    rgb, _, _ = lay_out(rows, scale=0.8, seed=0)
    Image.fromarray(rgb).save(tmp_path / "no_white.png")
    data = tmp_path / "data"
    assert main(["teach", str(tmp_path / "no_white.png"), "--tiles", " ".join(SHEET_ROWS),
                 "--set", "home", "--data-dir", str(data)]) == 0
    out, err = capsys.readouterr()
    assert "note: photo 1, row 4: 5z not found, not taught" in err.splitlines()
    taught = load_set("home", data)
    # no hole in the row says where 5z was: only the tiles read surely are taught
    assert "5z" not in taught.codes and {"1z", "2z", "3z"} <= set(taught.codes)
    assert f"taught {len(taught)} tiles to set 'home'" in out


@pytest.mark.slow
@pytest.mark.parametrize("second", [None, "blank"])
def test_teach_refuses_photos_that_do_not_fit_and_stores_nothing(sheet_photo, tmp_path,
                                                                  capsys, second):
    """One row where five were typed; or a good sheet and a second photo with no tile: one
    line, exit 2, nothing stored from any photo."""
    data = tmp_path / "data"
    if second is None:
        rgb, _, _ = lay_out(SHEET_ROWS[:1], scale=0.8, seed=0)
        Image.fromarray(rgb).save(tmp_path / "row.png")
        photos, codes, where = [tmp_path / "row.png"], " ".join(SHEET_ROWS), ""
    else:
        Image.new("RGB", (400, 300), (40, 110, 60)).save(tmp_path / "blank.png")
        photos, codes, where = [sheet_photo, tmp_path / "blank.png"], CODES + "123m", "photo 2: "
    assert main(["teach", *map(str, photos), "--tiles", codes, "--set", "home",
                 "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mahjong-lens teach: {where}the codes do not fit this photo either "
                          f"way round") and err.count("\n") == 1
    assert not (data / "tilesets").exists()


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
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == f"mahjong-lens teach: {data}/tilesets: Not a directory"


@pytest.mark.slow
def test_rows_typed_in_another_order_than_they_lie_are_taught_as_they_lie(sheet_photo, tmp_path,
                                                                          capsys):
    swapped = "123456789p 123456789s 123456789m 1234567z 12345678f"
    assert main(["teach", str(sheet_photo), "--tiles", swapped, "--set", "home",
                 "--data-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines()[0] == ("note: the rows lie as " + " ".join(SHEET_ROWS)
                                   + ": taught as they lie")
    taught = load_set("home", tmp_path)
    assert "taught " in out and taught.corrected() == {}
