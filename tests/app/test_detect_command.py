"""`mahjong-lens detect`: JSON lines, bad photos in a batch, exit statuses."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from app.commands import detect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))  # the stub model
from vision_onnx_stub import write_stub_model  # noqa: E402

ONE_TILE = np.array([[[16, 24, 32, 40, 0.9, 1]]], np.float32)
NO_TILE = np.array([[[16, 24, 32, 40, 0.1, 1]]], np.float32)


def _run(argv):
    parser = argparse.ArgumentParser()
    detect.add_parser(parser.add_subparsers())
    args = parser.parse_args(["detect", *argv])
    return args.run(args)


@pytest.fixture
def photo(tmp_path):
    path = tmp_path / "table.png"
    Image.new("RGB", (128, 64), (90, 90, 90)).save(path)
    return path


def test_json_line_per_photo(tmp_path, photo, capsys):
    model = write_stub_model(tmp_path / "m.onnx", ONE_TILE, names=["a", "b", "c"])
    assert _run([str(photo), "--json", "--model", str(model)]) == 0
    (line,) = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    assert line["image"] == str(photo) and (line["width"], line["height"]) == (128, 64)
    assert line["error"] is None and line["seconds"] >= 0
    assert line["tiles"] == [{"code": "b", "box": [32.0, 16.0, 64.0, 48.0], "confidence": 0.9}]


BATCH_CASES = [
    # (second file's bytes, words in its error line)
    (b"plain text", "not an image"),
    (None, "cannot read"),
]


@pytest.mark.parametrize("data,words", BATCH_CASES)
def test_bad_photo_in_a_batch_is_reported_and_the_rest_read(tmp_path, photo, capsys, data,
                                                            words):
    model = write_stub_model(tmp_path / "m.onnx", ONE_TILE)
    bad = tmp_path / "bad.jpg"
    if data is not None:
        bad.write_bytes(data)
    status = _run([str(bad), str(photo), "--json", "--model", str(model)])
    captured = capsys.readouterr()
    first, second = [json.loads(text) for text in captured.out.splitlines()]
    assert status == 2 and words in first["error"] and "tiles" not in first
    assert second["error"] is None and len(second["tiles"]) == 1
    assert captured.err.count("\n") == 1 and "1 of 2" in captured.err


def test_photo_without_tiles_is_an_error_line(tmp_path, photo, capsys):
    model = write_stub_model(tmp_path / "m.onnx", NO_TILE)
    assert _run([str(photo), "--json", "--model", str(model)]) == 2
    line = json.loads(capsys.readouterr().out)
    assert line["tiles"] == [] and "no tiles" in line["error"]


def test_missing_model_is_a_value_error(tmp_path, photo):
    with pytest.raises(ValueError, match="no detector model"):
        _run([str(photo), "--model", str(tmp_path / "absent.onnx")])


def test_plain_output_is_one_line(tmp_path, photo, capsys):
    model = write_stub_model(tmp_path / "m.onnx", ONE_TILE)
    assert _run([str(photo), "--model", str(model)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith(f"{photo}: 1 tile in ") and out.endswith(": b\n")


def test_the_stack_classifier_is_never_loaded(tmp_path, photo, capsys, monkeypatch):
    # detect prints tiles, not melds: a kong's fourth tile on top is not its question
    def refuse(*args, **kwargs):
        raise AssertionError("detect loaded the stack classifier")
    monkeypatch.setattr("vision.pipeline.stack_reader", refuse)
    model = write_stub_model(tmp_path / "m.onnx", ONE_TILE)
    assert _run([str(photo), "--json", "--model", str(model)]) == 0
    assert "on_top" not in capsys.readouterr().out


@pytest.mark.parametrize("given, kept", [(None, "1"), ("3", "3")])
def test_the_command_line_starts_numpy_without_blas_threads(given, kept):
    """OpenBLAS's threads cost start-up and no command uses them; the user's value stands."""
    import os
    import subprocess
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    code = ("import os\nfrom app.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n"
            "    pass\nprint(os.environ.get('OPENBLAS_NUM_THREADS'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=env, check=True)
    assert done.stdout.split()[-1] == kept
