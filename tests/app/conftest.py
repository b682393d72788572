"""Fixtures for the page's tests: a fresh data folder, a stub or absent model, AppTest."""
from __future__ import annotations

import pytest

from app_fixtures import HAND, PAGE, write_model


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("MAHJONG_LENS_DATA", str(folder))
    return folder


@pytest.fixture
def stub_model(tmp_path, monkeypatch):
    """A stub detector reading the 14 tiles of `table_photo()`; the 6th (6p) read as 9p with
    low confidence, as a real misread would be."""
    codes = list(HAND)
    codes[5] = "9p"
    confidences = [0.92] * len(codes)
    confidences[5] = 0.31
    path = write_model(tmp_path / "stub.onnx", codes, confidences)
    monkeypatch.setenv("MAHJONG_LENS_MODEL", str(path))
    monkeypatch.setenv("MAHJONG_LENS_CLASSIFIER", "none")  # the stub's reading is the test's truth
    # detector alone: its score is the confidence, so the 0.31 misread is shown only under 0.5
    monkeypatch.setenv("MAHJONG_LENS_CONF", "0.25")
    return path


@pytest.fixture
def no_model(tmp_path, monkeypatch):
    monkeypatch.setenv("MAHJONG_LENS_MODEL", str(tmp_path / "absent.onnx"))


@pytest.fixture
def page(data_dir):
    """A started page (AppTest), with its own data folder."""
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at
