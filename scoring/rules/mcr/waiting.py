"""Waits (docs/rules.md §1.2) computed suit by suit, for the wait fans (77-79).

decompose.waits tries every tile kind on the whole hand; here the standard shape is read
from per-suit tables cached on each suit's nine counts (which tiles can join a set, whether
the suit splits into sets, or into sets and one pair), and the special shapes (seven pairs,
thirteen orphans, honours-and-knitted, knitted straight) are checked directly. The answer
is the same as decompose.waits (tests/scoring/test_mcr_properties.py) at a fraction of the
cost. Tile indices: m 0-8, p 9-17, s 18-26, honours 27-33.
"""
from __future__ import annotations

from functools import cache

from ...decompose import KNITTED_STRAIGHTS
from ...hand import Hand
from ...tiles import INDEX, PLAYING


def waits_only_on(closed_with_win: list[int], win: int, held: list[int], n_melds: int,
                  count_exhausted: bool) -> bool:
    """decompose.waits(hand) == (winning,) for a 14-tile hand given as counts (concealed
    tiles with the winning tile; every tile held), stopping at the first other wait."""
    closed = list(closed_with_win)
    closed[win] -= 1
    ignore_exhausted = not count_exhausted
    # held counts the winning tile too: a kind is exhausted by the 13 tiles when held - (i == win) >= 4
    found = set(_standard_waits(closed))
    if any(i != win and not (ignore_exhausted and held[i] >= 4) for i in found):
        return False
    if n_melds <= 1:
        found |= _special_waits(closed, n_melds)
    if ignore_exhausted:
        found = {i for i in found if held[i] - (i == win) < 4}
    return found == {win}


def waits_of(hand: Hand, count_exhausted: bool) -> tuple[str, ...]:
    """decompose.waits, computed suit by suit (the fast path above, all waits)."""
    closed = [0] * 34
    for t in hand.concealed:
        closed[INDEX[t]] += 1
    found = set(_standard_waits(closed))
    if len(hand.melds) <= 1:
        found |= _special_waits(closed, len(hand.melds))
    if not count_exhausted:
        held = list(closed)
        for m in hand.melds:
            for t in m.tiles:
                held[INDEX[t]] += 1
        found = {i for i in found if held[i] < 4}
    return tuple(PLAYING[i] for i in sorted(found))


def _standard_waits(counts: list[int]) -> list[int]:
    """Tiles that complete `counts` into sets and one pair."""
    parts = [tuple(counts[a:b]) for a, b, _ in _PARTS]
    status = [_part_status(part, honours) for part, (_, _, honours) in zip(parts, _PARTS)]
    # the new tile goes to one part; every other part must already split: with two parts
    # that do not, nothing completes the hand, with one only that part can take the tile
    broken = [p for p, st in enumerate(status) if not st]
    if len(broken) > 1:
        return []
    out = []
    for p in broken or range(len(_PARTS)):
        a, _, honours = _PARTS[p]
        others = status[:p] + status[p + 1:]
        others_plain = all(st & 1 for st in others)
        pair_elsewhere = _one_pair_elsewhere(others)
        for i, st in _part_growth(parts[p], honours):
            if (st & 2 and others_plain) or (st & 1 and pair_elsewhere):
                out.append(a + i)
    return out


def _special_waits(closed: list[int], n_melds: int) -> set[int]:
    """Tiles that complete seven pairs, thirteen orphans, honours-and-knitted (no melds) or
    a knitted straight + set + pair (at most one meld), as decompose.py defines them."""
    out: set[int] = set()
    present = 0
    for i, n in enumerate(closed):
        if n:
            present |= 1 << i
    if n_melds == 0:
        odd = [i for i, n in enumerate(closed) if n % 2]
        if len(odd) == 1:
            out.add(odd[0])
        if not present & ~_ORPHAN_MASK:
            kinds = present.bit_count()
            if kinds == 13:
                out |= _ORPHANS
            elif kinds == 12:
                out |= _bits(_ORPHAN_MASK & ~present)
        if max(closed) == 1:
            for pattern in _KNITTED_MASKS:
                if not present & ~(pattern | _HONOUR_MASK):
                    out |= _bits((pattern | _HONOUR_MASK) & ~present)
    for pattern, indices in zip(_KNITTED_MASKS, KNITTED_STRAIGHTS):
        missing = pattern & ~present
        if missing & (missing - 1):  # two or more knitted tiles missing
            continue
        rest = list(closed)
        for i in indices:
            if rest[i]:
                rest[i] -= 1
        if not missing:
            out.update(_standard_waits(rest))
        elif _is_standard(rest):
            out.add(missing.bit_length() - 1)
    return out


