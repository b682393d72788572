"""The package as a user installs it: a wheel built by `python -m build`, installed into a fresh
virtual environment, run from a folder outside the source tree, reads a drawn photo, scores
it and starts the page. The environment borrows the installed dependencies (a `.pth` to
this interpreter's site-packages, whose editable install of the project it does not load), so
the test needs no network; what it checks is that the wheel alone carries the program."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import urllib.request
import zipfile
from pathlib import Path

import pytest

import browser_fixtures as bf
from app_fixtures import table_photo

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]  # one build, on one worker
ROOT = Path(__file__).resolve().parents[2]
# read right by the committed models (the page's own 8s picture is read as 9s)
HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7m", "8m", "9m", "1z", "1z", "1z", "2z", "2z"]
MODELS = {"detector.onnx", "tile_classifier.onnx", "glyph_reader.onnx", "stack_classifier.onnx"}
WHEEL_MB = 30  # the models are 26 MB; anything for training would show here


def _run(cmd, cwd, env, timeout=300):
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{cmd}: {done.stdout[-1500:]} {done.stderr[-1500:]}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv python, its bin folder, a folder outside the source tree, a clean environment)"""
    base = tmp_path_factory.mktemp("wheel")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MAHJONG_LENS_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(HOME=str(base), LANG="C.UTF-8")
    # sdist first, the wheel from it: what `python -m build` does (no stale build folder)
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(base / "dist"), str(ROOT)],
         base, env)
    wheel, = (base / "dist").glob("mahjong_lens-*.whl")
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], base, env)
    python = venv / "bin" / "python"
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     base, env).strip())
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
          "--no-index", "--ignore-installed", "--quiet", str(wheel)], base, env)
    (base / "work").mkdir()
    return wheel, python, base / "work", env


def test_the_wheel_carries_the_models_and_nothing_for_training(installed):
    wheel = installed[0]
    names = zipfile.ZipFile(wheel).namelist()
    assert {Path(n).name for n in names if n.startswith("vision/models/")} == MODELS
    tops = {n.split("/")[0] for n in names}
    assert tops == {"app", "game", "scoring", "vision", "mahjong_lens-0.1.0.dist-info"}, tops
    assert not [n for n in names if n.endswith((".pt", ".json")) and "dist-info" not in n]
    assert wheel.stat().st_size < WHEEL_MB * 2**20


def test_installed_it_reads_a_photo_and_scores_it(installed):
    _, python, work, env = installed
    where = _run([str(python), "-c", "import vision.runtime as r; print(r.DEFAULT_MODEL_PATH)"],
                 work, env).strip()
    assert where.startswith(str(python.parents[1])) and not where.startswith(str(ROOT)), where
    (work / "hand.jpg").write_bytes(table_photo(HAND))
    tool = str(python.parent / "mahjong-lens")
    read = json.loads(_run([tool, "detect", "hand.jpg", "--json"], work, env))
    assert [t["code"] for t in read["tiles"]] == HAND
    score = json.loads(_run([tool, "score", "hand.jpg", "--rules", "mcr", "--self-drawn", "--json"],
                            work, env))
    assert score["valid"] and score["hand"] == "123789m456pEEESS" and score["total"] == 11


def test_installed_it_starts_the_page(installed):
    _, python, work, env = installed
    port, log = bf.free_port(), work / "server.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([str(python.parent / "mahjong-lens"), "app", "--server.address",
                                   "127.0.0.1", "--server.port", str(port), "--data-dir",
                                   str(work / "data")], cwd=work, env=env, stdout=out, stderr=out)
    url = f"http://127.0.0.1:{port}/"
    try:
        bf._wait_healthy(url, server, log)
        with urllib.request.urlopen(url, timeout=10) as page:
            assert page.status == 200 and b"<div id=\"root\">" in page.read()
        with urllib.request.urlopen(url + "app/static/1m.png", timeout=10) as tile:
            assert tile.read(4) == b"\x89PNG"
    finally:
        server.terminate()
        server.wait(10)
