"""A black and white photo is said to read worse than a colour one (the reader tells some
tiles apart by colour, so such a photo can read as another valid hand)."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision.image import load_photo
from vision.layout import TableLayout
from vision.legibility import colour_hint, is_greyscale, photo_hint

REAL = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "camerash" / "raw-images"


def _table(seed=5) -> np.ndarray:
    """A green cloth with ivory tiles and coloured marks: a colour photo in miniature."""
    rng = np.random.default_rng(seed)
    rgb = np.clip(rng.normal((40, 110, 60), 10, (300, 400, 3)), 0, 255).astype(np.uint8)
    rgb[100:200, 50:350] = (235, 230, 215)
    rgb[120:140, 60:340:20] = (200, 30, 30)
    return rgb


def _grey(rgb: np.ndarray, jpeg: bool) -> np.ndarray:
    grey = Image.fromarray(rgb).convert("L").convert("RGB")
    if not jpeg:
        return np.asarray(grey)
    out = io.BytesIO()
    grey.save(out, "JPEG", quality=80)       # saved as a colour JPEG: chroma noise stays small
    return load_photo(out.getvalue()).rgb


@pytest.mark.parametrize("jpeg", [False, True])
def test_a_black_and_white_photo_gets_the_colour_hint(jpeg):
    grey = _grey(_table(), jpeg)
    assert is_greyscale(grey) and "Colour photos read better" in colour_hint(grey)
    assert "Colour photos read better" in photo_hint(grey, TableLayout(concealed=()))


def test_a_colour_photo_gets_no_colour_hint():
    assert not is_greyscale(_table()) and colour_hint(_table()) is None
    assert photo_hint(_table(), TableLayout(concealed=())) is None


@pytest.mark.skipif(not REAL.is_dir(), reason="the real photos are not here")
def test_real_photos_in_colour_and_in_black_and_white():
    photos = sorted(REAL.glob("*.jpg"))[:6]
    for path in photos:
        rgb = load_photo(path, min_side=640).rgb
        assert not is_greyscale(rgb), path.name
        assert is_greyscale(_grey(rgb, jpeg=False)), path.name
