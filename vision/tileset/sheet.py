"""A teaching photo's codes, boxes and rows: what the alignment of vision/tileset/align.py
works on.

The player lays tiles in rows and says what they are (CODES, in reading order; a space or
`/` between rows makes the rows part of what must match: `parse_codes`). The tile finder's
boxes that may be tiles of the sheet are its `candidates` (vision/rows.py, the model of tiles
in rows that the hand on the table shares: weak boxes, halves of one tile joined). A `chain` puts one photo's candidates in
reading order for one `Way` the sheet may lie (upright, from across the table, from either
side: `WAYS`), row by row (`row_model`: each row's own pitch, so that the narrower far rows
of a sheet seen from a low seat are measured by their own tiles).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from scoring.errors import InvalidHandError
from scoring.tiles import format_tiles, parse_tiles
from vision.rows import row_model
from vision.tileset.store import TileSetError

MAX_ROWS_PERMUTED = 8  # rows of one length put in another order (8! orders at most)


def parse_codes(text: str) -> tuple[list[str], tuple[int, ...] | None]:
    """CODES in the notation's tile-list syntax plus `f` for bonus tiles: the codes in
    order, and the row lengths when rows are separated by spaces or `/` (else None)."""
    parts = [p for p in str(text).replace("/", " ").split() if p]
    if not parts:
        raise TileSetError("CODES is empty: list the tiles of the photo in reading order")
    try:
        rows = [parse_tiles(part, allow_bonus=True) for part in parts]
    except InvalidHandError as exc:
        raise TileSetError(f"CODES: {exc}") from None
    codes = [code for row in rows for code in row]
    return codes, tuple(len(r) for r in rows) if len(rows) > 1 else None


def split_rows(codes, lengths) -> list[list[str]]:
    """`codes` cut into rows of `lengths`, in order."""
    bounds = list(itertools.accumulate(lengths, initial=0))
    return [list(codes[a:b]) for a, b in itertools.pairwise(bounds)]


def codes_text(rows) -> str:
    """Rows of codes written as CODES (`parse_codes` reads it back): a space between rows."""
    return " ".join(format_tiles(list(r), honours_as_letters=False) for r in rows if len(r))


def turned_boxes(boxes: np.ndarray, width: float) -> np.ndarray:
    """Boxes of a photo `width` pixels wide as they lie in the photo turned a quarter
    counter-clockwise."""
    b = np.asarray(boxes).reshape(-1, 4)
    return np.stack([b[:, 1], width - b[:, 2], b[:, 3], width - b[:, 0]], axis=1)


def turn_quarter(rgb: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The photo turned a quarter counter-clockwise and its boxes with it: a sheet shot from
    the side, with the tiles' tops to the right, then stands upright."""
    return (np.ascontiguousarray(np.rot90(rgb)),
            turned_boxes(np.asarray(boxes, np.float32), np.float32(rgb.shape[1])))


@dataclass(frozen=True)
class Way:
    """One way a sheet may lie: `quarter`, shot from the side (the rows running down the
    photo: read as the photo turned a quarter counter-clockwise, `turn_quarter`); `across`,
    shot from across the table (every tile upside down, the reading order reversed)."""
    quarter: bool = False
    across: bool = False

    @property
    def turns(self) -> int:
        """Quarter turns counter-clockwise that stand the tiles upright."""
        return int(self.quarter) + 2 * int(self.across)


WAYS = (Way(), Way(across=True), Way(quarter=True), Way(quarter=True, across=True))


def chain(photo: int, boxes: np.ndarray, probs: np.ndarray, tile: np.ndarray, way: Way):
    """The photo's candidate boxes in reading order for `way` (vision/tileset/align.py's
    Chain); `probs` the reader's probabilities of each box as it stands that way."""
    from vision.tileset.align import Chain, on_pitch, room_between

    seen = turned_boxes(boxes, 0.0) if way.quarter else boxes
    rows, along, pitches = row_model(seen)
    if way.across:
        rows, along, pitches = [r[::-1] for r in rows[::-1]], -along, pitches[::-1]
    order = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    lengths = tuple(len(r) for r in rows)
    return Chain(photo, boxes[order], order, probs[order], tile[order], lengths,
                 room_between(along[order], lengths, pitches),
                 on_pitch(along[order], lengths, pitches))


def row_order(reads, codes, lengths) -> list[int]:
    """For each found row (of `lengths`, in reading order), the typed row whose codes go
    under it: of the orders of the typed rows of each length, the one that puts the most
    tiles under the code the reader reads them as (on a tie, as typed). A length with more
    than MAX_ROWS_PERMUTED rows stays as typed."""
    read_rows, code_rows = split_rows(reads, lengths), split_rows(codes, lengths)
    order = list(range(len(lengths)))
    for length in sorted(set(lengths)):
        group = [i for i, n in enumerate(lengths) if n == length]
        if not 1 < len(group) <= MAX_ROWS_PERMUTED:
            continue
        agree = np.array([[sum(r == c for r, c in zip(read_rows[f], code_rows[t]))
                           for t in group] for f in group])
        best = max(itertools.permutations(range(len(group))),
                   key=lambda p: agree[np.arange(len(group)), p].sum())
        for f, t in zip(group, best):
            order[f] = group[t]
    return order
