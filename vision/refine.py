"""Second stage: re-read each detected tile from the full-resolution photo.

At 640 input a tile of a hand photo is about 35 pixels wide, where 7p/8p/9p and the flowers
blur together; a crop classifier sees it at full resolution. The stage is optional and kept
only if it measures better (models/README.md records the decision and the numbers).

Decision so far: NOT KEPT: no crop classifier has been trained yet, so `default_refiner()`
returns `PassThrough`, which changes nothing. `CropClassifier` is the ONNX-backed reader
for when one exists (an ultralytics classification export: input (1, 3, S, S) RGB in 0..1,
output (1, nc) probabilities, `names` in the metadata, the same names as the detector).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from vision.detector import REPO_ROOT, Detections, _cpu_count, parse_names

DEFAULT_CLASSIFIER_PATH = REPO_ROOT / "models" / "tile_classifier.onnx"
CROP_MARGIN = 0.08  # of the box size: a little table around the tile, as in training crops


class Refiner(Protocol):
    def refine(self, rgb: np.ndarray, detections: Detections) -> Detections:
        """Detections with classes re-read from `rgb` (boxes in `rgb`'s pixels)."""


class PassThrough:
    """The refiner that keeps the detector's reading."""

    def refine(self, rgb: np.ndarray, detections: Detections) -> Detections:
        return detections


class CropClassifier:
    """An ONNX crop classifier that overrides the detector's class when more confident."""

    def __init__(self, model_path: str | os.PathLike = DEFAULT_CLASSIFIER_PATH,
                 min_confidence: float = 0.5) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = _cpu_count()
        self.session = ort.InferenceSession(str(model_path), sess_options=options,
                                            providers=["CPUExecutionProvider"])
        meta = self.session.get_modelmeta().custom_metadata_map
        self.names = parse_names(meta["names"])
        model_input = self.session.get_inputs()[0]
        self.input_name = model_input.name
        self.size = int(model_input.shape[-1])
        self.min_confidence = min_confidence

    def crops(self, rgb: np.ndarray, detections: Detections) -> np.ndarray:
        """(N, 3, S, S) float32 crops, each box widened by CROP_MARGIN and squashed square."""
        height, width = rgb.shape[:2]
        batch = np.zeros((len(detections), 3, self.size, self.size), np.float32)
        for i, (x1, y1, x2, y2) in enumerate(detections.xyxy):
            mx, my = (x2 - x1) * CROP_MARGIN, (y2 - y1) * CROP_MARGIN
            left, top = int(max(0, x1 - mx)), int(max(0, y1 - my))
            right, bottom = int(min(width, x2 + mx + 1)), int(min(height, y2 + my + 1))
            if right - left < 2 or bottom - top < 2:
                continue
            crop = cv2.resize(rgb[top:bottom, left:right], (self.size, self.size),
                              interpolation=cv2.INTER_AREA)
            batch[i] = crop.transpose(2, 0, 1) / 255.0
        return batch

    def refine(self, rgb: np.ndarray, detections: Detections) -> Detections:
        if len(detections) == 0:
            return detections
        if tuple(self.names) != tuple(detections.names):
            raise ValueError("crop classifier and detector disagree on class names")
        batch = self.crops(rgb, detections)
        probs = np.concatenate([self.session.run(None, {self.input_name: batch[i:i + 1]})[0]
                                for i in range(len(batch))])
        best = probs.argmax(axis=1)
        best_p = probs[np.arange(len(best)), best].astype(np.float32)
        take = (best_p >= self.min_confidence) & (best_p > detections.confidence)
        class_id = np.where(take, best, detections.class_id)
        confidence = np.where(take, best_p, detections.confidence)
        return Detections(detections.xyxy, class_id, confidence, detections.names)


def default_refiner(classifier_path: str | os.PathLike | None = None) -> Refiner:
    """The refiner the pipeline uses: pass-through until a classifier measures better."""
    if classifier_path is not None and Path(classifier_path).is_file():
        return CropClassifier(classifier_path)
    return PassThrough()
