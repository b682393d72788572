"""The types a scorer reads: `Meld`, `Hand` and `WinContext`, and the hand notation.

Notation (docs/architecture.md, "Tile vocabulary"; docs/rules.md §0): `[123m][EEE1]456p789sNN`. A bracket is a declared set; a
trailing digit says which tile of a chow was claimed (1-3) or who offered a pung/kong
(1 left, 2 opposite, 3 right); 5-7 mark a promoted kong (offer + 4, as in the
ChineseOfficialMahjongHelper notation); a 4-tile bracket without digit is a concealed kong.
The last tile outside brackets is the winning tile. A hand of 13 tiles (no winning tile) is
accepted too: it is what `waits` reads.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache

from .errors import InvalidHandError
from .tiles import (INDEX, check_code, format_tiles, is_bonus, is_honour, number, parse_bonus,
                    parse_tiles, sorted_tiles, suit)


class MeldKind(str, Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"                      # claimed from a discard
    PROMOTED_KONG = "promoted_kong"    # a melded pung upgraded with the fourth tile
    CONCEALED_KONG = "concealed_kong"  # declared with four self-drawn tiles

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.KONG, MeldKind.PROMOTED_KONG, MeldKind.CONCEALED_KONG)


@dataclass(frozen=True)
class Meld:
    """A declared set. `offer`: chow → which tile (1..3) was claimed; pung/kong → who offered
    it (1 left, 2 opposite, 3 right); None when unknown; always None for a concealed kong."""
    kind: MeldKind
    tiles: tuple[str, ...]
    offer: int | None = None

    def __post_init__(self) -> None:
        kind = MeldKind(self.kind)
        tiles = sorted_tiles(check_code(t) for t in self.tiles)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tiles", tiles)
        shown = f"[{format_tiles(tiles)}]"
        if kind is MeldKind.CHOW:
            if len(tiles) != 3 or is_honour(tiles[0]) or len({suit(t) for t in tiles}) != 1 or \
                    [number(t) for t in tiles] != list(range(number(tiles[0]), number(tiles[0]) + 3)):
                raise InvalidHandError(f"{shown} is not a chow (three consecutive tiles of one suit)")
        else:
            size = 3 if kind is MeldKind.PUNG else 4
            if len(tiles) != size or len(set(tiles)) != 1:
                what = "pung (three identical tiles)" if size == 3 else "kong (four identical tiles)"
                raise InvalidHandError(f"{shown} is not a {what}")
        if kind is MeldKind.CONCEALED_KONG:
            if self.offer is not None:
                raise InvalidHandError(f"concealed kong {shown} has no offering player")
        elif kind in (MeldKind.KONG, MeldKind.PROMOTED_KONG):
            if self.offer not in (1, 2, 3):
                raise InvalidHandError(f"melded kong {shown} needs the offering player 1..3, got {self.offer!r}")
        elif self.offer is not None and self.offer not in (1, 2, 3):
            raise InvalidHandError(f"offer digit of {shown} must be 1..3, got {self.offer!r}")

    @property
    def concealed(self) -> bool:
        return self.kind is MeldKind.CONCEALED_KONG

    @property
    def tile(self) -> str:
        return self.tiles[0]


def check_copies(tiles) -> None:
    """What every hand obeys, a winner's or a loser's: at most 4 copies of a tile."""
    for code, n in Counter(tiles).items():
        if n > 4:
            raise InvalidHandError(f"{n} copies of {code} (there are only 4 of each tile)")


@dataclass(frozen=True)
class Hand:
    """Concealed tiles (without the winning tile), declared melds, winning tile, bonus tiles."""
    concealed: tuple[str, ...]
    melds: tuple[Meld, ...] = ()
    winning: str | None = None
    bonus: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        concealed = sorted_tiles(check_code(t) for t in self.concealed)
        winning = check_code(self.winning) if self.winning is not None else None
        object.__setattr__(self, "concealed", concealed)
        object.__setattr__(self, "winning", winning)
        object.__setattr__(self, "melds", tuple(self.melds))
        object.__setattr__(self, "bonus", parse_bonus(self.bonus))
        if len(self.melds) > 4:
            raise InvalidHandError(f"a hand has at most 4 declared sets, got {len(self.melds)}")
        size = len(concealed) + 3 * len(self.melds)
        if size != 13:
            total = size + (winning is not None)
            expected = "14 tiles (13 + the winning tile)" if winning is not None else "13 tiles"
            raise InvalidHandError(f"a hand has {expected}, counting a kong as 3; got {total}")
        check_copies(self.all_tiles)

    @property
    def closed(self) -> tuple[str, ...]:
        """Concealed tiles plus the winning tile: what decompositions split into sets."""
        return self.concealed + ((self.winning,) if self.winning else ())

    @property
    def all_tiles(self) -> tuple[str, ...]:
        return self.closed + tuple(t for m in self.melds for t in m.tiles)

    @property
    def is_concealed(self) -> bool:
        """No set claimed from a discard (concealed kongs allowed)."""
        return all(m.concealed for m in self.melds)

    def counts(self) -> list[int]:
        c = [0] * 34
        for t in self.all_tiles:
            c[INDEX[t]] += 1
        return c

    def with_winning(self, tile: str) -> "Hand":
        """The 14-tile hand that wins on `tile` (this hand must have 13 tiles)."""
        if self.winning is not None:
            raise InvalidHandError("the hand already has a winning tile")
        return replace(self, winning=tile)

    def without_winning(self) -> "Hand":
        return replace(self, winning=None)



@dataclass(frozen=True)
class WinContext:
    """What the photo cannot show. Seats and winds are 0..3 = E S W N.

    `kong`: self-drawn → won on the replacement tile after a kong; on a discard → robbed a kong.
    `last_tile`: self-drawn → last tile of the wall; on a discard → the last discard.
    `fourth_tile`: the winning tile is the last copy (the other three were visible).
    `discarder`: seat of the player who discarded (or whose kong was robbed); None if unknown.
    `blessing`: 'heavenly', 'earthly' or 'human' hand (HK limit hands), else None.
    """
    self_drawn: bool = False
    discarder: int | None = None
    seat: int = 0
    round: int = 0
    dealer: int = 0
    last_tile: bool = False
    kong: bool = False
    fourth_tile: bool = False
    blessing: str | None = None

    def __post_init__(self) -> None:
        for name in ("seat", "round", "dealer"):
            if getattr(self, name) not in (0, 1, 2, 3):
                raise InvalidHandError(f"{name} must be 0..3 (E S W N), got {getattr(self, name)!r}")
        if self.self_drawn and self.discarder is not None:
            raise InvalidHandError("a self-drawn win has no discarder")
        if self.discarder is not None:
            if self.discarder not in (0, 1, 2, 3):
                raise InvalidHandError(f"discarder must be 0..3 (E S W N), got {self.discarder!r}")
            if self.discarder == self.seat:
                raise InvalidHandError("the winner cannot win on their own discard")
        if self.blessing not in (None, "heavenly", "earthly", "human"):
            raise InvalidHandError(f"blessing must be heavenly, earthly or human, got {self.blessing!r}")

    @property
    def replacement(self) -> bool:
        return self.kong and self.self_drawn

    @property
    def robbing(self) -> bool:
        return self.kong and not self.self_drawn

    @property
    def last_wall_tile(self) -> bool:
        return self.last_tile and self.self_drawn

    @property
    def last_discard(self) -> bool:
        return self.last_tile and not self.self_drawn


# --- notation ---------------------------------------------------------------------------

_BRACKET = re.compile(r"\[([^\[\]]*)\]")


def _parse_meld(body: str) -> Meld:
    digit = None
    if body and body[-1] in "1234567" and len(body) >= 2 and body[-2] in "mpszESWNPFC":
        digit, body = int(body[-1]), body[:-1]
    tiles = parse_tiles(body)
    shown = f"[{body}{digit or ''}]"
    if len(tiles) == 4:
        if digit is None:
            return Meld(MeldKind.CONCEALED_KONG, tiles)
        if digit in (5, 6, 7):
            return Meld(MeldKind.PROMOTED_KONG, tiles, digit - 4)
        if digit == 4:
            raise InvalidHandError(f"offer digit 4 in {shown} (1-3 claimed kong, 5-7 promoted kong)")
        return Meld(MeldKind.KONG, tiles, digit)
    if digit is not None and digit > 3:
        raise InvalidHandError(f"offer digit of {shown} must be 1..3")
    if len(tiles) == 3:
        kind = MeldKind.PUNG if len(set(tiles)) == 1 else MeldKind.CHOW
        return Meld(kind, tiles, digit)
    raise InvalidHandError(f"{shown} is not a set: a bracket holds 3 or 4 tiles, got {len(tiles)}")


def split_notation(text: str, *, allow_bonus: bool = False) -> tuple[list[Meld], list[str]]:
    """Notation → (declared melds, the tiles outside brackets in written order; with
    `allow_bonus`, flowers and seasons 1f..8f among them)."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidHandError("empty hand notation")
    text = text.strip().replace(" ", "")
    melds: list[Meld] = []
    pos = 0
    for m in _BRACKET.finditer(text):
        if text[pos:m.start()].strip():
            raise InvalidHandError(f"declared sets [..] must come before the concealed tiles in {text!r}")
        melds.append(_parse_meld(m.group(1)))
        pos = m.end()
    rest = text[pos:]
    if "[" in rest or "]" in rest:
        raise InvalidHandError(f"unbalanced or misplaced bracket in {text!r}")
    return melds, parse_tiles(rest, allow_bonus=allow_bonus)


