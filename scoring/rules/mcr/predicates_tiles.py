"""Tile-attribute fans (rules.md §1.3 principle 2: they look at tiles, not sets).

Every predicate takes `kinds`, the frozenset of tile indices 0..33 present anywhere in the
hand (concealed, melds, winning tile), and answers yes or no. The scorer evaluates them once
per hand and caches the answer on `kinds`, so they are written for clarity, not speed.
Indices: m 0-8, p 9-17, s 18-26, honours 27-33 = E S W N White Green Red.
"""
from __future__ import annotations

M, P, S = range(0, 9), range(9, 18), range(18, 27)
WINDS = frozenset(range(27, 31))
DRAGONS = frozenset(range(31, 34))
HONOURS = WINDS | DRAGONS
TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
GREEN = frozenset({19, 20, 21, 23, 25, 32})                 # 2 3 4 6 8 bamboo, Green Dragon
REVERSIBLE = frozenset({9, 10, 11, 12, 13, 16, 17,          # 1 2 3 4 5 8 9 dots
                        19, 21, 22, 23, 25, 26,             # 2 4 5 6 8 9 bamboo
                        31})                                # White Dragon


def rank(i: int) -> int:
    return i % 9 + 1


def suits_present(kinds) -> int:
    return sum(1 for suit in (M, P, S) if any(i in kinds for i in suit))


def _numbered(kinds) -> bool:
    return all(i < 27 for i in kinds)


def _ranks(kinds) -> set[int]:
    return {rank(i) for i in kinds}


def all_green(kinds) -> bool:
    return kinds <= GREEN


def all_terminals(kinds) -> bool:
    return kinds <= TERMINALS


def all_honours(kinds) -> bool:
    return kinds <= HONOURS


def all_terminals_and_honours(kinds) -> bool:
    # both kinds present: pure terminals or pure honours are fans 8 and 11
    return kinds <= TERMINALS | HONOURS and bool(kinds & TERMINALS) and bool(kinds & HONOURS)


def full_flush(kinds) -> bool:
    return not kinds & HONOURS and suits_present(kinds) == 1


def half_flush(kinds) -> bool:
    return bool(kinds & HONOURS) and suits_present(kinds) == 1


def one_voided_suit(kinds) -> bool:
    # exactly one suit absent (two absent is a flush or all honours)
    return suits_present(kinds) == 2


def no_honours(kinds) -> bool:
    return not kinds & HONOURS


def all_types(kinds) -> bool:
    return suits_present(kinds) == 3 and bool(kinds & WINDS) and bool(kinds & DRAGONS)


def all_simples(kinds) -> bool:
    return not kinds & (TERMINALS | HONOURS)


def reversible_tiles(kinds) -> bool:
    return kinds <= REVERSIBLE


def upper_tiles(kinds) -> bool:
    return _numbered(kinds) and _ranks(kinds) <= {7, 8, 9}


def middle_tiles(kinds) -> bool:
    return _numbered(kinds) and _ranks(kinds) <= {4, 5, 6}


def lower_tiles(kinds) -> bool:
    return _numbered(kinds) and _ranks(kinds) <= {1, 2, 3}


def upper_four(kinds) -> bool:
    return _numbered(kinds) and _ranks(kinds) <= {6, 7, 8, 9}


def lower_four(kinds) -> bool:
    return _numbered(kinds) and _ranks(kinds) <= {1, 2, 3, 4}
