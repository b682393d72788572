"""One decomposition engine: every way a hand splits into a legal winning shape, and waits.

Shapes (docs/rules.md §1.1): standard (4 sets + pair), seven pairs, thirteen orphans,
honours-and-knitted (14 singles), knitted straight (9 knitted tiles + 1 set + pair).
Every decomposition also says which set the winning tile completed (`win_set`); a hand whose
winning tile could complete different sets yields one decomposition per placement, because
that choice changes fans (waits, "a pung completed by a discard is exposed").

Speed: the concealed tiles are split suit by suit and each suit's split is cached on its
9 counts, so a new hand costs a few dictionary look-ups and a small product.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import permutations, product
from operator import itemgetter

from .hand import Hand, Meld, MeldKind
from .tiles import INDEX, PLAYING, format_tiles, is_terminal_or_honour


class SetKind(str, Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"
    KNITTED = "knitted"  # the 9 tiles of a knitted straight, standing for three sets


class Shape(str, Enum):
    STANDARD = "standard"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    HONOURS_KNITTED = "honours_knitted"
    KNITTED_STRAIGHT = "knitted_straight"


@dataclass(frozen=True)
class TileSet:
    """One set of a decomposition. `concealed` is about how the tiles were obtained: False
    for a declared meld (concealed kongs excepted). A pung completed by a discarded winning
    tile is still `concealed` here; scorers decide that (they know self-drawn or not)."""
    kind: SetKind
    tiles: tuple[str, ...]
    concealed: bool
    meld: Meld | None = None

    @property
    def tile(self) -> str:
        return self.tiles[0]

    @property
    def is_pung_like(self) -> bool:
        return self.kind in (SetKind.PUNG, SetKind.KONG)

    def __str__(self) -> str:
        body = format_tiles(self.tiles)
        return body if self.concealed else f"[{body}]"


@dataclass(frozen=True)
class Decomposition:
    shape: Shape
    sets: tuple[TileSet, ...]           # declared melds first, then concealed sets, pair(s) last
    win_set: int | None = None          # index into sets of the set the winning tile completed
    singles: tuple[str, ...] = ()       # thirteen orphans / honours-and-knitted: all 14 tiles


# --- per-suit splitting -----------------------------------------------------------------

@lru_cache(maxsize=None)
def _suit_splits(counts: tuple[int, ...], honours: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
    """All multisets of sets ('c' chow, 'p' pung, 'q' pair; local index) covering `counts`
    exactly, with at most one pair."""
    out: set[tuple[tuple[str, int], ...]] = set()

    def walk(c: list[int], acc: list[tuple[str, int]], pairs: int) -> None:
        i = next((k for k, n in enumerate(c) if n), None)
        if i is None:
            out.add(tuple(sorted(acc)))
            return
        if c[i] >= 3:
            c[i] -= 3
            walk(c, acc + [("p", i)], pairs)
            c[i] += 3
        if c[i] >= 2 and pairs == 0:
            c[i] -= 2
            walk(c, acc + [("q", i)], 1)
            c[i] += 2
        if not honours and i + 2 < len(c) and c[i + 1] and c[i + 2]:
            c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
            walk(c, acc + [("c", i)], pairs)
            c[i] += 1; c[i + 1] += 1; c[i + 2] += 1

    if sum(counts) % 3 != 1:  # 3n or 3n+2 tiles only
        walk(list(counts), [], 0)
    return tuple(sorted(out))


@lru_cache(maxsize=200_000)
def _standard_splits(counts: tuple[int, ...]) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Splits of 34 counts into sets + exactly one pair (global tile indices)."""
    return tuple(tuple(x for _, part in combo for x in part)
                 for combo in _one_pair(_per_suit(counts, _suit_splits_at)))


def _per_suit(counts: tuple[int, ...], splitter) -> list:
    """`splitter(chunk, base, honours)` of each suit the counts hold; empty when one of
    them does not split."""
    per_suit = []
    for base, honours in ((0, False), (9, False), (18, False), (27, True)):
        chunk = counts[base:base + (7 if honours else 9)]
        if not any(chunk):
            continue
        splits = splitter(chunk, base, honours)
        if not splits:
            return []
        per_suit.append(splits)
    return per_suit


