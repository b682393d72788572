"""A decomposition read through one win: the facts Hong Kong and Classical fans ask about.

Both rule sets score a pung completed by a *discarded* winning tile as exposed (docs/rules.md
§2.1, §3.2); `decompose` leaves that to the scorers because only they know how the hand was
won, so `Reading.sets` carries the corrected `concealed` flag. Labels keep the notation of
the input (brackets only for declared sets), so a fan's `sets` can be found in the hand.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from ..decompose import Decomposition, SetKind, Shape, TileSet, decompositions, waits
from ..hand import Hand, WinContext
from ..tiles import DRAGONS, WINDS, format_tiles, is_honour, suit, wind_code


def label(s: TileSet) -> str:
    body = format_tiles(s.tiles)
    return f"[{body}]" if s.meld is not None else body


@dataclass(frozen=True)
class Reading:
    hand: Hand
    ctx: WinContext
    shape: Shape | None                 # None: no decomposition (a flower win, HK002)
    sets: tuple[TileSet, ...] = ()
    win_set: int | None = None

    # --- tiles --------------------------------------------------------------------------
    @cached_property
    def tiles(self) -> tuple[str, ...]:
        """All playing tiles, a kong counted with its four."""
        return self.hand.all_tiles

    @cached_property
    def suits(self) -> frozenset[str]:
        return frozenset(suit(t) for t in self.tiles if not is_honour(t))

    @cached_property
    def has_honours(self) -> bool:
        return any(is_honour(t) for t in self.tiles)

    def all_tiles(self, test) -> bool:
        return all(test(t) for t in self.tiles)

    # --- sets ---------------------------------------------------------------------------
    @cached_property
    def pungs(self) -> tuple[TileSet, ...]:
        """Pungs and kongs."""
        return tuple(s for s in self.sets if s.is_pung_like)

    @cached_property
    def chows(self) -> tuple[TileSet, ...]:
        return tuple(s for s in self.sets if s.kind is SetKind.CHOW)

    @cached_property
    def pairs(self) -> tuple[TileSet, ...]:
        return tuple(s for s in self.sets if s.kind is SetKind.PAIR)

    @property
    def pair(self) -> TileSet | None:
        return self.pairs[0] if len(self.pairs) == 1 else None

    @property
    def standard(self) -> bool:
        return self.shape is Shape.STANDARD

    def pungs_of(self, tiles) -> tuple[TileSet, ...]:
        return tuple(s for s in self.pungs if s.tile in tiles)

    @property
    def dragon_pungs(self) -> tuple[TileSet, ...]:
        return self.pungs_of(DRAGONS)

    @property
    def wind_pungs(self) -> tuple[TileSet, ...]:
        return self.pungs_of(WINDS)

    @property
    def seat_wind(self) -> str:
        return wind_code(self.ctx.seat)

    @property
    def round_wind(self) -> str:
        return wind_code(self.ctx.round)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(label(s) for s in self.sets) or (format_tiles(self.tiles),)

    @property
    def winning_label(self) -> tuple[str, ...]:
        return (self.hand.winning,) if self.hand.winning else ()


def read(hand: Hand, ctx: WinContext, d: Decomposition) -> Reading:
    """The decomposition with a pung completed by a discarded winning tile marked exposed."""
    sets = d.sets
    if d.win_set is not None and not ctx.self_drawn and sets[d.win_set].kind is SetKind.PUNG:
        sets = sets[:d.win_set] + (replace(sets[d.win_set], concealed=False),) + sets[d.win_set + 1:]
    return Reading(hand, ctx, d.shape, sets, d.win_set)


def readings(hand: Hand, ctx: WinContext, shapes: frozenset[Shape]) -> list[Reading]:
    return [read(hand, ctx, d) for d in decompositions(hand) if d.shape in shapes]


def legal_waits(hand: Hand, shapes: frozenset[Shape]) -> tuple[str, ...]:
    """Tile kinds that complete the 13 tiles before the win into one of `shapes` (a kind
    whose four copies are all in the hand is not a wait, docs/rules.md §1.2)."""
    return waits(hand, shapes=frozenset(shapes))


def flush(tiles) -> str | None:
    """'full' (one suit, no honours), 'half' (one suit + honours), 'honours' or None."""
    suits = {suit(t) for t in tiles if not is_honour(t)}
    honours = any(is_honour(t) for t in tiles)
    if not suits:
        return "honours"
    if len(suits) == 1:
        return "half" if honours else "full"
    return None


def nine_gates(hand: Hand) -> bool:
    """Concealed 1112345678999 + one more tile of the suit (no declared set)."""
    if hand.melds or hand.winning is None or flush(hand.closed) != "full":
        return False
    n = [0] * 10
    for t in hand.closed:
        n[int(t[0])] += 1
    return n[1] >= 3 and n[9] >= 3 and all(n[k] >= 1 for k in range(2, 9))


__all__ = ["Reading", "read", "readings", "legal_waits", "label", "flush", "nine_gates"]
