"""A second look at the rows: where a row of tiles has a hole one tile wide, or a box of half
a tile's height, the place a tile would occupy is looked at again.

A hand lies in rows of touching or evenly spaced tiles of one size (vision/rows.py, the model
the teaching sheet shares), so a row says where its tiles must be. A *place* is
- a hole between two tiles of a row whose edges lie GAP (0.6-1.4) of the row's pitch apart,
  each of them with a neighbour on its other side, touching or across another hole (HOLE),
  one at least touching; never when a tile beside the hole is its row's last (a winning tile set
  apart, a meld laid apart, bare table at a row's end: the ends of a row are not looked at);
- a box under SHORT of its neighbours' height but of their width: half of a tile (two halves
  of one tile are joined first, `vision.rows.candidates`), which becomes the whole tile.
Its box comes from the row's line and its neighbours' size. A place under or beside a tile of
its neighbours' face lying on top (a kong's fourth tile) is not one, nor is a hole between two
face-down tiles (the wall).

The reader alone cannot say "no tile" (it always names one), so a place is kept only when the
finder says a tile is there: a weak box of the first look on the place (below the operating
confidence, above WEAK_FLOOR), else one finder pass over a crop of the places' rows, seen
larger, that finds a box on it (SECOND_FLOOR). Chosen over a tile / no-tile check of its
own, which would need a model trained for it: the finder already is one, and its second pass
costs one call only on photos that have a place. Tiles kept are read by the crop reader
like any other and marked `looked`, so that the page frames them for checking first.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.boxes import box_iou
from vision.layout.geometry import clusters
from vision.rows import candidates, row_model
from vision.types import Detections

WEAK_FLOOR = 0.05      # finder scores below this are noise, not weak boxes
SECOND_FLOOR = 0.25    # a box of the second pass this sure says a tile is at a place
PLACE_IOU = 0.5        # a box this close to a place (IoU) is a tile at that place
GAP = (0.6, 1.4)       # a hole between two tiles of a row, in the row's pitch: one tile missing
HOLE = 1.8             # a step this long beside a hole is another hole, not a tile set apart
TOUCH = 1.3            # a step up to this many pitches: neighbouring tiles touch or are evenly spaced
SHORT = 0.7            # a box under this share of its neighbours' height (and of their width): a half
PAD = 1.5              # the second pass's crop round the places, in tile sizes
ON_TOP = 1.8           # a tile of the neighbours' face this many tile heights above or below a place lies on top
ALIKE = 1.25           # two tiles of a row differ in size at most this much
MIN_ROW = 3            # tiles in a row for it to say where a tile is missing
BACK = "back"


@dataclass(frozen=True)
class Place:
    """Where a tile would be: `box` xyxy in photo pixels; `halves`: the half boxes it replaces
    (none: a hole)."""
    box: tuple[float, float, float, float]
    halves: tuple[int, ...] = ()


def places(xyxy: np.ndarray, codes: list[str]) -> list[Place]:
    """The places of every row of the photo's tiles (module doc), per cluster of tiles."""
    xyxy = np.asarray(xyxy, np.float64).reshape(-1, 4)
    out: list[Place] = []
    for index in clusters(xyxy):
        if len(index) >= MIN_ROW:
            out += _cluster_places(xyxy, codes, index)
    return out


def _cluster_places(xyxy: np.ndarray, codes: list[str], index: np.ndarray) -> list[Place]:
    """Places of one cluster, in the axis its rows run along (the one with longer rows)."""
    boxes = xyxy[index]
    best = None
    for across in (False, True):  # rows across the photo, or down it (boxes mirrored)
        seen = boxes[:, [1, 0, 3, 2]] if across else boxes
        rows, along, pitches = row_model(seen)
        if best is None or len(rows) < len(best[1]):
            best = (seen, rows, along, pitches, across)
    seen, rows, along, pitches, across = best
    local = [codes[i] for i in index]
    found = []
    for row, pitch in zip(rows, pitches):
        if len(row) >= MIN_ROW:
            found += _row_places(seen, local, row, along, pitch)
    return [Place(tuple(float(x) for x in (p.box[[1, 0, 3, 2]] if across else p.box)),
                  () if p.half is None else (int(index[p.half]),)) for p in found]


