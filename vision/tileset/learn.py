"""Teaching a set: from sheet photos, from a corrected hand, and undoing a hand.

A teaching photo is decoded as the reader decodes a photo to read it, its tiles are found
with the tile finder down to a low tile score (a blank white dragon scores low), those the
reader reads as face down left out (the wall beside the sheet is none of it), matched to
CODES (vision/tileset/sheet.py), and each matched tile's features are stored under its code.
A sheet shot from across the table (every tile upside down, the order reversed) or from
the side (the rows running up the photo) is read the way round that the reader is far
surer of the codes in (`orient`).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

import numpy as np

from vision.layout.sets import BACK
from vision.tileset.reader import TaughtClassifier, TileViews, taught_refiner
from vision.tileset.sheet import (
    Match,
    codes_text,
    each_way,
    match_frames,
    parse_codes,
    row_order,
    split_rows,
    turn_quarter,
)
from vision.tileset.store import TileSet, TileSetError, add_examples, load_set, remove_source

FIND_CONF = 0.05  # the tile finder's boxes looked at for a sheet (the shown ones start at 0.5)
SHEET = "sheet"
ACROSS_ODDS = 2.0  # per tile, for reading a sheet as shot from across the table
# A way the sheet may lie under which this share of tiles already read as their codes is
# taken without reading the other way too (a sheet read either way costs twice the time).
SURE_WAY = 2 / 3
# A box the reader reads as face down this surely is no tile of a sheet (CODES holds none):
# the wall or a face-down tile lying beside the sheet.
FACE_DOWN = 0.9
# Below this share of tiles read as their codes, the codes are likely in another order than
# the tiles lie. Sheets in the right order: 29-41 of 42 on the 19 generated sheets of the
# tile-set evaluation, 31 of 42 on the test art; in a wrong order, about chance.
ORDER_DOUBT = 1 / 3
ORDER_DOUBT_MIN_TILES = 6


def hand_source(hand_id) -> str:
    """The source tag of the examples a ledger hand added."""
    return f"hand:{hand_id}"


@dataclass(frozen=True)
class SheetTile:
    photo: int             # index among the photos given
    box: tuple[float, ...]  # full-resolution photo pixels, for the page to show
    code: str
    read_as: str           # what the reader reads there without a set
    turns: int = 0         # quarter turns counter-clockwise that stand the tile upright


@dataclass(frozen=True)
class Sheet:
    """A read sheet, ready to store: the tiles in reading order with their codes and the
    features that will be stored (`features`, `turned`: (N, K, D))."""
    tiles: tuple[SheetTile, ...]
    rows: tuple[tuple[int, ...], ...]  # per photo, the row lengths found
    features: np.ndarray
    turned: np.ndarray
    probe: np.ndarray
    seconds: float

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
        if not self.order_doubtful:
            return None
        rows = split_rows(self.codes, self.lengths)
        order = row_order(self.reads, self.codes, self.lengths)
        moved = self.with_codes([c for t in order for c in rows[t]])
        return None if moved.order_doubtful or order == sorted(order) else moved

    def with_codes(self, codes) -> "Sheet":
        """The same tiles with the codes the player fixed on the page."""
        codes = [str(c) for c in codes]
        if len(codes) != len(self.tiles):
            raise TileSetError(f"{len(codes)} codes for {len(self.tiles)} tiles")
        return replace(self, tiles=tuple(replace(t, code=c) for t, c in zip(self.tiles, codes)))


def sheet_reader(refiner: TaughtClassifier | None = None):
    """A TileReader for sheets: the tile finder down to FIND_CONF, no stack classifier."""
    from vision.pipeline import TileReader
    from vision.runtime import model_path

    refiner = refiner or taught_refiner()
    return TileReader(model_path(), refiner=refiner, conf=FIND_CONF, stacking=None)


def read_sheet(photos, codes_text: str, reader=None, conf: float | None = None) -> Sheet:
    """The tiles of sheet photos (paths or bytes) matched to CODES (reading order across the
    photos); TileSetError in one line when they cannot be matched."""
    from vision.image import load_photo
    from vision.runtime import operating_conf

    start = time.perf_counter()
    codes, rows_wanted = parse_codes(codes_text)
    reader = reader or sheet_reader()
    conf = operating_conf() if conf is None else conf
    found = []
    for source in photos:
        photo = load_photo(source, max_pixels=reader.max_pixels,
                           min_side=max(min(reader.detector.imgsz), reader.refiner.decode_min_side))
        dets = reader.find(photo.rgb)
        up = face_up(reader.refiner, photo.rgb, dets.xyxy)
        found.append((photo, dets.xyxy[up], reader_tile_score(dets)[up]))
    matches = _match_all(found, codes, rows_wanted, conf)
    tiles, feats, turned, rows = [], [], [], []
    for k, ((photo, _, _), fits) in enumerate(zip(found, matches)):
        mine = codes[len(tiles):len(tiles) + len(fits[0].boxes)]
        match, seen, turns = orient(photo.rgb, fits, mine, reader.refiner)
        rows.append(match.rows)
        sx, sy = photo.scale
        for box, p in zip(match.boxes, seen.probs):
            full = (box * np.array([sx, sy, sx, sy])).round(1)
            tiles.append(SheetTile(k, tuple(float(v) for v in full), codes[len(tiles)],
                                   reader.refiner.names[int(p.argmax())], turns))
        feats.append(seen.features)
        turned.append(seen.turned)
    return Sheet(tuple(tiles), tuple(rows), np.concatenate(feats),
                 np.concatenate(turned), reader.refiner.probe(), time.perf_counter() - start)


def orient(rgb: np.ndarray, fits: list[Match], codes, refiner) -> tuple[Match, TileViews, int]:
    """Which way a sheet lies, of the ways its rows fit (`fits`: rows across the photo, or
    running down it when shot from the side), each the right way up or shot from across
    the table: the way whose tiles the reader reads as CODES. The way with fewer, longer
    rows (on a tie, rows across the photo) and tiles upright wins unless another is surer
    by ACROSS_ODDS per tile. Returns the way's match in reading order (boxes in `rgb`'s
    pixels, rows as the player laid them), the views of its tiles stood upright, and the
    quarter turns counter-clockwise that stand them so."""
    odds = np.log(ACROSS_ODDS) * len(codes)
    best = None
    for match in sorted(fits, key=lambda m: len(m.rows)):
        pixels, boxes = turn_quarter(rgb, match.boxes) if match.quarter else (rgb, match.boxes)
        seen = refiner.features(pixels, boxes)
        upright, across = likelihoods(seen.probs, seen.turned_probs, codes, refiner.names)
        back = _across_wins(upright, across, len(codes))
        score = across if back else upright
        if best is None or score - best[0] > odds:
            best = (score, match, seen, back)
        if agreeing(seen, codes, refiner.names, back) >= SURE_WAY * len(codes):
            break
    _, match, seen, back = best
    turns = int(match.quarter) + 2 * int(back)
    if not back:
        return match, seen, turns
    reversed_match = replace(match, boxes=match.boxes[::-1], scores=match.scores[::-1],
                             rows=match.rows[::-1])
    return reversed_match, TileViews(seen.turned_probs[::-1], seen.probs[::-1],
                                     seen.turned[::-1], seen.features[::-1]), turns


def agreeing(seen: TileViews, codes, names, back: bool) -> int:
    """How many tiles the reader reads as their codes, in reading order (`back`: shot from
    across the table, the turned crops in reverse order)."""
    probs = seen.turned_probs[::-1] if back else seen.probs
    return sum(names[int(i)] == c for i, c in zip(probs.argmax(axis=1), codes))


def likelihoods(as_cut: np.ndarray, turned: np.ndarray, codes, names) -> tuple[float, float]:
    """The log-probability the reader gives CODES in reading order as the crops are cut,
    and with every crop turned 180° and the order reversed (a sheet shot from across)."""
    ids = np.array([list(names).index(c) for c in codes])
    rows = np.arange(len(ids))
    return (float(np.log(np.maximum(as_cut[rows, ids], 1e-9)).sum()),
            float(np.log(np.maximum(turned[rows, ids[::-1]], 1e-9)).sum()))


def shot_from_across(as_cut: np.ndarray, turned: np.ndarray, codes, names) -> bool:
    """Whether a sheet was photographed from across the table: its tiles upside down and
    its reading order reversed. The reader's probabilities of the codes (as cut in reading
    order, against turned 180° in reverse order) must say so by ACROSS_ODDS per tile."""
    return _across_wins(*likelihoods(as_cut, turned, codes, names), len(codes))


def _across_wins(upright: float, across: float, n: int) -> bool:
    """Whether `n` tiles read turned and in reverse order are surer by ACROSS_ODDS a tile."""
    return bool(across - upright > np.log(ACROSS_ODDS) * n)


def face_up(refiner, rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Which boxes may be tiles of a sheet: all but those the reader reads as face down
    (FACE_DOWN), each crop read once as cut."""
    keep = np.ones(len(boxes), bool)
    if not len(boxes) or BACK not in refiner.names:
        return keep
    probs = refiner.mean_probabilities([refiner.crops(rgb, boxes)])
    return probs[:, list(refiner.names).index(BACK)] < FACE_DOWN


