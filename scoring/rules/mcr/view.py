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
from functools import cached_property

from ...decompose import Decomposition, SetKind, Shape, TileSet, waits
from ...hand import Hand, WinContext
from ...tiles import INDEX

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
    kinds: frozenset[int] = field(init=False)
    win: int = field(init=False)
    fourth_tile: bool = field(init=False)
    kong: bool = field(init=False)
    ignored_flags: list[str] = field(init=False)
    n_melded: int = field(init=False)  # declared sets other than concealed kongs

    def __post_init__(self) -> None:
        hand, ctx = self.hand, self.ctx
        self.counts = hand.counts()
        self.kinds = frozenset(i for i, n in enumerate(self.counts) if n)
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


_WAITS_CACHE: dict = {}


def _waits_of(hand: Hand, count_exhausted: bool) -> tuple[str, ...]:
    key = (hand.concealed, hand.melds, count_exhausted)
    found = _WAITS_CACHE.get(key)
    if found is None:
        if len(_WAITS_CACHE) > 100_000:
            _WAITS_CACHE.clear()
        found = _WAITS_CACHE[key] = waits(hand.without_winning(), count_exhausted)
    return found


class Reading:
    """One decomposition with the winning tile placed in `win_set`, split the way the
    predicates need it. Chow and pung lists hold `(key, TileSet)` sorted by key."""
    __slots__ = ("shape", "sets", "win_set", "chows", "pungs", "pair", "pair_key", "knitted",
                 "concealed_pungs", "melded_kongs", "concealed_kongs", "order")

    def __init__(self, d: Decomposition, facts: HandFacts) -> None:
        self.shape = d.shape
        self.sets = d.sets
        self.win_set = d.win_set
        chows, pungs = [], []
        self.pair = self.pair_key = self.knitted = None
        concealed_pungs = melded_kongs = concealed_kongs = 0
        for i, s in enumerate(d.sets):
            kind = s.kind
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


def _first(item):
    return item[0]
