"""Teaching a set from photos of its tiles laid in rows (a *sheet*), with the codes typed.

Each photo is decoded as the reader decodes a photo to read it and its tiles are found down
to a low tile score (FIND_CONF: a blank white dragon scores low); the boxes that may be
sheet tiles (vision/tileset/sheet.py `candidates`) are read by the reader as cut and turned
180°, and a box the reader reads as face down counts as a tile of the sheet only as much as
it may not be one (the wall beside a sheet is none of it). The codes then go to the boxes
by alignment (vision/tileset/align.py), never by count:

1. For each photo, each way it may lie (upright, from across the table, from either side)
   is aligned with the codes alone; the cheapest way is the photo's. When another way costs
   almost as much (less than the sure margin more) and would put other codes on the
   boxes, the photo is refused (`WayInDoubt`): nothing is stored on a guess.
2. All photos, each its way, are aligned with all the codes at once, so each photo's share
   of the codes comes out of the alignment. Typed rows that lie in another order than typed
   are aligned as they lie when that costs clearly less.
3. A photo whose boxes and codes mostly do not meet (FIT_SHARE) is refused; so are all the
   photos of that teach.
4. A tile is taught only when the alignment is sure of its code (the margin of
   `align.margins`), is a whole tile (not a half box), and, where another photo of the
   same teach holds the same code, looks like that copy (COPY_NEAR). The rest is named:
   codes with no tile found (`Sheet.gaps`), boxes that are no tile (`Sheet.extras`), tiles
   not sure (`SheetTile.doubt`).

Sheet tiles are examples, never fixes: a tile is stored as read right unless the player
confirmed its code on the page (`Sheet.with_codes(..., confirmed=...)`).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

import numpy as np

from vision.layout.sets import BACK
from vision.tileset.align import COSTS, Alignment, Costs, align, labels, margins
from vision.tileset.reader import TaughtClassifier, TileViews, taught_refiner
from vision.tileset.sheet import (
    HALF,
    WAYS,
    Way,
    candidates,
    chain,
    codes_text,
    parse_codes,
    row_order,
    split_rows,
    turn_quarter,
)
from vision.tileset.store import (
    SHEET_CONFIRMED,
    SHEET_SOURCE,
    TileSet,
    TileSetError,
    add_examples,
)

FIND_CONF = 0.05  # the tile finder's boxes looked at for a sheet (the shown ones start at 0.5)
SHEET = SHEET_SOURCE
# A photo fits when at least this share of what it shows and what it was given meets:
# codes on boxes, against codes with no box and boxes of tiles with no code.
FIT_SHARE = 0.75
# A way the sheet may lie under which this share of tiles already read as their codes is
# taken without aligning the photo turned a quarter too (a sheet read both ways costs twice).
SURE_WAY = 2 / 3
# Two photos of one teach that show the same code: a tile whose features are less alike
# than this (cosine, any size and way up) to every copy in the other photos is not taught.
# Two different faces of one set reach 0.62 at most on the development Camerash sets (5,527
# pairs; 99 % below 0.47): a copy less alike than that is no copy.
COPY_NEAR = 0.6
# Below this share of tiles read as their codes, the codes are likely in another order than
# the tiles lie. Sheets in the right order: 29-41 of 42 on the 19 generated sheets of the
# tile-set evaluation, 31 of 42 on the test art; in a wrong order, about chance.
ORDER_DOUBT = 1 / 3
ORDER_DOUBT_MIN_TILES = 6
TILE_SHOWN = 0.5  # an extra box this likely a face-up tile is named


class WayInDoubt(TileSetError):
    """A photo that fits two ways round almost equally; `photo` (0-based) and `ways`, the
    two ways (vision/tileset/sheet.py Way), so that a page can ask which way is up."""

    def __init__(self, photo: int, ways: tuple[Way, Way]) -> None:
        self.photo, self.ways = photo, ways
        super().__init__(f"photo {photo + 1}: the codes fit this photo two ways round almost "
                         f"equally well: photograph the sheet with its first row at the top")


@dataclass(frozen=True)
class SheetTile:
    photo: int             # index among the photos given
    box: tuple[float, ...]  # full-resolution photo pixels, for the page to show
    code: str
    read_as: str           # what the reader reads there without a set
    turns: int = 0         # quarter turns counter-clockwise that stand the tile upright
    row: int = 0           # the found row in its photo, in reading order
    doubt: str = ""        # why it is not taught unasked: "unsure", "part", "far"
    confirmed: bool = False  # the player chose its code on the page

    @property
    def sure(self) -> bool:
        return not self.doubt


@dataclass(frozen=True)
class Gap:
    """A code with no tile found for it: not taught."""
    photo: int
    row: int
    code: str


@dataclass(frozen=True)
class Extra:
    """A box that is no tile of the sheet, between the codes `after` and `before` ("" at a
    row's end): left out, unless the player says which tile it is (`Sheet.with_extras`);
    `read_as`: what the reader reads there, `turns` as SheetTile's."""
    photo: int
    row: int
    box: tuple[float, ...]
    after: str
    before: str
    read_as: str = ""
    turns: int = 0


@dataclass(frozen=True)
class Sheet:
    """A read sheet: the tiles in reading order with their codes and the features that will
    be stored (`features`, `turned`: (N, K, D)), the codes with no tile, the boxes that are
    no tile, and `moved`: the typed rows as they were found to lie, when that is another
    order than typed (else "")."""
    tiles: tuple[SheetTile, ...]
    rows: tuple[tuple[int, ...], ...]  # per photo, the row lengths found
    features: np.ndarray
    turned: np.ndarray
    probe: np.ndarray
    seconds: float
    gaps: tuple[Gap, ...] = ()
    extras: tuple[Extra, ...] = ()
    moved: str = ""
    extra_features: np.ndarray | None = None  # (len(extras), K, D), as `features`
    extra_turned: np.ndarray | None = None

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]

    @property
    def reads(self) -> list[str]:
        """What the reader read each tile as, without the set."""
        return [t.read_as for t in self.tiles]

    @property
    def agreed(self) -> int:
        """Tiles the reader already read as their code, without the set."""
        return sum(t.code == t.read_as for t in self.tiles)

    @property
    def taught(self) -> list[int]:
        """The tiles a save stores: sure or confirmed by the player, with a code."""
        return [i for i, t in enumerate(self.tiles) if t.code and (t.sure or t.confirmed)]

    @property
    def order_doubtful(self) -> bool:
        """Whether so few tiles read as their codes that the codes may be in another order
        than the tiles lie (a row typed in the wrong place): the player should look."""
        n = len(self.tiles)
        return n >= ORDER_DOUBT_MIN_TILES and self.agreed < ORDER_DOUBT * n

    @property
    def lengths(self) -> list[int]:
        """The row lengths of all photos, in reading order."""
        return [n for photo in self.rows for n in photo]

    @property
    def rows_text(self) -> str:
        """The codes as CODES, a space between rows."""
        return codes_text(split_rows(self.codes, self.lengths))

    def in_row_order(self) -> "Sheet | None":
        """When the codes are doubtful (`order_doubtful`) and putting the typed rows in
        another order (sheet.row_order) lifts the doubt: the sheet with the rows so; else
        None. The player is offered it, never given it unasked."""
        if not self.order_doubtful or sum(self.lengths) != len(self.tiles):
            return None
        rows = split_rows(self.codes, self.lengths)
        order = row_order(self.reads, self.codes, self.lengths)
        moved = self.with_codes([c for t in order for c in rows[t]])
        return None if moved.order_doubtful or order == sorted(order) else moved

    def with_extras(self, codes: dict[int, str]) -> "Sheet":
        """The sheet with the extra boxes `codes` names ({extra index: code}) taught as the
        player said: each becomes a confirmed tile (appended; the rest stay extras)."""
        picked = [i for i, c in sorted(codes.items()) if c]
        if not picked:
            return self
        added = tuple(SheetTile(e.photo, e.box, str(codes[i]), e.read_as, e.turns, e.row,
                                confirmed=True) for i, e in ((i, self.extras[i]) for i in picked))
        rest = [i for i in range(len(self.extras)) if i not in picked]
        return replace(self, tiles=self.tiles + added,
                       features=np.concatenate([self.features, self.extra_features[picked]]),
                       turned=np.concatenate([self.turned, self.extra_turned[picked]]),
                       extras=tuple(self.extras[i] for i in rest),
                       extra_features=self.extra_features[rest],
                       extra_turned=self.extra_turned[rest])

    def with_codes(self, codes, confirmed=()) -> "Sheet":
        """The same tiles with the codes the player set on the page ("" for a box that is no
        tile); the tiles in `confirmed` (indices) were chosen by the player: taught as
        chosen, and a fix where the reader read otherwise."""
        codes = ["" if c is None else str(c) for c in codes]
        if len(codes) != len(self.tiles):
            raise TileSetError(f"{len(codes)} codes for {len(self.tiles)} tiles")
        chosen = set(int(i) for i in confirmed)
        tiles = tuple(replace(t, code=c, confirmed=t.confirmed or i in chosen)
                      for i, (t, c) in enumerate(zip(self.tiles, codes)))
        return replace(self, tiles=tiles)


