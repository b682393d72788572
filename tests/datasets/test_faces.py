"""Procedural tile sets (datasets/art/faces.py): a set's font does not hang on the other fonts."""
import pytest

from datasets.art import faces


def test_a_missing_font_changes_only_the_sets_that_draw_it(monkeypatch):
    installed = faces.available_fonts()
    if len(installed) < 2:
        pytest.skip("fewer than two CJK fonts installed")
    before = {seed: faces.sample_style(seed)["font"] for seed in range(40)}
    gone = installed[0]
    monkeypatch.setattr(faces, "available_fonts", lambda: installed[1:])
    after = {seed: faces.sample_style(seed)["font"] for seed in range(40)}
    changed = {seed for seed in before if before[seed] != after[seed]}
    assert changed == {seed for seed in before if before[seed] == gone}
    assert gone not in after.values()


def test_missing_fonts_names_what_is_not_installed(monkeypatch):
    monkeypatch.setattr(faces, "FONT_CANDIDATES", [("/no/such/font.ttf", 0)])
    assert faces.missing_fonts() == ["/no/such/font.ttf"]


def _variant_tables():
    for suit, table in (("bamboo", faces.BAMBOO_VARIANTS), ("dots", faces.DOT_VARIANTS)):
        for n, arrangements in table.items():
            for k, positions in enumerate(arrangements, start=1):
                yield pytest.param(suit, n, positions, id=f"{suit}-{n}-{k}")


@pytest.mark.parametrize("suit, n, positions", _variant_tables())
def test_every_arrangement_has_its_count_inside_the_face(suit, n, positions):
    assert len(positions) == n and len(set(positions)) == n
    assert all(0.1 <= v <= 0.9 for xy in positions for v in xy)


@pytest.mark.parametrize("seed", [30_000, 30_001, 30_002, 30_003])
def test_variant_sets_draw_each_count_as_that_many_dots(seed):
    """Flat dots drawn in every arrangement: as many blobs as the tile's number (eroded a
    little first: in a set drawn large, neighbouring dots may touch, as on real tiles)."""
    import cv2
    import numpy as np
    if not faces.available_fonts():
        pytest.skip("no CJK font installed")
    st = faces.sample_style(seed)
    st["variants"] = {**faces.sample_variants(seed), "dot": "flat"}
    st["engrave"], st["corner"] = 0.0, False  # no engraving shade, no corner digit
    for n in range(2, 10):
        for k in range(len(faces.DOT_VARIANTS.get(n, [])) + 1):
            st["variants"]["dots"] = {n: k}
            face = faces.draw_face(f"{n}p", st)
            ink = (np.abs(face.astype(int) - np.array(st["bg"])).sum(axis=2) > 90).astype(np.uint8)
            ink = cv2.erode(ink, np.ones((7, 7), np.uint8))
            blobs = cv2.connectedComponentsWithStats(ink)[2][1:, cv2.CC_STAT_AREA]
            assert (blobs > 50).sum() == n, (n, k)


def test_variants_change_only_dots_and_sticks_and_leave_default_sets_alone():
    import numpy as np
    if not faces.available_fonts():
        pytest.skip("no CJK font installed")
    plain, meta = faces.render_design(30_001)
    again, _ = faces.render_design(30_001)
    varied, varied_meta = faces.render_design(30_001, variants=True)
    assert np.array_equal(plain, again) and meta["name"] == "proc_s30001"
    assert varied_meta["name"] == "procv_s30001"
    for i, code in enumerate(faces.TILE_CODES):
        if code[1] in "mzf" or code in ("1p", "1s"):
            assert np.array_equal(plain[i], varied[i]), code
    assert any(not np.array_equal(plain[i], varied[i]) for i, c in enumerate(faces.TILE_CODES)
               if c[1] in "ps")
