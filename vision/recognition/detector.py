"""The tile detector at run time: an ONNX session, letterbox, output decoding, NMS.

It returns `Detections` (vision/types.py). `Detector` loads an ONNX file once (onnxruntime on the CPU, one intra-op thread per
core) and reads `names` and `imgsz` from the model's metadata, as ultralytics writes them.
Both output layouts are decoded: raw `(1, 4+nc, N)` (cx, cy, w, h, one score per class) and
end-to-end `(1, N, 6)` (x1, y1, x2, y2, score, class). NMS is `cv2.dnn.NMSBoxes`; the
class-aware variant offsets each class's boxes so that classes never overlap.

A detector whose only class is "tile" (TILE_FINDER_NAMES) is a tile finder: it says where
tiles are, and the crop classifier (vision/recognition/refine.py, "reader" mode) says which.
"""
from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.runtime import cpu_session, model_path as configured_model_path
from vision.types import Detections

LETTERBOX_FILL = 114  # ultralytics pads with this grey; training saw it
MAX_DETECTIONS = 300
TILE_FINDER_NAMES = ("tile",)  # a detector trained with datasets/train/detector.py --single-class


@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the square model input: input = image * scale + pad."""

    scale: float
    pad_x: float
    pad_y: float

    def to_image(self, xyxy: np.ndarray, width: int, height: int) -> np.ndarray:
        """Map boxes in model-input pixels back to image pixels, clipped to the image."""
        out = (xyxy - np.array([self.pad_x, self.pad_y] * 2, np.float32)) / self.scale
        out[:, [0, 2]] = np.clip(out[:, [0, 2]], 0, width)
        out[:, [1, 3]] = np.clip(out[:, [1, 3]], 0, height)
        return out.astype(np.float32)


def letterbox(rgb: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, Letterbox]:
    """Resize keeping the aspect ratio and pad centred to `size` (height, width)."""
    height, width = rgb.shape[:2]
    target_h, target_w = size
    scale = min(target_h / height, target_w / width)
    new_w, new_h = max(1, round(width * scale)), max(1, round(height * scale))
    if (new_w, new_h) != (width, height):
        # Bilinear, shrinking too: INTER_AREA (how datasets/train/detector.py shrank the
        # training images) took 10-16 ms of a 12 MP photo on 2 cores against about 1 ms, and
        # the development scenes read as well without it (docs/experiments.md, "Pipeline
        # changes").
        rgb = cv2.resize(rgb, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    pad_x, pad_y = (target_w - new_w) / 2, (target_h - new_h) / 2
    top, left = round(pad_y - 0.1), round(pad_x - 0.1)  # ultralytics' rounding
    canvas = np.full((target_h, target_w, 3), LETTERBOX_FILL, np.uint8)
    canvas[top:top + new_h, left:left + new_w] = rgb
    return canvas, Letterbox(scale=scale, pad_x=float(left), pad_y=float(top))


def input_blob(rgb: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, Letterbox]:
    """A detector's (1, 3, H, W) float input in 0..1 for an RGB uint8 image, letterboxed to
    `size`, and the letterbox to map boxes back."""
    canvas, box = letterbox(rgb, size)
    blob = np.ascontiguousarray(canvas.transpose(2, 0, 1)[None], dtype=np.float32)
    blob *= 1.0 / 255.0
    return blob, box


def decode_output(output: np.ndarray, num_classes: int, conf: float, tile_score: str = "class"
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate boxes (xyxy in model-input pixels), class ids and scores above `conf`.

    Raw layout `(1, 4+nc, N)`: rows cx, cy, w, h, then one score per class.
    End-to-end layout `(1, N, 6)`: x1, y1, x2, y2, score, class per detection.
    `tile_score="any"` (raw layout only) scores a box by the sum of its class scores, capped
    at 1: "some tile is here". A detector early in training spreads a tile's score over many
    look-alike classes, each below any threshold, while the sum is clear; a crop classifier
    then reads the class (vision/recognition/refine.py, mode "reader").
    """
    if tile_score not in ("class", "any"):
        raise ValueError(f"tile_score must be 'class' or 'any', got {tile_score!r}")
    output = np.asarray(output, dtype=np.float32)
    if output.ndim == 3 and output.shape[0] == 1:
        output = output[0]
    if output.ndim != 2:
        raise ValueError(f"model output: expected (1, {4 + num_classes}, N) or (1, N, 6), "
                         f"got {output.shape}")
    if output.shape[0] == 4 + num_classes:
        scores_all = output[4:]
        class_id = scores_all.argmax(axis=0)
        score = scores_all[class_id, np.arange(output.shape[1])]
        if tile_score == "any":
            score = np.minimum(scores_all.sum(axis=0), 1.0)
        keep = score >= conf
        cx, cy, w, h = output[:4, keep]
        xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
        return xyxy.astype(np.float32), class_id[keep].astype(np.int64), score[keep]
    if output.shape[1] == 6:
        keep = output[:, 4] >= conf
        rows = output[keep]
        class_id = np.rint(rows[:, 5]).astype(np.int64)
        if len(rows) and (class_id.min() < 0 or class_id.max() >= num_classes):
            raise ValueError(f"model output: class ids outside 0..{num_classes - 1}")
        return rows[:, :4].copy(), class_id, rows[:, 4].copy()
    raise ValueError(f"model output: expected (1, {4 + num_classes}, N) or (1, N, 6), "
                     f"got {output.shape}")


