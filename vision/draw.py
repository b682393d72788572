"""Overlays: detected tiles drawn on a copy of the photo, doubtful ones stand out.

A tile read with low confidence is the one the player must check, so it gets a thick orange
frame and its label on an orange band; confident tiles get a thin green frame.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.types import Detections

CONFIDENT_RGB = (40, 180, 60)
DOUBTFUL_RGB = (255, 140, 0)
TEXT_RGB = (255, 255, 255)
DEFAULT_LOW_CONFIDENCE = 0.5


def draw_detections(rgb: np.ndarray, detections: Detections,
                    low_confidence: float = DEFAULT_LOW_CONFIDENCE,
                    show_confidence: bool = True) -> np.ndarray:
    """A copy of `rgb` with each detection framed and labelled `code` (and confidence)."""
    canvas = np.ascontiguousarray(rgb.copy())
    height, width = canvas.shape[:2]
    unit = max(1, round(max(height, width) / 800))  # line width that stays visible on 12 MP
    font_scale = 0.45 * unit
    for (x1, y1, x2, y2), code, score in zip(detections.xyxy, detections.codes,
                                             detections.confidence):
        doubtful = score < low_confidence
        colour = DOUBTFUL_RGB if doubtful else CONFIDENT_RGB
        thickness = unit * (3 if doubtful else 1)
        top_left = (int(round(x1)), int(round(y1)))
        cv2.rectangle(canvas, top_left, (int(round(x2)), int(round(y2))), colour, thickness,
                      cv2.LINE_AA)
        label = f"{code} {score:.2f}" if show_confidence else code
        (text_w, text_h), baseline = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX,
                                                     font_scale, unit)
        band_top = max(0, top_left[1] - text_h - baseline - 2 * unit)
        cv2.rectangle(canvas, (top_left[0], band_top),
                      (top_left[0] + text_w + 2 * unit, band_top + text_h + baseline + 2 * unit),
                      colour, -1)
        cv2.putText(canvas, label, (top_left[0] + unit, band_top + text_h + unit),
                    cv2.FONT_HERSHEY_SIMPLEX, font_scale, TEXT_RGB, unit, cv2.LINE_AA)
    return canvas
