"""What the fan predicates read: `HandFacts` (one per hand) and `Reading` (one per
decomposition and placement of the winning tile).

`HandFacts` also settles the situational flags the way docs/rules.md §1.2/§5.1 and PyMahjongGB
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

from functools import lru_cache, reduce
from operator import itemgetter, or_
from typing import NamedTuple

from ...decompose import Decomposition, SetKind, Shape, TileSet, tile_counts
from ...hand import Hand, MeldKind, WinContext
from ...tiles import INDEX
from ..flags import possible_context, unscored_blessing
from .waiting import waits_only_on

_BIT = {code: 1 << i for code, i in INDEX.items()}

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
        self.closed = tile_counts(hand.closed)  # the concealed tiles and the winning tile
        counts = list(self.closed)
        kinds = reduce(or_, map(_BIT.__getitem__, hand.closed))  # the kinds present (predicates_tiles)
        win = self.win = INDEX[hand.winning]
        in_closed = counts[win]
        n_melded = 0  # declared sets other than concealed kongs
        for m in hand.melds:
            i = INDEX[m.tiles[0]]
            if m.kind is MeldKind.CHOW:  # a chow's other tiles are the next two kinds
                counts[i] += 1
                counts[i + 1] += 1
                counts[i + 2] += 1
                kinds |= 7 << i
            else:
                counts[i] += len(m.tiles)
                kinds |= 1 << i
            n_melded += not m.concealed
        self.counts = counts
        self.kinds = kinds
        in_melds = counts[win] - in_closed
        possible, notes = possible_context(hand, ctx)  # flags the tiles rule out (rules/flags.py)
        self.ignored_flags = list(notes) + list(unscored_blessing(ctx, False))  # MCR has none
        # the other three copies in declared sets: the last copy, whatever the flag says
        fourth = possible.fourth_tile or (in_melds == 3 and options.last_tile_auto_from_melds)
        kong = possible.kong
        self.situation = Situation(ctx.self_drawn, ctx.last_tile, kong, fourth, n_melded)
        self._unique_wait = None

    @property
    def self_drawn(self) -> bool:
        return self.ctx.self_drawn

    @property
    def unique_wait(self) -> bool:
        """Did the 13-tile hand wait on the winning tile's kind only (docs/rules.md §1.2)?"""
        if self._unique_wait is None:
            self._unique_wait = waits_only_on(self.closed, self.win, self.counts, len(self.hand.melds),
                                              self.options.waits_count_exhausted_tiles)
        return self._unique_wait


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
                # a pung completed by a discarded winning tile is exposed (docs/rules.md §1.2)
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


_first = itemgetter(0)  # a (key, set) pair's key
