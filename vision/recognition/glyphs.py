"""The number and character printed on flower and season tiles, read as glyphs.

Every set paints its flowers and seasons its own way, and the crop classifier, which reads a
tile whole, learns the pictures: of the 27 flowers and seasons of the real held-out sets it
read 11 wrong crop by crop, 7 in the app (models/README.md). What sets share is print: a
number 1-4 (Arabic, or Chinese 一二三四) and often the character 梅蘭菊竹 (flowers) or
春夏秋冬 (seasons). The glyph reader (datasets/train/glyphs.py) is a small fully
convolutional network over the tile's ink map: every 24 x 24 window, every 4 pixels, is one
of 16 glyphs or "other". A tile is read at three sizes and both ways up (or both ways
across, for a tile lying sideways), in its top TOP only, and each glyph's evidence is its
highest probability there, with where across the tile it was.

`GlyphReader.evidence` gives, per bonus class 1f..8f, the log-likelihood of what was seen
(`evidence`: the number, the character, and the side the number sits on), times the tile's
`legibility`; `reweigh` adds it to the classifier's log-probabilities of the eight bonus
classes of a tile the classifier calls a bonus tile, keeping its total bonus probability
(the glyphs say which bonus tile, not whether it is one).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np

from scoring.tiles import BONUS as BONUS_CODES
from vision.boxes import short_sides
from vision.runtime import DEFAULT_GLYPH_PATH, cpu_session, glyph_setting

HEIGHTS = (80, 104, 136)  # the tile's height at each reading: glyphs 0.08-0.27 of a tile high
UPRIGHT = 0.9  # a box at least this tall for its width holds an upright (or upside-down) tile
BONUS_MASS = 0.5  # reweigh a tile whose bonus classes hold at least this much probability
FLOOR = 0.05  # a glyph not seen is weak evidence against, not a veto (it may be worn or hidden)
# Most sets print a flower's number at its right and a season's at its left (the character
# on the other side): a number found this far from the middle (in half widths) leans the
# reading by WEIGHT_SIDE towards flowers or seasons.
SIDE_SURE = 0.3
# A tile's number is some 12 % of its height: on a tile under 30 pixels across it is a
# smudge of 5 pixels, and reading it adds noise (the development scenes, median tile 46 px).
LEGIBLE = (30.0, 60.0)
# How much the glyphs count beside the classifier, a tempered likelihood. Development
# (bonus tiles right of 384 from 48 unseen procedural sets; pipeline F1 of the development
# scenes, 0.839 without glyphs): 0.7 → 234 and 0.839; 1.0 → 235 and 0.838; 0.3 → 234.
WEIGHT_NUMBER = WEIGHT_CHAR = 0.7
# The side is the set's convention, not a law: some sets print every number on one side, a
# few the flowers' at the left. Half weight (datasets/eval/glyphs.py, development, 0.7 ->
# 0.35): unseen procedural sets, close tiles, 544 -> 555 of 800 as drawn and 508 -> 531
# flipped left for right; the real flowers and seasons of the training sets by glyphs alone
# 41 of 48 either way (0.2: 39).
WEIGHT_SIDE = 0.35
# Sets print number and character along the top of the tile (a set that prints them at the
# bottom is read turned: both ways up are read); only windows centred this high are read, so
# the strokes of the picture below are not taken for a 1 or a 一.
TOP = 0.45


def ink_map(rgb: np.ndarray) -> np.ndarray:
    """Darkest channel over the face's own level (its 90th percentile), 0..1.2: red, green,
    blue and black ink are all dark, the face is about 1."""
    low = rgb.min(axis=2).astype(np.float32)
    return np.clip(low / max(float(np.percentile(low, 90)), 1.0), 0.0, 1.2)


def top_rows(height: int, window: int, stride: int) -> int:
    """Rows of a tile `height` high that the windows centred in its top TOP cover."""
    windows = max(1, int((TOP * height - window / 2) // stride) + 1)
    return (windows - 1) * stride + window


def tile_views(rgb: np.ndarray, box, window: int, stride: int) -> list[np.ndarray]:
    """The top of the tile's ink map upright both ways (turned by 0/180, or by 90/270 for a
    tile lying across), the tile at each height of HEIGHTS: the rows that hold the windows
    centred in the top TOP of the tile. (datasets/synth/glyph_render.py cuts its scene windows
    from these too.)"""
    h, w = rgb.shape[:2]
    x1, y1 = max(0, int(box[0])), max(0, int(box[1]))
    x2, y2 = min(w, int(np.ceil(box[2]))), min(h, int(np.ceil(box[3])))
    if x2 - x1 < 4 or y2 - y1 < 4:
        return []
    tile = ink_map(rgb[y1:y2, x1:x2])
    if tile.shape[0] >= UPRIGHT * tile.shape[1]:
        turns = (tile, tile[::-1, ::-1])
    else:
        turns = (np.rot90(tile, 1), np.rot90(tile, 3))
    out = []
    for t in turns:
        for height in HEIGHTS:
            width = max(window, round(t.shape[1] * height / t.shape[0]))
            whole = cv2.resize(np.ascontiguousarray(t), (width, height),
                               interpolation=cv2.INTER_AREA if height < t.shape[0]
                               else cv2.INTER_LINEAR)
            out.append(whole[:top_rows(height, window, stride)])
    return out


class GlyphReader:
    def __init__(self, model_path: str | os.PathLike = DEFAULT_GLYPH_PATH,
                 threads: int | None = None) -> None:
        self.path = str(model_path)
        self.session = cpu_session(model_path, threads)
        meta = self.session.get_modelmeta().custom_metadata_map
        self.names = tuple(json.loads(meta["names"]))
        self.window = int(meta["window"])
        self.stride = int(meta["stride"])
        # glyph index of each bonus class's number (Arabic, Chinese) and character
        self.arabic = [self.names.index(str(n)) for n in range(1, 5)]
        self.chinese = [self.names.index(c) for c in "一二三四"]
        self.chars = [self.names.index(c) for c in "梅蘭菊竹春夏秋冬"]

    def views(self, rgb: np.ndarray, box) -> list[np.ndarray]:
        """`tile_views` at this reader's window and stride."""
        return tile_views(rgb, box, self.window, self.stride)

    def top_rows(self, height: int) -> int:
        return top_rows(height, self.window, self.stride)

    def seen(self, rgb: np.ndarray, boxes) -> tuple[np.ndarray, np.ndarray]:
        """Per tile and glyph (N, len(names)): the glyph's highest probability over the
        tile's windows, and where across the tile that window lies (-1 left edge .. 1 right
        edge, as read). One ONNX call per height: the views of that height are padded with
        bare face to one width, and each is read only within its own width."""
        g = len(self.names)
        best = np.zeros((len(boxes), g), np.float32)
        side = np.zeros((len(boxes), g), np.float32)
        views = [(i, v) for i, box in enumerate(boxes) for v in self.views(rgb, box)]
        for height in HEIGHTS:
            group = [(i, v) for i, v in views if v.shape[0] == self.top_rows(height)]
            if not group:
                continue
            width = max(v.shape[1] for _, v in group)
            batch = np.ones((len(group), 1, self.top_rows(height), width), np.float32)
            for k, (_, v) in enumerate(group):
                batch[k, 0, :, :v.shape[1]] = v
            probs = self.session.run(None, {"ink": batch})[0]
            for k, (i, v) in enumerate(group):
                cols = (v.shape[1] - self.window) // self.stride + 1
                flat = probs[k, :, :, :cols].reshape(g, -1)
                at = flat.argmax(axis=1)
                value = flat[np.arange(g), at]
                x = (at % cols) * self.stride + self.window / 2
                better = value > best[i]
                best[i, better] = value[better]
                side[i, better] = (2 * x / v.shape[1] - 1)[better]
        return best, side

    def evidence(self, rgb: np.ndarray, boxes) -> np.ndarray:
        """(N, 8) log-likelihoods of the bonus classes 1f..8f from the glyphs seen, each
        scaled by how legible the tile is (`legibility`); a tile too small is not read."""
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        out = np.zeros((len(boxes), len(BONUS_CODES)))
        scale = legibility(boxes)
        read = np.flatnonzero(scale > 0)
        best, side = self.seen(rgb, boxes[read])
        for k, i in enumerate(read):
            out[i] = scale[i] * evidence(best[k], side[k], self.arabic, self.chinese, self.chars)
        return out