@dataclass(frozen=True)
class _Photo:
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
    """The reader's probabilities of the boxes' crops as cut and turned 180°."""
    from vision.recognition.refine import turn_over

    if not len(boxes):
        none = np.zeros((0, len(refiner.names)), np.float32)
        return none, none
    as_cut = refiner.crops(rgb, boxes)
    return (refiner.mean_probabilities([as_cut]),
            refiner.mean_probabilities([turn_over(as_cut)]))


def sheet_reader(refiner: TaughtClassifier | None = None):
    """A TileReader for sheets: the tile finder down to FIND_CONF, no stack classifier."""
    from vision.pipeline import TileReader
    from vision.runtime import model_path

    refiner = refiner or taught_refiner()
    return TileReader(model_path(), refiner=refiner, conf=FIND_CONF, stacking=None)


def reader_tile_score(dets) -> np.ndarray:
    return dets.confidence if dets.tile_score is None else dets.tile_score


def observe(source, reader, conf: float) -> _Photo:
    """A teaching photo decoded, its candidate boxes found and read as cut and turned."""
    from vision.image import load_photo

    photo = load_photo(source, max_pixels=reader.max_pixels,
                       min_side=max(min(reader.detector.imgsz), reader.refiner.decode_min_side))
    dets = reader.find(photo.rgb)
    boxes, scores = candidates(dets.xyxy, reader_tile_score(dets), conf)
    found = _Photo(photo.rgb, photo.scale, boxes.astype(np.float32), scores, {})
    names = list(reader.refiner.names)
    upright = found.probs(Way(), reader.refiner)
    back = upright[:, names.index(BACK)] if BACK in names else np.zeros(len(boxes))
    return replace(found, tile=np.clip(scores, 0.0, 1.0) * (1.0 - back))