def _one_pair(per_suit: list):
    """The combinations of one split per suit (each led by its number of pairs) with
    exactly one pair in all."""
    if not per_suit:
        return
    for combo in product(*per_suit):
        if sum(split[0] for split in combo) == 1:
            yield combo


@lru_cache(maxsize=None)
def _suit_splits_at(chunk: tuple[int, ...], base: int, honours: bool) -> tuple[tuple[int, tuple[tuple[str, int], ...]], ...]:
    """_suit_splits with global tile indices (`base` + local), each with its number of
    pairs: a new hand then only combines the suits (its own counts rarely repeat). The
    split is searched on the counts between the first and last tile held: a suit's
    pattern splits the same wherever it lies (123m and 456m alike), so one search serves
    them all."""
    first = next(k for k, n in enumerate(chunk) if n)
    last = len(chunk) - next(k for k, n in enumerate(reversed(chunk)) if n)
    shift = base + first
    return tuple((sum(1 for k, _ in split if k == "q"), tuple((k, i + shift) for k, i in split))
                 for split in _suit_splits(chunk[first:last], honours))


@lru_cache(maxsize=None)
def _suit_sets(chunk: tuple[int, ...], base: int, honours: bool) -> tuple[tuple[int, tuple[TileSet, ...], TileSet | None], ...]:
    """_suit_splits_at as sets, built once per suit pattern: (pairs, the sets other than
    the pair by (tile, chow before pung), the pair or None). Sets are immutable, so hands
    share them; within one decomposition every set is still its own object."""
    out = []
    for pairs, split in _suit_splits_at(chunk, base, honours):
        body = _sets_of([x for x in split if x[0] != "q"], _split_order)
        pair = next((_tileset(k, i) for k, i in split if k == "q"), None)
        out.append((pairs, body, pair))
    return tuple(out)


def _sets_of(split, key) -> tuple[TileSet, ...]:
    """The sets of a split in the order `key` gives; equal sets of it are distinct objects."""
    copies: dict = {}
    out = []
    for item in sorted(split, key=key):
        copy = copies[item] = copies.get(item, -1) + 1
        out.append(_tileset(*item, copy))
    return tuple(out)


@lru_cache(maxsize=None)
def _tileset(kind: str, index: int, copy: int = 0) -> TileSet:
    """A set of the concealed tiles, one object shared by every hand that holds it: sets are
    immutable. `copy` tells equal sets of one decomposition apart (two 123m chows, two pairs
    of four 5p): a scorer may name a set by its identity."""
    t = PLAYING[index]
    if kind == "c":
        return TileSet(SetKind.CHOW, (t, PLAYING[index + 1], PLAYING[index + 2]), True)
    if kind == "p":
        return TileSet(SetKind.PUNG, (t,) * 3, True)
    return TileSet(SetKind.PAIR, (t,) * 2, True)


def meld_set(meld: Meld) -> TileSet:
    kind = _MELD_SET_KIND.get(meld.kind, SetKind.KONG)
    return TileSet(kind, meld.tiles, meld.concealed, meld)


_MELD_SET_KIND = {MeldKind.CHOW: SetKind.CHOW, MeldKind.PUNG: SetKind.PUNG}  # else one of the kongs


@lru_cache(maxsize=64)
def tile_counts(tiles: tuple[str, ...]) -> tuple[int, ...]:
    """How many of each of the 34 kinds `tiles` holds. Cached: a hand's closed tiles are
    counted by the decomposition and again by the scorer that reads it."""
    c = [0] * 34
    for i in map(INDEX.__getitem__, tiles):
        c[i] += 1
    return tuple(c)


def _counts(tiles) -> tuple[int, ...]:
    return tile_counts(tuple(tiles))


# --- shapes ------------------------------------------------------------------------------

