"""The glyph reader of flower and season tiles (vision/recognition/glyphs.py)."""
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from vision.recognition.glyphs import (
    BONUS_CODES,
    HEIGHTS,
    LEGIBLE,
    GlyphReader,
    evidence,
    ink_map,
    legibility,
    reweigh,
)
from vision.recognition.refine import CropClassifier
from vision.runtime import DEFAULT_GLYPH_PATH
from vision.types import Detections

NAMES = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(
    f"{n}z" for n in range(1, 8)) + BONUS_CODES + ("back",)
GLYPHS = ("1", "2", "3", "4", "一", "二", "三", "四", "梅", "蘭", "菊", "竹", "春", "夏", "秋", "冬",
          "other")
ARABIC, CHINESE, CHARS = [0, 1, 2, 3], [4, 5, 6, 7], list(range(8, 16))

CJK_FONTS = (  # (path, face index): Debian's fonts-arphic-ukai, fonts-noto-cjk
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 2),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", 0),
)


def test_ink_map_makes_every_ink_dark_and_the_face_one():
    face = np.full((40, 30, 3), (240, 235, 220), np.uint8)
    for row, ink in enumerate([(200, 30, 40), (30, 60, 170), (20, 130, 60), (25, 25, 30)]):
        face[row * 4:row * 4 + 2] = ink
    m = ink_map(face)
    assert m[30:].mean() == pytest.approx(1.0, abs=0.01)
    assert (m[[0, 4, 8, 12]] < 0.2).all()


def _seen(**glyphs):
    """Glyph probabilities and sides: name=(probability, side)."""
    seen, side = np.full(len(GLYPHS), 0.05, np.float32), np.zeros(len(GLYPHS), np.float32)
    for name, (p, s) in glyphs.items():
        i = GLYPHS.index({"one": "1", "three": "3", "san": "三"}.get(name, name))
        seen[i], side[i] = p, s
    return seen, side


@pytest.mark.parametrize("glyphs, best", [
    ({"three": (0.95, 0.6)}, "3f"),              # a 3 on the right: a flower
    ({"three": (0.95, -0.6)}, "7f"),             # ... on the left: a season
    ({"san": (0.9, -0.5)}, "7f"),                # a Chinese 三 counts as a 3
    ({"秋": (0.9, 0.6)}, "7f"),                  # the character alone
    ({"one": (0.9, 0.6), "梅": (0.9, -0.6)}, "1f"),
    ({"three": (0.9, 0.6), "秋": (0.95, -0.6)}, "7f"),  # the character outweighs the side
])
def test_evidence_reads_number_side_and_character(glyphs, best):
    ev = evidence(*_seen(**glyphs), ARABIC, CHINESE, CHARS)
    assert BONUS_CODES[int(ev.argmax())] == best


@pytest.mark.parametrize("box, expected", [
    ((0, 0, 20, 28), 0.0),                          # too small to read: not read at all
    ((0, 0, LEGIBLE[0], 80), 0.0),
    ((0, 0, 80, (LEGIBLE[0] + LEGIBLE[1]) / 2), 0.5),  # the short side counts, either way
    ((10, 10, 10 + LEGIBLE[1], 200), 1.0),
    ((0, 0, 300, 400), 1.0),
])
def test_legibility_grows_with_the_short_side(box, expected):
    assert legibility(np.array([box], np.float32))[0] == pytest.approx(expected)


def test_a_tile_too_small_gets_no_evidence(glyph_reader):
    rgb = np.full((100, 100, 3), 235, np.uint8)
    ev = glyph_reader.evidence(rgb, [(0, 0, 20, 28), (0, 0, 70, 95)])
    assert (ev[0] == 0).all() and ev.shape == (2, 8)


def test_reweigh_moves_only_the_bonus_classes_and_keeps_their_total():
    probs = np.full(len(NAMES), 0.01)
    probs[NAMES.index("5f")], probs[NAMES.index("7f")], probs[NAMES.index("5z")] = 0.3, 0.2, 0.2
    probs /= probs.sum()
    ev = np.zeros(8)
    ev[BONUS_CODES.index("7f")] = 2.0
    out = reweigh(probs, NAMES, ev)
    bonus = [NAMES.index(c) for c in BONUS_CODES]
    others = [i for i in range(len(NAMES)) if i not in bonus]
    assert out[bonus].sum() == pytest.approx(probs[bonus].sum())
    assert np.allclose(out[others], probs[others])
    assert NAMES[int(out.argmax())] == "7f"
    assert np.allclose(reweigh(probs, NAMES, np.zeros(8)), probs)