def read_sheet(photos, codes_text: str, reader=None, conf: float | None = None,
               ways: dict[int, Way] | None = None, costs: Costs = COSTS) -> Sheet:
    """The tiles of sheet photos (paths or bytes) aligned with CODES (reading order across
    the photos); `ways`: {photo index: Way} for photos whose way the player said. Raises
    TileSetError in one line when a photo does not fit (WayInDoubt when it fits two ways)."""
    from vision.runtime import operating_conf

    start = time.perf_counter()
    codes, _ = parse_codes(codes_text)  # bad codes are refused before any photo is read
    reader = reader or sheet_reader()
    conf = operating_conf() if conf is None else conf
    found = [observe(source, reader, conf) for source in photos]
    plan = decide(found, codes_text, reader.refiner, costs, ways)
    sheet = _sheet(found, plan, reader.refiner, costs)
    return _far_copies(replace(sheet, seconds=time.perf_counter() - start))


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


def _way_of(k: int, photo: _Photo, typed, refiner, costs: Costs, said: Way | None,
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
    last = photo == max(c.photo for c in chains)
    matched = missed = shown = 0
    for e in alignment.events:
        if e.photo != photo and not (e.photo == -1 and last):
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
    for e in best.matches():
        reads[e.codes[0]] = names[int(chains[e.photo].probs[e.box].argmax())]
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


def _sheet(found, plan: Plan, refiner, costs: Costs) -> Sheet:
    """The Sheet of a plan: tiles (and the extra boxes likely tiles) with their features,
    gaps, extras."""
    names = list(refiner.names)
    parts = {"tiles": [], "gaps": [], "extras": [], "rows": [], "views": [], "extra_views": []}
    for k, (photo, one, way) in enumerate(zip(found, plan.chains, plan.ways)):
        events = [e for e in plan.alignment.events
                  if e.photo == k or (e.photo == -1 and k == len(plan.chains) - 1)]
        matched = [e for e in events if e.kind == "match"]
        extras = [e for e in events if e.kind == "extra" and one.tile[e.box] >= TILE_SHOWN]
        views = _views(refiner, photo, one.boxes[[e.box for e in matched + extras]], way)
        n = len(matched)
        parts["views"].append((views.features[:n], views.turned[:n]))
        parts["extra_views"].append((views.features[n:], views.turned[n:]))
        doubts = doubt_of(matched, one, costs)
        sx, sy = photo.scale
        read = [names[int(one.probs[e.box].argmax())] for e in matched + extras]
        parts["tiles"] += [SheetTile(k, _full(one.boxes[e.box], sx, sy), plan.codes[e.codes[0]],
                                     r, way.turns, e.row, d)
                           for e, r, d in zip(matched, read, doubts)]
        parts["extras"] += [Extra(k, e.row, _full(one.boxes[e.box], sx, sy),
                                  *_neighbours(events, e, plan.codes), r, way.turns)
                            for e, r in zip(extras, read[len(matched):])]
        parts["gaps"] += [Gap(k, max(e.row, 0), plan.codes[j]) for e in events
                          if e.kind == "missed" for j in e.codes]
        per_row = [sum(e.row == r for e in matched) for r in range(len(one.rows))]
        parts["rows"].append(tuple(n for n in per_row if n))
    views, extra = parts["views"], parts["extra_views"]
    return Sheet(tuple(parts["tiles"]), tuple(parts["rows"]), _stack([f for f, _ in views]),
                 _stack([t for _, t in views]), refiner.probe(), 0.0, tuple(parts["gaps"]),
                 tuple(parts["extras"]), plan.moved, _stack([f for f, _ in extra]),
                 _stack([t for _, t in extra]))


def doubt_of(matched, one, costs: Costs) -> list[str]:
    """Why each matched box of a photo's chain is not taught unasked ("" when it is): its
    code wins by less than the sure margin ("unsure"), or it is a part of a tile ("part":
    under HALF of the photo's median matched tile)."""
    areas = [_area(one.boxes[e.box]) for e in matched]
    area = float(np.median(areas)) if areas else 0.0
    return ["unsure" if e.margin < costs.sure else "part" if a < HALF * area else ""
            for e, a in zip(matched, areas)]


def _views(refiner, photo: _Photo, boxes: np.ndarray, way: Way) -> TileViews:
    """The features a set stores of these boxes, of the tiles stood upright."""
    pixels, seen = turn_quarter(photo.rgb, boxes) if way.quarter else (photo.rgb, boxes)
    views = refiner.features(pixels, seen)
    if not way.across:
        return views
    return TileViews(views.turned_probs, views.probs, views.turned, views.features)


def _stack(parts) -> np.ndarray:
    parts = [p for p in parts if len(p)]
    return np.concatenate(parts) if parts else np.zeros((0, 1, 0), np.float32)


def _full(box, sx: float, sy: float) -> tuple[float, ...]:
    return tuple(float(v) for v in (np.asarray(box) * np.array([sx, sy, sx, sy])).round(1))


def _area(box) -> float:
    return float(max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1]))


