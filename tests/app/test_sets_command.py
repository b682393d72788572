"""`mahjong-lens sets [--json]`, `sets --delete NAME`, and `--set NAME` on the reading
commands: a missing or damaged set is one line and exit 2."""
from __future__ import annotations

import json

import numpy as np
import pytest

from app.cli import main
from scoring.tiles import TILES
from vision.runtime import DEFAULT_CLASSIFIER_PATH
from vision.tileset.store import TileSet, save_set, set_path


def stored(data, name="home"):
    feats = np.eye(3, 8, dtype=np.float32)
    tileset = TileSet(name, np.ones(8, np.float32)).add(["1m", "1m", "5f"], feats, feats,
                                                         "sheet", when=1_800_000_000.0)
    return save_set(tileset, data)


def test_sets_json_lists_examples_per_class_and_when_last_taught(tmp_path, capsys):
    stored(tmp_path, "home")
    broken = set_path("old", tmp_path)
    broken.write_bytes(b"not a set")
    assert main(["sets", "--json", "--data-dir", str(tmp_path)]) == 0
    lines = json.loads(capsys.readouterr().out)
    unseen = [c for c in TILES if c not in ("1m", "5f")]
    assert lines[0] == {"name": "home", "examples": {"1m": 2, "5f": 1}, "tiles": 3,
                        "last_taught": "2027-01-15T08:00:00Z", "unseen": unseen,
                        "corrected": {}, "error": None}
    assert lines[1]["name"] == "old" and "damaged" in lines[1]["error"]
    assert lines[1]["unseen"] == []  # nothing is known of a damaged set


def test_sets_say_which_tiles_a_set_has_not_seen_yet(tmp_path, capsys):
    """A set read as the reader alone reads what it lacks: the player sees what to teach."""
    feats = np.eye(40, 8, dtype=np.float32)
    everything_but = [c for c in TILES if c not in ("3p", "7z", "2f")]
    save_set(TileSet("home", np.ones(8, np.float32)).add(everything_but, feats[:39], feats[:39],
                                                         "sheet"), tmp_path)
    assert main(["sets", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("; not seen yet: 3p7z2f")
    save_set(TileSet("all", np.ones(8, np.float32)).add(list(TILES), np.eye(42, 8, dtype=np.float32),
                                                        np.eye(42, 8, dtype=np.float32), "sheet"),
             tmp_path)
    assert main(["sets", "--data-dir", str(tmp_path)]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("all:"))
    assert "not seen" not in line


def test_sets_json_lists_the_corrections_a_set_learnt(tmp_path, capsys):
    feats = np.eye(4, 8, dtype=np.float32)
    tileset = TileSet("night", np.ones(8, np.float32)).add(
        ["8s", "8s", "1f", "2m"], feats, feats, "hand:1", reads=["9s", "9s", "5f", "2m"])
    save_set(tileset, tmp_path)
    assert main(["sets", "--json", "--data-dir", str(tmp_path)]) == 0
    [line] = json.loads(capsys.readouterr().out)
    assert line["corrected"] == {"9s>8s": 2, "5f>1f": 1}


def test_sets_without_any_says_how_to_teach_one_and_json_lists_none(tmp_path, capsys):
    assert main(["sets", "--data-dir", str(tmp_path)]) == 0
    assert "mahjong-lens teach" in capsys.readouterr().out
    assert main(["sets", "--json", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "[]\n"


def test_sets_delete_removes_one_and_refuses_a_path(tmp_path, capsys):
    path = stored(tmp_path)
    assert main(["sets", "--delete", "home", "--data-dir", str(tmp_path)]) == 0
    assert not path.exists()
    assert main(["sets", "--delete", "home", "--data-dir", str(tmp_path)]) == 2
    assert main(["sets", "--delete", "../ledger", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "mahjong-lens sets: no tile set named 'home'"
    assert err[1].startswith("mahjong-lens sets: '../ledger' is not a tile set name")


@pytest.mark.parametrize("command", ["detect", "read", "score"])
@pytest.mark.parametrize("make, message", [
    (lambda data: None, "no tile set named 'home'"),
    (lambda data: set_path("home", data).parent.mkdir() or set_path("home", data).write_bytes(b"x"),
     "tile set 'home' is damaged"),
])
def test_reading_with_a_missing_or_damaged_set_is_one_line(tmp_path, capsys, monkeypatch,
                                                           command, make, message):
    if not DEFAULT_CLASSIFIER_PATH.is_file():
        pytest.skip("the committed crop reader is not there")
    monkeypatch.delenv("MAHJONG_LENS_CLASSIFIER", raising=False)
    make(tmp_path)
    photo = tmp_path / "p.jpg"
    photo.write_bytes(b"")
    assert main([command, str(photo), "--set", "home", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mahjong-lens {command}: {message}") and err.count("\n") == 1


def test_sets_lists_the_fixes_learnt_and_forgets_one_made_by_mistake(tmp_path, capsys):
    feats = np.eye(4, 8, dtype=np.float32)
    save_set(TileSet("night", np.ones(8, np.float32)).add(
        ["8s", "8s", "7s", "2m"], feats, feats, "hand:1", reads=["9s", "9s", "9s", "2m"]),
        tmp_path)
    data = ["--data-dir", str(tmp_path)]
    assert main(["sets", *data]) == 0
    assert capsys.readouterr().out.rstrip().endswith("fixes learnt (read as>is): 9s>8s ×2, 9s>7s ×1")
    assert main(["sets", "--forget", "night", "9s", "7s", *data]) == 0
    assert capsys.readouterr().out == "set 'night' no longer reads 9s as 7s (1 example forgotten)\n"
    assert main(["sets", "--json", *data]) == 0
    assert json.loads(capsys.readouterr().out)[0]["corrected"] == {"9s>8s": 2}


@pytest.mark.parametrize("argv, said", [
    (["night", "9s", "7s"], "set 'night' has learnt no fix of 9s to 7s"),
    (["night", "9s", "8x"], "8x is not a tile code (e.g. 9s, 5z, 1f)"),
    (["nowhere", "9s", "8s"], "no tile set named 'nowhere'"),
    (["../x", "9s", "8s"], "'../x' is not a tile set name"),
])
def test_forgetting_what_is_not_there_is_one_line(tmp_path, capsys, argv, said):
    stored(tmp_path, "night")
    assert main(["sets", "--forget", *argv, "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mahjong-lens sets: {said}") and err.count("\n") == 1
