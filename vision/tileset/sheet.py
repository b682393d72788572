"""Which boxes of a teaching photo are the sheet's tiles, in reading order.

The player lays tiles in rows and says what they are (CODES, in reading order). The tile
finder's boxes are matched to CODES by what the player said: the count, and the rows when
CODES gives them (`123456789m 123456789p ...`: a space or `/` between rows). A blank white
dragon or a pale flower scores low as a tile, and one tile can get two boxes, so before
giving up: boxes inside one tile are merged, a short count takes the next most tile-like
boxes that lie in a row (a row shorter than the player said, when the rows are given), and a
long count drops its least tile-like strays (odd size, alone in a row, or scored far below
the rest), never a clear tile. A sheet shot from the side has its rows running up the
photo: the rows are also looked for that way (`ways`), and the reader's reading of
CODES decides which way the sheet lies (vision/tileset/learn.py). Only when the rows still
do not fit either way is the photo refused, with what was found ("found 41 tiles in 5 rows
(9,9,9,7,7), CODES has 42").
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from scoring.errors import InvalidHandError
from scoring.tiles import format_tiles, parse_tiles
from vision.tileset.store import TileSetError

INSIDE = 0.6      # a box this much inside another (of its own area) is part of the same tile
OVERLAP = 0.3     # a weaker box overlapping a kept one this much (IoU) is not another tile
SIZE_RANGE = (0.35, 2.8)  # of the median kept box area: a tile of the sheet
ROW_GAP = 0.5     # a new row starts this many median tile heights below the last
STRAY_DROP = 0.25  # a box scored this much under the sheet's median tile may be a stray
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


def merge_inside(boxes: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boxes that lie mostly inside another become their union (best score kept)."""
    boxes, scores = boxes.astype(np.float64).copy(), scores.astype(np.float64).copy()
    alive = np.ones(len(boxes), bool)
    for i in np.argsort(-scores):
        if not alive[i]:
            continue
        for j in np.flatnonzero(alive):
            if j != i and _inside(boxes[j], boxes[i]) >= INSIDE:
                boxes[i] = [*np.minimum(boxes[i, :2], boxes[j, :2]),
                            *np.maximum(boxes[i, 2:], boxes[j, 2:])]
                scores[i] = max(scores[i], scores[j])
                alive[j] = False
    return boxes[alive], scores[alive]


def _inside(a: np.ndarray, b: np.ndarray) -> float:
    """Share of box a's area that lies in box b (either way round the smaller one counts)."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    smaller = min(_area(a), _area(b))
    return w * h / smaller if smaller > 0 else 0.0


def _area(box: np.ndarray) -> float:
    return float(max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1]))


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = _area(a) + _area(b) - w * h
    return w * h / union if union > 0 else 0.0


def row_angle(centres: np.ndarray) -> float:
    """The rows' direction (radians): the median direction to each tile's nearest
    neighbour, folded into -45..45 degrees (neighbours in a row are closer than rows)."""
    if len(centres) < 2:
        return 0.0
    gaps = centres[:, None, :] - centres[None, :, :]
    dist = np.hypot(gaps[..., 0], gaps[..., 1]) + np.eye(len(centres)) * 1e18
    near = gaps[np.arange(len(centres)), dist.argmin(axis=1)]
    angle = np.arctan2(near[:, 1], near[:, 0])
    folded = (angle + np.pi / 4) % (np.pi / 2) - np.pi / 4
    return float(np.median(folded))


def rows_of(boxes: np.ndarray) -> list[np.ndarray]:
    """Indices of the boxes row by row, top to bottom, each row left to right."""
    if not len(boxes):
        return []
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    a = row_angle(centres)
    across = centres[:, 0] * np.cos(a) + centres[:, 1] * np.sin(a)
    down = -centres[:, 0] * np.sin(a) + centres[:, 1] * np.cos(a)
    height = float(np.median(boxes[:, 3] - boxes[:, 1]))
    order = np.argsort(down)
    rows, current = [], [order[0]]
    for i in order[1:]:
        if down[i] - np.mean(down[current]) > ROW_GAP * height:
            rows.append(current)
            current = []
        current.append(i)
    rows.append(current)
    return [np.array(sorted(r, key=lambda k: across[k]), np.int64) for r in rows]


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
class Match:
    """The sheet's tiles of one photo: their boxes in reading order and the row lengths;
    `quarter`: read with the rows running down the photo (as rows of the photo turned a
    quarter counter-clockwise, `turn_quarter`)."""
    boxes: np.ndarray
    scores: np.ndarray
    rows: tuple[int, ...]
    quarter: bool = False


@dataclass(frozen=True)
class Way:
    """A photo's boxes (inside ones merged) read one way: with the rows across the photo, or
    (`quarter`) running down it, found as the rows of the boxes turned a quarter."""
    boxes: np.ndarray
    scores: np.ndarray
    quarter: bool = False

    def fit(self, want: int, conf: float, rows_wanted: tuple[int, ...] | None = None) -> Match:
        """The `want` tiles of a sheet among the boxes read this way, or TileSetError saying
        what was found."""
        seen = turned_boxes(self.boxes, 0.0) if self.quarter else self.boxes
        order, lengths = _fit_rows(seen, self.scores, want, conf, rows_wanted)
        return Match(self.boxes[order], self.scores[order], lengths, self.quarter)


def ways(boxes: np.ndarray, scores: np.ndarray) -> tuple[Way, Way]:
    """A photo's boxes and tile scores read with the rows across it and running down it."""
    boxes, scores = merge_inside(np.asarray(boxes, np.float64).reshape(-1, 4),
                                 np.asarray(scores, np.float64).reshape(-1))
    return Way(boxes, scores), Way(boxes, scores, quarter=True)


