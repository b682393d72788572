"""The slot and frame tables of the Debian tile sets, and their extraction where installed."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from datasets.art import debian_raster as D
from datasets.classes import TILE_CODES


@pytest.mark.parametrize("table,missing", [
    (D.HOLM_NAMES, set()),
    (D.SMALL_NAMES, {"5z", "1f", "2f", "3f", "4f"}),   # blank white dragon; flowers are figures
    ({**{k: v for k, v in D.GNOME_SLOTS.items() if v != "5z"}, **D.POSTMODERN_BONUS}, {"5z"}),
])
def test_each_table_names_each_tile_once(table, missing):
    codes = list(table.values())
    assert len(codes) == len(set(codes))
    assert set(codes) == set(TILE_CODES) - missing


@pytest.mark.parametrize("name,tool,path,count", [
    ("xmj_thick", "gifsicle", "usr/share/games/xmahjongg/tiles/thick.gif", 42),
    ("xmj_small", "gifsicle", "usr/share/games/xmahjongg/tiles/small.gif", 37),
    ("gnome_postmodern", "rsvg-convert", "usr/share/gnome-mahjongg/themes/postmodern.svg", 41),
])
def test_installed_sets_give_distinct_drawn_faces(name, tool, path, count):
    if not shutil.which(tool) or not (Path("/") / path).exists():
        pytest.skip(f"{path} or {tool} not installed (bash datasets/art/install_art.sh)")
    faces = D.SOURCES[name][0](Path("/"))
    assert len(faces) == count
    for code, face in faces.items():
        assert face.ndim == 3 and min(face.shape[:2]) >= 30, code
        assert face.std() > 10, f"{name} {code} is blank"
    flat = {code: face.tobytes() for code, face in faces.items()}
    assert len(set(flat.values())) == count
