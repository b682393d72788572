"""The page's photo path in one call: photo bytes → an overlay picture and a `TableLayout`,
or one plain line saying why not.

The tile reader is passed in (a `vision.pipeline.TileReader`, or a fake in tests), so this
module never decides where the model lives; `load_reader` does, and turns a missing or
broken model into a message the page shows while manual entry keeps working.
"""
from __future__ import annotations

import contextlib
import io
import os
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

import numpy as np
from PIL import Image

from scoring.errors import one_line
from scoring.tiles import BACK, BONUS
from vision import layout as table_layout
from vision import runtime
from vision.layout import LaidTile, TableLayout
from vision.legibility import photo_hint

# what else in the environment changes the reader: the crop classifier, the operating confidence
READER_ENV = runtime.READER_ENV
LOW_CONFIDENCE = 0.5      # below this a tile is marked for checking
# photos read at once by this page server (all sessions together): each holds a decoded
# photo and the model's buffers, so more players uploading at once wait instead of adding up
MAX_READS_AT_ONCE = 2
_READS = threading.BoundedSemaphore(MAX_READS_AT_ONCE)
_QUEUE = {"waiting": 0}  # photos waiting for a read (all sessions), for a waiting phone to say
_QUEUE_LOCK = threading.Lock()
OVERLAY_MAX_SIDE = 1280   # the overlay is for a phone screen, not the full photo


@contextlib.contextmanager
def reading_slot(on_wait=None):
    """Hold one of the server's MAX_READS_AT_ONCE photo reads (a hand or a sheet) meanwhile.
    When every read is taken, `on_wait(ahead)` is told first how many photos are ahead of this
    one (those being read and those waiting before it)."""
    if not _READS.acquire(blocking=False):
        with _QUEUE_LOCK:
            ahead = MAX_READS_AT_ONCE + _QUEUE["waiting"]
            _QUEUE["waiting"] += 1
        try:
            if on_wait is not None:
                on_wait(ahead)
            _READS.acquire()
        finally:
            with _QUEUE_LOCK:
                _QUEUE["waiting"] -= 1
    try:
        yield
    finally:
        _READS.release()


class Reader(Protocol):
    def read(self, source) -> object:
        """A `vision.pipeline.PhotoReading`: .photo (Photo), .detections (full-res pixels)."""


@dataclass(frozen=True)
class Recognition:
    overlay_jpeg: bytes          # the photo with each tile's box and reading
    layout: TableLayout
    tiles: int                   # tiles of the hand (bonus tiles included)
    doubtful: int                # of which read with low confidence
    seconds: float               # decode + detect + layout + overlay
    message: str | None = None   # a plain note (e.g. no tiles found)
    photo: object | None = None  # the decoded `vision.image.Photo`, kept for a tile set to learn


def model_path() -> Path:
    return runtime.model_path()


def reader_key() -> tuple[str, float, tuple[str | None, ...]]:
    """What a cached reader depends on: the model file (path, modified time) and the reader
    settings in the environment; a page caches its readers by this key."""
    path = model_path()
    try:
        mtime = path.stat().st_mtime
    except OSError:
        mtime = -1.0
    return str(path), mtime, tuple(os.environ.get(name) for name in READER_ENV)


def load_reader(path: str | os.PathLike | None = None) -> Reader | str:
    """The tile reader over the committed model, or a line saying why there is none."""
    path = Path(path or model_path())
    if not path.is_file():
        return (f"No tile model at {path.name}: photo reading is off. "
                f"Enter the hand with the tile buttons (Manual).")
    try:
        from vision.pipeline import TileReader
        return TileReader(path)
    except (ValueError, OSError, ImportError) as exc:
        return f"The tile model could not be loaded ({one_line(exc)}). Enter the hand by hand."