def legibility(boxes: np.ndarray) -> np.ndarray:
    """(N,) 0..1: how far the glyphs of tiles of these boxes can be read, from their short
    side in the photo as decoded: none up to LEGIBLE[0] pixels, fully from LEGIBLE[1]."""
    short = short_sides(boxes)
    return np.clip((short - LEGIBLE[0]) / (LEGIBLE[1] - LEGIBLE[0]), 0.0, 1.0)


def evidence(seen: np.ndarray, side: np.ndarray, arabic, chinese, chars,
             weights=(WEIGHT_NUMBER, WEIGHT_CHAR, WEIGHT_SIDE), floor: float = FLOOR
             ) -> np.ndarray:
    """(8,) log-likelihoods of 1f..8f: the number's (1-4, either numeral), the character's,
    and the side the number sits on (flowers on the right, seasons on the left, in most
    sets), that last one as strong as the number is sure."""
    w_number, w_char, w_side = weights
    number = np.maximum(seen[arabic], seen[chinese])  # (4,) for 1..4
    n = int(number.argmax())
    where = side[arabic[n]] if seen[arabic[n]] >= seen[chinese[n]] else side[chinese[n]]
    lean = w_side * float(number[n]) * float(np.clip(where / SIDE_SURE, -1, 1))
    return (w_number * np.log(floor + np.tile(number, 2))
            + w_char * np.log(floor + seen[chars])
            + np.repeat([lean, -lean], 4))


