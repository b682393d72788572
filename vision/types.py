"""Value types shared by recognition, layout and the app: what a reader found in a photo.

`Detections` is the boundary between the models and everything after them
(docs/architecture.md): three arrays in photo pixels plus the class names, frozen, arrays
included.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np


def _rows(values: np.ndarray, n: int) -> np.ndarray:
    """`values` as n rows (a selection of no detections keeps its columns)."""
    return values.reshape(n, -1) if n else values.reshape(0, values.shape[-1] if values.ndim == 2 else 0)


def _checked(xyxy, class_id, confidence, names: tuple[str, ...]) -> list[tuple[str, np.ndarray]]:
    """The three main arrays of `Detections`, checked and in their types."""
    xyxy = np.asarray(xyxy, dtype=np.float32)
    if xyxy.size == 0:
        xyxy = xyxy.reshape(0, 4)
    class_id = np.asarray(class_id).reshape(-1)
    confidence = np.asarray(confidence, dtype=np.float32).reshape(-1)
    if xyxy.ndim != 2 or xyxy.shape[1] != 4:
        raise ValueError(f"Detections.xyxy: expected shape (N, 4), got {xyxy.shape}")
    n = len(xyxy)
    if class_id.shape != (n,) or confidence.shape != (n,):
        raise ValueError(f"Detections: expected class_id and confidence of shape ({n},), "
                         f"got {class_id.shape} and {confidence.shape}")
    if n and not np.issubdtype(class_id.dtype, np.integer):
        if not np.all(np.equal(np.mod(class_id, 1), 0)):
            raise ValueError(f"Detections.class_id: expected integers, got {class_id.dtype}")
    class_id = class_id.astype(np.int64)
    if not names or not all(isinstance(name, str) and name for name in names):
        raise ValueError(f"Detections.names: expected non-empty strings, got {names!r}")
    if n and (class_id.min() < 0 or class_id.max() >= len(names)):
        raise ValueError(f"Detections.class_id: expected 0..{len(names) - 1}, got "
                         f"{class_id.min()}..{class_id.max()}")
    if not np.all(np.isfinite(xyxy)):
        raise ValueError("Detections.xyxy: expected finite coordinates")
    if n and np.any(xyxy[:, 2:] < xyxy[:, :2]):
        raise ValueError("Detections.xyxy: expected x2 >= x1 and y2 >= y1")
    if n and (not np.all(np.isfinite(confidence)) or confidence.min() < 0
              or confidence.max() > 1):
        raise ValueError(f"Detections.confidence: expected values in [0, 1], got "
                         f"{confidence.min()}..{confidence.max()}")
    return [("xyxy", xyxy), ("class_id", class_id), ("confidence", confidence)]


@dataclass(frozen=True)
class Detections:
    """Detected tiles: xyxy (N, 4) float32 photo pixels, class_id (N,) int64, confidence (N,).

    A crop reader may add its next guesses for each tile: `alt_class_id` (N, K) and
    `alt_confidence` (N, K), on the same scale as `confidence`, best first (the layout tries
    them when the tiles as read make no complete hand); both None otherwise. It also keeps
    the tile finder's own `tile_score` (N,): how sure it is that a tile is there at all,
    before the reader's class probability (None: `confidence` says both), and the stack
    classifier's `on_top` (N,): how likely each tile lies on top of another, a kong's fourth
    tile (vision/recognition/stacking.py; NaN for a tile it did not judge, None: not measured at all; the
    layout then judges by the boxes). `looked` (N,) bool marks the tiles found by looking again
    at a gap in a row (vision/recognition/look.py): the player checks them first.
    """

    xyxy: np.ndarray
    class_id: np.ndarray
    confidence: np.ndarray
    names: tuple[str, ...]
    alt_class_id: np.ndarray | None = None
    alt_confidence: np.ndarray | None = None
    tile_score: np.ndarray | None = None
    on_top: np.ndarray | None = None
    looked: np.ndarray | None = None

    def __post_init__(self) -> None:
        names = tuple(self.names)
        arrays = _checked(self.xyxy, self.class_id, self.confidence, names)
        n = len(arrays[0][1])
        arrays += self._checked_guesses(n, names) + self._checked_scores(n)
        if self.looked is not None:
            looked = np.asarray(self.looked, bool).reshape(-1)
            if looked.shape != (n,):
                raise ValueError(f"Detections.looked: expected {n} values")
            arrays.append(("looked", looked))
        for field, value in arrays:
            value = value.copy()
            value.setflags(write=False)  # frozen means frozen, arrays included
            object.__setattr__(self, field, value)
        object.__setattr__(self, "names", names)

    def _checked_guesses(self, n: int, names: tuple[str, ...]) -> list[tuple[str, np.ndarray]]:
        if (self.alt_class_id is None) != (self.alt_confidence is None):
            raise ValueError("Detections: alt_class_id and alt_confidence come together")
        if self.alt_class_id is None:
            return []
        alt_id, alt_conf = (_rows(np.asarray(self.alt_class_id, np.int64), n),
                            _rows(np.asarray(self.alt_confidence, np.float32), n))
        if alt_id.shape != alt_conf.shape:
            raise ValueError(f"Detections: alt_class_id {alt_id.shape} and alt_confidence "
                             f"{alt_conf.shape} differ in shape")
        if alt_id.size and (alt_id.min() < 0 or alt_id.max() >= len(names)):
            raise ValueError(f"Detections.alt_class_id: expected 0..{len(names) - 1}")
        return [("alt_class_id", alt_id), ("alt_confidence", alt_conf)]

    def _checked_scores(self, n: int) -> list[tuple[str, np.ndarray]]:
        arrays = []
        for field in ("tile_score", "on_top"):  # on_top may be NaN: not measured
            if getattr(self, field) is None:
                continue
            values = np.asarray(getattr(self, field), np.float32).reshape(-1)
            known = values[~np.isnan(values)] if field == "on_top" else values
            if values.shape != (n,) or (len(known) and not (np.all(np.isfinite(known))
                                                          and 0 <= known.min() <= known.max() <= 1)):
                raise ValueError(f"Detections.{field}: expected {n} values in [0, 1]")
            arrays.append((field, values))
        return arrays

    @classmethod
    def empty(cls, names: Sequence[str]) -> "Detections":
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.int64),
                   np.zeros(0, np.float32), tuple(names))

    def __len__(self) -> int:
        return len(self.xyxy)

    @property
    def finder_score(self) -> np.ndarray:
        """Per tile, the tile finder's "a tile is here" score: `tile_score`, or `confidence`
        when no reader has lowered it by its class probability."""
        return self.confidence if self.tile_score is None else self.tile_score

    @property
    def codes(self) -> list[str]:
        """Class name of each detection, in order."""
        return [self.names[i] for i in self.class_id]

    def select(self, index: np.ndarray) -> "Detections":
        """The detections at `index` (a boolean mask or integer indices)."""
        def pick(values):
            return None if values is None else values[index]

        return replace(self, xyxy=self.xyxy[index], class_id=self.class_id[index],
                       confidence=self.confidence[index], alt_class_id=pick(self.alt_class_id),
                       alt_confidence=pick(self.alt_confidence), tile_score=pick(self.tile_score),
                       on_top=pick(self.on_top), looked=pick(self.looked))

    def joined(self, other: "Detections") -> "Detections":
        """These detections and then `other`'s (the same names); an array either lacks is
        filled: no next guesses (the tile's own reading), NaN on top, not looked again."""
        if tuple(other.names) != self.names:
            raise ValueError("Detections.joined: the two disagree on class names")
        n, m = len(self), len(other)

        def both(field, fill):
            a, b = getattr(self, field), getattr(other, field)
            if a is None and b is None:
                return None
            return np.concatenate([fill(self, n) if a is None else a, fill(other, m) if b is None else b])

        guesses = max((d.alt_class_id.shape[1] for d in (self, other) if d.alt_class_id is not None), default=0)
        return Detections(
            np.concatenate([self.xyxy, other.xyxy]), np.concatenate([self.class_id, other.class_id]),
            np.concatenate([self.confidence, other.confidence]), self.names,
            both("alt_class_id", lambda d, k: np.repeat(d.class_id[:, None], guesses, axis=1)),
            both("alt_confidence", lambda d, k: np.zeros((k, guesses), np.float32)),
            both("tile_score", lambda d, k: d.confidence),
            both("on_top", lambda d, k: np.full(k, np.nan, np.float32)),
            both("looked", lambda d, k: np.zeros(k, bool)))

    def scaled(self, sx: float, sy: float) -> "Detections":
        """Boxes multiplied by (sx, sy): from decoded pixels to full-resolution pixels."""
        return replace(self, xyxy=self.xyxy * np.array([sx, sy, sx, sy], np.float32))

    def with_class(self, i: int, class_id: int, confidence: float) -> "Detections":
        """The same detections with tile `i` read as `class_id` (a next guess taken)."""
        ids, conf = self.class_id.copy(), self.confidence.copy()
        ids[i], conf[i] = class_id, confidence
        return replace(self, class_id=ids, confidence=conf)