@dataclass(frozen=True)
class _Seen:
    box: np.ndarray
    half: int | None


def _row_places(boxes: np.ndarray, codes: list[str], row: np.ndarray, along: np.ndarray,
                pitch: float) -> list[_Seen]:
    steps = np.diff(along[row]) / pitch
    padded = np.r_[np.inf, steps, np.inf]  # the step before each tile, and after the last
    touch = padded <= TOUCH
    spaced = (padded <= TOUCH) | ((padded >= HOLE) & (padded <= 1 + GAP[1]))  # or another hole
    out = []
    for k, step in enumerate(steps):
        a, b = row[k], row[k + 1]
        if not 1 + GAP[0] <= step <= 1 + GAP[1] or codes[a] == BACK and codes[b] == BACK:
            continue
        if spaced[k] and spaced[k + 2] and (touch[k] or touch[k + 2]) and _alike(boxes[a], boxes[b]):
            box = (boxes[a] + boxes[b]) / 2
            if not _under_a_tile(boxes, codes, box, (a, b)):
                out.append(_Seen(box, None))
    for k in range(1, len(row) - 1):
        n = row[[k - 1, k + 1]]
        if touch[k] and touch[k + 1] and _alike(*boxes[n]) and _half_of(boxes[row[k]], boxes[n]):
            top, bottom = np.mean(boxes[n, 1]), np.mean(boxes[n, 3])
            out.append(_Seen(np.array([boxes[row[k], 0], top, boxes[row[k], 2], bottom]), int(row[k])))
    return out


