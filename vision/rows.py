"""Tiles laid in rows, as the finder's boxes show them: which boxes may be tiles (weak
boxes and halves of one tile included) and the rows they lie in, each with its own pitch.

One model serves a teaching sheet (vision/tileset) and the hand on the table
(vision/recognition/look.py). A *weak box* is one the finder scored under its operating
confidence but still tile-sized and not overlapping a surer box (`candidates`): never a tile on
its own, it says where to look. Rows are found across the row direction (`row_model`); each
row's pitch is measured by its own neighbouring tiles (`row_pitch`), so a far row seen from a
low seat is measured by its own tiles.
"""
from __future__ import annotations

import itertools

import numpy as np

INSIDE = 0.6      # a box this much inside another (of its own area) is part of the same tile
OVERLAP = 0.3     # a weaker box overlapping a kept one this much (IoU) is not another tile
SIZE_RANGE = (0.35, 2.8)  # of the median sure box area: a tile
ROW_GAP = 0.5     # a new row starts this many median tile heights below the last


def candidates(boxes: np.ndarray, scores: np.ndarray, conf: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """The boxes of a photo that may be tiles, with their tile scores: boxes
    inside one tile merged (`merge_inside`) and two halves of one tile joined
    (`merge_halves`), of a tile's size (SIZE_RANGE of the median box scored `conf` or
    more), and no weaker box overlapping a kept one (OVERLAP)."""
    boxes, scores = merge_inside(np.asarray(boxes, np.float64).reshape(-1, 4),
                                 np.asarray(scores, np.float64).reshape(-1))
    if not len(boxes):
        return boxes, scores
    areas = np.array([_area(b) for b in boxes])
    shown = scores >= conf if (scores >= conf).any() else np.ones(len(boxes), bool)
    tile_area = float(np.median(areas[shown]))
    whole = shown & (areas >= HALF * tile_area)  # no half of a tile says a tile's shape
    shape = float(np.median(_shape(boxes[whole if whole.any() else shown])))
    boxes, scores = merge_halves(boxes, scores, tile_area, shape)
    areas = np.array([_area(b) for b in boxes])
    kept: list[int] = []
    for i in np.argsort(-scores, kind="stable"):
        if not SIZE_RANGE[0] <= areas[i] / tile_area <= SIZE_RANGE[1]:
            continue
        if all(_iou(boxes[i], boxes[k]) <= OVERLAP for k in kept):
            kept.append(int(i))
    kept.sort()
    return boxes[kept], scores[kept]


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
    return row_model(boxes)[0]


def row_model(boxes: np.ndarray) -> tuple[list[np.ndarray], np.ndarray, list[float]]:
    """The rows of the boxes (indices row by row, top to bottom, each left to right), each
    box's centre along its row's direction, and each row's pitch (`row_pitch`): a far row
    seen from a low seat is narrower than a near one."""
    if not len(boxes):
        return [], np.zeros(0), []
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    a = row_angle(centres)
    along = centres[:, 0] * np.cos(a) + centres[:, 1] * np.sin(a)
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
    rows = [np.array(sorted(r, key=lambda k: along[k]), np.int64) for r in rows]
    return rows, along, [row_pitch(along[r], boxes[r]) for r in rows]


NEIGHBOURS = 1.6  # of a tile's width: two boxes this close along a row are neighbours


def row_pitch(along: np.ndarray, boxes: np.ndarray) -> float:
    """A row's pitch: the median distance between neighbouring boxes (NEIGHBOURS), or, where
    no two are neighbours (tiles missing between every pair), 1.1 tile widths."""
    width = float(np.median(boxes[:, 2] - boxes[:, 0]))
    steps = np.diff(along)
    near = steps[steps < NEIGHBOURS * width]
    return max(float(np.median(near)) if len(near) else 1.1 * width, 1e-6)



def local_steps(along: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The steps between neighbouring boxes of a row (in order along it), each over the two
    boxes' own width and then over the row's typical such step: 1 for touching tiles, 2 for
    a hole of one tile, whatever the perspective (a near tile is wider and so is its step)."""
    width = boxes[:, 2] - boxes[:, 0]
    ratio = np.diff(along) / np.maximum((width[1:] + width[:-1]) / 2, 1e-9)
    near = ratio[(ratio > 0.5) & (ratio < NEIGHBOURS)]  # two boxes on one tile are no step
    return ratio / (float(np.median(near)) if len(near) else 1.1)


HALF = 0.7  # a box under this share of a tile's area may be half of one tile



def merge_halves(boxes: np.ndarray, scores: np.ndarray, tile_area: float,
                 tile_shape: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Two boxes, each under HALF of a tile's area, whose union is one tile's size and shape
    (`tile_shape`: width / height, within SHAPE_SLACK) and which cover most of it (side by
    side or one above the other, touching): their union, with the better score. Two small
    whole tiles side by side (a far row) make a box twice as wide as a tile: kept apart. The
    closest to a tile's area are joined first."""
    small = [i for i in range(len(boxes)) if _area(boxes[i]) < HALF * tile_area]
    pairs = []
    for a, b in itertools.combinations(small, 2):
        union = np.r_[np.minimum(boxes[a, :2], boxes[b, :2]), np.maximum(boxes[a, 2:], boxes[b, 2:])]
        size = _area(union) / tile_area
        covered = (_area(boxes[a]) + _area(boxes[b])) / max(_area(union), 1e-9)
        if 0.75 <= size <= 1.35 and covered >= 0.8 and _shaped(union, tile_shape):
            pairs.append((abs(size - 1.0), a, b, union))
    gone, joined = set(), []
    for _, a, b, union in sorted(pairs, key=lambda t: t[0]):
        if a in gone or b in gone:
            continue
        gone |= {a, b}
        joined.append((union, max(scores[a], scores[b])))
    keep = [i for i in range(len(boxes)) if i not in gone]
    if not joined:
        return boxes, scores
    return (np.vstack([boxes[keep]] + [u[None] for u, _ in joined]),
            np.r_[scores[keep], [s for _, s in joined]])


SHAPE_SLACK = 1.3  # a box is shaped like a tile within this factor of its width / height


def _shape(boxes: np.ndarray) -> np.ndarray:
    """Width / height of each box (tiles of a row all lie one way: the median says which)."""
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    return w / np.maximum(h, 1e-9)


def _shaped(box: np.ndarray, tile_shape: float | None) -> bool:
    if tile_shape is None:
        return True
    shape = float(_shape(box[None])[0])
    return tile_shape / SHAPE_SLACK <= shape <= tile_shape * SHAPE_SLACK