def each_way(boxes: np.ndarray, scores: np.ndarray, attempt) -> list[Match]:
    """The Matches `attempt(way)` gives for the ways of reading the photo that fit; the first
    way's TileSetError when neither does."""
    fits, refused = [], None
    for way in ways(boxes, scores):
        try:
            fits.append(attempt(way))
        except TileSetError as exc:
            refused = refused or exc
    if not fits:
        raise refused
    return fits


def match_frames(boxes: np.ndarray, scores: np.ndarray, want: int, conf: float,
                 rows_wanted: tuple[int, ...] | None = None) -> list[Match]:
    """The matches with the rows across the photo and with the rows running down it, those
    that fit (a count alone fits both ways); the first way's TileSetError when neither does."""
    return each_way(boxes, scores, lambda way: way.fit(want, conf, rows_wanted))


def match_photo(boxes: np.ndarray, scores: np.ndarray, want: int, conf: float,
                rows_wanted: tuple[int, ...] | None = None) -> Match:
    """The `want` tiles of a sheet among a photo's boxes (tile scores down to low values),
    with the rows across the photo, or TileSetError saying what was found."""
    return ways(boxes, scores)[0].fit(want, conf, rows_wanted)


def _fit_rows(boxes, scores, want, conf, rows_wanted) -> tuple[np.ndarray, tuple[int, ...]]:
    """The `want` sheet tiles among merged boxes, in reading order, and the row lengths."""
    kept = np.flatnonzero(scores >= conf)
    if len(kept) > want:
        kept = _drop_strays(boxes, scores, kept, want)
    elif len(kept) < want and len(kept):
        kept = _look_again(boxes, scores, kept, want, conf, rows_wanted)
    rows = rows_of(boxes[kept])
    lengths = tuple(len(r) for r in rows)
    # rows reversed: the sheet shot from across the table (vision/tileset/learn.py turns it)
    if len(kept) != want or (rows_wanted is not None
                             and lengths not in (rows_wanted, rows_wanted[::-1])):
        said = f"{want}" + (f" in rows ({','.join(map(str, rows_wanted))})" if rows_wanted else "")
        raise TileSetError(f"found {len(kept)} tiles in {len(rows)} rows "
                           f"({','.join(map(str, lengths))}), CODES has {said}")
    return kept[np.concatenate(rows)] if rows else kept, lengths


def _drop_strays(boxes, scores, kept, want) -> np.ndarray:
    """`kept` less its least tile-like boxes, as long as they are strays (`_strays`). A clear
    tile is never dropped to fit CODES: the codes would shift onto the wrong tiles."""
    kept = list(kept)
    while len(kept) > want:
        stray = _strays(boxes, scores, kept)
        if not stray:
            break
        kept.remove(min(stray, key=lambda k: scores[k]))
    return np.array(kept, np.int64)


def _strays(boxes, scores, kept) -> list[int]:
    """The boxes of `kept` no sheet tile would give: of a size no sheet tile has, scored
    STRAY_DROP below the sheet's median, or alone in a row (all at once: a photo of a heap
    holds hundreds)."""
    area = np.array([_area(boxes[i]) for i in kept])
    ratio = area / float(np.median(area))
    low = scores[kept] < float(np.median(scores[kept])) - STRAY_DROP
    rows = rows_of(boxes[kept])
    alone = {r[0] for r in rows if len(r) == 1} if len(rows) > 1 else set()
    return [k for i, k in enumerate(kept)
            if not SIZE_RANGE[0] <= ratio[i] <= SIZE_RANGE[1] or low[i] or i in alone]


def _look_again(boxes, scores, kept, want, conf, rows_wanted) -> np.ndarray:
    """`kept` with the most tile-like weaker boxes added, one at a time, each of a tile's
    size, on no kept tile, and in a row that is short, until there are `want`."""
    kept = list(kept)
    median_area = float(np.median([_area(b) for b in boxes[kept]]))
    for i in np.argsort(-scores):
        if len(kept) >= want:
            break
        if scores[i] >= conf or i in kept:
            continue
        if not SIZE_RANGE[0] <= _area(boxes[i]) / median_area <= SIZE_RANGE[1]:
            continue
        if any(_iou(boxes[i], boxes[k]) > OVERLAP or _inside(boxes[i], boxes[k]) >= INSIDE
               for k in kept):
            continue
        if _in_short_row(boxes, kept, i, rows_wanted):
            kept.append(i)
    return np.array(kept, np.int64)


def _in_short_row(boxes, kept, i, rows_wanted) -> bool:
    """Whether box i joins a row of the kept boxes that is shorter than it should be (the
    longest row, or the player's row length)."""
    rows = rows_of(boxes[kept + [i]])
    where = next(r for r, members in enumerate(rows) if len(kept) in members)
    before = [len(r) - (r == len(kept)).sum() for r in rows]
    if before[where] == 0:
        return False  # a row of its own: not a place the sheet has a tile
    if rows_wanted is not None and len(rows) == len(rows_wanted):
        return before[where] < rows_wanted[where]
    return before[where] < max(before)


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