def reader_tile_score(dets) -> np.ndarray:
    return dets.confidence if dets.tile_score is None else dets.tile_score


def _match_all(found, codes, rows_wanted, conf) -> list[list[Match]]:
    """Per photo, the ways its tiles fit its share of CODES (sheet.match_frames). With one
    photo all of CODES is its; with several, the rows the player gave are dealt out by the
    rows each photo shows, else by its shown tiles."""
    if len(found) == 1:
        return [match_frames(found[0][1], found[0][2], len(codes), conf, rows_wanted)]
    matches, used, row_at = [], 0, 0
    for k, (_, boxes, scores) in enumerate(found):
        last = k == len(found) - 1
        try:
            if rows_wanted is None:
                want = len(codes) - used if last else int((scores >= conf).sum())
                fits = match_frames(boxes, scores, want, conf)
            else:
                fits = _next_rows(boxes, scores, conf, rows_wanted[row_at:], last)
        except TileSetError as exc:
            raise TileSetError(f"photo {k + 1}: {exc}") from None
        row_at += len(fits[0].rows)
        used += len(fits[0].boxes)
        matches.append(fits)
    if used != len(codes):
        raise TileSetError(f"found {used} tiles in {len(found)} photos, CODES has {len(codes)}")
    return matches


def _next_rows(boxes, scores, conf, rows_left: tuple[int, ...], last: bool) -> list[Match]:
    """A photo's ways to fit the next of the player's rows, as many as it shows that way (the
    last photo: all that are left); when both ways fit, only if they take the same rows."""
    shown = int((scores >= conf).sum())

    def attempt(way) -> Match:
        n_rows = len(rows_left) if last else (len(way.fit(shown, conf).rows) if shown else 0)
        mine = rows_left[:n_rows]
        return way.fit(sum(mine), conf, mine)

    fits = each_way(boxes, scores, attempt)
    return [m for m in fits if (len(m.rows), len(m.boxes)) == (len(fits[0].rows), len(fits[0].boxes))]