def baseline_layout(codes: list[str], boxes: np.ndarray, confidence: np.ndarray) -> TableLayout:
    """Every face-up playing tile concealed, bonus tiles aside, face-down tiles ignored, in
    reading order (left to right): the honest reading until the layout heuristic decides."""
    tiles = [LaidTile(code, tuple(float(v) for v in box), float(min(1.0, max(0.0, c))))
             for code, box, c in zip(codes, boxes, confidence)]
    tiles.sort(key=lambda t: (t.box[0] + t.box[2]) / 2)
    return TableLayout(
        concealed=tuple(t for t in tiles if t.code not in BONUS and t.code != BACK),
        bonus=tuple(t for t in tiles if t.code in BONUS),
        ignored=tuple(t for t in tiles if t.code == BACK),
        notes=("every tile read as concealed: set the exposed sets and the winning tile",))


def in_hand(detections, layout: TableLayout) -> np.ndarray:
    """Which detections the layout put in the hand (its tiles, melds, winning and bonus
    tiles), matched by box."""
    from vision.layout.table import hand_tiles
    boxes = {tuple(round(float(v), 1) for v in t.box) for t in hand_tiles(layout) + list(layout.bonus)}
    return np.array([tuple(round(float(v), 1) for v in box) in boxes
                     for box in np.asarray(detections.xyxy, np.float64)], bool)


def _overlay(rgb: np.ndarray, detections, scale: tuple[float, float], hand: np.ndarray) -> bytes:
    """The hand's tiles framed (orange: doubtful); tiles set aside that are surely tiles in
    the plain colour; boxes outside the hand the finder doubts are not drawn at all."""
    from vision.draw import draw_detections
    sx, sy = scale
    shown = detections.scaled(1 / sx, 1 / sy) if (sx, sy) != (1.0, 1.0) else detections
    sure = np.asarray(shown.confidence) >= LOW_CONFIDENCE
    drawn = draw_detections(rgb, shown.select(~hand & sure), low_confidence=0.0)
    drawn = draw_detections(drawn, shown.select(hand), low_confidence=LOW_CONFIDENCE)
    image = Image.fromarray(drawn)
    image.thumbnail((OVERLAY_MAX_SIDE, OVERLAY_MAX_SIDE))
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=85)
    return out.getvalue()


def recognise(data: bytes, reader: Reader, keep_photo: bool = False,
              on_wait=None) -> Recognition | str:
    """Read a photo. Returns a `Recognition`, or one line for the player (not an image, too
    large, the reader failed); never raises for anything in the photo. `keep_photo`: keep
    the decoded photo in it (a tile set learns the hand's tiles from it when it is added);
    `on_wait`: told how many photos are ahead when it has to wait (`reading_slot`)."""
    from vision.image import ImageError
    start = time.perf_counter()
    try:
        with reading_slot(on_wait):
            reading = reader.read(bytes(data))
    except ImageError as exc:
        return "Could not use this photo: " + str(exc).removeprefix("image bytes: ")
    except MemoryError:
        return "Could not use this photo: it is too large to read on this machine."
    except Exception as exc:  # the reader is a boundary: a model error must not reach the page
        return f"The tile reader failed on this photo ({one_line(exc)}). Enter the hand by hand."
    detections = reading.detections
    try:
        layout = table_layout.read_layout(detections)
    except Exception as exc:  # a grouping failure still leaves the tiles usable
        layout = baseline_layout(list(detections.codes), np.asarray(detections.xyxy),
                                 np.asarray(detections.confidence))
        layout = replace(layout, notes=(f"grouping failed ({one_line(exc)}); every tile read as concealed",))
    hand = in_hand(detections, layout) if len(detections) else np.zeros(0, bool)
    overlay = _overlay(reading.photo.rgb, detections, reading.photo.scale, hand)
    n = int(hand.sum())
    doubtful = int(np.sum(np.asarray(detections.confidence)[hand] < LOW_CONFIDENCE))
    if len(detections) == 0:
        message = ("No tiles found in this photo. Take it again from above, closer, with the "
                   "tiles filling the frame, or enter the hand with the tile buttons.")
    else:
        message = photo_hint(reading.photo.rgb, layout, reading.photo.scale)
    return Recognition(overlay, layout, n, doubtful, time.perf_counter() - start, message,
                       reading.photo if keep_photo else None)
