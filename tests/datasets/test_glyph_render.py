"""Training windows of the glyph reader (datasets/synth/glyph_render.py)."""
from pathlib import Path

import numpy as np
import pytest

from datasets.art.faces import available_fonts
from datasets.synth import glyph_render as G

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


def _scene(folder: Path, design: str) -> Path:
    """One scene: a white dragon (no glyph) and a flower, both 60 x 80 px, YOLO labels and truth."""
    import json

    from PIL import Image

    from datasets.classes import class_index
    for sub in ("images", "labels", "truth"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    rgb = np.full((200, 300, 3), 60, np.uint8)
    rgb[50:130, 40:100] = 235
    rgb[50:130, 160:220] = 235
    rgb[60:70, 170:210] = 20  # a stroke on the flower
    Image.fromarray(rgb).save(folder / "images" / "000000.jpg")
    rows = [(class_index()["5z"], 70 / 300, 90 / 200, 60 / 300, 80 / 200),
            (class_index()["1f"], 190 / 300, 90 / 200, 60 / 300, 80 / 200)]
    (folder / "labels" / "000000.txt").write_text("".join(f"{c} {x} {y} {w} {h}\n" for c, x, y, w, h in rows))
    tiles = [{"label": "5z", "box": [40, 50, 100, 130], "design": design},
             {"label": "1f", "box": [160, 50, 220, 130], "design": design}]
    (folder / "truth" / "000000.json").write_text(json.dumps({"image": "images/000000.jpg", "tiles": tiles}))
    return folder


def test_scene_windows_are_cut_as_the_app_cuts_them_from_tiles_without_glyphs(tmp_path):
    negatives = G.SceneNegatives(_scene(tmp_path, "proc_s000"), tiles=10)
    assert len(negatives.maps) == 6  # the white dragon's six views; never the flower's
    w = negatives.window(np.random.default_rng(0))
    assert w.shape == (G.WINDOW, G.WINDOW) and w.dtype == np.float32


def test_scenes_of_a_design_no_model_may_learn_are_refused(tmp_path):
    from datasets.art.designs import HELD_OUT
    with pytest.raises(ValueError, match=HELD_OUT[0]):
        G.SceneNegatives(_scene(tmp_path, HELD_OUT[0]))


def test_scene_windows_take_their_share_of_the_other_windows_only(tmp_path, bank):
    negatives = G.SceneNegatives(_scene(tmp_path, "proc_s000"), tiles=10)
    unused = G.ClutterBank(pictures=5, designs=0, seed=3, scenes=negatives, scene_share=0.0)
    plain = G.batch(np.random.default_rng([5, 7]), bank, 20)
    assert np.array_equal(G.batch(np.random.default_rng([5, 7]), unused, 20)[0], plain[0])
    every = G.ClutterBank(pictures=5, designs=0, seed=3, scenes=negatives, scene_share=1.0)
    x, y = G.batch(np.random.default_rng([5, 7]), every, 40)
    others = np.flatnonzero(y == G.OTHER)
    assert len(others) > 5

    def cut_from_a_view(window):
        return any(np.array_equal(m[r:r + G.WINDOW, c:c + G.WINDOW].astype(np.float32), window)
                   for m in negatives.maps for r in range(m.shape[0] - G.WINDOW + 1)
                   for c in range(m.shape[1] - G.WINDOW + 1))
    assert all(cut_from_a_view(x[i, 0]) for i in others)
    assert not any(cut_from_a_view(x[i, 0]) for i in np.flatnonzero(y != G.OTHER))


@pytest.mark.parametrize("code, glyphs", [
    ("1f", ("1", "一", "梅")),
    ("4f", ("4", "四", "竹")),
    ("5f", ("1", "一", "春")),
    ("8f", ("4", "四", "冬")),
])
def test_a_bonus_tile_may_print_its_number_in_either_numeral_and_its_character(code, glyphs):
    assert [G.NAMES[i] for i in G.own_glyphs(code)] == list(glyphs)


def test_scene_bonus_tiles_are_read_whole_with_their_own_glyphs(tmp_path):
    bonus = G.SceneBonus(_scene(tmp_path, "proc_s000"), tiles=10)
    assert len(bonus.tiles) == 1  # the flower; never the white dragon
    views, own, short = bonus.tiles[0]
    assert len(views) == 6 and own == G.own_glyphs("1f") and 50 < short < 70
    assert all(t is bonus.tiles[0] for t in bonus.sample(np.random.default_rng(0), 3))


def test_scene_bonus_tiles_of_a_design_no_model_may_learn_are_refused(tmp_path):
    from datasets.art.designs import DEVELOPMENT
    with pytest.raises(ValueError, match=DEVELOPMENT[0]):
        G.SceneBonus(_scene(tmp_path, DEVELOPMENT[0]))
