"""Teaching a set from photos of its tiles laid in rows (a *sheet*), with the codes typed.

Each photo is decoded as the reader decodes a photo to read it and its tiles are found down
to a low tile score (FIND_CONF: a blank white dragon scores low); the codes then go to the
boxes by alignment, never by count (vision/tileset/placing.py, align.py). A tile is taught
only when the alignment is sure of its code, is a whole tile (not a half box), and, where
another photo of the same teach holds the same code, looks like that copy (COPY_NEAR). The
rest is named: codes with no tile found (`Sheet.gaps`), boxes that are no tile
(`Sheet.extras`), tiles not sure (`SheetTile.doubt`).

Sheet tiles are examples, never fixes: a tile is stored as read right unless the player
confirmed its code on the page (`Sheet.with_codes(..., confirmed=...)`).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

import numpy as np

from vision.tileset.align import COSTS, Costs
from vision.tileset.placing import (  # noqa: F401  (part of the sheet API)
    TILE_SHOWN,
    Observed,
    Plan,
    WayInDoubt,
    decide,
    doubt_of,
    observe,
)
from vision.tileset.reader import TaughtClassifier, TileViews, taught_refiner
from vision.tileset.sheet import Way, codes_text, parse_codes, row_order, split_rows, turn_quarter
from vision.tileset.store import (
    SHEET_CONFIRMED,
    SHEET_SOURCE,
    TileSet,
    TileSetError,
    add_examples,
)

FIND_CONF = 0.05  # the tile finder's boxes looked at for a sheet (the shown ones start at 0.5)
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
    """A code with no tile found for it: not taught; `index`: its place in the codes as
    aligned (Sheet.moved's order when the rows were found in another order)."""
    photo: int
    row: int
    code: str
    index: int = -1


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


def sheet_reader(refiner: TaughtClassifier | None = None):
    """A TileReader for sheets: the tile finder down to FIND_CONF, no stack classifier."""
    from vision.pipeline import TileReader
    from vision.runtime import model_path

    refiner = refiner or taught_refiner()
    return TileReader(model_path(), refiner=refiner, conf=FIND_CONF, stacking=None)


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


def _sheet(found, plan: Plan, refiner, costs: Costs) -> Sheet:
    """The Sheet of a plan: tiles (and the extra boxes likely tiles) with their features,
    gaps, extras."""
    names = list(refiner.names)
    parts = {"tiles": [], "gaps": [], "extras": [], "rows": [], "views": [], "extra_views": []}
    for k, (photo, one, way) in enumerate(zip(found, plan.chains, plan.ways)):
        events = [e for e in plan.alignment.events if e.photo == k]
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
        parts["gaps"] += [Gap(k, max(e.row, 0), plan.codes[j], j) for e in events
                          if e.kind == "missed" for j in e.codes]
        per_row = [sum(e.row == r for e in matched) for r in range(len(one.rows))]
        parts["rows"].append(tuple(n for n in per_row if n))
    views, extra = parts["views"], parts["extra_views"]
    return Sheet(tuple(parts["tiles"]), tuple(parts["rows"]), _stack([f for f, _ in views]),
                 _stack([t for _, t in views]), refiner.probe(), 0.0, tuple(parts["gaps"]),
                 tuple(parts["extras"]), plan.moved, _stack([f for f, _ in extra]),
                 _stack([t for _, t in extra]))


def _views(refiner, photo: Observed, boxes: np.ndarray, way: Way) -> TileViews:
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
