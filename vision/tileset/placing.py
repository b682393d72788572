"""Where a sheet's codes go: each photo observed once (its candidate boxes, how sure the
finder is that each is a face-up tile, how the reader reads each as cut and turned), then
the way each photo lies and the alignment of all photos with the codes (`decide`).

1. For each photo, each way it may lie (upright, from across the table, from either side)
   is aligned with the codes alone; the cheapest way, plus `Costs.row` a found row, is the
   photo's. When another way costs almost as much (less than the sure margin more) and
   would put other codes on the boxes, the photo is refused (`WayInDoubt`): nothing is
   stored on a guess.
2. All photos, each its way, are aligned with all the codes at once, so each photo's share
   of the codes comes out of the alignment. Typed rows that lie in another order than typed
   are aligned as they lie when that costs clearly less.
3. A photo whose boxes and codes mostly do not meet (FIT_SHARE) is refused; so are all the
   photos of that teach.
4. Each match gets its margin (vision/tileset/align.py `margins`); `doubt_of` says which
   matched tiles are not taught unasked.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.boxes import areas as box_areas
from vision.layout.sets import BACK
from vision.tileset.align import COSTS, Alignment, Costs, align, labels, margins
from vision.rows import HALF, candidates
from vision.tileset.sheet import (
    WAYS,
    Way,
    chain,
    parse_codes,
    row_order,
    split_rows,
    codes_text,
    turn_quarter,
)
from vision.tileset.store import TileSetError

# A photo fits when at least this share of what it shows and what it was given meets:
# codes on boxes, against codes with no box and boxes of tiles with no code.
FIT_SHARE = 0.75
# A way the sheet may lie under which this share of tiles already read as their codes is
# taken without aligning the photo turned a quarter too (a sheet read both ways costs twice).
SURE_WAY = 2 / 3
TILE_SHOWN = 0.5  # an extra box this likely a face-up tile is named

class WayInDoubt(TileSetError):
    """A photo that fits two ways round almost equally; `photo` (0-based) and `ways`, the
    two ways (vision/tileset/sheet.py Way), so that a page can ask which way is up."""

    def __init__(self, photo: int, ways: tuple[Way, Way]) -> None:
        self.photo, self.ways = photo, ways
        super().__init__(f"photo {photo + 1}: the codes fit this photo two ways round almost "
                         f"equally well: photograph the sheet with its first row at the top")


@dataclass(frozen=True)
class Observed:
    """One teaching photo: its pixels, its candidate boxes (in `rgb`'s pixels), the
    probability that each is a face-up tile, and how the reader reads them as cut and
    turned 180°, upright and turned a quarter (`views`, filled when first needed)."""
    rgb: np.ndarray
    scale: tuple[float, float]
    boxes: np.ndarray
    tile: np.ndarray
    views: dict

    def probs(self, way: Way, refiner) -> np.ndarray:
        """(n, C): the reader's probabilities of each box as it stands when the sheet lies
        `way`."""
        if way.quarter not in self.views:
            pixels, boxes = (turn_quarter(self.rgb, self.boxes) if way.quarter
                             else (self.rgb, self.boxes))
            self.views[way.quarter] = _two_views(refiner, pixels, boxes)
        upright, turned = self.views[way.quarter]
        return turned if way.across else upright


def _two_views(refiner, rgb: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reader's probabilities of the boxes' crops as cut and turned 180°, one ONNX call."""
    from vision.recognition.refine import turn_over

    if not len(boxes):
        none = np.zeros((0, len(refiner.names)), np.float32)
        return none, none
    as_cut = refiner.crops(rgb, boxes)
    both = refiner.mean_probabilities([np.concatenate([as_cut, turn_over(as_cut)])])
    return both[:len(boxes)], both[len(boxes):]


def observe(source, reader, conf: float) -> Observed:
    """A teaching photo decoded, its candidate boxes found and read as cut and turned."""
    from vision.image import load_photo

    photo = load_photo(source, max_pixels=reader.max_pixels,
                       min_side=max(min(reader.detector.imgsz), reader.refiner.decode_min_side))
    dets = reader.find(photo.rgb)
    score = dets.finder_score
    boxes, scores = candidates(dets.xyxy, score, conf)
    found = Observed(photo.rgb, photo.scale, boxes.astype(np.float32), scores, {})
    names = list(reader.refiner.names)
    upright = found.probs(Way(), reader.refiner)
    back = upright[:, names.index(BACK)] if BACK in names else np.zeros(len(boxes))
    return replace(found, tile=np.clip(scores, 0.0, 1.0) * (1.0 - back))


@dataclass(frozen=True)
class Plan:
    """Where the codes go: each photo's way and chain, the alignment (with margins), the
    codes in the order aligned and the typed rows as they lie when moved (else "")."""
    ways: tuple[Way, ...]
    chains: tuple
    alignment: Alignment
    codes: tuple[str, ...]
    moved: str


def decide(found, codes_text: str, refiner, costs: Costs = COSTS,
           ways: dict[int, Way] | None = None) -> Plan:
    """The alignment of observed photos (`observe`) with CODES; TileSetError when a photo
    does not fit, WayInDoubt when one fits two ways."""
    codes, rows_wanted = parse_codes(codes_text)
    names = list(refiner.names)
    bounds = None if rows_wanted is None else np.cumsum((0,) + tuple(rows_wanted))
    chosen = tuple(_way_of(k, p, (codes, rows_wanted), refiner, costs, (ways or {}).get(k),
                           alone=len(found) == 1) for k, p in enumerate(found))
    chains = tuple(chain(k, p.boxes, p.probs(w, refiner), p.tile, w)
                   for k, (p, w) in enumerate(zip(found, chosen)))
    best, codes, moved = _aligned(chains, codes, rows_wanted, names, costs)
    _check_fit(chains, best, codes)
    best = margins(chains, _ids(codes, names), bounds, best, costs)
    return Plan(chosen, chains, best, tuple(codes), moved)


def _ids(codes, names) -> np.ndarray:
    return np.array([names.index(c) for c in codes], np.int64)


def _way_of(k: int, photo: Observed, typed, refiner, costs: Costs, said: Way | None,
            alone: bool = True) -> Way:
    """The way photo k lies: the one whose alignment with the codes alone, plus `Costs.row`
    for each row it finds, costs least (the quarter turns only looked at when the sheet does
    not read surely upright or from across); WayInDoubt when another way costs almost as
    much and puts other codes on the boxes."""
    if said is not None:
        return said
    codes, rows_wanted = typed
    names = list(refiner.names)
    tried = {}
    for ways in (WAYS[:2], WAYS[2:]):
        for way in ways:
            one = chain(k, photo.boxes, photo.probs(way, refiner), photo.tile, way)
            alignment, aligned, _ = _aligned([one], codes, rows_wanted, names, costs, not alone)
            tried[way] = (alignment, one, _ids(aligned, names))
        best_way = min(tried, key=lambda w: tried[w][0].cost)
        if _reads_surely(*tried[best_way]):
            break
    cost = {w: a.cost + costs.row * len(one.rows) for w, (a, one, _) in tried.items()}
    ranked = sorted(tried, key=cost.get)
    if len(ranked) > 1 and _fits(*tried[ranked[0]][:2]):  # fitting no way: refused later
        first, second = tried[ranked[0]], tried[ranked[1]]
        if (cost[ranked[1]] - cost[ranked[0]] < costs.sure
                and _codes_by_box(*first) != _codes_by_box(*second)):
            raise WayInDoubt(k, (ranked[0], ranked[1]))
    return ranked[0]


def _reads_surely(alignment: Alignment, one, ids) -> bool:
    """Whether an alignment fits its photo and SURE_WAY of its tiles read as their codes."""
    agreeing = sum(int(one.probs[e.box].argmax()) == ids[e.codes[0]] for e in alignment.matches())
    return _fits(alignment, one) and agreeing >= SURE_WAY * len(alignment.matches())


def _fits(alignment: Alignment, one) -> bool:
    """Whether FIT_SHARE of what one photo shows and was given meets in the alignment."""
    matched, missed, shown = _tally(alignment, [one], 0, one.photo)
    return matched > 0 and matched >= FIT_SHARE * (matched + missed + shown)


def _refuse(k: int, one, n_codes: int, photos: int = 1) -> None:
    where = f"photo {k + 1}: " if photos > 1 else ""
    found = int((one.tile >= TILE_SHOWN).sum())
    raise TileSetError(f"{where}the codes do not fit this photo either way round (found "
                       f"{found} tiles in rows ({','.join(map(str, one.rows))}), CODES has "
                       f"{n_codes})")


def _codes_by_box(alignment: Alignment, one, ids) -> dict[int, int]:
    """{candidate box: class id} of an alignment of one photo's chain."""
    return {int(one.index[box]): int(ids[code]) for (_, box), code in labels(alignment).items()}


def _tally(alignment: Alignment, chains, k: int, photo: int | None = None
           ) -> tuple[int, int, int]:
    """Chain k's codes on boxes, codes with no box, and boxes likely tiles with no code, in
    an alignment (its events name the chain's photo, `photo`: k when not given)."""
    photo = k if photo is None else photo
    matched = missed = shown = 0
    for e in alignment.events:
        if e.photo != photo:
            continue
        if e.kind == "match":
            matched += 1
        elif e.kind == "missed":
            missed += len(e.codes)
        elif chains[k].tile[e.box] >= TILE_SHOWN:
            shown += 1
    return matched, missed, shown


def _aligned(chains, codes, rows_wanted, names, costs: Costs, free: bool = False):
    """The alignment of the photos' chains with the codes, the codes in the order aligned,
    and the typed rows as they lie when that is another order than typed (sheet.row_order;
    taken only when it costs clearly less: `Costs.sure`), else ""."""
    bounds = None if rows_wanted is None else np.cumsum((0,) + tuple(rows_wanted))
    best = align(chains, _ids(codes, names), bounds, costs, free=free)
    if rows_wanted is None or len(rows_wanted) < 2:
        return best, codes, ""
    order = row_order(_row_reads(chains, best, len(codes), rows_wanted, names), codes,
                      rows_wanted)
    if order == sorted(order):
        return best, codes, ""
    rows = split_rows(codes, rows_wanted)
    moved = [c for t in order for c in rows[t]]
    other = align(chains, _ids(moved, names), bounds, costs, free=free)
    if other.cost < best.cost - costs.sure:
        return other, moved, codes_text(split_rows(moved, rows_wanted))
    return best, codes, ""


def _row_reads(chains, best: Alignment, n: int, rows_wanted, names) -> list[str]:
    """What the reader reads under each typed code's place: the boxes the alignment put the
    codes on; when it left some out (rows typed in another order align badly), the found
    rows' boxes in reading order, if they are as many and as long as the typed rows."""
    reads = [""] * n
    by_photo = {one.photo: one for one in chains}
    for e in best.matches():
        reads[e.codes[0]] = names[int(by_photo[e.photo].probs[e.box].argmax())]
    if all(reads):
        return reads
    found = [(one, np.cumsum((0,) + one.rows)) for one in chains]
    if tuple(n for one, _ in found for n in one.rows) != tuple(rows_wanted):
        return reads
    return [names[int(i)] for one, _ in found for i in one.probs.argmax(axis=1)]


def _check_fit(chains, best: Alignment, codes) -> None:
    """TileSetError for the first photo whose boxes and codes mostly do not meet."""
    for k, one in enumerate(chains):
        matched, missed, shown = _tally(best, chains, k)
        if not (matched and matched >= FIT_SHARE * (matched + missed + shown)):
            _refuse(k, one, len(codes), len(chains))


def doubt_of(matched, one, costs: Costs) -> list[str]:
    """Why each matched box of a photo's chain is not taught unasked ("" when it is): its
    code wins by less than the sure margin ("unsure"), or it is a part of a tile ("part":
    under HALF of the median matched tile of its row: a far row is smaller as a whole)."""
    areas = box_areas(one.boxes[[e.box for e in matched]])
    rows = np.array([e.row for e in matched])
    usual = [float(np.median(areas[rows == e.row])) for e in matched]
    return ["unsure" if e.margin < costs.sure else "part" if a < HALF * u else ""
            for e, a, u in zip(matched, areas, usual)]
