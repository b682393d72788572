"""Procedural tile sets (datasets/faces.py): a set's font does not hang on the other fonts."""
import pytest

from datasets import faces


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
