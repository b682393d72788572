"""Is a tile lying on top of another? The pixel cue for a kong shown as three tiles.

A melded kong is often laid as a pung with the fourth tile put on top of one of them. From
the boxes alone (vision.layout.sets._lifted) the top tile shows only by how far it rises above its
row, which from a high camera is a few hundredths of a tile, within the spread of flat
tiles. The photo shows more: two bodies under one face, the tile's sides standing clear of
its neighbours, its shadow on them. These are cues of one tile against its neighbours, so a
small CNN (`models/stack_classifier.onnx`, trained by `datasets/train/stacking.py` on
synthetic scenes) looks at three like tiles in a line at once: `set_crop` turns the photo so
that the line runs across the crop, and the network says which of the three, if any, lies on
another (softmax over none, first, second, third).

`StackReader.on_top(rgb, xyxy, codes)` finds every three like face-up tiles in a line
(`three_alike`: where a pung or such a kong can be) and returns, per tile, the probability
that it is the one on top; NaN for tiles in no such line (not measured). The pipeline stores
it in `Detections.on_top` and the layout weighs it with the lift (vision.layout.sets._stack_lean).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np

from scoring.tiles import BACK
from vision.boxes import centres as box_centres
from vision.runtime import DEFAULT_STACK_PATH, cpu_session, stacking_setting

HEIGHT, WIDTH = 64, 128
ALONG, ACROSS = 1.6, 2.0  # the crop: the line's span plus ALONG tile sizes, ACROSS tile sizes high
NEAR = 1.7                # like tiles this close (centre distance over tile size) touch in a line
STRAIGHT = 0.8            # ... and bend less than this (cosine of the angle at the middle one)


def tile_sizes(xyxy: np.ndarray) -> np.ndarray:
    return np.sqrt(np.prod(np.clip(xyxy[:, 2:] - xyxy[:, :2], 1e-3, None), axis=1))


def set_crop(rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(HEIGHT, WIDTH, 3) uint8: three boxes in line order, the photo turned so that the line
    runs left to right through the middle of the crop, one scale both ways, black beyond."""
    boxes = np.asarray(boxes, np.float64)
    centres = box_centres(boxes)
    size = float(tile_sizes(boxes).mean())
    direction = centres[-1] - centres[0]
    span = float(np.hypot(*direction))
    angle = np.arctan2(direction[1], direction[0]) if span > 1e-6 else 0.0
    scale = min(WIDTH / (span + ALONG * size), HEIGHT / (ACROSS * size))
    c, s = np.cos(angle) * scale, np.sin(angle) * scale
    mid = centres.mean(axis=0)
    # photo point p -> crop: R(-angle) (p - mid) * scale + crop centre
    m = np.array([[c, s, WIDTH / 2 - (c * mid[0] + s * mid[1])],
                  [-s, c, HEIGHT / 2 - (-s * mid[0] + c * mid[1])]], np.float32)
    flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(rgb, m, (WIDTH, HEIGHT), flags=flags, borderMode=cv2.BORDER_CONSTANT)


def three_alike(xyxy: np.ndarray, codes: list[str]) -> list[tuple[int, int, int]]:
    """Every three tiles of one suit or honour in a line, touching (a pung, or a kong shown
    as three), as (end, middle, end) indices, each line once. Face-down tiles (a wall is a
    long line of them) and bonus tiles make no pung, so they are not looked at."""
    xyxy = np.asarray(xyxy, np.float64)
    centres = box_centres(xyxy)
    size = tile_sizes(xyxy) if len(xyxy) else np.zeros(0)
    out = []
    codes = np.asarray(codes)
    for code in sorted(set(codes.tolist())):
        same = np.where(codes == code)[0]
        if code == BACK or code.endswith("f") or len(same) < 3:
            continue
        for b in same:
            near = [a for a in same if a != b and np.hypot(*(centres[a] - centres[b]))
                    < NEAR * (size[a] + size[b]) / 2]
            for i, a in enumerate(near):  # `near` is in index order, so a < c: each line once
                for c in near[i + 1:]:
                    u, v = centres[a] - centres[b], centres[c] - centres[b]
                    cos = float(u @ v / max(np.hypot(*u) * np.hypot(*v), 1e-9))
                    if cos < -STRAIGHT:
                        out.append((int(a), int(b), int(c)))
    return out


class StackReader:
    """The ONNX stack classifier: one session, every line of three like tiles in one call."""

    def __init__(self, model_path: str | os.PathLike = DEFAULT_STACK_PATH,
                 threads: int | None = None) -> None:
        self.path = Path(model_path)
        if not self.path.is_file():
            raise FileNotFoundError(f"stack classifier not found: {self.path}")
        self.session = cpu_session(self.path, threads)
        meta = self.session.get_modelmeta().custom_metadata_map
        if json.loads(meta.get("imgsz", "null")) != [HEIGHT, WIDTH]:
            raise ValueError(f"{self.path}: expected imgsz [{HEIGHT}, {WIDTH}] in its metadata")
        self.input = self.session.get_inputs()[0].name

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """(N, 4): none, first, second, third on top, for `set_crop` crops (N, H, W, 3)."""
        if len(crops) == 0:
            return np.zeros((0, 4), np.float32)
        batch = crops.astype(np.float32).transpose(0, 3, 1, 2) / 255.0
        return np.asarray(self.session.run(None, {self.input: batch})[0], np.float32)

    def on_top(self, rgb: np.ndarray, xyxy: np.ndarray, codes: list[str]) -> np.ndarray:
        """(N,) float32: per tile, the probability that it lies on top of another, the
        highest over the lines of three like tiles it is in; NaN in none."""
        xyxy = np.asarray(xyxy, np.float32).reshape(-1, 4)
        out = np.full(len(xyxy), np.nan, np.float32)
        lines = three_alike(xyxy, codes)
        if not lines:
            return out
        p = self.probabilities(np.stack([set_crop(rgb, xyxy[list(t)]) for t in lines]))
        for t, probs in zip(lines, p):
            for k, i in enumerate(t):
                out[i] = np.fmax(out[i], probs[1 + k])
        return out


def stack_reader(spec: str = "default") -> StackReader | None:
    """A stack classifier from a spec: "default" (the committed one, another one from
    $MAHJONG_LENS_STACKING, or None when there is none: the layout then judges kongs by the
    boxes alone), "none", or a model path."""
    if spec == "default":
        raw = stacking_setting()
        if not raw:
            return StackReader() if DEFAULT_STACK_PATH.is_file() else None
        spec = raw
    if spec.lower() == "none":
        return None
    if not Path(spec).is_file():
        raise FileNotFoundError(f"stack classifier {spec!r}: no such model")
    return StackReader(spec)
