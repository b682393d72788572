"""Which flower and season tiles in a photo are the winner's bonus tiles.

A player sets bonus tiles aside near the hand, in line with its rows and turned like the
hand; other players' bonus tiles lie elsewhere, at their seats. Bonus tiles that touch
each other form a group; a group is the hand's when a score adds up in its favour: being
near the hand (box-to-box distance in tile sizes), in line with one of its rows (distance
across the rows to the nearest hand tile), beyond the end of the hand, looking like the
nearest hand tiles (box aspect and size, which a tile turned another way does not share),
and being more than one tile. The weights are a logistic fit on development scenes
(datasets/evaluate_layout.py, three seeds, each checked on the other two) rounded to plain
values. Distances are measured in the size of the tiles concerned: far tiles look smaller,
and so do the gaps between them.
"""
from __future__ import annotations

import numpy as np

LINK = 1.0          # bonus tiles closer than this (in the smaller one's size) are one group
BASE = 3.75
PER_DISTANCE = 0.5  # per tile size of distance from the hand
PER_ASPECT = 0.4    # per unit of |log aspect| difference from the nearest hand tiles
PER_SIZE = 0.1      # per unit of |log size| difference
GROUP = 1.25        # two or more tiles set aside together
PER_OFF_LINE = 1.5  # per tile size across the rows from the nearest hand tile (up to 3)
BEYOND = 1.15       # past the end of the hand along its rows


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


def bonus_tiles(xyxy: np.ndarray, codes: list[str], hand: list[int], angle: float = 0.0
                ) -> tuple[list[int], dict[int, float]]:
    """Indices of the hand's bonus tiles and a score per bonus tile (>0: kept); `angle` is
    the direction of the hand's rows in the photo (radians), used when the hand's own long
    axis cannot be had."""
    candidates = [i for i, c in enumerate(codes) if c[1] == "f"]
    if not candidates or not hand:
        return [], {}
    xyxy = np.asarray(xyxy, np.float64)
    hb, fb = xyxy[hand], xyxy[candidates]
    hsize = np.sqrt(np.prod(hb[:, 2:] - hb[:, :2], axis=1)).clip(1e-3)
    fsize = np.sqrt(np.prod(fb[:, 2:] - fb[:, :2], axis=1)).clip(1e-3)
    haspect = np.log((hb[:, 2] - hb[:, 0]).clip(1e-3) / (hb[:, 3] - hb[:, 1]).clip(1e-3))
    faspect = np.log((fb[:, 2] - fb[:, 0]).clip(1e-3) / (fb[:, 3] - fb[:, 1]).clip(1e-3))
    to_hand = _gaps(fb, hb)
    nearest = np.argsort(to_hand, axis=1)[:, :3]
    local = np.minimum(fsize, np.median(hsize[nearest], axis=1))  # far tiles look smaller
    aspect = np.abs(faspect - np.median(haspect[nearest], axis=1))
    size = np.abs(np.log(fsize / np.median(hsize[nearest], axis=1)))
    hc, fc = (hb[:, :2] + hb[:, 2:]) / 2, (fb[:, :2] + fb[:, 2:]) / 2
    mid = hc.mean(axis=0)
    if len(hc) >= 3:  # the hand's long axis: its rows, as perspective shows them here
        along = np.linalg.svd(hc - mid, full_matrices=False)[2][0]
    else:
        along = np.array([np.cos(angle), np.sin(angle)])
    across = np.array([-along[1], along[0]])
    hu, hv = (hc - mid) @ along, (hc - mid) @ across
    fu, fv = (fc - mid) @ along, (fc - mid) @ across
    kept, scores = [], {}
    for group in _groups(_gaps(fb, fb) / np.minimum(fsize[:, None], fsize[None, :]) < LINK):
        off_line = min(3.0, float((np.abs(fv[group][:, None] - hv[None, :]) / local[group][:, None]).min()))
        beyond = float(np.abs(fu[group]).min() > np.abs(hu).max())
        distance = float((to_hand[group].min(axis=1) / local[group]).min())
        score = BASE - PER_DISTANCE * distance - PER_ASPECT * aspect[group].mean() \
            - PER_SIZE * size[group].mean() + GROUP * (len(group) >= 2) - PER_OFF_LINE * off_line \
            + BEYOND * beyond
        for k in group:
            scores[candidates[k]] = float(score)
            if score > 0:
                kept.append(candidates[k])
    return kept, scores
