"""Tile-attribute fans (docs/rules.md §1.3 principle 2: they look at tiles, not sets).

Every predicate takes `kinds`, a bit mask of the tile kinds present anywhere in the hand
(bit i = tile index i: m 0-8, p 9-17, s 18-26, honours 27-33 = E S W N White Green Red)
and answers yes or no. Masks keep these checks to a few integer operations; the scorer also
caches the answers per mask.
"""
from __future__ import annotations

from ...tiles import HONOUR_LETTERS


def mask(indices) -> int:
    out = 0
    for i in indices:
        out |= 1 << i
    return out


M, P, S = mask(range(9)), mask(range(9, 18)), mask(range(18, 27))
SUITED = M | P | S
WINDS = mask(range(27, 31))
DRAGONS = mask(range(31, 34))
HONOURS = WINDS | DRAGONS
TERMINALS = mask((0, 8, 9, 17, 18, 26))
GREEN = mask((19, 20, 21, 23, 25, 32))                      # 2 3 4 6 8 bamboo, Green Dragon
REVERSIBLE = mask((9, 10, 11, 12, 13, 16, 17,               # 1 2 3 4 5 8 9 dots
                   19, 21, 22, 23, 25, 26,                  # 2 4 5 6 8 9 bamboo
                   31))                                     # White Dragon


def ranks(*numbers: int) -> int:
    """The suit tiles of the given numbers in all three suits."""
    return mask(base + n - 1 for base in (0, 9, 18) for n in numbers)


UPPER, MIDDLE, LOWER = ranks(7, 8, 9), ranks(4, 5, 6), ranks(1, 2, 3)
UPPER_FOUR, LOWER_FOUR = ranks(6, 7, 8, 9), ranks(1, 2, 3, 4)


def _only(kinds: int, allowed: int) -> bool:
    return not kinds & ~allowed


def suits_present(kinds: int) -> int:
    return bool(kinds & M) + bool(kinds & P) + bool(kinds & S)


def all_green(kinds: int) -> bool:
    return _only(kinds, GREEN)


def all_terminals(kinds: int) -> bool:
    return _only(kinds, TERMINALS)


def all_honours(kinds: int) -> bool:
    return _only(kinds, HONOURS)


def all_terminals_and_honours(kinds: int) -> bool:
    # both kinds present: pure terminals or pure honours are fans 8 and 11
    return _only(kinds, TERMINALS | HONOURS) and bool(kinds & TERMINALS) and bool(kinds & HONOURS)


def full_flush(kinds: int) -> bool:
    return not kinds & HONOURS and suits_present(kinds) == 1


def half_flush(kinds: int) -> bool:
    return bool(kinds & HONOURS) and suits_present(kinds) == 1


def one_voided_suit(kinds: int) -> bool:
    # exactly one suit absent (two absent is a flush or all honours)
    return suits_present(kinds) == 2


def no_honours(kinds: int) -> bool:
    return not kinds & HONOURS


def all_types(kinds: int) -> bool:
    return suits_present(kinds) == 3 and bool(kinds & WINDS) and bool(kinds & DRAGONS)


def all_simples(kinds: int) -> bool:
    return not kinds & (TERMINALS | HONOURS)


def reversible_tiles(kinds: int) -> bool:
    return _only(kinds, REVERSIBLE)


def upper_tiles(kinds: int) -> bool:
    return _only(kinds, UPPER)


def middle_tiles(kinds: int) -> bool:
    return _only(kinds, MIDDLE)


def lower_tiles(kinds: int) -> bool:
    return _only(kinds, LOWER)


def upper_four(kinds: int) -> bool:
    return _only(kinds, UPPER_FOUR)


def lower_four(kinds: int) -> bool:
    return _only(kinds, LOWER_FOUR)


# the notation of the kinds present, suit by suit: a suit's nine bits → "147m", the
# honours' seven → "ESP" (tiles.format_tiles of the kinds in tile order)
_SUIT_TEXT = tuple(tuple("".join(str(n + 1) for n in range(9) if bits >> n & 1) + letter if bits else ""
                         for bits in range(512)) for letter in "mps")
_HONOUR_TEXT = tuple("".join(HONOUR_LETTERS[n] for n in range(7) if bits >> n & 1) for bits in range(128))


def kinds_text(kinds: int) -> str:
    """The kinds present as hand notation ("19m19p19sESWNPFC"), one look-up per suit."""
    m, p, s = _SUIT_TEXT
    return m[kinds & 511] + p[kinds >> 9 & 511] + s[kinds >> 18 & 511] + _HONOUR_TEXT[kinds >> 27]