def nms(xyxy: np.ndarray, score: np.ndarray, class_id: np.ndarray, iou: float,
        agnostic: bool = False, max_det: int = MAX_DETECTIONS) -> np.ndarray:
    """Indices kept by `cv2.dnn.NMSBoxes`, best first.

    Class-aware: boxes of different classes never suppress each other (each class is shifted
    by its own offset, larger than any coordinate). Agnostic: one tile, one box, whatever
    the class, which is what a photo of tiles needs when two classes compete for one tile.
    """
    if len(xyxy) == 0:
        return np.zeros(0, np.int64)
    boxes = xyxy.astype(np.float64)
    if not agnostic:
        offset = float(np.abs(boxes).max()) + 1.0
        boxes = boxes + (class_id.astype(np.float64) * offset)[:, None]
    xywh = np.concatenate([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]], axis=1)
    # No top_k: OpenCV applies it before suppression, so a photo of many tiles (each with a
    # dozen overlapping candidates) would lose whole tiles to their neighbours' duplicates.
    keep = cv2.dnn.NMSBoxes(xywh.tolist(), score.astype(float).tolist(), 0.0, float(iou))
    return np.asarray(keep, dtype=np.int64).reshape(-1)[:max_det]


def parse_names(raw: str | dict | list) -> tuple[str, ...]:
    """Class names from ultralytics metadata: "{0: '1m', 1: '2m'}" or a list."""
    value = ast.literal_eval(raw) if isinstance(raw, str) else raw
    if isinstance(value, dict):
        keys = sorted(int(k) for k in value)
        if keys != list(range(len(keys))):
            raise ValueError(f"model metadata 'names': expected ids 0..n-1, got {keys[:5]}...")
        return tuple(str(value[k] if k in value else value[str(k)]) for k in keys)
    return tuple(str(name) for name in value)


def parse_imgsz(raw: str | int | list) -> tuple[int, int]:
    value = ast.literal_eval(raw) if isinstance(raw, str) else raw
    if isinstance(value, int):
        return value, value
    height, width = (int(v) for v in value)
    return height, width


class Detector:
    """One ONNX detector, loaded once and reused for every photo."""

    def __init__(self, model_path: str | os.PathLike | None = None,
                 threads: int | None = None) -> None:
        path = Path(model_path or configured_model_path())  # None: as the environment says
        if not path.is_file():
            raise FileNotFoundError(f"no detector model at {path} (train and export one with "
                                    f"datasets/train/detector.py and datasets/export/detector.py)")
        try:
            self.session = cpu_session(path, threads)
        except Exception as exc:  # onnxruntime raises its own types for a bad file
            raise ValueError(f"{path}: not a usable ONNX model ({str(exc).splitlines()[0]})"
                             ) from None
        meta = self.session.get_modelmeta().custom_metadata_map
        model_input = self.session.get_inputs()[0]
        self.input_name = model_input.name
        if "names" not in meta:
            raise ValueError(f"{path}: ONNX metadata has no 'names' (export with "
                             f"datasets/export/detector.py)")
        self.names = parse_names(meta["names"])
        if "imgsz" in meta:
            self.imgsz = parse_imgsz(meta["imgsz"])
        elif all(isinstance(d, int) for d in model_input.shape[2:]):
            self.imgsz = tuple(model_input.shape[2:4])
        else:
            raise ValueError(f"{path}: ONNX metadata has no 'imgsz' and the input is dynamic")
        self.path = path

    @property
    def finds_only_tiles(self) -> bool:
        """True for a tile finder, whose boxes need a crop classifier to be read."""
        return self.names == TILE_FINDER_NAMES

    def prepare(self, rgb: np.ndarray) -> tuple[np.ndarray, Letterbox]:
        """The model's input for an RGB uint8 image (letterboxed, NCHW, 0..1) and the letterbox."""
        return input_blob(rgb, self.imgsz)

    def run(self, blob: np.ndarray) -> np.ndarray:
        """The model's raw output for a prepared input."""
        return self.session.run(None, {self.input_name: blob})[0]

    def detect(self, rgb: np.ndarray, conf: float = 0.25, iou: float = 0.7,
               agnostic: bool = True, max_det: int = MAX_DETECTIONS,
               tile_score: str = "class") -> Detections:
        """Tiles in an RGB uint8 image, boxes in that image's pixels."""
        blob, box = self.prepare(rgb)
        output = self.run(blob)
        xyxy, class_id, score = decode_output(output, len(self.names), conf, tile_score)
        keep = nms(xyxy, score, class_id, iou, agnostic=agnostic, max_det=max_det)
        height, width = rgb.shape[:2]
        return Detections(box.to_image(xyxy[keep], width, height), class_id[keep],
                          np.clip(score[keep], 0, 1), self.names)
