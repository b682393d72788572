"""What the fan predicates read: `HandFacts` (one per hand) and `Reading` (one per
decomposition and placement of the winning tile).

`HandFacts` also settles the situational flags the way rules.md §1.2/§5.1 and PyMahjongGB
do, because some flag combinations cannot happen at a real table:
* Last Tile (58) needs the winning tile to be the only copy among the concealed tiles
  (a copy in the winner's own hand was not visible); it is set automatically when the other
  three copies are in declared sets (option `last_tile_auto_from_melds`).
* Out with Replacement Tile needs a kong among the declared sets.
* Robbing the Kong is impossible when the winner holds another copy of the tile (the robbed
  player held three in his pung).
Flags dropped this way are reported in the result's details, never raised as errors.
"""
from __future__ import annotations

from functools import cache, lru_cache
from typing import NamedTuple

from ...decompose import KNITTED_STRAIGHTS, Decomposition, SetKind, Shape, TileSet
from ...hand import Hand, WinContext
from ...tiles import INDEX, PLAYING

# PyMahjongGB's tile order (suits m, s, p, then E S W N Red Green White): it decides which
# combination is tried first and which of two equal readings is kept (combine.py).
_SUIT_ORDER = (0,) * 9 + (2,) * 9 + (1,) * 9 + (3,) * 7
_HONOUR_RANK = {27: 1, 28: 2, 29: 3, 30: 4, 31: 7, 32: 6, 33: 5}


def tile_key(index: int) -> tuple[int, int]:
    """(suit, rank) of a tile in PyMahjongGB's order; see predicates_sets for the meaning."""
    if index >= 27:
        return 3, _HONOUR_RANK[index]
    return _SUIT_ORDER[index], index % 9 + 1


class Situation(NamedTuple):
    """How the hand was won, after the flags are settled: all the situational fans read."""
    self_drawn: bool
    last_tile: bool    # last tile of the wall (self-drawn) or last discard
    kong: bool         # replacement tile after a kong (self-drawn) or robbing a kong
    fourth_tile: bool  # Last Tile: the other three copies were visible
    n_melded: int      # declared sets other than concealed kongs


class HandFacts:
    """Everything about the hand that does not depend on how it is split into sets."""
    __slots__ = (
        "_unique_wait",
        "closed",
        "counts",
        "ctx",
        "hand",
        "ignored_flags",
        "kinds",
        "options",
        "situation",
        "win",
    )

    def __init__(self, hand: Hand, ctx: WinContext, options) -> None:
        self.hand, self.ctx, self.options = hand, ctx, options
        counts = [0] * 34
        for t in hand.closed:
            counts[INDEX[t]] += 1
        self.closed = list(counts)  # the concealed tiles and the winning tile
        win = self.win = INDEX[hand.winning]
        in_closed = counts[win]
        for m in hand.melds:
            for t in m.tiles:
                counts[INDEX[t]] += 1
        self.counts = counts
        kinds = 0
        for i, n in enumerate(counts):
            if n:
                kinds |= 1 << i
        self.kinds = kinds  # bit mask of the tile kinds present (predicates_tiles)
        in_melds = counts[win] - in_closed
        self.ignored_flags = []
        fourth = ctx.fourth_tile
        if in_melds == 3 and options.last_tile_auto_from_melds:
            fourth = True
        if fourth and in_closed != 1:
            fourth = False
            self.ignored_flags.append("fourth_tile: a copy of the winning tile is in the concealed hand")
        kong = ctx.kong
        if kong and ctx.self_drawn and not any(m.kind.is_kong for m in hand.melds):
            kong = False
            self.ignored_flags.append("kong: no kong was declared, so no replacement tile")
        if kong and not ctx.self_drawn and (in_melds or in_closed != 1):
            kong = False
            self.ignored_flags.append("kong: the winner holds a copy of the tile, so it cannot be a robbed kong")
        n_melded = sum(1 for m in hand.melds if not m.concealed)
        self.situation = Situation(ctx.self_drawn, ctx.last_tile, kong, fourth, n_melded)
        self._unique_wait = None

    @property
    def self_drawn(self) -> bool:
        return self.ctx.self_drawn

    @property
    def unique_wait(self) -> bool:
        """Did the 13-tile hand wait on the winning tile's kind only (rules.md §1.2)?"""
        if self._unique_wait is None:
            self._unique_wait = _waits_only_on(self)
        return self._unique_wait


def _waits_only_on(facts: HandFacts) -> bool:
    """decompose.waits(hand) == (winning,), computed suit by suit: the standard shape from
    per-suit split tables cached on each suit's nine counts, the special shapes directly,
    stopping at the first other wait. (tests/scoring/test_mcr_properties.py checks
    `waits_of` against decompose.waits.)"""
    closed = list(facts.closed)
    closed[facts.win] -= 1
    held = facts.counts
    win = facts.win
    ignore_exhausted = not facts.options.waits_count_exhausted_tiles
    # held counts the winning tile too: a kind is exhausted by the 13 tiles when held - (i == win) >= 4
    found = set(_standard_waits(closed))
    if any(i != win and not (ignore_exhausted and held[i] >= 4) for i in found):
        return False
    if len(facts.hand.melds) <= 1:
        found |= _special_waits(closed, len(facts.hand.melds))
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
    out = []
    for p, (a, _, honours) in enumerate(_PARTS):
        others = status[:p] + status[p + 1:]
        if not all(others):
            continue
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
    for j, st in enumerate(others):
        if st & 2 and all(o & 1 for k, o in enumerate(others) if k != j):
            return True
    return False


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
    """Bit 1: the tiles split into sets; bit 2: into sets and exactly one pair; 0: neither."""
    return (1 if _splits(list(chunk), honours, False) else 0) | (2 if _splits(list(chunk), honours, True) else 0)


