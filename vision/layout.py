"""From `Detections` to a `TableLayout`: which tiles are the concealed hand, which form
exposed melds, concealed kongs, bonus tiles set aside, and the winning-tile candidate.

The types here are the boundary between recognition and the page (design.md). The grouping
heuristic itself is issue 5; until it lands `read_layout` reads every face-up playing tile
as concealed and every bonus tile as a bonus tile, which is the honest baseline the page
corrects by hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field

GROUP_KINDS = ("chow", "pung", "kong", "concealed_kong")


@dataclass(frozen=True)
class LaidTile:
    """One tile as found in the photo. `box` is x1, y1, x2, y2 in photo pixels."""
    code: str
    box: tuple[float, float, float, float]
    confidence: float
    sideways: bool = False  # turned 90°: a claimed tile in a meld

    def __post_init__(self) -> None:
        if len(self.box) != 4:
            raise ValueError(f"a tile box has 4 numbers (x1, y1, x2, y2), got {self.box!r}")
        if not 0.0 <= float(self.confidence) <= 1.0:
            raise ValueError(f"confidence must be within 0..1, got {self.confidence!r}")


@dataclass(frozen=True)
class LaidMeld:
    """An exposed meld or a concealed kong (face-down tiles are code 'back')."""
    kind: str
    tiles: tuple[LaidTile, ...]
    confidence: float

    def __post_init__(self) -> None:
        if self.kind not in GROUP_KINDS:
            raise ValueError(f"meld kind must be one of {', '.join(GROUP_KINDS)}, got {self.kind!r}")


@dataclass(frozen=True)
class TableLayout:
    concealed: tuple[LaidTile, ...]
    melds: tuple[LaidMeld, ...] = ()
    bonus: tuple[LaidTile, ...] = ()
    winning: LaidTile | None = None
    ignored: tuple[LaidTile, ...] = ()          # tiles read as not part of the hand
    notation: str | None = None                 # the hand, when the reading is a legal hand
    confidence: float = 0.0                     # of the grouping as a whole
    notes: tuple[str, ...] = field(default_factory=tuple)  # rejected alternatives, doubts
