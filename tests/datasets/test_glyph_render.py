"""Training windows of the glyph reader (datasets/glyph_render.py)."""
from pathlib import Path

import numpy as np
import pytest

from datasets import glyph_render as G
from datasets.faces import available_fonts

pytestmark = pytest.mark.skipif(not available_fonts(), reason="no CJK font installed")


def test_a_font_without_a_glyph_is_not_used_for_it():
    kai = ("/usr/share/fonts/truetype/cwtex/cwkai.ttf", 0)
    if not Path(kai[0]).exists():
        pytest.skip("cwTeX Kai not installed")
    assert kai in G.fonts_for("蘭") and kai not in G.fonts_for("兰")  # it lacks the simplified form


def test_digits_are_drawn_in_latin_fonts_too_and_characters_only_in_cjk_ones():
    latin = {(p, 0) for p in G.latin_fonts()}
    assert latin <= set(G.fonts_for("3"))
    assert G.fonts_for("秋") and not latin & set(G.fonts_for("秋"))


def test_a_glyph_is_bent_only_in_its_share():
    mask = G.glyph_mask("秋", available_fonts()[0])
    rng = np.random.default_rng(0)
    assert G._brush(mask, rng, 0.0) is mask
    assert rng.random() == np.random.default_rng(0).random()  # nothing drawn at share 0
    bent = G._brush(mask, np.random.default_rng(1), 1.0)
    assert bent.shape == mask.shape and not np.allclose(bent, mask)
    assert bent.sum() == pytest.approx(mask.sum(), rel=0.15)  # the same ink, moved


@pytest.fixture(scope="module")
def bank():
    return G.ClutterBank(pictures=5, designs=0, seed=3)


def test_windows_are_ink_maps_with_labels_of_every_kind(bank):
    x, y = G.batch(np.random.default_rng(0), bank, 300)
    assert x.shape == (300, 1, G.WINDOW, G.WINDOW) and x.dtype == np.float32
    assert 0.0 <= x.min() and x.max() <= 1.2
    share_other = (y == G.OTHER).mean()
    assert 0.25 < share_other < 0.55  # POSITIVE_SHARE 0.6 of the windows hold a glyph
    assert set(np.unique(y[y != G.OTHER])) <= set(range(len(G.GLYPHS)))


def test_the_same_seed_draws_the_same_windows(bank):
    a = G.batch(np.random.default_rng([5, 7]), bank, 20)
    b = G.batch(np.random.default_rng([5, 7]), bank, 20)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