def _splits(c: list[int], honours: bool, pair: bool) -> bool:
    i = next((k for k, n in enumerate(c) if n), None)
    if i is None:
        return not pair
    if c[i] >= 3:
        c[i] -= 3
        ok = _splits(c, honours, pair)
        c[i] += 3
        if ok:
            return True
    if pair and c[i] >= 2:
        c[i] -= 2
        ok = _splits(c, honours, False)
        c[i] += 2
        if ok:
            return True
    if not honours and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        ok = _splits(c, honours, pair)
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
        return ok
    return False


_ORPHANS = frozenset((0, 8, 9, 17, 18, 26) + tuple(range(27, 34)))
_ORPHAN_MASK = sum(1 << i for i in _ORPHANS)
_HONOUR_MASK = sum(1 << i for i in range(27, 34))
_KNITTED_MASKS = tuple(sum(1 << i for i in pattern) for pattern in KNITTED_STRAIGHTS)


class Reading:
    """One decomposition with the winning tile placed in `win_set`, split the way the
    predicates need it. Chow and pung lists hold `(key, TileSet)` sorted by key."""
    __slots__ = (
        "_order",
        "chows",
        "concealed_kongs",
        "concealed_pungs",
        "knitted",
        "melded_kongs",
        "pair",
        "pair_key",
        "pungs",
        "sets",
        "shape",
        "traits",
        "wait",
        "win_set",
    )

    def __init__(self, d: Decomposition, facts: HandFacts) -> None:
        self.shape = d.shape
        self.sets = d.sets
        self.win_set = d.win_set
        chows, pungs = [], []
        self.pair = self.pair_key = self.knitted = None
        concealed_pungs = melded_kongs = concealed_kongs = 0
        traits = ALL_TRAITS
        for i, s in enumerate(d.sets):
            kind = s.kind
            key, set_trait = set_info(kind, s.tiles)
            traits &= set_trait
            if kind is SetKind.CHOW:
                chows.append((key, s))
            elif kind is SetKind.PUNG or kind is SetKind.KONG:
                pungs.append((key, s))
                if kind is SetKind.KONG:
                    if s.concealed:
                        concealed_kongs += 1
                    else:
                        melded_kongs += 1
                # a pung completed by a discarded winning tile is exposed (rules.md §1.2)
                elif s.meld is None and not (i == d.win_set and not facts.ctx.self_drawn):
                    concealed_pungs += 1
            elif kind is SetKind.PAIR:
                self.pair = s
                self.pair_key = key
            elif kind is SetKind.KNITTED:
                self.knitted = s
        if len(chows) > 1:
            chows.sort(key=_first)
        if len(pungs) > 1:
            pungs.sort(key=_first)
        self.chows, self.pungs = chows, pungs
        self.concealed_pungs = concealed_pungs
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs
        self.wait = False  # not yet known; predicates_hand._wait_position fills it
        self.traits = traits
        self._order = None

    @property
    def order(self) -> tuple:
        """PyMahjongGB's enumeration order of divisions: the concealed sets (not the pair) as
        (tile, pung before chow), sorted. Only used to break exact ties (combine.py)."""
        if self._order is None:
            self._order = tuple(sorted((k, 0 if s.kind is SetKind.PUNG else 1)
                                       for k, s in self.chows + self.pungs
                                       if s.meld is None and s.kind is not SetKind.KONG))
        return self._order

    @property
    def win_tileset(self) -> TileSet | None:
        return None if self.win_set is None else self.sets[self.win_set]

    @property
    def standard(self) -> bool:
        return self.shape is Shape.STANDARD


OUTSIDE, FIVE, EVEN_PUNG = 1, 2, 4  # set traits: a terminal or honour / a 5 / a pung or pair of 2468
ALL_TRAITS = OUTSIDE | FIVE | EVEN_PUNG


@lru_cache(maxsize=4096)
def set_info(kind: SetKind, tiles: tuple[str, ...]) -> tuple[tuple[int, int], int]:
    """(key of the set's first tile, traits) of a set."""
    return tile_key(INDEX[tiles[0]]), set_traits(kind, tiles)


def set_traits(kind: SetKind, tiles: tuple[str, ...]) -> int:
    """What a set contributes to Outside Hand, All Fives and All Even Pungs (each needs the
    trait in every set of a standard reading)."""
    out = 0
    if any(t[1] == "z" or t[0] in "19" for t in tiles):
        out |= OUTSIDE
    if any(t[0] == "5" and t[1] != "z" for t in tiles):
        out |= FIVE
    if kind not in (SetKind.CHOW, SetKind.KNITTED) and tiles[0][1] != "z" and tiles[0][0] in "2468":
        out |= EVEN_PUNG
    return out


def _first(item):
    return item[0]