def test_only_tiles_read_as_bonus_tiles_are_reweighed():
    probs = np.zeros((2, len(NAMES)))
    probs[0, NAMES.index("5f")], probs[0, NAMES.index("7f")] = 0.6, 0.4   # a season
    probs[1, NAMES.index("5p")], probs[1, NAMES.index("7f")] = 0.7, 0.3   # a dot tile
    asked = []

    def evidence_of(rgb, boxes):
        asked.extend(tuple(b) for b in boxes)
        return np.tile(np.where(np.array(BONUS_CODES) == "7f", 3.0, 0.0), (len(boxes), 1))

    reader = SimpleNamespace(names=NAMES, glyphs=SimpleNamespace(evidence=evidence_of))
    found = Detections(np.array([[0, 0, 10, 14], [20, 0, 30, 14]], np.float32),
                       np.zeros(2, int), np.ones(2, np.float32), ("tile",))
    out = CropClassifier.read_glyphs(reader, np.zeros((20, 40, 3), np.uint8), found, probs)
    assert asked == [(0, 0, 10, 14)]
    assert NAMES[int(out[0].argmax())] == "7f"
    assert np.array_equal(out[1], probs[1])


@pytest.fixture(scope="module")
def glyph_reader():
    if not DEFAULT_GLYPH_PATH.is_file():
        pytest.fail(f"{DEFAULT_GLYPH_PATH} is committed and must be there")
    return GlyphReader(DEFAULT_GLYPH_PATH)


def test_views_turn_a_tile_upright_both_ways(glyph_reader):
    rgb = np.full((200, 300, 3), 230, np.uint8)
    upright = glyph_reader.views(rgb, (10, 10, 70, 90))
    lying = glyph_reader.views(rgb, (10, 10, 110, 80))
    tops = [glyph_reader.top_rows(h) for h in HEIGHTS]
    assert [v.shape[0] for v in upright] == [*tops, *tops]
    assert [v.shape[0] for v in lying] == [*tops, *tops]
    assert all(t < h * 0.7 for t, h in zip(tops, HEIGHTS))
    assert lying[0].shape[1] < upright[0].shape[1]  # turned to stand: narrower
    assert glyph_reader.views(rgb, (10, 10, 12, 12)) == []


def _tile(number: str, char: str, number_right: bool) -> np.ndarray:
    """An ivory tile 90 x 120 with number and character along its top and a stem below."""
    from PIL import Image, ImageDraw, ImageFont

    fonts = [(path, index) for path, index in CJK_FONTS if Path(path).is_file()]
    if not fonts:
        pytest.skip("no CJK font")
    img = Image.new("RGB", (90, 120), (242, 238, 226))
    d = ImageDraw.Draw(img)
    cjk = ImageFont.truetype(fonts[0][0], 20, index=fonts[0][1])
    latin = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 18)
    left, right = (char, cjk), (number, latin)
    if not number_right:
        left, right = (number, latin), (char, cjk)
    d.text((24, 20), left[0], font=left[1], fill=(30, 30, 140), anchor="mm")
    d.text((66, 20), right[0], font=right[1], fill=(190, 30, 40), anchor="mm")
    d.line([(45, 110), (45, 50), (30, 40)], fill=(30, 120, 60), width=4)
    d.ellipse([35, 55, 60, 80], fill=(200, 40, 60))
    return np.asarray(img)


@pytest.mark.parametrize("number, char, number_right, code", [
    ("3", "菊", True, "3f"),
    ("3", "秋", False, "7f"),
    ("1", "梅", True, "1f"),
    ("4", "冬", False, "8f"),
])
def test_the_committed_reader_reads_printed_tiles(glyph_reader, number, char, number_right, code):
    rgb = _tile(number, char, number_right)
    for turned in (rgb, rgb[::-1, ::-1]):  # upright and upside down
        ev = glyph_reader.evidence(np.ascontiguousarray(turned), [(0, 0, 90, 120)])[0]
        assert BONUS_CODES[int(ev.argmax())] == code


def test_tiles_read_together_read_as_each_alone(glyph_reader):
    """Batched views are padded to one width: the padding must not change a reading."""
    wide = np.hstack([_tile("3", "菊", True), np.full((120, 60, 3), 240, np.uint8),
                      _tile("2", "夏", False)])
    wide = np.ascontiguousarray(wide)
    narrow_box, wide_box = (0, 0, 90, 120), (150, 0, 240, 120)
    together = glyph_reader.seen(wide, [narrow_box, (0, 0, 150, 120), wide_box])
    for k, box in ((0, narrow_box), (1, (0, 0, 150, 120)), (2, wide_box)):
        alone = glyph_reader.seen(wide, [box])
        assert np.allclose(together[0][k], alone[0][0], atol=1e-5)
        assert np.allclose(together[1][k], alone[1][0], atol=1e-5)


def test_the_app_loads_the_glyph_model_for_its_first_tile(glyph_reader, monkeypatch):
    """A photo with no flower or season never loads the model; the first tile does, and is
    read as the reader reads it."""
    from vision.recognition import glyphs
    loaded = []
    real = glyphs.cpu_session
    monkeypatch.setattr(glyphs, "cpu_session", lambda *a, **k: loaded.append(a) or real(*a, **k))
    lazy = glyphs.default_glyph_reader()
    rgb = np.ascontiguousarray(_tile("3", "菊", True))
    assert lazy.evidence(rgb, np.zeros((0, 4), np.float32)).shape == (0, len(BONUS_CODES))
    assert loaded == []
    box = [(0, 0, 90, 120)]
    assert np.array_equal(lazy.evidence(rgb, box), glyph_reader.evidence(rgb, box))
    assert len(loaded) == 1