def reweigh(probs: np.ndarray, names, evidence: np.ndarray) -> np.ndarray:
    """One tile's class probabilities with the glyph evidence (8,) applied to its bonus
    classes, their total kept."""
    idx = [list(names).index(c) for c in BONUS_CODES]
    bonus = probs[idx].astype(np.float64)
    mass = bonus.sum()
    if mass <= 0:
        return probs
    logit = np.log(np.maximum(bonus / mass, 1e-9)) + evidence
    share = np.exp(logit - logit.max())
    out = probs.copy()
    out[idx] = mass * share / share.sum()
    return out


class LazyGlyphReader:
    """A glyph reader whose model is loaded for the first tile it reads: most hands have no
    flower or season read as one, and a command that reads one photo then never pays for
    the session (about 4 ms of CPU)."""

    def __init__(self, model_path: str | os.PathLike = DEFAULT_GLYPH_PATH) -> None:
        self.path = str(model_path)
        self._reader: GlyphReader | None = None

    @property
    def reader(self) -> GlyphReader:
        if self._reader is None:
            self._reader = GlyphReader(self.path)
        return self._reader

    def evidence(self, rgb: np.ndarray, boxes) -> np.ndarray:
        """`GlyphReader.evidence`; no tile to read loads nothing."""
        if len(boxes) == 0:
            return np.zeros((0, len(BONUS_CODES)))
        return self.reader.evidence(rgb, boxes)


def default_glyph_reader() -> LazyGlyphReader | None:
    """The committed glyph reader, another one named by MAHJONG_LENS_GLYPHS, or None;
    loaded when it first reads a tile."""
    path = glyph_setting()
    if str(path).lower() == "none" or not Path(path).is_file():
        return None
    return LazyGlyphReader(path)