_KNITS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))  # 147, 258, 369 as local indices
_ORPHANS = tuple(i for i, t in enumerate(PLAYING) if is_terminal_or_honour(t))
_ORPHAN_COUNTS = itemgetter(*_ORPHANS)


def _knitted_patterns():
    """The 6 knitted straights as tuples of 9 global indices."""
    for perm in permutations(range(3)):
        yield tuple(9 * s + k for s, p in enumerate(perm) for k in _KNITS[p])


KNITTED_STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(_knitted_patterns())
_KNITTED_GETTERS = tuple(itemgetter(*pattern) for pattern in KNITTED_STRAIGHTS)


def _placements(shape: Shape, sets: tuple[TileSet, ...], winning: str | None) -> list[Decomposition]:
    """One decomposition per distinct concealed set that can hold the winning tile."""
    if winning is None:
        return [Decomposition(shape, sets)]
    seen: set[tuple[SetKind, tuple[str, ...]]] = set()
    out = []
    for i, s in enumerate(sets):
        if s.meld is None and winning in s.tiles and (s.kind, s.tiles) not in seen:
            seen.add((s.kind, s.tiles))
            out.append(Decomposition(shape, sets, i))
    return out


def _standard(hand: Hand, closed: tuple[int, ...]) -> list[Decomposition]:
    declared = tuple(meld_set(m) for m in hand.melds)
    out = []
    # sets by (pair last, tile, chow before pung): each suit's sets are in that order, and
    # the suits follow one another in tile order
    for combo in _one_pair(_per_suit(closed, _suit_sets)):
        body = declared
        pair = None
        for _, sets, suit_pair in combo:
            body += sets
            pair = suit_pair or pair
        out.extend(_placements(Shape.STANDARD, body + (pair,), hand.winning))
    return out


def _split_order(item: tuple[str, int]) -> tuple[bool, int, str]:
    kind, index = item
    return kind == "q", index, kind


