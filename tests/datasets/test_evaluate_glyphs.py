"""The development measure of the glyph reader (datasets/eval/glyphs.py)."""
from types import SimpleNamespace

import numpy as np
import pytest

from datasets.classes import class_names
from datasets.eval.glyphs import main, right


def test_the_glyph_measure_reads_weights_or_says_what_it_needs(capsys):
    assert main(["--sets", "0", "--weights", "0.7,0.7"]) == 2
    assert "three numbers" in capsys.readouterr().err


@pytest.mark.parametrize("side_weight, classifier_says, alone, with_classifier", [
    (0.35, "7f", 1, 1),   # a 3 at the left: a season, and the classifier agrees
    (0.35, "3f", 1, 0),   # ... the classifier is sure of the flower: it wins
    (0.0, "7f", 0, 1),    # no side: 3f and 7f tie by glyphs alone (the first, 3f, is taken)
])
def test_the_glyph_measure_counts_tiles_read_right(side_weight, classifier_says, alone,
                                                   with_classifier):
    names = list(class_names())
    probs = np.full(len(names), 0.001)
    probs[names.index(classifier_says)] = 0.95
    seen, side = np.full(17, 0.02), np.zeros(17)
    seen[2], side[2] = 0.95, -0.6  # the glyph "3", at the left
    read = {"probs": probs[None], "seen": seen[None], "side": side[None], "scale": np.ones(1)}
    glyphs = SimpleNamespace(arabic=[0, 1, 2, 3], chinese=[4, 5, 6, 7], chars=list(range(8, 16)))
    counted = right(read, [names.index("7f")], glyphs, names, (0.7, 0.7, side_weight))
    assert counted == {"classifier + glyphs": with_classifier, "glyphs alone": alone}


@pytest.mark.parametrize("number_glyph, strength, seen, right_", [
    (2, 0.95, 1, 1),   # a 3 on a 7f (the season of 3): seen, and its own
    (6, 0.95, 1, 1),   # 三, the Chinese 3, counts the same
    (0, 0.95, 1, 0),   # a 1 on it: seen, not its own
    (2, 0.30, 0, 0),   # a faint 3: no number seen on the tile
])
def test_numbers_count_the_tiles_whose_strongest_number_is_their_own(number_glyph, strength,
                                                                   seen, right_):
    from datasets.eval.glyphs import numbers
    names = list(class_names())
    glyph_seen = np.full(17, 0.02)
    glyph_seen[number_glyph] = strength
    glyphs = SimpleNamespace(arabic=[0, 1, 2, 3], chinese=[4, 5, 6, 7])
    counted = numbers({"seen": glyph_seen[None]}, [names.index("7f")], glyphs, names)
    assert counted == {"number seen": seen, "number right": right_}


def test_false_numbers_is_the_share_of_no_glyph_tiles_where_a_number_shows():
    from datasets.eval.glyphs import false_numbers
    strengths = iter([0.9, 0.2, 0.6, 0.1])  # per tile, its strongest number glyph

    def seen(rgb, boxes):
        row = np.full((1, 17), 0.01)
        row[0, 5] = next(strengths)  # 二
        return row, np.zeros((1, 17))
    glyphs = SimpleNamespace(arabic=[0, 1, 2, 3], chinese=[4, 5, 6, 7], seen=seen)
    tiles = [(np.zeros((8, 8, 3), np.uint8), (0, 0, 8, 8))] * 4
    assert false_numbers(glyphs, tiles, [0] * 4) == {"tiles": 4, "number on no-glyph tiles": 0.5}
    assert false_numbers(glyphs, [], []) == {"tiles": 0, "number on no-glyph tiles": None}
