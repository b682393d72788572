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

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from ...decompose import KNITTED_STRAIGHTS, Decomposition, SetKind, Shape, TileSet, waits
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


@dataclass
class HandFacts:
    hand: Hand
    ctx: WinContext
    options: object
    counts: list[int] = field(init=False)
    kinds: int = field(init=False)  # bit mask of the tile kinds present (predicates_tiles)
    win: int = field(init=False)
    fourth_tile: bool = field(init=False)
    kong: bool = field(init=False)
    ignored_flags: list[str] = field(init=False)
    n_melded: int = field(init=False)  # declared sets other than concealed kongs

    def __post_init__(self) -> None:
        hand, ctx = self.hand, self.ctx
        self.counts = hand.counts()
        kinds = 0
        for i, n in enumerate(self.counts):
            if n:
                kinds |= 1 << i
        self.kinds = kinds
        self.win = INDEX[hand.winning]
        self.n_melded = sum(1 for m in hand.melds if not m.concealed)
        in_closed = sum(1 for t in hand.closed if t == hand.winning)
        in_melds = self.counts[self.win] - in_closed
        self.ignored_flags = []
        fourth = ctx.fourth_tile
        if in_melds == 3 and getattr(self.options, "last_tile_auto_from_melds", True):
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
        self.fourth_tile = fourth
        self.kong = kong

    @property
    def self_drawn(self) -> bool:
        return self.ctx.self_drawn

    @cached_property
    def waits(self) -> tuple[str, ...]:
        return _waits_of(self.hand, self.options.waits_count_exhausted_tiles)


def _waits_of(hand: Hand, count_exhausted: bool) -> tuple[str, ...]:
    """decompose.waits computed suit by suit: the standard shape from per-suit split tables
    cached on each suit's nine counts, the special shapes directly. Equal to decompose.waits
    (tests/scoring/test_mcr_properties.py checks it), and much faster."""
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
    present = {i for i, n in enumerate(closed) if n}
    if n_melds == 0:
        odd = [i for i in present if closed[i] % 2]
        if len(odd) == 1:
            out.add(odd[0])
        if present <= _ORPHANS:
            if len(present) == 13:
                out |= _ORPHANS
            elif len(present) == 12:
                out |= _ORPHANS - present
        if max(closed) == 1:
            suited = {i for i in present if i < 27}
            for pattern in KNITTED_STRAIGHTS:
                if suited <= set(pattern):
                    out |= (set(pattern) | _HONOUR_SET) - present
    for pattern in KNITTED_STRAIGHTS:
        missing = [i for i in pattern if not closed[i]]
        if len(missing) > 1:
            continue
        rest = list(closed)
        for i in pattern:
            if closed[i]:
                rest[i] -= 1
        if not missing:
            out.update(_standard_waits(rest))
        elif _is_standard(rest):
            out.add(missing[0])
    return out


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


@lru_cache(maxsize=None)
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


@lru_cache(maxsize=None)
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
_HONOUR_SET = frozenset(range(27, 34))


class Reading:
    """One decomposition with the winning tile placed in `win_set`, split the way the
    predicates need it. Chow and pung lists hold `(key, TileSet)` sorted by key."""
    __slots__ = ("shape", "sets", "win_set", "chows", "pungs", "pair", "pair_key", "knitted",
                 "concealed_pungs", "melded_kongs", "concealed_kongs", "order", "wait", "traits")

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
            traits &= set_traits(kind, s.tiles)
            if kind is SetKind.CHOW:
                chows.append((tile_key(INDEX[s.tiles[0]]), s))
            elif kind is SetKind.PUNG or kind is SetKind.KONG:
                pungs.append((tile_key(INDEX[s.tiles[0]]), s))
                if kind is SetKind.KONG:
                    if s.concealed:
                        concealed_kongs += 1
                    else:
                        melded_kongs += 1
                # a pung completed by a discarded winning tile is exposed (rules.md §1.2)
                elif s.meld is None and not (i == d.win_set and not facts.self_drawn):
                    concealed_pungs += 1
            elif kind is SetKind.PAIR:
                self.pair = s
                self.pair_key = tile_key(INDEX[s.tiles[0]])
            elif kind is SetKind.KNITTED:
                self.knitted = s
        chows.sort(key=_first)
        pungs.sort(key=_first)
        self.chows, self.pungs = chows, pungs
        self.concealed_pungs = concealed_pungs
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs
        self.wait = False  # not yet known; predicates_hand._wait_position fills it
        self.traits = traits
        # PyMahjongGB's enumeration order of divisions: the concealed sets (not the pair) as
        # (tile code, pung before chow), sorted; used only to break exact ties (combine.py)
        self.order = tuple(sorted(
            (tile_key(INDEX[s.tiles[0]]), 0 if s.kind is SetKind.PUNG else 1)
            for s in d.sets if s.meld is None and s.kind in (SetKind.PUNG, SetKind.CHOW)))

    @property
    def win_tileset(self) -> TileSet | None:
        return None if self.win_set is None else self.sets[self.win_set]

    @property
    def standard(self) -> bool:
        return self.shape is Shape.STANDARD


OUTSIDE, FIVE, EVEN_PUNG = 1, 2, 4  # set traits: a terminal or honour / a 5 / a pung or pair of 2468
ALL_TRAITS = OUTSIDE | FIVE | EVEN_PUNG


@lru_cache(maxsize=4096)
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
