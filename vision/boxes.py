"""Arithmetic on xyxy boxes (photo pixels), shared by recognition and layout."""
from __future__ import annotations

import numpy as np


def short_sides(xyxy) -> np.ndarray:
    """Each box's shorter side in pixels: a tile's width whichever way it lies."""
    box = np.asarray(xyxy).reshape(-1, 4)
    return np.minimum(box[:, 2] - box[:, 0], box[:, 3] - box[:, 1])


def areas(xyxy) -> np.ndarray:
    """Each box's area in square pixels (an empty or inverted box: 0)."""
    box = np.asarray(xyxy, np.float64).reshape(-1, 4)
    return np.clip(box[:, 2] - box[:, 0], 0, None) * np.clip(box[:, 3] - box[:, 1], 0, None)


def centres(xyxy: np.ndarray) -> np.ndarray:
    """Each box's centre (x, y)."""
    return (xyxy[:, :2] + xyxy[:, 2:]) / 2


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU matrix (len(a), len(b)) of xyxy boxes."""
    a = np.asarray(a, np.float64).reshape(-1, 4)
    b = np.asarray(b, np.float64).reshape(-1, 4)
    top_left = np.maximum(a[:, None, :2], b[None, :, :2])
    bottom_right = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(bottom_right - top_left, 0, None), axis=2)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    union = area_a[:, None] + area_b[None, :] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)
