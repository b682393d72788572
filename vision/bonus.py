"""Which flower and season tiles in a photo are the winner's bonus tiles.

A player sets bonus tiles aside near the hand, in a row of their own and turned like the
hand; other players' bonus tiles lie elsewhere, at their seats. Bonus tiles that touch
each other form a group; a group is the hand's when a score adds up in its favour: being
near the hand (box-to-box distance in tile sizes), looking like the nearest hand tiles
(box aspect and size, which a tile turned another way or lying elsewhere does not share),
and being more than one tile. The weights were set on development scenes (datasets/
evaluate_layout.py) and are kept plain on purpose.
"""
from __future__ import annotations

import numpy as np

LINK = 1.2          # bonus tiles closer than this (in tile sizes) are one group
BASE = 3.5
PER_DISTANCE = 0.8  # per tile size of distance from the hand
PER_ASPECT = 4.0    # per unit of |log aspect| difference from the nearest hand tiles
PER_SIZE = 4.0      # per unit of |log size| difference
GROUP = 3.0         # two or more tiles set aside together


def _gaps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    dx = np.maximum(0, np.maximum(a[:, None, 0], b[None, :, 0]) - np.minimum(a[:, None, 2], b[None, :, 2]))
    dy = np.maximum(0, np.maximum(a[:, None, 1], b[None, :, 1]) - np.minimum(a[:, None, 3], b[None, :, 3]))
    return np.hypot(dx, dy)


def _groups(near: np.ndarray) -> list[np.ndarray]:
    label = -np.ones(len(near), int)
    for start in range(len(near)):
        if label[start] >= 0:
            continue
        label[start], todo = start, [start]
        while todo:
            i = todo.pop()
            for j in np.flatnonzero(near[i] & (label < 0)):
                label[j] = start
                todo.append(j)
    return [np.flatnonzero(label == k) for k in np.unique(label)]


def bonus_tiles(xyxy: np.ndarray, codes: list[str], hand: list[int]) -> tuple[list[int], dict[int, float]]:
    """Indices of the hand's bonus tiles and a score per bonus tile (>0: kept)."""
    candidates = [i for i, c in enumerate(codes) if c[1] == "f"]
    if not candidates or not hand:
        return [], {}
    xyxy = np.asarray(xyxy, np.float64)
    hb, fb = xyxy[hand], xyxy[candidates]
    hsize = np.sqrt(np.prod(hb[:, 2:] - hb[:, :2], axis=1)).clip(1e-3)
    fsize = np.sqrt(np.prod(fb[:, 2:] - fb[:, :2], axis=1)).clip(1e-3)
    haspect = np.log((hb[:, 2] - hb[:, 0]).clip(1e-3) / (hb[:, 3] - hb[:, 1]).clip(1e-3))
    faspect = np.log((fb[:, 2] - fb[:, 0]).clip(1e-3) / (fb[:, 3] - fb[:, 1]).clip(1e-3))
    unit = float(np.median(hsize))
    to_hand = _gaps(fb, hb)
    nearest = np.argsort(to_hand, axis=1)[:, :3]
    aspect = np.abs(faspect - np.median(haspect[nearest], axis=1))
    size = np.abs(np.log(fsize / np.median(hsize[nearest], axis=1)))
    kept, scores = [], {}
    for group in _groups(_gaps(fb, fb) / unit < LINK):
        score = BASE - PER_DISTANCE * to_hand[group].min() / unit - PER_ASPECT * aspect[group].mean() \
            - PER_SIZE * size[group].mean() + GROUP * (len(group) >= 2)
        for k in group:
            scores[candidates[k]] = float(score)
            if score > 0:
                kept.append(candidates[k])
    return kept, scores
