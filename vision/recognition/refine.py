"""Second stage: re-read each detected tile from the full-resolution photo.

At 640 input a tile of a hand photo is about 35 pixels wide, where 7p/8p/9p and the flowers
blur together; a crop classifier sees it at full resolution. The stage is optional and kept
only if it measures better (models/README.md, "Crop classifier", records the decision and
the numbers).

`CropClassifier` is the ONNX-backed reader (datasets/train/classifier.py trains it,
datasets/export/classifier.py exports it): input (N, 3, S, S) RGB in 0..1, output (N, nc)
probabilities, `names` in the metadata, the same names as the detector. Each box is cut by
`square_crop`, the one function that training uses too, so the classifier sees at run time
exactly what it saw in training. The crops of a photo go through one ONNX call (a
second one for the tiles it reads turned too).

`decode_min_side` tells the pipeline how small the photo may be decoded: a crop classifier
does not need a 12 MP decode (a third of a second here); half scale keeps a hand's tiles at
75 pixels or more, above the classifier's input size.

Decision (models/README.md): KEPT in "reader" mode. The committed classifier averages two
networks (TileNet and EfficientNet-Lite0) and reads each crop as cut and turned 180°
(`views` 2 in its metadata; TileNet alone read six: three cuts, both ways up), turned
only when the crop as cut leaves it unsure (`TURN_BELOW`); tiles that may
be flowers or seasons are read again from their box shifted a little each way
(`reread_bonus`); the tiles read as
flowers or seasons are re-weighed by the number and character printed on them
(vision/recognition/glyphs.py); the shown tiles are then read together as one set (vision/recognition/copies.py: no
fifth copy of a tile). The
committed detector is a tile finder (one class, "tile"): it says where tiles are and the
classifier reads every class. On the held-out real Camerash photos the pipeline reads
per-tile F1 0.996 (every tile found; the one miss a flower read as another), on
held-out-design synthetic scenes 0.798 (operating confidence 0.5, picked on
development scenes of the training designs; models/README.md).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from vision.recognition.copies import limit_copies
from vision.recognition.detector import TILE_FINDER_NAMES, parse_names
from vision.recognition.glyphs import BONUS_CODES, BONUS_MASS, default_glyph_reader, reweigh
from vision.runtime import (
    DEFAULT_CLASSIFIER_PATH,
    classifier_setting,
    cpu_session,
    operating_conf,
)
from vision.types import Detections

CROP_MARGIN = 0.08  # of the box size: a little table around the tile, as in training crops
DECODE_MIN_SIDE = 1200  # a 12 MP JPEG decodes at 1/2 scale (2000 x 1500)
# Flowers and seasons are read by fine print, and a box a few pixels off flips them: a tile
# with at least REREAD_MASS of bonus probability is read again from its box shifted by
# BONUS_SHIFT of its size each way (development scenes: bonus classes' mean F1
# 0.775 -> 0.793, F1 0.878 -> 0.880, layout seeds 388 -> 392 hands; about 14 ms on the
# 12 MP photo).
BONUS_SHIFT = 0.04
REREAD_MASS = 0.3
NEXT_GUESSES = 2  # the reader's runners-up kept per tile, for the layout to try
# The committed reader reads a tile turned 180° only when the crop as cut leaves it unsure
# (top probability under TURN_BELOW; label smoothing keeps it under about 0.95). On the
# labelled tiles of the development scenes no reading from 0.8 on is changed by the turned
# view (3,238 + 3,424 tiles), and about 70 % of tiles skip it (docs/experiments.md,
# "Pipeline changes").
TURN_BELOW = 0.8
# The app reads each crop cut three ways (and each both ways up) and averages: on the
# development scenes F1 0.778 -> 0.783 at 0.5, for about 30 ms more on a 20-tile photo.
EXTRA_MARGINS = (0.03, 0.13)
# Crops read per tile -> (both ways up, extra margins). A classifier's metadata may name its
# number (`views`): a bigger network reads fewer crops for the same time. Default 6.
VIEWS = {1: (False, ()), 2: (True, ()), 6: (True, EXTRA_MARGINS)}
DEFAULT_VIEWS = 6


class Refiner(Protocol):
    def refine(self, rgb: np.ndarray, detections: Detections) -> Detections:
        """Detections with classes re-read from `rgb` (boxes in `rgb`'s pixels)."""


class PassThrough:
    """The refiner that keeps the detector's reading."""

    decode_min_side = 0  # the detector's input size is enough

    def refine(self, rgb: np.ndarray, detections: Detections) -> Detections:
        return detections


def bonus_ids(names) -> list[int]:
    """Indices of the flower and season classes among `names`."""
    return [i for i, name in enumerate(names) if name in BONUS_CODES]


def square_crop(rgb: np.ndarray, box, size: int, margin: float = CROP_MARGIN) -> np.ndarray:
    """(size, size, 3) uint8: the box widened by `margin` of its size on each side, clipped
    to the image and squashed square (INTER_AREA to shrink, INTER_LINEAR to enlarge)."""
    height, width = rgb.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in box)
    mx, my = (x2 - x1) * margin, (y2 - y1) * margin
    left, top = int(np.floor(max(0.0, x1 - mx))), int(np.floor(max(0.0, y1 - my)))
    right = int(np.ceil(min(float(width), x2 + mx)))
    bottom = int(np.ceil(min(float(height), y2 + my)))
    if right - left < 2 or bottom - top < 2:
        return np.zeros((size, size, 3), np.uint8)
    crop = rgb[top:bottom, left:right]
    shrink = crop.shape[0] > size and crop.shape[1] > size
    return cv2.resize(crop, (size, size),
                      interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


class CropClassifier:
    """An ONNX crop classifier over the detector's boxes.

    mode "override": it overrides the detector's class when it is more confident (its
    probability at least `min_confidence` and above the detector's score).
    mode "reader": the detector only finds tiles (scored by `tile_score="any"`, see
    vision/recognition/detector.py) and the classifier reads every class; the confidence becomes
    tile score × class probability, so a doubtful reading stands out on the page.
    """

    def __init__(self, model_path: str | os.PathLike = DEFAULT_CLASSIFIER_PATH,
                 min_confidence: float = 0.5, threads: int | None = None,
                 decode_min_side: int | None = DECODE_MIN_SIDE, mode: str = "override",
                 upside_down: bool = False, margins: tuple[float, ...] = (),
                 one_set: float = 0.0, glyphs=None, bonus_shift: float = 0.0,
                 turn_below: float = 0.0) -> None:
        if mode not in ("override", "reader"):
            raise ValueError(f"mode must be 'override' or 'reader', got {mode!r}")
        self.mode = mode
        self.upside_down = upside_down  # read each crop both ways up (test-time augmentation)
        # with `upside_down`, when > 0: only the tiles read under this top probability as cut
        # are read turned (and with the other margins) too; the rest keep the reading as cut
        self.turn_below = float(turn_below)
        self.extra_margins = tuple(float(m) for m in margins)  # ... and cut wider or tighter too
        # reader mode, when > 0: the tiles of tile score from `one_set` on (the ones shown) are
        # read together as one set, no more copies of a tile than a set has (vision/recognition/copies.py)
        self.one_set = float(one_set)
        # reader mode: a vision.recognition.glyphs.GlyphReader that re-weighs the flower and season
        # classes of a tile read as one by the number and character printed on it
        self.glyphs = glyphs
        # reader mode, when > 0: tiles that may be flowers or seasons are read from shifted
        # boxes too (`reread_bonus`)
        self.bonus_shift = float(bonus_shift)
        self.tile_score = "any" if mode == "reader" else "class"
        self.session = cpu_session(model_path, threads)
        meta = self.session.get_modelmeta().custom_metadata_map
        self.views = int(meta.get("views", DEFAULT_VIEWS))  # what its maker measured it with
        self.names = parse_names(meta["names"])
        model_input = self.session.get_inputs()[0]
        self.input_name = model_input.name
        self.size = int(model_input.shape[-1])
        self.margin = float(meta.get("crop_margin", CROP_MARGIN))
        self.min_confidence = min_confidence
        self.decode_min_side = decode_min_side

    def set_views(self, views: int) -> None:
        """Read each crop `views` ways (a key of VIEWS): 1 as cut, 2 both ways up, 6 cut
        three ways and both ways up."""
        if views not in VIEWS:
            raise ValueError(f"views must be one of {sorted(VIEWS)}, got {views}")
        self.upside_down, self.extra_margins = VIEWS[views]

    def crops(self, rgb: np.ndarray, boxes: np.ndarray, margin: float | None = None
              ) -> np.ndarray:
        """(N, 3, S, S) float32 RGB in 0..1, one `square_crop` per box (N, 4)."""
        batch = np.empty((len(boxes), self.size, self.size, 3), np.uint8)
        for i, box in enumerate(boxes):
            batch[i] = square_crop(rgb, box, self.size, self.margin if margin is None else margin)
        return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), np.float32) * (1.0 / 255.0)

    def probabilities(self, rgb: np.ndarray, detections: Detections) -> np.ndarray:
        """(N, nc) class probabilities of each box, all crops in one ONNX call; with
        `upside_down`, averaged with those of each crop turned 180°, and with `margins`, with
        those of crops cut with these margins (all in the same call). With `turn_below`, the
        crops as cut are read first, and only the unsure tiles' other views (turned, and cut
        with the other margins) in a second call."""
        if len(detections) == 0:
            return np.zeros((0, len(self.names)), np.float32)
        boxes = detections.xyxy
        if not (self.upside_down and self.turn_below > 0):
            return self.read_crops([self.crops(rgb, boxes, m)
                                    for m in (self.margin, *self.extra_margins)])
        as_cut = self.crops(rgb, boxes)
        probs = self.mean_probabilities([as_cut])
        unsure = np.flatnonzero(probs.max(axis=1) < self.turn_below)
        if len(unsure):  # the other views, of the unsure tiles only
            more = [turn_over(as_cut[unsure])]
            for margin in self.extra_margins:
                cut = self.crops(rgb, boxes[unsure], margin)
                more += [cut, turn_over(cut)]
            probs[unsure] = (probs[unsure] + len(more) * self.mean_probabilities(more)
                             ) / (1 + len(more))
        return probs

    def read_crops(self, views: list[np.ndarray]) -> np.ndarray:
        """(N, nc) mean probabilities over `views`, each (N, 3, S, S) crops of the same N
        tiles (and, with `upside_down`, each turned 180° too), in one ONNX call."""
        if self.upside_down:
            views = views + [turn_over(v) for v in views]
        return self.mean_probabilities(views)

    def mean_probabilities(self, views: list[np.ndarray]) -> np.ndarray:
        """(N, nc) mean probabilities over `views` exactly as given, in one ONNX call."""
        probs = self.session.run(None, {self.input_name: np.concatenate(views)})[0]
        return probs.reshape(len(views), len(views[0]), -1).mean(axis=0)

    def refine(self, rgb: np.ndarray, detections: Detections) -> Detections:
        finder = tuple(detections.names) == TILE_FINDER_NAMES
        if finder and self.mode != "reader":
            raise ValueError("a tile finder's boxes need the crop classifier in reader mode")
        if len(detections) == 0:
            return Detections.empty(self.names) if finder else detections
        if not finder and tuple(self.names) != tuple(detections.names):
            raise ValueError("crop classifier and detector disagree on class names")
        probs = self.probabilities(rgb, detections)
        if self.mode == "reader":
            if self.bonus_shift:
                probs = self.reread_bonus(rgb, detections.xyxy, probs)
            if self.glyphs is not None:
                probs = self.read_glyphs(rgb, detections, probs)
            best = (limit_copies(probs, self.names, detections.confidence >= self.one_set)
                    if self.one_set else probs.argmax(axis=1))
            rows = np.arange(len(best))
            best_p = probs[rows, best].astype(np.float32)
            others = np.where(np.arange(probs.shape[1]) == best[:, None], -1.0, probs)
            alt = np.argsort(-others, axis=1)[:, :NEXT_GUESSES]
            alt_conf = detections.confidence[:, None] * probs[rows[:, None], alt]
            return Detections(detections.xyxy, best, detections.confidence * best_p, self.names,
                              alt, alt_conf, tile_score=detections.confidence)
        best = probs.argmax(axis=1)
        best_p = probs[np.arange(len(best)), best].astype(np.float32)
        take = (best_p >= self.min_confidence) & (best_p > detections.confidence)
        class_id = np.where(take, best, detections.class_id)
        # The confidence stays the detector's: it says whether a tile is there, and the
        # operating threshold is applied to it (a sure crop of a doubtful box is no tile).
        return Detections(detections.xyxy, class_id, detections.confidence, detections.names)

    def reread_bonus(self, rgb: np.ndarray, boxes: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """`probs` with the tiles that may be flowers or seasons read again from their box
        shifted by `bonus_shift` of its size each way, all five places weighed alike."""
        again = np.flatnonzero(probs[:, bonus_ids(self.names)].sum(axis=1) >= REREAD_MASS)
        if not len(again):
            return probs
        box = boxes[again].astype(np.float64)
        size = np.stack([box[:, 2] - box[:, 0], box[:, 3] - box[:, 1]] * 2, axis=1)
        shifted = [box + self.bonus_shift * size * np.array(step * 2, np.float64)
                   for step in ((-1, 0), (1, 0), (0, -1), (0, 1))]
        out = probs.copy()
        moved = self.read_crops([self.crops(rgb, b) for b in shifted])
        out[again] = (probs[again] + len(shifted) * moved) / (1 + len(shifted))
        return out

    def read_glyphs(self, rgb: np.ndarray, detections: Detections, probs: np.ndarray
                    ) -> np.ndarray:
        """`probs` with the glyph evidence applied to the tiles read as flowers or seasons."""
        out = probs.copy()
        read = np.flatnonzero(probs[:, bonus_ids(self.names)].sum(axis=1) >= BONUS_MASS)
        for i, ev in zip(read, self.glyphs.evidence(rgb, detections.xyxy[read])):
            out[i] = reweigh(probs[i], self.names, ev)
        return out


def turn_over(crops: np.ndarray) -> np.ndarray:
    """(N, 3, S, S) crops turned 180°."""
    return np.ascontiguousarray(crops[:, :, ::-1, ::-1])


def default_refiner(classifier_path: str | os.PathLike | None = None,
                    names=None) -> Refiner:
    """The refiner the pipeline uses: the committed crop classifier reading every class
    ("reader" mode) when its file is there and the detector is a tile finder or shares its
    class `names`; otherwise the pass-through refiner (a tile finder then fails in
    `TileReader`, with the reason)."""
    if classifier_path is None:
        # MAHJONG_LENS_CLASSIFIER: another classifier file, or "none" for the detector alone
        classifier_path = classifier_setting()
        if str(classifier_path).lower() == "none":
            return PassThrough()
    path = Path(classifier_path)
    if not path.is_file():
        return PassThrough()
    # The shown tiles (tile score from the operating confidence) are read together as one set
    # (vision/recognition/copies.py): on the development scenes F1 at 0.5 0.823 -> 0.824.
    # Flowers and seasons are re-weighed by their printed number and character
    # (vision/recognition/glyphs.py), when the glyph reader is there.
    classifier = CropClassifier(path, mode="reader", one_set=operating_conf(),
                                glyphs=default_glyph_reader(), bonus_shift=BONUS_SHIFT,
                                turn_below=TURN_BELOW)
    classifier.set_views(classifier.views)  # as many as the model's metadata says (2)
    if names is not None and tuple(names) not in (tuple(classifier.names), TILE_FINDER_NAMES):
        return PassThrough()
    return classifier
