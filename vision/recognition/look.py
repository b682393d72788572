"""A second look at the rows: where a row of tiles has a hole one tile wide, or a box of half
a tile's height, the place a tile would occupy is looked at again.

A hand lies in rows of touching or evenly spaced tiles of one size (vision/rows.py, the model
the teaching sheet shares), so a row says where its tiles must be. A *place* is
- a hole between two tiles of a row whose edges lie GAP (0.6-1.4) of the row's pitch apart,
  each of them with a neighbour on its other side, touching or across another hole (HOLE),
  one at least touching, or both of them set apart from the rest of the row (a set of three
  missing its middle tile); never when only one tile beside the hole is its row's last or set
  apart (a winning tile set apart, a meld laid apart, bare table at a row's end);
- a box under SHORT of its neighbours' height but of their width, its top or bottom on theirs:
  half of a tile (two halves of one tile give one place), which becomes the whole tile.
Its box comes from the row's line and its neighbours' size. A place under or beside a tile of
its neighbours' face lying on top (a kong's fourth tile) is not one, nor is a hole between two
face-down tiles (the wall). When the hand then read (vision.layout) is one tile short of
complete, the places one step past each end of the runs of touching tiles in its rows are
looked at too, once (the ends of a row are looked at only then).

The reader alone cannot say "no tile" (it always names one), so a place is kept only when the
finder says a tile is there: a weak box of the first look on the place (below the operating
confidence, above WEAK_FLOOR), else one finder pass over a crop of the places' rows, seen
larger, that finds a box on it (SECOND_FLOOR). Chosen over a tile / no-tile check of its
own, which would need a model trained for it: the finder already is one, and its second pass
costs one call only on photos that have a place. Tiles kept are read by the crop reader
like any other and marked `looked`, so that the page frames them for checking first; one read
as face down is not a tile of a face-up row. A finder's box confirms a place when it overlaps
it (PLACE_IOU) and no tile already found, and then gives the tile its box.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.boxes import box_iou
from vision.layout.geometry import clusters
from vision.rows import OVERLAP, candidates, local_steps, row_model
from vision.types import Detections

WEAK_FLOOR = 0.05      # finder scores below this are noise, not weak boxes
SECOND_FLOOR = 0.25    # a box of the second pass this sure says a tile is at a place
PLACE_IOU = 0.3        # a box this close to a place (IoU) is a tile at that place
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


def places(xyxy: np.ndarray, codes: list[str], ends_of: frozenset[int] | None = None
           ) -> list[Place]:
    """The places of every row of the photo's tiles (module doc), per cluster of tiles; or,
    with `ends_of` (tiles of a hand one tile short), the places just past each end of the
    runs of touching tiles in their rows."""
    xyxy = np.asarray(xyxy, np.float64).reshape(-1, 4)
    out: list[Place] = []
    for index in clusters(xyxy):
        if len(index) >= MIN_ROW and (ends_of is None or ends_of.intersection(index.tolist())):
            out += _cluster_places(xyxy, codes, index, ends_of)
    return out


def _cluster_places(xyxy: np.ndarray, codes: list[str], index: np.ndarray,
                    ends_of: frozenset[int] | None) -> list[Place]:
    """Places of one cluster, in the axis its rows run along (the one with longer rows)."""
    boxes = xyxy[index]
    best = None
    for across in (False, True):  # rows across the photo, or down it (boxes mirrored)
        seen = boxes[:, [1, 0, 3, 2]] if across else boxes
        rows, along, _ = row_model(seen)
        if best is None or len(rows) < len(best[1]):
            best = (seen, rows, along, across)
    seen, rows, along, across = best
    local = [codes[i] for i in index]
    found = []
    for row in rows:
        if ends_of is not None and ends_of.intersection(index[row].tolist()):
            found += _row_ends(seen, row, along)
        elif ends_of is None and len(row) >= MIN_ROW:
            found += _row_places(seen, local, row, along)
    return [Place(tuple(float(x) for x in (p.box[[1, 0, 3, 2]] if across else p.box)),
                  () if p.half is None else (int(index[p.half]),)) for p in found]


@dataclass(frozen=True)
class _Seen:
    box: np.ndarray
    half: int | None


def _row_places(boxes: np.ndarray, codes: list[str], row: np.ndarray, along: np.ndarray
                ) -> list[_Seen]:
    steps = local_steps(along[row], boxes[row])
    padded = np.r_[np.inf, steps, np.inf]  # the step before each tile, and after the last
    touch = padded <= TOUCH
    spaced = touch | ((padded >= HOLE) & (padded <= 1 + GAP[1]))  # or across another hole
    out = []
    for k, step in enumerate(steps):
        a, b = row[k], row[k + 1]
        beside = [padded[j] for j in (k, k + 2) if touch[j] and padded[j] > 0.5]  # touching steps
        hole = step / (np.mean(beside) if beside else 1.0)  # in the tiles' own pitch there
        if not 1 + GAP[0] <= hole <= 1 + GAP[1] or codes[a] == BACK and codes[b] == BACK:
            continue
        apart = padded[k] > 1 + GAP[1] and padded[k + 2] > 1 + GAP[1]  # a set missing its middle
        if (spaced[k] and spaced[k + 2] and beside or apart) and _alike(boxes[a], boxes[b]):
            box = (boxes[a] + boxes[b]) / 2
            if not _under_a_tile(boxes, codes, box, (a, b)):
                out.append(_Seen(box, None))
    for k in range(1, len(row) - 1):
        n = row[[k - 1, k + 1]]
        if touch[k] and touch[k + 1] and _alike(*boxes[n]) and _half_of(boxes[row[k]], boxes[n]):
            top, bottom = np.mean(boxes[n, 1]), np.mean(boxes[n, 3])
            out.append(_Seen(np.array([boxes[row[k], 0], top, boxes[row[k], 2], bottom]), int(row[k])))
    return out


def _row_ends(boxes: np.ndarray, row: np.ndarray, along: np.ndarray) -> list[_Seen]:
    """The places one step past both ends of each run of two or more touching tiles."""
    if len(row) < 2:
        return []
    steps = local_steps(along[row], boxes[row])
    cuts = [0] + [k + 1 for k, st in enumerate(steps) if st > TOUCH] + [len(row)]
    out = []
    for a, b in zip(cuts, cuts[1:]):
        if b - a >= 2:
            for end, inner in ((row[a], row[a + 1]), (row[b - 1], row[b - 2])):
                shift = (boxes[end, :2] + boxes[end, 2:] - boxes[inner, :2] - boxes[inner, 2:]) / 2
                out.append(_Seen(boxes[end] + np.r_[shift, shift], None))
    return out


def _alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Two tiles of one row of the same size across it (ALIKE each way; along a row a box's
    width changes with the tile's turn and the camera's angle)."""
    return bool(1 / ALIKE <= (a[3] - a[1]) / max(b[3] - b[1], 1e-9) <= ALIKE)


