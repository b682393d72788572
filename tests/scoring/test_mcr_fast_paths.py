"""The table-driven shortcuts of the MCR scorer give what the plain definitions give."""
import random

import pytest

from scoring.rules.mcr.predicates_tiles import SUITED, kinds_text
from scoring.hand import WinContext
from scoring.tiles import CODE_TO_LETTER, PLAYING, TILES, format_tiles


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


def _splits(c: list, honours: bool, pair: bool) -> bool:
    """The plain search: the lowest tile is in a pung, the pair or a chow."""
    i = next((k for k, n in enumerate(c) if n), None)
    if i is None:
        return not pair
    tries = [((i,) * 3, pair)] + ([((i,) * 2, False)] if pair else [])
    if not honours and i + 2 < len(c):
        tries.append(((i, i + 1, i + 2), pair))
    for tiles, left in tries:
        rest = list(c)
        for t in tiles:
            rest[t] -= 1
        if min(rest) >= 0 and _splits(rest, honours, left):
            return True
    return False


def _chunks(size: int, most: int):
    """Every suit of `size` kinds holding at most `most` tiles, 0..4 of a kind."""
    if size == 0:
        yield ()
        return
    for n in range(min(4, most) + 1):
        for rest in _chunks(size - 1, most - n):
            yield (n,) + rest


@pytest.mark.parametrize("honours, size, most", [(False, 9, 8), (True, 7, 14)])
def test_part_status_matches_the_plain_search(honours, size, most):
    from scoring.rules.mcr.waiting import _part_status
    for chunk in _chunks(size, most):
        want = (1 if _splits(list(chunk), honours, False) else 0) | (2 if _splits(list(chunk), honours, True) else 0)
        assert _part_status(chunk, honours) == want, chunk


@pytest.mark.parametrize("seed", range(3))
def test_part_status_on_full_suits(seed):
    """Suits of 9 to 14 tiles, a fifth copy included (a wait on a tile the hand holds four of)."""
    from scoring.rules.mcr.waiting import _part_status
    rng = random.Random(seed)
    for _ in range(3000):
        chunk = [0] * 9
        for _ in range(rng.randint(9, 14)):
            chunk[rng.choice([k for k in range(9) if chunk[k] < 4])] += 1
        if rng.random() < 0.1:
            chunk[rng.randrange(9)] = 5
        want = (1 if _splits(chunk, False, False) else 0) | (2 if _splits(chunk, False, True) else 0)
        assert _part_status(tuple(chunk), False) == want, chunk


def _plain_format(codes, honours_as_letters=True) -> str:
    """Tile by tile: digits gather until the suit changes; an honour is its letter."""
    out, run, run_suit = [], "", ""
    for code in codes:
        if code[1] == "z" and honours_as_letters:
            out.append((run + run_suit) if run else "")
            run, run_suit = "", ""
            out.append(CODE_TO_LETTER[code])
            continue
        if code[1] != run_suit and run:
            out.append(run + run_suit)
            run = ""
        run_suit, run = code[1], run + code[0]
    return "".join(out) + ((run + run_suit) if run else "")


@pytest.mark.parametrize("codes, letters, text", [
    ([], True, ""),
    (["1m", "2m", "5p", "1z"], True, "12m5pE"),
    (["1z", "1m", "1z", "7z"], True, "E1mEC"),
    (["1z", "2z", "5p", "5p"], False, "12z55p"),
    (["1f", "6f"], True, "16f"),
    (["1m", "1p", "1m"], True, "1m1p1m"),
])
def test_format_tiles_cases(codes, letters, text):
    assert format_tiles(codes, honours_as_letters=letters) == text == _plain_format(codes, letters)


def test_format_tiles_random_runs():
    rng = random.Random(5)
    for _ in range(5000):
        codes = [rng.choice(TILES) for _ in range(rng.randint(0, 16))]
        for letters in (True, False):
            assert format_tiles(iter(codes), honours_as_letters=letters) == _plain_format(codes, letters)


@pytest.mark.parametrize("notation, equal", [
    ("123m123m456p789s5s5s", ("123m", "123m")),        # two equal chows
    ("[123m]123m123m789s5s5s", ("123m", "123m")),      # and a declared one besides
    ("1122m5555p6677sEE", ("55p", "55p")),             # four of a kind as two pairs
])
def test_equal_sets_of_a_decomposition_are_distinct(notation, equal):
    """Sets are shared between hands, but a scorer names a set by its identity: two equal
    sets of one decomposition must be two objects, and both named."""
    from scoring.decompose import decompositions
    from scoring.hand import parse_hand
    from scoring.rules.mcr import PRESETS, score
    hand = parse_hand(notation)
    for d in decompositions(hand):
        assert len({id(s) for s in d.sets}) == len(d.sets)
    assert score(hand, WinContext(self_drawn=True), PRESETS["china"]).details["sets"].count(equal[0]) == len(equal)
