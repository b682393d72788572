"""The page's modules depend one way: `app/page.py` imports the parts in `app/ui`, none of
them imports the page back (not even lazily, inside a function); the page's arguments live
in `app/ui/args.py`, where every page reads them."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.ui.args import data_folder, page_args

UI = Path(__file__).resolve().parents[2] / "app" / "ui"


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


@pytest.mark.parametrize("path", sorted(UI.glob("*.py")), ids=lambda p: p.name)
def test_no_part_of_the_page_imports_the_page(path):
    assert "app.page" not in _imports(path)


@pytest.mark.parametrize("argv, want", [
    (["--data-dir", "/srv/night"], "/srv/night"),
    (["--server.port", "8600", "--data-dir=/d", "--other"], "/d"),   # Streamlit's own are left
    ([], None),
])
def test_the_pages_arguments(argv, want):
    assert page_args(argv).data_dir == want


def test_the_data_folder_is_the_one_given(tmp_path, monkeypatch):
    monkeypatch.delenv("MAHJONG_LENS_DATA", raising=False)
    assert data_folder(["--data-dir", str(tmp_path)]) == tmp_path