def save_sheet(sheet: Sheet, name: str, data: str | os.PathLike | None = None,
               source: str = SHEET) -> TileSet:
    """Add a read sheet's tiles to the named set (created when new); the set as stored."""
    return add_examples(name, sheet.probe, sheet.codes, sheet.features, sheet.turned, source,
                        sheet.reads, data)


def learn_hand(name: str, rgb: np.ndarray, boxes, codes, hand_id,
               data: str | os.PathLike | None = None,
               refiner: TaughtClassifier | None = None) -> int:
    """Add a hand's face-up tiles with their final codes to the named set, tagged with the
    ledger's hand id; `boxes` in `rgb`'s pixels (a PhotoReading's boxes divided by
    `photo.scale`). Face-down tiles (`back`) and tiles without a code are skipped. Returns
    the number of examples added."""
    from scoring.tiles import TILES

    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if len(codes) != len(boxes):
        raise TileSetError(f"{len(codes)} codes for {len(boxes)} tiles")
    keep = np.array([c in TILES for c in codes], bool)
    if not keep.any():
        return 0
    refiner = refiner or taught_refiner()
    seen = refiner.features(rgb, boxes[keep])
    add_examples(name, refiner.probe(), [c for c, k in zip(codes, keep) if k], seen.features,
                 seen.turned, hand_source(hand_id), plain_reads(seen, refiner.names), data)
    return int(keep.sum())


def learn_reading(name: str, reading, codes, hand_id, data: str | os.PathLike | None = None,
                  refiner: TaughtClassifier | None = None) -> int:
    """`learn_hand` for a `vision.pipeline.PhotoReading` (boxes in full-resolution pixels)
    and the final code of each of its detections, in order."""
    sx, sy = reading.photo.scale
    boxes = reading.detections.xyxy / np.array([sx, sy, sx, sy], np.float32)
    return learn_hand(name, reading.photo.rgb, boxes, codes, hand_id, data, refiner)


def plain_reads(seen, names) -> list[str]:
    """What the reader reads each tile of `seen` (TileViews) as by itself: a code the player
    changed afterwards is a correction the set learns from."""
    return [names[int(i)] for i in seen.probs.argmax(axis=1)]


def forget_hand(name: str, hand_id, data: str | os.PathLike | None = None) -> int:
    """Undo: remove what the hand added to the named set; the number removed."""
    return remove_source(name, hand_source(hand_id), data)


def refiner_for(name: str | None, data: str | os.PathLike | None = None,
                base=None) -> TaughtClassifier:
    """The refiner that reads with the named set (None: without a set); TileSetError (one
    line) for a bad name, a missing or damaged set, or one taught with another model."""
    refiner = taught_refiner(None, base)
    if name is None:
        return refiner
    return TaughtClassifier(refiner.base, load_set(name, data, refiner.probe()), refiner.how)


def reader_for(name: str | None, data: str | os.PathLike | None = None, **kwargs):
    """`vision.pipeline.TileReader(**kwargs)` reading with the named set (None: without)."""
    from vision.pipeline import TileReader

    return TileReader(refiner=refiner_for(name, data), **kwargs)
