"""Teaching a set from a corrected hand, undoing a hand, and reading with a set.

Sheets (photos of a set's tiles laid in rows) are taught by vision/tileset/teaching.py,
whose names are kept here too.
"""
from __future__ import annotations

import os

import numpy as np

from vision.tileset.reader import TaughtClassifier, taught_refiner
from vision.tileset.store import TileSetError, add_examples, load_set, remove_source
from vision.tileset.teaching import (  # noqa: F401  (the sheet API, where it always was)
    FIND_CONF,
    Extra,
    Gap,
    Sheet,
    SheetTile,
    WayInDoubt,
    read_sheet,
    save_sheet,
    sheet_reader,
)


def hand_source(hand_id) -> str:
    """The source tag of the examples a ledger hand added."""
    return f"hand:{hand_id}"


def learn_hand(name: str, rgb: np.ndarray, boxes, codes, hand_id,
               data: str | os.PathLike | None = None,
               refiner: TaughtClassifier | None = None, corrected=None) -> int:
    """Add a hand's face-up tiles with their final codes to the named set, tagged with the
    ledger's hand id; `boxes` in `rgb`'s pixels (a PhotoReading's boxes divided by
    `photo.scale`). `corrected`: per tile, whether the player changed its code (None: none
    was): only those are fixes the set learns; a tile the layout or the reader read on its
    own is an example, read right. Face-down tiles (`back`) and tiles without a code are
    skipped. Returns the number of examples added."""
    from scoring.tiles import TILES

    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    corrected = np.zeros(len(codes), bool) if corrected is None else np.asarray(corrected, bool)
    if not len(codes) == len(boxes) == len(corrected):
        raise TileSetError(f"{len(codes)} codes for {len(boxes)} tiles")
    keep = np.array([c in TILES for c in codes], bool)
    if not keep.any():
        return 0
    refiner = refiner or taught_refiner()
    seen = refiner.features(rgb, boxes[keep])
    kept = [c for c, k in zip(codes, keep) if k]
    reads = [r if fixed else c for r, c, fixed in
             zip(plain_reads(seen, refiner.names), kept, corrected[keep])]
    add_examples(name, refiner.probe(), kept, seen.features, seen.turned, hand_source(hand_id),
                 reads, data)
    return int(keep.sum())


def learn_reading(name: str, reading, codes, hand_id, data: str | os.PathLike | None = None,
                  refiner: TaughtClassifier | None = None, corrected=None) -> int:
    """`learn_hand` for a `vision.pipeline.PhotoReading` (boxes in full-resolution pixels)
    and the final code of each of its detections, in order."""
    sx, sy = reading.photo.scale
    boxes = reading.detections.xyxy / np.array([sx, sy, sx, sy], np.float32)
    return learn_hand(name, reading.photo.rgb, boxes, codes, hand_id, data, refiner, corrected)


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