def _alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Two tiles of one row of the same size (ALIKE, each way)."""
    ha, hb = a[3] - a[1], b[3] - b[1]
    wa, wb = a[2] - a[0], b[2] - b[0]
    return bool(1 / ALIKE <= ha / hb <= ALIKE and 1 / ALIKE <= wa / wb <= ALIKE)


def _half_of(box: np.ndarray, beside: np.ndarray) -> bool:
    """Whether `box` is half of a tile between tiles `beside`: under SHORT of their height, of
    their width, with its top or its bottom on theirs."""
    tall = np.mean(beside[:, 3] - beside[:, 1])
    wide = np.mean(beside[:, 2] - beside[:, 0])
    top, bottom = np.mean(beside[:, 1]), np.mean(beside[:, 3])
    edge = min(abs(box[1] - top), abs(box[3] - bottom)) <= 0.15 * tall
    return bool(box[3] - box[1] < SHORT * tall and 1 / ALIKE <= (box[2] - box[0]) / wide <= ALIKE
                and edge)


def _under_a_tile(boxes: np.ndarray, codes: list[str], box: np.ndarray, beside) -> bool:
    """Whether a tile of the face of `beside` lies over the place, above or below it (a kong's
    fourth tile on top hides the hole's tile, or was lifted out of the row)."""
    faces = {codes[i] for i in beside}
    height = box[3] - box[1]
    centre = (box[:2] + box[2:]) / 2
    for i, other in enumerate(boxes):
        if i in beside or codes[i] not in faces:
            continue
        x = (other[0] + other[2]) / 2
        y = (other[1] + other[3]) / 2
        if abs(x - centre[0]) < 0.5 * (box[2] - box[0]) and abs(y - centre[1]) < ON_TOP * height:
            return True
    return False


def look_again(rgb: np.ndarray, found: Detections, weak: Detections, conf: float, detector,
               refiner, iou: float = 0.45) -> Detections:
    """`found` (read) with the tiles at its rows' places that the finder confirms (module
    doc), read by `refiner` and marked `looked`; a half box gives way to its whole tile.
    `weak`: the first look's boxes under the operating confidence `conf`."""
    spots = _distinct(places(found.xyxy, found.codes))
    if not spots:
        return found
    boxes = np.array([p.box for p in spots], np.float64)
    tile = _tile_score(found)
    score = np.array([max((tile[h] for h in p.halves), default=0.0) for p in spots])
    hole = np.array([not p.halves for p in spots])
    score[hole] = _weak_on(boxes[hole], found, weak, conf)
    unsure = np.flatnonzero(hole & (score == 0))
    if len(unsure):
        score[unsure] = _second_look(rgb, boxes[unsure], detector, refiner, iou)
    keep = np.flatnonzero(score > 0)
    if not len(keep):
        return found
    new = Detections(boxes[keep].astype(np.float32), np.zeros(len(keep), np.int64),
                     score[keep].astype(np.float32), detector.names)
    read = refiner.refine(rgb, new)
    read = Detections(read.xyxy, read.class_id, read.confidence, read.names, read.alt_class_id,
                      read.alt_confidence, read.tile_score, looked=np.ones(len(read), bool))
    shown = np.array(read.codes) != BACK  # a face-down tile in a face-up row is no tile of it
    halves = {h for k, p in zip(range(len(spots)), spots) if k in set(keep[shown]) for h in p.halves}
    read = read.select(np.flatnonzero(shown))
    if not len(read):
        return found
    return found.select(np.setdiff1d(np.arange(len(found)), sorted(halves))).joined(read)


def _distinct(spots: list[Place]) -> list[Place]:
    """One place per tile: two halves of one tile give the same place (their halves joined)."""
    out: list[Place] = []
    for p in spots:
        same = [k for k, q in enumerate(out) if box_iou(np.array(p.box), np.array(q.box))[0, 0] > 0.5]
        if same:
            q = out[same[0]]
            out[same[0]] = Place(q.box, tuple(sorted(set(q.halves) | set(p.halves))))
        else:
            out.append(p)
    return out


def _tile_score(found: Detections) -> np.ndarray:
    return np.asarray(found.confidence if found.tile_score is None else found.tile_score, np.float64)


def _weak_on(spots: np.ndarray, found: Detections, weak: Detections, conf: float) -> np.ndarray:
    """Per place, the score of the weak box on it (0: none). Weak boxes as for a teaching
    sheet (`vision.rows.candidates`): tile-sized, none overlapping a surer box."""
    if not len(spots) or not len(weak):
        return np.zeros(len(spots))
    boxes, scores = candidates(np.r_[found.xyxy, weak.xyxy], np.r_[_tile_score(found), weak.confidence],
                               conf)
    pick = (scores < conf) & (scores >= WEAK_FLOOR)
    if not pick.any():
        return np.zeros(len(spots))
    near = box_iou(spots, boxes[pick])
    return np.where(near.max(axis=1) >= PLACE_IOU, scores[pick][near.argmax(axis=1)], 0.0)


def _second_look(rgb: np.ndarray, spots: np.ndarray, detector, refiner, iou: float) -> np.ndarray:
    """Per place, the score of a box the finder finds on it in one pass over a crop round the
    places (seen larger than in the whole photo), 0: none."""
    side = float(np.median(np.sqrt((spots[:, 2] - spots[:, 0]) * (spots[:, 3] - spots[:, 1]))))
    height, width = rgb.shape[:2]
    x0, y0 = (max(0, int(spots[:, k].min() - PAD * side)) for k in (0, 1))
    x1 = min(width, int(np.ceil(spots[:, 2].max() + PAD * side)))
    y1 = min(height, int(np.ceil(spots[:, 3].max() + PAD * side)))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return np.zeros(len(spots))
    crop = np.ascontiguousarray(rgb[y0:y1, x0:x1])
    seen = detector.detect(crop, conf=SECOND_FLOOR, iou=iou, agnostic=True,
                           tile_score=getattr(refiner, "tile_score", "class"))
    if not len(seen):
        return np.zeros(len(spots))
    near = box_iou(spots, seen.xyxy + np.array([x0, y0, x0, y0], np.float32))
    return np.where(near.max(axis=1) >= PLACE_IOU, seen.confidence[near.argmax(axis=1)], 0.0)