def parse_hand(text: str, bonus=None) -> Hand:
    """Notation → Hand; flowers and seasons (1f..8f) may be written anywhere outside the
    brackets and join `bonus`. Raises InvalidHandError with a one-line message naming the
    problem."""
    melds, written = split_notation(text, allow_bonus=True)
    tiles = [t for t in written if not is_bonus(t)]
    flowers = tuple(t for t in written if is_bonus(t))
    if flowers:  # a bonus tile both written and given apart is one tile said twice
        bonus = tuple(dict.fromkeys(parse_bonus(bonus) + parse_bonus(flowers)))
    size = len(tiles) + 3 * len(melds)
    if size == 14:
        *concealed, winning = tiles
    elif size == 13:
        concealed, winning = tiles, None
    else:
        raise InvalidHandError(f"a hand has 14 tiles (13 + the winning tile), counting a kong as 3; got {size}")
    return Hand(tuple(concealed), tuple(melds), winning, bonus or ())


def format_meld(meld: Meld) -> str:
    digit = ""
    if meld.offer is not None:
        digit = str(meld.offer + 4 if meld.kind is MeldKind.PROMOTED_KONG else meld.offer)
    return f"[{_short_text(meld.tiles)}{digit}]"


def format_hand(hand: Hand) -> str:
    """Canonical notation: melds as given, concealed tiles sorted, the winning tile, then
    the bonus tiles (`parse_hand` sets them apart again: one notation for the whole hand)."""
    out = "".join(format_meld(m) for m in hand.melds) + format_tiles(hand.concealed)
    if hand.winning:
        out += _short_text((hand.winning,))
    if hand.bonus:
        out += _short_text(hand.bonus)
    return out


@lru_cache(maxsize=1024)
def _short_text(tiles: tuple[str, ...]) -> str:
    """format_tiles of a meld or one tile: every scorer formats the hand for its result, and
    there are only a few hundred of these."""
    return format_tiles(tiles)