def _seven_pairs(hand: Hand, closed: tuple[int, ...]) -> list[Decomposition]:
    if hand.melds or 1 in closed or 3 in closed:  # an odd count (counts are 0..4)
        return []
    sets = tuple(_tileset("q", i, copy) for i, n in enumerate(closed) for copy in range(n // 2))
    return _placements(Shape.SEVEN_PAIRS, sets, hand.winning)[:1]


def _thirteen_orphans(hand: Hand, closed: tuple[int, ...]) -> list[Decomposition]:
    if hand.melds:
        return []
    orphans = _ORPHAN_COUNTS(closed)
    if 0 in orphans or sum(orphans) != 14:
        return []
    return [Decomposition(Shape.THIRTEEN_ORPHANS, (), None, hand.closed)]


def _honours_knitted(hand: Hand, closed: tuple[int, ...]) -> list[Decomposition]:
    if hand.melds or max(closed) > 1:
        return []
    for perm in permutations(range(3)):
        allowed = {9 * s + k for s, p in enumerate(perm) for k in _KNITS[p]}
        if all(i in allowed for i in range(27) if closed[i]):
            return [Decomposition(Shape.HONOURS_KNITTED, (), None, hand.closed)]
    return []


def _knitted_straight(hand: Hand, closed: tuple[int, ...]) -> list[Decomposition]:
    if len(hand.melds) > 1:
        return []
    out = []
    declared = None
    for pattern, tiles_of in zip(KNITTED_STRAIGHTS, _KNITTED_GETTERS):
        if 0 in tiles_of(closed):  # a tile of this knitted straight is missing
            continue
        if declared is None:
            declared = tuple(meld_set(m) for m in hand.melds)
        rest = list(closed)
        for i in pattern:
            rest[i] -= 1
        knitted = TileSet(SetKind.KNITTED, tuple(PLAYING[i] for i in sorted(pattern)), True)
        for split in _standard_splits(tuple(rest)):
            sets = declared + (knitted,) + _sets_of(split, lambda x: x[0] == "q")
            out.extend(_placements(Shape.KNITTED_STRAIGHT, sets, hand.winning))
    return out


SHAPES = (_standard, _seven_pairs, _thirteen_orphans, _honours_knitted, _knitted_straight)


def decompositions(hand: Hand) -> list[Decomposition]:
    """Every decomposition of a 14-tile hand (an empty list: the hand is not complete).
    For a 13-tile hand (no winning tile) the list is empty."""
    if hand.winning is None:
        return []
    closed = _counts(hand.closed)
    return [d for shape in SHAPES for d in shape(hand, closed)]


# --- completeness on counts (no decomposition built) ----------------------------------------

def _fits_standard(closed: tuple[int, ...], n_melds: int) -> bool:
    return bool(_standard_splits(closed))


def _fits_seven_pairs(closed: tuple[int, ...], n_melds: int) -> bool:
    return n_melds == 0 and all(n in (0, 2, 4) for n in closed)


def _fits_thirteen_orphans(closed: tuple[int, ...], n_melds: int) -> bool:
    orphans = _ORPHAN_COUNTS(closed)
    return n_melds == 0 and 0 not in orphans and sum(orphans) == 14


def _fits_honours_knitted(closed: tuple[int, ...], n_melds: int) -> bool:
    if n_melds or max(closed) != 1:
        return False
    for perm in permutations(range(3)):
        allowed = {9 * s + k for s, p in enumerate(perm) for k in _KNITS[p]}
        if all(i in allowed for i in range(27) if closed[i]):
            return True
    return False


def _fits_knitted_straight(closed: tuple[int, ...], n_melds: int) -> bool:
    if n_melds > 1:
        return False
    for pattern, tiles_of in zip(KNITTED_STRAIGHTS, _KNITTED_GETTERS):
        if 0 not in tiles_of(closed):
            rest = list(closed)
            for i in pattern:
                rest[i] -= 1
            if _standard_splits(tuple(rest)):
                return True
    return False


# each shape's test on the 34 concealed counts (winning tile included): true exactly when
# `decompositions` finds that shape, so waits need no Hand and no sets built
SHAPE_FITS = {
    Shape.STANDARD: _fits_standard,
    Shape.SEVEN_PAIRS: _fits_seven_pairs,
    Shape.THIRTEEN_ORPHANS: _fits_thirteen_orphans,
    Shape.HONOURS_KNITTED: _fits_honours_knitted,
    Shape.KNITTED_STRAIGHT: _fits_knitted_straight,
}
ALL_SHAPES = frozenset(Shape)


@lru_cache(maxsize=200_000)
def _complete(closed: tuple[int, ...], n_melds: int, shapes: frozenset[Shape] = ALL_SHAPES) -> bool:
    return any(SHAPE_FITS[shape](closed, n_melds) for shape in shapes)


def tiles_complete(closed, n_melds: int) -> bool:
    """Could these concealed tiles (codes), beside `n_melds` declared sets, be a complete hand
    of any shape? (No copy limit is checked here.)"""
    closed = tuple(closed)
    return len(closed) + 3 * n_melds == 14 and _complete(_counts(closed), n_melds)


def is_complete(hand: Hand) -> bool:
    return hand.winning is not None and _complete(_counts(hand.closed), len(hand.melds))


def waits(hand: Hand, count_exhausted: bool = False, shapes: frozenset[Shape] = ALL_SHAPES) -> tuple[str, ...]:
    """Tile kinds that complete a 13-tile hand into one of `shapes` (default: any). A kind of
    which the hand already holds all four copies (concealed or in melds) is not a wait
    (docs/rules.md §1.2), unless `count_exhausted` (the shape-only reading of PyMahjongGB,
    MCR preset `china`)."""
    base = hand.without_winning() if hand.winning else hand
    closed = list(_counts(base.closed))
    held = base.counts()
    out = []
    for i, code in enumerate(PLAYING):
        if held[i] >= 4 and not count_exhausted:
            continue
        closed[i] += 1
        if _complete(tuple(closed), len(base.melds), shapes):
            out.append(code)
        closed[i] -= 1
    return tuple(out)
