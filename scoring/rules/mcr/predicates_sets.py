"""Set-combination fans: one small pure predicate per fan, on set keys.

A chow key is `(suit, start)`: suit 0 m, 1 s, 2 p (PyMahjongGB's suit order, which fixes
the order in which combinations are tried, see combine.py) and the rank 1..7 of its lowest
tile. A pung key (pungs and kongs alike) is `(suit, rank)` with suit 3 for honours and
rank E1 S2 W3 N4 Red5 Green6 White7 (again PyMahjongGB's order). Predicates receive the
keys sorted in that order, so "a, b, c" below are ascending.

Which combinations are tried, and how often a set may be reused, is decided by
combine.py (principles 3 and 5); these functions only say whether the sets form the fan.
"""
from __future__ import annotations

HONOUR_SUIT = 3
WIND_RANKS = (1, 2, 3, 4)
DRAGON_RANKS = (5, 6, 7)


def _three_suits(*keys) -> bool:
    return len({k[0] for k in keys}) == len(keys)


def _one_suit(*keys) -> bool:
    return len({k[0] for k in keys}) == 1


def _consecutive(ranks, step: int) -> bool:
    r = sorted(ranks)
    return all(r[i] + step == r[i + 1] for i in range(len(r) - 1))


# --- four chows ----------------------------------------------------------------------------

def quadruple_chow(a, b, c, d) -> bool:
    return a == b == c == d


def four_pure_shifted_chows(a, b, c, d) -> bool:
    return _one_suit(a, b, c, d) and any(_consecutive((a[1], b[1], c[1], d[1]), step) for step in (1, 2))


# --- three chows ---------------------------------------------------------------------------

def pure_triple_chow(a, b, c) -> bool:
    return a == b == c


def pure_straight(a, b, c) -> bool:
    return _one_suit(a, b, c) and (a[1], b[1], c[1]) == (1, 4, 7)


def pure_shifted_chows(a, b, c) -> bool:
    return _one_suit(a, b, c) and any(_consecutive((a[1], b[1], c[1]), step) for step in (1, 2))


def mixed_triple_chow(a, b, c) -> bool:
    return _three_suits(a, b, c) and a[1] == b[1] == c[1]


def mixed_straight(a, b, c) -> bool:
    return _three_suits(a, b, c) and sorted((a[1], b[1], c[1])) == [1, 4, 7]


def mixed_shifted_chows(a, b, c) -> bool:
    return _three_suits(a, b, c) and _consecutive((a[1], b[1], c[1]), 1)


# --- two chows -----------------------------------------------------------------------------

def pure_double_chow(a, b) -> bool:
    return a == b


def mixed_double_chow(a, b) -> bool:
    return a[0] != b[0] and a[1] == b[1]


def short_straight(a, b) -> bool:
    return a[0] == b[0] and abs(a[1] - b[1]) == 3


def two_terminal_chows(a, b) -> bool:
    return a[0] == b[0] and {a[1], b[1]} == {1, 7}


# --- four chows and the pair ---------------------------------------------------------------

def pure_terminal_chows(chows, pair) -> bool:
    """123 123 789 789 + 55, one suit. `pair` is a pung-style key."""
    return pair[1] == 5 and all(c[0] == pair[0] for c in chows) and sorted(c[1] for c in chows) == [1, 1, 7, 7]


def three_suited_terminal_chows(chows, pair) -> bool:
    """123+789 in two suits, 55 in the third."""
    if pair[0] == HONOUR_SUIT or pair[1] != 5:
        return False
    others = {0, 1, 2} - {pair[0]}
    return sorted(chows) == sorted((s, r) for s in others for r in (1, 7))


# --- pungs (kongs count as pungs) -----------------------------------------------------------

def _numbered(*keys) -> bool:
    return all(k[0] != HONOUR_SUIT for k in keys)


def big_four_winds(a, b, c, d) -> bool:
    return all(k[0] == HONOUR_SUIT and k[1] in WIND_RANKS for k in (a, b, c, d))


def four_pure_shifted_pungs(a, b, c, d) -> bool:
    return _numbered(a, b, c, d) and _one_suit(a, b, c, d) and _consecutive((a[1], b[1], c[1], d[1]), 1)


def big_three_dragons(a, b, c) -> bool:
    return all(k[0] == HONOUR_SUIT and k[1] in DRAGON_RANKS for k in (a, b, c))


def big_three_winds(a, b, c) -> bool:
    return all(k[0] == HONOUR_SUIT and k[1] in WIND_RANKS for k in (a, b, c))


def pure_shifted_pungs(a, b, c) -> bool:
    return _numbered(a, b, c) and _one_suit(a, b, c) and _consecutive((a[1], b[1], c[1]), 1)


def triple_pung(a, b, c) -> bool:
    return _numbered(a, b, c) and _three_suits(a, b, c) and a[1] == b[1] == c[1]


def mixed_shifted_pungs(a, b, c) -> bool:
    return _numbered(a, b, c) and _three_suits(a, b, c) and _consecutive((a[1], b[1], c[1]), 1)


def double_pung(a, b) -> bool:
    return _numbered(a, b) and a[0] != b[0] and a[1] == b[1]


def two_dragon_pungs(a, b) -> bool:
    return all(k[0] == HONOUR_SUIT and k[1] in DRAGON_RANKS for k in (a, b))


# --- one pung ------------------------------------------------------------------------------

def dragon_pung(a) -> bool:
    return a[0] == HONOUR_SUIT and a[1] in DRAGON_RANKS


def pung_of_terminals_or_honours(a) -> bool:
    # dragon pungs score Dragon Pung instead (docs/rules.md §1.4, 73)
    return (a[0] == HONOUR_SUIT and a[1] in WIND_RANKS) or (a[0] != HONOUR_SUIT and a[1] in (1, 9))