def _bits(mask: int) -> set[int]:
    return {i for i in range(34) if mask >> i & 1}


def _is_standard(counts: list[int]) -> bool:
    """Do `counts` split into sets and exactly one pair?"""
    status = [_part_status(tuple(counts[a:b]), honours) for a, b, honours in _PARTS]
    return _one_pair_elsewhere(status)


_PARTS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def _one_pair_elsewhere(others) -> bool:
    """One of the parts takes the pair, every other part splits into sets only."""
    not_plain = [st for st in others if not st & 1]
    if not not_plain:
        return any(st & 2 for st in others)
    return len(not_plain) == 1 and bool(not_plain[0] & 2)


@cache
def _part_growth(chunk: tuple[int, ...], honours: bool) -> tuple[tuple[int, int], ...]:
    """(tile, status of the part with that tile added) for each tile that can join a set."""
    out = []
    for i in range(len(chunk)):
        if _near(chunk, i, honours):
            st = _part_status(chunk[:i] + (chunk[i] + 1,) + chunk[i + 1:], honours)
            if st:
                out.append((i, st))
    return tuple(out)


def _near(chunk, i: int, honours: bool) -> bool:
    """A tile with no copy and no neighbour within two in its suit cannot join any set."""
    if chunk[i]:
        return True
    if honours:
        return False
    return any(chunk[j] for j in range(max(0, i - 2), min(9, i + 3)))


@cache
def _part_status(chunk: tuple[int, ...], honours: bool) -> int:
    """Bit 1: the tiles split into sets; bit 2: into sets and exactly one pair; 0: neither
    (the number of tiles says which one to test)."""
    size = sum(chunk) % 3
    if size == 0:
        return 1 if _sets_only(chunk, honours) else 0
    if size == 2:
        return 2 if _sets_and_pair(chunk, honours) else 0
    return 0


def _sets_only(c: tuple[int, ...], honours: bool) -> bool:
    """Do the tiles split into chows and pungs? Read from the lowest tile up: three equal
    chows are three pungs, so a tile begins (its count, less the chows begun before that
    take it) mod 3 chows and the rest are pungs."""
    if honours:
        return all(n % 3 == 0 for n in c)
    back1 = back2 = 0  # chows begun one and two tiles back: each takes one of this tile
    for n in c:
        rest = n - back1 - back2
        if rest < 0:
            return False
        back2, back1 = back1, rest % 3
    return not back1 and not back2


def _sets_and_pair(c: tuple[int, ...], honours: bool) -> bool:
    """Do the tiles split into chows, pungs and one pair?"""
    if honours:
        return sum(1 for n in c if n % 3 == 2) == 1 and all(n % 3 != 1 for n in c)
    # a chow's or a pung's tile numbers add up to a multiple of 3 and the pair's to twice
    # its own: the pair's number is 2 x (the numbers' sum) mod 3
    for i in range(2 * sum(i * n for i, n in enumerate(c)) % 3, len(c), 3):
        if c[i] >= 2 and _sets_only(c[:i] + (c[i] - 2,) + c[i + 1:], False):
            return True
    return False


_ORPHANS = frozenset((0, 8, 9, 17, 18, 26) + tuple(range(27, 34)))
_ORPHAN_MASK = sum(1 << i for i in _ORPHANS)
_HONOUR_MASK = sum(1 << i for i in range(27, 34))
_KNITTED_MASKS = tuple(sum(1 << i for i in pattern) for pattern in KNITTED_STRAIGHTS)
