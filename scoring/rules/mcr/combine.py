"""The five combination principles of docs/rules.md §1.3, as an explicit search.

1. Non-Repeat: a fan implied by another is not scored. `apply_exclusions` walks the fans
   that hit in table rank order (points, then number) and drops every fan listed in the
   `excludes` of a fan that survived; `absorbs` is the per-set form (the wind pungs of Big
   Three Winds, Seat or Prevalent Wind do not also score Pung of Terminals or Honors).
2. Non-Separation: every decomposition (and placement of the winning tile) is scored on
   its own; the set fans of one evaluation use that decomposition's sets only.
3. Non-Identical: a set that formed a fan with another set never forms the same fan again
   with a third; a chow or pung combination fan is therefore counted per disjoint group.
4. High-versus-Low: the scorer keeps the evaluation with the best `rank_key`:
     a. the highest total (flowers are the same in every reading);
     b. a standard reading over Seven Pairs when they tie;
     c. a reading with Pure Triple Chow or Triple Pung over one without;
     d. the reading whose concealed sets come first in PyMahjongGB's division order
        (sets sorted by tile in m-s-p-honour order, a pung before a chow on the same tile);
        but the last one in that order when the hand also reads as Seven Pairs, and among
        the readings of (c) (PyMahjongGB's 2022/2023 preferences);
     e. for two placements of the winning tile in the same sets: Edge > Closed > Single.
   (c), (d) and (e) only choose between readings with the same total, so they never change
   the points; they make the fan list deterministic and equal to PyMahjongGB's.
5. Account-Once, in the operational form of docs/rules.md §1.3 (PyMahjongGB's
   calculate_4_chows / calculate_3_chows / calculate_4_pungs / exclusionary_rule):
   * four chows with a four-chow fan (Quadruple Chow, Four Pure Shifted Chows), or with the
     pair a terminal-chows fan (Pure / Three-Suited Terminal Chows): only that fan;
   * otherwise the first three chows (in the order 012, 013, 023, 123 of the sorted chows)
     that form a three-chow fan score it, and the fourth chow forms at most one two-chow
     fan with one of them, preferring Pure Double > Mixed Double > Short Straight > Two
     Terminal Chows;
   * otherwise two-chow fans pairwise, at most 3 with four chows (minus one per chow that
     relates to no other chow) and at most 2 with three chows; the surplus is dropped
     Two Terminal Chows first, then Short Straight, Mixed Double, Pure Double, first
     leaving one of each kind (all are 1 point, so which one goes never changes the total);
   * pungs likewise: a four-pung fan alone; else a three-pung fan and the fourth pung in at
     most one Double Pung / Two Dragon Pungs with one of the three; else all pairs.
"""
from __future__ import annotations

from functools import lru_cache

from .fan_ids import FanId as F
from .fans import Table

TRIPLES_OF_FOUR = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))  # three used + the free one
PAIRS_OF_FOUR = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
PAIRS_OF_THREE = ((0, 1), (0, 2), (1, 2))


def _first(fans, keys):
    for fan in fans:
        if fan.detect(*keys):
            return fan.id
    return None