def _neighbours(events, extra, codes) -> tuple[str, str]:
    """The codes matched just before and after an extra box in its row ("" at an end)."""
    row = [e for e in events if e.row == extra.row and e.kind == "match"]
    after = [e for e in row if e.box < extra.box]
    before = [e for e in row if e.box > extra.box]
    return (codes[after[-1].codes[0]] if after else "",
            codes[before[0].codes[0]] if before else "")


def _far_copies(sheet: Sheet) -> Sheet:
    """A sure tile of a code that other photos of the teach show too, unlike every copy
    there (COPY_NEAR), is not taught: one of them is not what its code says."""
    if len({t.photo for t in sheet.tiles}) < 2:
        return sheet
    views = np.concatenate([sheet.features, sheet.turned], axis=1)  # (N, 2K, D)
    tiles = list(sheet.tiles)
    for i, t in enumerate(sheet.tiles):
        copies = [j for j, u in enumerate(sheet.tiles)
                  if u.code == t.code and u.photo != t.photo and u.sure]
        if not t.sure or not copies:
            continue
        near = float(np.einsum("kd,cld->ckl", views[i], views[copies]).max())
        if near < COPY_NEAR:
            tiles[i] = replace(t, doubt="far")
    return replace(sheet, tiles=tuple(tiles))


def save_sheet(sheet: Sheet, name: str, data: str | os.PathLike | None = None) -> TileSet:
    """Add a read sheet's taught tiles (`Sheet.taught`: sure, or confirmed by the player) to
    the named set, created when new; the set as stored. Sheet tiles are examples, not
    fixes: only a tile the player confirmed keeps what the reader read it as."""
    taught = sheet.taught
    if not taught:
        raise TileSetError("no tile of these photos is sure of its code: nothing was taught")
    tileset = None
    for confirmed, source in ((False, SHEET_SOURCE), (True, SHEET_CONFIRMED)):
        pick = [i for i in taught if sheet.tiles[i].confirmed is confirmed]
        if not pick:
            continue
        codes = [sheet.tiles[i].code for i in pick]
        reads = [sheet.tiles[i].read_as for i in pick] if confirmed else codes
        tileset = add_examples(name, sheet.probe, codes, sheet.features[pick],
                               sheet.turned[pick], source, reads, data)
    return tileset
