"""The game's data: moves, declared sets, each player's tiles, the table, and how a hand ended.

All of it is frozen: the engine (`game.engine`) builds a new `State` for every move, so a
page, a command line and a test can keep any state, replay from it, or compare two.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from scoring.hand import Meld, MeldKind
from scoring.result import ScoreResult
from scoring.tiles import WIND_LETTERS

from .tiles import code, codes

SEATS = WIND_LETTERS  # seat 0 is East, the dealer; play goes E → S → W → N
DEALER = 0
ROUND_WIND = 0   # one independent hand, played in the East round


class Action(str, Enum):
    # decisions a player makes
    DISCARD = "discard"
    WIN = "win"
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"                      # an exposed kong claimed from a discard
    CONCEALED_KONG = "concealed_kong"
    PROMOTED_KONG = "promoted_kong"
    PASS = "pass"
    # what the table does by itself (in the log, never a player's choice)
    DEAL = "deal"
    DRAW = "draw"
    BONUS = "bonus"                    # a flower or season laid aside
    REPLACEMENT = "replacement"        # a draw from the wall's end (after a bonus tile or a kong)

    @property
    def is_claim(self) -> bool:
        return self in (Action.WIN, Action.CHOW, Action.PUNG, Action.KONG, Action.PASS)


class Phase(str, Enum):
    ACT = "act"        # `turn` holds a full hand: discard, declare a kong, or win
    CLAIM = "claim"    # a discard waits for the other players' claims
    ROB = "rob"        # a promoted kong waits: may it be robbed for a win?
    END = "end"


@dataclass(frozen=True)
class Move:
    """One entry of the log. `tile`: the tile discarded, drawn, laid aside or promoted;
    `tiles`: the player's own tiles that a claim or a kong uses (or the tiles dealt)."""
    seat: int
    action: Action
    tile: int | None = None
    tiles: tuple[int, ...] = ()

    def describe(self) -> str:
        what = self.action.value.replace("_", " ")
        shown = " ".join(codes(self.tiles)) if self.action is not Action.DEAL else f"{len(self.tiles)} tiles"
        tile = code(self.tile) if self.tile is not None else ""
        return " ".join(p for p in (SEATS[self.seat], what, tile, shown) if p)


@dataclass(frozen=True)
class Set:
    """A declared set. `claimed`: the tile taken from another player (None for a concealed
    kong); `source`: the seat it came from."""
    kind: MeldKind
    tiles: tuple[int, ...]
    claimed: int | None = None
    source: int | None = None

    @property
    def kind_index(self) -> int:
        return self.tiles[0] >> 2

    def to_meld(self, owner: int) -> Meld:
        """The scorer's view: a chow names which tile was claimed, a pung or kong who gave it
        (1 the player on the left, 2 opposite, 3 right)."""
        faces = codes(self.tiles)
        if self.kind is MeldKind.CONCEALED_KONG:
            return Meld(self.kind, faces)
        if self.kind is MeldKind.CHOW:
            order = sorted(faces, key=lambda c: c[0])
            return Meld(self.kind, faces, order.index(code(self.claimed)) + 1)
        return Meld(self.kind, faces, (owner - self.source) % 4)


@dataclass(frozen=True)
class Player:
    concealed: tuple[int, ...] = ()    # sorted ids
    melds: tuple[Set, ...] = ()
    bonus: tuple[int, ...] = ()
    discards: tuple[int, ...] = ()     # the pool, in order; a claimed tile leaves it

    @property
    def exposed(self) -> bool:
        """Has claimed a set from a discard (a concealed kong keeps the hand concealed)."""
        return any(m.kind is not MeldKind.CONCEALED_KONG for m in self.melds)

    def all_tiles(self) -> tuple[int, ...]:
        return self.concealed + tuple(t for m in self.melds for t in m.tiles) + self.bonus + self.discards


@dataclass(frozen=True)
class Outcome:
    """How the hand ended. A draw has `winner` None, no result and no payments (all zero)."""
    winner: int | None
    self_drawn: bool = False
    discarder: int | None = None       # who discarded the winning tile, or whose kong was robbed
    robbed: bool = False
    winning_tile: int | None = None
    result: ScoreResult | None = None
    payments: tuple[int, int, int, int] = (0, 0, 0, 0)

    @property
    def is_draw(self) -> bool:
        return self.winner is None


@dataclass(frozen=True)
class State:
    seed: int
    wall: tuple[int, ...]              # the whole shuffled set, in wall order
    head: int                          # next ordinary draw: wall[head]
    tail: int                          # next replacement draw: wall[tail - 1]
    players: tuple[Player, Player, Player, Player]
    turn: int
    phase: Phase
    drawn: int | None = None           # the tile `turn` just drew (None after a claim)
    after_kong: bool = False           # `drawn` is a kong's replacement
    claimed: bool = False              # `turn` just claimed a chow or pung: discard first
    pending: int | None = None         # the discard (CLAIM) or the promoting tile (ROB)
    options: tuple[tuple[int, tuple[Move, ...]], ...] = ()   # CLAIM/ROB: who may claim what
    responses: tuple[Move, ...] = ()
    log: tuple[Move, ...] = ()
    outcome: Outcome | None = None

    @property
    def wall_left(self) -> int:
        return self.tail - self.head

    def live_wall(self) -> tuple[int, ...]:
        return self.wall[self.head:self.tail]

    @property
    def over(self) -> bool:
        return self.phase is Phase.END
