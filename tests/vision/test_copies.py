"""Reading a photo as one set: never more copies of a tile than a set has (vision/recognition/copies.py)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from scoring.tiles import VISION_CLASSES
from vision.recognition.copies import copies_allowed, limit_copies

NAMES = VISION_CLASSES


def _probs(rows: list[dict[str, float]]) -> np.ndarray:
    """One row per tile: the named probabilities, the rest shared out thinly."""
    out = np.full((len(rows), len(NAMES)), 1e-5)
    for i, row in enumerate(rows):
        for code, p in row.items():
            out[i, NAMES.index(code)] = p
    return out / out.sum(axis=1, keepdims=True)


# (tiles' probabilities, the reading of the whole photo)
CASES = [
    pytest.param([{"3m": .9, "2m": .1}] * 4, ["3m"] * 4, id="four copies stand"),
    pytest.param([{"5z": .9, "1m": .1}] * 4 + [{"5z": .6, "1m": .4}],
                 ["5z"] * 4 + ["1m"], id="the least sure fifth copy moves"),
    pytest.param([{"1f": .8, "2f": .2}, {"1f": .7, "3f": .3}], ["1f", "3f"],
                 id="two plum flowers: the one surer of another moves"),
    pytest.param([{"1f": .6, "2f": .4}, {"2f": .9, "3f": .1}, {"1f": .95, "8f": 1e-5}],
                 ["2f", "3f", "1f"], id="a chain of moves is cheaper than one dear move"),
    pytest.param([{"back": .9}] * 9, ["back"] * 9, id="face-down tiles have no limit"),
    pytest.param([], [], id="no tiles"),
]


@pytest.mark.parametrize("rows, expected", CASES)
def test_one_set_reading(rows, expected):
    probs = _probs(rows) if rows else np.zeros((0, len(NAMES)))
    assert [NAMES[c] for c in limit_copies(probs, NAMES)] == expected


def test_copies_of_a_set():
    allowed = dict(zip(NAMES, copies_allowed(NAMES)))
    assert allowed["1m"] == allowed["7z"] == 4 and allowed["1f"] == allowed["8f"] == 1
    assert allowed["back"] > 144


def test_tiles_not_shown_keep_their_reading_and_push_no_one():
    probs = _probs([{"1f": .9, "2f": .1}, {"1f": .6, "2f": .4}, {"1f": .99}])
    shown = np.array([True, True, False])
    assert [NAMES[c] for c in limit_copies(probs, NAMES, among=shown)] == ["1f", "2f", "1f"]


def test_more_tiles_than_a_set_is_left_alone():
    probs = _probs([{"1m": .9, "2m": .1}] * 145)
    assert (limit_copies(probs, NAMES) == NAMES.index("1m")).all()


@pytest.mark.parametrize("seed", range(25))
def test_the_reading_is_the_most_probable_one_that_keeps_to_the_set(seed):
    # brute force over every reading of 6 tiles among 2 flowers, a dragon and `back`
    rng = np.random.default_rng(seed)
    classes = [NAMES.index(c) for c in ("1f", "2f", "5z", "back")]
    probs = np.full((6, len(NAMES)), 1e-9)
    probs[:, classes] = rng.dirichlet(np.full(len(classes), 0.4), size=6)
    allowed = copies_allowed(NAMES)
    logp = np.log(np.maximum(probs, 1e-6))

    def total(reading):
        return logp[np.arange(6), list(reading)].sum()

    valid = [r for r in itertools.product(classes, repeat=6)
             if (np.bincount(r, minlength=len(NAMES)) <= allowed).all()]
    got = limit_copies(probs, NAMES)
    assert (np.bincount(got, minlength=len(NAMES)) <= allowed).all()
    assert total(got) == pytest.approx(max(total(r) for r in valid))
