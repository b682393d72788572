"""The table-driven shortcuts of the MCR scorer give what the plain definitions give."""
import random

import pytest

from scoring.rules.mcr.predicates_tiles import SUITED, kinds_text
from scoring.tiles import PLAYING, format_tiles


def _plain_text(kinds: int) -> str:
    return format_tiles(PLAYING[i] for i in range(34) if kinds >> i & 1)


@pytest.mark.parametrize("kinds, text", [
    (0, ""),
    (1, "1m"),
    (1 << 8 | 1 << 9 | 1 << 26, "9m1p9s"),
    (sum(1 << i for i in (0, 8, 9, 17, 18, 26)) | (127 << 27), "19m19p19sESWNPFC"),
    (0b111 << 27 | 1 << 33, "ESWC"),
    ((1 << 34) - 1, "123456789m123456789p123456789sESWNPFC"),
])
def test_kinds_text_cases(kinds, text):
    assert kinds_text(kinds) == text == _plain_text(kinds)


@pytest.mark.parametrize("seed", range(4))
def test_kinds_text_random_masks(seed):
    rng = random.Random(seed)
    for _ in range(2000):
        kinds = rng.getrandbits(34)
        assert kinds_text(kinds) == _plain_text(kinds)
        assert kinds_text(kinds & SUITED) == _plain_text(kinds & SUITED)
