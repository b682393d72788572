"""The page on the committed model (models/detector.onnx): a real JPEG in, tiles read and
shown, the hand filled in, no traceback. Skipped until the model is committed."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from app_fixtures import table_photo, texts

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "detector.onnx"
REAL_PHOTOS = Path(os.environ.get("MAHJONG_LENS_REAL_PHOTOS", ROOT.parent / "shared" / "data" / "camerash"))

pytestmark = pytest.mark.skipif(not MODEL.is_file(), reason="no committed model at models/detector.onnx yet")


@pytest.fixture
def real_model(monkeypatch):
    monkeypatch.setenv("MAHJONG_LENS_MODEL", str(MODEL))
    monkeypatch.delenv("MAHJONG_LENS_CLASSIFIER")  # the committed pipeline, second stage included


def _upload(at, name, data):
    at.file_uploader[0].set_value((name, data, "image/jpeg")).run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def test_a_drawn_hand_photo_through_the_committed_model(page, real_model):
    _upload(page, "hand.jpg", table_photo())
    said = texts(page)
    assert "tiles read in" in said or "No tiles found" in said
    assert len(page.image) >= 1


def test_a_real_photo_of_real_tiles_through_the_committed_model(page, real_model):
    photos = sorted((REAL_PHOTOS / "raw-images").glob("*.jpg")) if REAL_PHOTOS.is_dir() else []
    if not photos:
        pytest.skip(f"no real photos at {REAL_PHOTOS} (set MAHJONG_LENS_REAL_PHOTOS)")
    _upload(page, photos[0].name, photos[0].read_bytes())  # 8 MP: the reduced-scale decode path
    said = texts(page)
    # the page's path, not the model's accuracy (models/README.md measures that)
    assert "tiles read in" in said and len(page.image) >= 1
    found = page.session_state["recog"]["win"]
    assert found.tiles == 0 or page.session_state["drafts"]["win"].codes() or \
        page.session_state["drafts"]["win"].bonus