@lru_cache(maxsize=65536)
def chow_combinations(table: Table, keys: tuple, pair_key) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Account-once for chows: (fan id, indices into `keys`) per occurrence."""
    two = table.scope("chows2")
    n = len(keys)
    if n == 4:
        for fan in table.scope("chows4pair"):
            if pair_key is not None and fan.detect(keys, pair_key):
                return ((fan.id, (0, 1, 2, 3)),)
        fid = _first(table.scope("chows4"), keys)
        if fid is not None:
            return ((fid, (0, 1, 2, 3)),)
        for a, b, c, free in TRIPLES_OF_FOUR:
            fid = _first(table.scope("chows3"), (keys[a], keys[b], keys[c]))
            if fid is not None:
                return ((fid, (a, b, c)),) + _extra(two, keys, (a, b, c), free)
        return _pairwise(two, keys, PAIRS_OF_FOUR, _cap_four(two, keys))
    if n == 3:
        fid = _first(table.scope("chows3"), keys)
        if fid is not None:
            return ((fid, (0, 1, 2)),)
        return _pairwise(two, keys, PAIRS_OF_THREE, 2)
    if n == 2:
        fid = _first(two, keys)
        return ((fid, (0, 1)),) if fid is not None else ()
    return ()


def _extra(two, keys, used, free):
    """The one two-chow fan the free chow may still form, by fan priority (table order)."""
    for fan in two:
        for i in used:
            if fan.detect(keys[i], keys[free]):
                return ((fan.id, (i, free)),)
    return ()


def _cap_four(two, keys) -> int:
    related = [False] * 4
    for i, j in PAIRS_OF_FOUR:
        if _first(two, (keys[i], keys[j])) is not None:
            related[i] = related[j] = True
    return 3 - related.count(False)


def _pairwise(two, keys, pairs, cap):
    found = [(fid, p) for p in pairs if (fid := _first(two, (keys[p[0]], keys[p[1]]))) is not None]
    if cap <= 0:
        return ()
    if len(found) <= cap:
        return tuple(found)
    # drop the surplus: latest fan kind first, first down to one of each kind, then to none
    by_kind = {fan.id: [x for x in found if x[0] == fan.id] for fan in two}
    total = len(found)
    for limit in (1, 0):
        for fan in reversed(two):
            kept = by_kind[fan.id]
            while len(kept) > limit and total > cap:
                kept.pop()
                total -= 1
    return tuple(x for fan in two for x in by_kind[fan.id])


@lru_cache(maxsize=65536)
def pung_combinations(table: Table, keys: tuple) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Account-once for pungs (kongs count as pungs)."""
    two = table.scope("pungs2")
    n = len(keys)
    if n == 4:
        fid = _first(table.scope("pungs4"), keys)
        if fid is not None:
            return ((fid, (0, 1, 2, 3)),)
        for a, b, c, free in TRIPLES_OF_FOUR:
            fid = _first(table.scope("pungs3"), (keys[a], keys[b], keys[c]))
            if fid is not None:
                for i in sorted((a, b, c)):
                    extra = _first(two, (keys[i], keys[free]))
                    if extra is not None:
                        return ((fid, (a, b, c)), (extra, (i, free)))
                return ((fid, (a, b, c)),)
        pairs = PAIRS_OF_FOUR
    elif n == 3:
        fid = _first(table.scope("pungs3"), keys)
        if fid is not None:
            return ((fid, (0, 1, 2)),)
        pairs = PAIRS_OF_THREE
    elif n == 2:
        pairs = ((0, 1),)
    else:
        return ()
    return tuple((fid, p) for p in pairs if (fid := _first(two, (keys[p[0]], keys[p[1]]))) is not None)


@lru_cache(maxsize=4096)
def single_pung_fans(table: Table, key) -> tuple[int, ...]:
    return tuple(f.id for f in table.scope("pung") if f.detect(key))


def apply_exclusions(table: Table, hits: dict[F, list]) -> tuple[dict[F, list], int]:
    """Principle 1 on {fan id: [sets of each occurrence]}: the surviving fans and their points."""
    out: dict[int, list] = {}
    excluded: set[int] = set()
    absorbed_sets: dict[int, list] = {}
    total = 0
    fans = table.fans
    for fid in sorted(hits, key=table.rank.__getitem__):
        if fid in excluded:
            continue
        occurrences = hits[fid]
        if fid in absorbed_sets:
            occurrences = _absorb(occurrences, absorbed_sets[fid])
            if not occurrences:
                continue
        fan = fans[fid]
        out[fid] = occurrences
        total += fan.points * len(occurrences)
        excluded |= fan.excludes
        for target, limit in fan.absorbs:
            for sets in occurrences:
                absorbed_sets.setdefault(target, []).append((set(sets), limit))
    return out, total


def _absorb(occurrences: list, absorbers: list) -> list:
    left = list(occurrences)
    for sets, limit in absorbers:
        taken = 0
        keep = []
        for occ in left:
            if (limit is None or taken < limit) and sets.intersection(occ):
                taken += 1
            else:
                keep.append(occ)
        left = keep
    return left


def rank_key(total: int, standard: bool, fans: dict[F, list], reading, seven_pairs_tie: bool):
    """High-versus-Low ranking (module docstring, principle 4): larger is better."""
    preferred = F.PURE_TRIPLE_CHOW in fans or F.TRIPLE_PUNG in fans
    wait = (3 if F.EDGE_WAIT in fans else 2 if F.CLOSED_WAIT in fans
            else 1 if F.SINGLE_WAIT in fans else 0)
    return (total, standard, preferred, _Order(reading, preferred or seven_pairs_tie), wait)


class _Order:
    """Compares division orders: earlier wins, unless the reading is one to take last.
    The order is computed only when two readings tie on everything before it."""
    __slots__ = ("last", "reading")

    def __init__(self, reading, last: bool) -> None:
        self.reading, self.last = reading, last

    def __lt__(self, other: _Order) -> bool:
        if self.last:
            return self.reading.order < other.reading.order
        return self.reading.order > other.reading.order

    def __eq__(self, other) -> bool:
        return self.reading.order == other.reading.order

    def __gt__(self, other: _Order) -> bool:
        return other < self


__all__ = ["apply_exclusions", "chow_combinations", "pung_combinations", "rank_key", "single_pung_fans"]