def _half_of(box: np.ndarray, beside: np.ndarray) -> bool:
    """Whether `box` is half of a tile between tiles `beside`: under SHORT of their height, of
    their width, with its top or its bottom on theirs."""
    tall = np.mean(beside[:, 3] - beside[:, 1])
    wide = np.mean(beside[:, 2] - beside[:, 0])
    top, bottom = np.mean(beside[:, 1]), np.mean(beside[:, 3])
    edge = min(abs(box[1] - top), abs(box[3] - bottom)) <= 0.15 * tall
    return bool(box[3] - box[1] < SHORT * tall and 1 / ALIKE <= (box[2] - box[0]) / max(wide, 1e-9) <= ALIKE
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
    Then, if the hand they make is one tile short, the ends of its rows likewise.
    `weak`: the first look's boxes under the operating confidence `conf`."""
    def seen(spots: list[Place], found: Detections) -> Detections:
        return _seen(rgb, found, spots, _weak(found, weak, conf), detector, refiner, iou)

    found = seen(_distinct(places(found.xyxy, found.codes)), found)
    short = _one_short(found)
    return seen(places(found.xyxy, found.codes, short), found) if short else found


def _one_short(found: Detections) -> frozenset[int] | None:
    """The tiles of the hand the layout reads, when it is one tile short of complete."""
    from scoring.tiles import VISION_CLASSES
    from vision.layout import read_layout
    from vision.layout.table import hand_tiles

    if not set(found.codes) <= set(VISION_CLASSES):  # a finder of other things: no hand
        return None
    layout = read_layout(found)
    laid = hand_tiles(layout)
    counted = len(laid) - sum(len(m.tiles) == 4 for m in layout.melds)
    if layout.hand is not None or counted != 13:
        return None
    where = {tuple(float(x) for x in box): i for i, box in enumerate(np.asarray(found.xyxy, np.float64))}
    return frozenset(where[t.box] for t in laid if t.box in where)


def _seen(rgb: np.ndarray, found: Detections, spots: list[Place], weak, detector, refiner,
          iou: float) -> Detections:
    """`found` with the tiles the finder confirms at `spots`, read and marked `looked`."""
    if not spots:
        return found
    boxes = np.array([p.box for p in spots], np.float64)
    tile = found.finder_score
    score = np.array([max((tile[h] for h in p.halves), default=0.0) for p in spots])
    hole = np.flatnonzero([not p.halves for p in spots])
    score[hole], boxes[hole] = _confirmed(boxes[hole], found, *weak)
    unsure = hole[score[hole] == 0]
    if len(unsure):
        score[unsure], boxes[unsure] = _confirmed(boxes[unsure], found,
                                                  *_second_look(rgb, boxes[unsure], detector, refiner, iou))
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


def _weak(found: Detections, weak: Detections, conf: float) -> tuple[np.ndarray, np.ndarray]:
    """The weak boxes and their scores, as for a teaching sheet (`vision.rows.candidates`):
    tile-sized, none overlapping a surer box, scored WEAK_FLOOR or more."""
    if not len(weak):
        return np.zeros((0, 4)), np.zeros(0)
    boxes, scores = candidates(np.r_[found.xyxy, weak.xyxy], np.r_[found.finder_score, weak.confidence],
                               conf)
    pick = (scores < conf) & (scores >= WEAK_FLOOR)
    return boxes[pick], scores[pick]


def _confirmed(spots: np.ndarray, found: Detections, boxes: np.ndarray, scores: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """Per place, the score of the finder's box on it (IoU PLACE_IOU, overlapping no tile
    found: not a found tile seen again), 0 for none; and the place's box, that box where
    there is one (the finder's box says better where the tile is than its neighbours do)."""
    if not len(spots) or not len(boxes):
        return np.zeros(len(spots)), spots
    free = box_iou(boxes, found.xyxy).max(axis=1) <= OVERLAP if len(found) else np.ones(len(boxes), bool)
    near = np.where(free[None, :], box_iou(spots, boxes), 0.0)
    best = near.argmax(axis=1)
    on = near[np.arange(len(spots)), best] >= PLACE_IOU
    return np.where(on, scores[best], 0.0), np.where(on[:, None], boxes[best], spots)


def _second_look(rgb: np.ndarray, spots: np.ndarray, detector, refiner, iou: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The boxes (photo pixels) and scores the finder finds in one pass over a crop round
    the places, where it sees them larger than in the whole photo."""
    side = float(np.median(np.sqrt((spots[:, 2] - spots[:, 0]) * (spots[:, 3] - spots[:, 1]))))
    height, width = rgb.shape[:2]
    x0, y0 = (max(0, int(spots[:, k].min() - PAD * side)) for k in (0, 1))
    x1 = min(width, int(np.ceil(spots[:, 2].max() + PAD * side)))
    y1 = min(height, int(np.ceil(spots[:, 3].max() + PAD * side)))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return np.zeros((0, 4)), np.zeros(0)
    crop = np.ascontiguousarray(rgb[y0:y1, x0:x1])
    seen = detector.detect(crop, conf=SECOND_FLOOR, iou=iou, agnostic=True,
                           tile_score=getattr(refiner, "tile_score", "class"))
    return seen.xyxy + np.array([x0, y0, x0, y0], np.float32), np.asarray(seen.confidence)
