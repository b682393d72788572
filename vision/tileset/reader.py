"""Reading a photo with a table's set: the crop reader's probabilities blended with how close
each tile is to the set's own examples.

The committed crop reader has a second output, `features` (datasets/export/
classifier_features.py): each member's pooled vector, L2-normalised, joined into one unit
vector. First the set's corrections: a tile the reader reads as X whose nearest example among
those it also read as X was corrected to Y (at cosine `correction_level` or closer) is read
as Y, its X and Y probabilities swapped; the reader makes the same mistake on every copy of
a tile of a set it never saw. Then the blend. A tile's similarity to a class is its highest
cosine with that class's examples, each taken as cut and turned 180°. The similarities of
the taught classes and a neutral level THRESHOLD (a tile like no example) go through a
softmax at TEMPERATURE: `q`. The reading becomes

    p'_T = M ((1 - WEIGHT) p_T/M + WEIGHT (q_taught + q_neutral p_T/M))

over the taught classes T, whose total M the reader's probabilities keep: a tile close to a
taught example moves towards it, a tile like none keeps the reader's own probabilities, and
a class with no example is read as before (a set's example of one flower never pulls the
tile of another, untaught, flower of the same look away from what the reader reads; only
a tile at `near_copy` or closer to an example could, and the shipped blend lets none). A
taught class the reader gives a tile under `Blend.floor` takes no part in that tile's blend:
a set moves a tile only to a class the reader sees some trace of, so an example stored under
a wrong code cannot make a tile the reader reads right into it; the corrections before the
blend, fixes a player made, are not bound by it.
After that, reading goes on as without a set: flowers and seasons re-read from shifted
boxes and weighed by their printed glyphs, and the photo's tiles read together as one set
(no fifth copy, one of each bonus tile: vision/recognition/copies.py).

The numbers of `Blend` and the sizes an example is kept at (VIEW_SIDES) were chosen on
development designs only, by the rules written in datasets/eval/tileset.py and
datasets/eval/tileset_floor.py before any figure was seen (models/README.md, "Learning a
table's set").
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognition.refine import CropClassifier, default_refiner, turn_over
from vision.tileset.store import TileSet

FEATURES = "features"
# Besides the crop as photographed, each example is kept as the tile would look this many
# pixels across its short side: a sheet is shot close, a hand's tiles are often small.
VIEW_SIDES = (36, 24)
PROBABILITIES = "probabilities"
# Crops a sheet's tiles are read in per ONNX call: one call for all of a 42-tile sheet's 252
# views held about 480 MB of activations (datasets/eval/tileset_cost.py `memory`).
FEATURE_CHUNK = 32


@dataclass(frozen=True)
class Blend:
    """Chosen by the rule of datasets/eval/tileset.py on development designs only: of weight
    {0.5, 0.8, 1.0} x temperature {0.02, 0.05} x threshold {0.6, 0.75, 0.9}, with examples at
    three sizes, mean F1 of the five development designs 0.8621 untaught -> 0.8664, none
    lower (models/README.md, "Learning a table's set")."""
    weight: float = 1.0
    temperature: float = 0.05
    threshold: float = 0.75
    # A tile this close to an example (cosine) may move to it from an untaught class; a less
    # similar one moves only among the taught classes (0: any tile; above 1: none, so a
    # class with no example is always read as before). The `partial` rule of
    # datasets/eval/tileset.py: 0, 0.85, 0.9 and 1.01 tied on development nights, and the
    # tie goes to the one that moves fewest tiles.
    near_copy: float = 1.01
    # After that, a product of experts (the `copies` rule of datasets/eval/tileset.py):
    # P(c) proportional to p(c) exp(max(s_c - copy_level, 0) / copy_temperature), s_c the
    # best similarity to class c's examples and copy_level for a class with no example. A
    # near-copy of an example (a tile the player corrected) outweighs the reader on every
    # class, untaught ones too; a tile close to no example is left as the blend read it.
    # Above 1: no tile is a near-copy.
    copy_level: float = 1.01
    copy_temperature: float = 0.01
    # The set's own corrections, before the blend: among the set's examples the reader read
    # as it reads this tile, the nearest decides. When that is one the player corrected (read
    # X, is Y) and its cosine is at least `correction_level`, the tile's X and Y swap
    # probabilities: on this set the reader's X means Y (`corrections`). Above 1: off.
    correction_level: float = 1.01
    # A correction whose cosine is lower than that, but `correction_floor` or more, may still
    # decide when it beats every example read as X that truly is X by `correction_margin`
    # or more (the `margins` rule of datasets/eval/tileset.py; above 1: never).
    correction_margin: float = 1.01
    correction_floor: float = 1.01
    # Never worse, as a backstop: a tile may move only to a class the reader itself gives
    # `floor` or more (after the corrections above, which a player made, so a confirmed fix
    # still moves it); a taught class under it takes no part in the tile's blend and keeps
    # what the reader gave it. An example stored under a wrong code cannot turn a tile into
    # a class the reader sees no trace of. 0: off. The `floor` rule of
    # datasets/eval/tileset_floor.py.
    floor: float = 0.0


# the `corrections` rule (datasets/eval/tileset.py) chose 0.95 on development data, the
# `floor` rule (datasets/eval/tileset_floor.py) 0.01
DEFAULT_BLEND = Blend(correction_level=0.95, floor=0.01)


def probe_image(size: int) -> np.ndarray:
    """(1, 3, size, size): a fixed image whose features identify a reader model."""
    return np.random.default_rng(0).random((1, 3, size, size), dtype=np.float32)


def has_features(classifier) -> bool:
    return isinstance(classifier, CropClassifier) and FEATURES in {
        out.name for out in classifier.session.get_outputs()}


class Bank:
    """A set's examples as one matrix: rows of `vectors` are every view of every example (each
    size, as cut and turned), an example's `views` rows together, examples ordered by class;
    `classes` the class ids taught, `starts` the first example of each; per example in that
    order, its class id (`code`), what the reader read it as by itself (`read`) and whether
    the player corrected that (`corrected`)."""

    def __init__(self, tileset: TileSet, names) -> None:
        index = {name: i for i, name in enumerate(names)}
        ids = np.array([index[c] for c in tileset.codes], np.int64)
        reads = np.array([index[c] for c in tileset.reads], np.int64)
        self.classes = np.unique(ids)
        self.views = tileset.features.shape[1] * 2
        order = np.argsort(ids, kind="stable")
        self.code, self.read = ids[order], reads[order]
        self.corrected = self.read != self.code
        vectors = np.concatenate([tileset.features, tileset.turned], axis=1)[order]
        # float32 whatever the set holds: numpy reads float16 many times slower
        self.vectors = np.ascontiguousarray(
            vectors.reshape(len(self.code) * self.views, -1), np.float32)
        self.starts = np.flatnonzero(np.r_[True, np.diff(self.code) != 0])

    def cosines(self, features: np.ndarray) -> np.ndarray:
        """(N, len(code)): each tile's highest cosine with each example (any of its views)."""
        if not len(features):
            return np.zeros((0, len(self.code)), np.float32)
        cos = cosine_matrix(np.asarray(features, np.float32), self.vectors)
        return cos.reshape(len(features), len(self.code), self.views).max(axis=2)

    def similarity(self, features: np.ndarray, cosines: np.ndarray | None = None) -> np.ndarray:
        """(N, len(classes)): each tile's highest cosine with each taught class's examples."""
        cos = self.cosines(features) if cosines is None else cosines
        if not len(cos):
            return np.zeros((0, len(self.classes)), np.float32)
        return np.maximum.reduceat(cos, self.starts, axis=1)


def cosine_matrix(features: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """(N, R) float32: each of the N features' dot product with each of the R vectors."""
    # numpy's own loops, on this thread: BLAS (a matrix product, or a matrix-vector product a
    # tile) hands the work to its thread pool, which on 2 busy cores, after a photo's ONNX
    # calls, costs far more than the products (docs/experiments.md, 2026-12-05)
    return np.einsum("nd,rd->nr", features, vectors)


def blend(probs: np.ndarray, features: np.ndarray, bank: Bank | None,
          how: Blend = DEFAULT_BLEND, cosines: np.ndarray | None = None) -> np.ndarray:
    """The reader's probabilities (N, C) moved towards the set's examples (module doc);
    `cosines`: `bank.cosines(features)` when already known (a photo is blended twice)."""
    if bank is None or not len(bank.classes) or not len(probs):
        return probs
    cos = bank.cosines(features) if cosines is None else cosines
    probs = corrections(probs, cos, bank, how.correction_level, how.correction_margin,
                        how.correction_floor)
    if how.weight <= 0:
        return probs
    sim = bank.similarity(features, cos)
    # a taught class under the floor takes no part in this tile's blend (`Blend.floor`)
    shut = below_floor(probs, bank.classes, how.floor)
    logits = np.concatenate([np.where(shut, -np.inf, sim),
                             np.full((len(probs), 1), how.threshold)], axis=1) / how.temperature
    q = np.exp(logits - logits.max(axis=1, keepdims=True))
    q /= q.sum(axis=1, keepdims=True)
    # a near-copy of an example may take probability from any class
    towards = q[:, -1:] * probs
    towards[:, bank.classes] += q[:, :-1]
    anywhere = (1.0 - how.weight) * probs + how.weight * towards
    # otherwise the untaught classes (and those shut) keep what the reader gave them
    taught = probs[:, bank.classes]
    mass = np.where(shut, 0.0, taught).sum(axis=1, keepdims=True)
    within = np.where(shut, 0.0, taught) / np.maximum(mass, 1e-12)
    kept = probs.copy()
    kept[:, bank.classes] = np.where(
        shut, taught, mass * ((1.0 - how.weight) * within
                              + how.weight * (q[:, :-1] + q[:, -1:] * within)))
    near = sim.max(axis=1, keepdims=True) >= how.near_copy
    return copies(np.where(near, anywhere, kept).astype(probs.dtype),
                  np.where(shut, -1.0, sim), bank.classes, how)


def below_floor(probs: np.ndarray, classes: np.ndarray, floor: float) -> np.ndarray:
    """(N, len(classes)): the taught classes each tile may not move to (`Blend.floor`): the
    reader gives them under `floor`, and they are not what it reads the tile as."""
    if floor <= 0:
        return np.zeros((len(probs), len(classes)), bool)
    shut = probs[:, classes] < floor
    return shut & (classes[None, :] != probs.argmax(axis=1)[:, None])


def corrections(probs: np.ndarray, cos: np.ndarray, bank: Bank, level: float,
                margin: float = 1.01, floor: float = 1.01) -> np.ndarray:
    """`Blend.correction_level`: each tile the reader reads as X, whose nearest example among
    those the reader also read as X is one the player corrected to Y, at cosine `level` or
    closer, has its X and Y probabilities swapped; also from `floor` on when that example
    beats every example read as X that truly is X by `margin` or more
    (`Blend.correction_margin`, `Blend.correction_floor`). Other tiles are returned bit for
    bit."""
    if min(level, floor) > 1 or not len(probs) or not bank.corrected.any():
        return probs
    out = probs.copy()
    read = probs.argmax(axis=1)
    for i in np.flatnonzero(np.isin(read, bank.read[bank.corrected])):
        alike = np.flatnonzero(bank.read == read[i])
        nearest = alike[cos[i, alike].argmax()]
        wanted = bank.code[nearest]
        if wanted == read[i]:
            continue
        right = alike[bank.code[alike] == read[i]]
        lead = cos[i, nearest] - (cos[i, right].max() if len(right) else -1.0)
        if cos[i, nearest] >= level or (cos[i, nearest] >= floor and lead >= margin):
            out[i, [read[i], wanted]] = probs[i, [wanted, read[i]]]
    return out


def copies(probs: np.ndarray, sim: np.ndarray, classes: np.ndarray, how: Blend) -> np.ndarray:
    """The near-copy product of experts of `Blend.copy_level`; rows with no similarity above
    the level are returned bit for bit."""
    gain = np.maximum(sim - how.copy_level, 0.0) / how.copy_temperature
    close = gain.max(axis=1) > 0
    if not close.any():
        return probs
    out = probs.copy()
    # in log space: a reader probability of 1e-6 times a large gain stays finite
    logp = np.log(np.maximum(probs[close].astype(np.float64), 1e-12))
    logp[:, classes] += gain[close]
    mixed = np.exp(logp - logp.max(axis=1, keepdims=True))
    out[close] = mixed / mixed.sum(axis=1, keepdims=True)
    return out


@dataclass(frozen=True)
class TileViews:
    """What the reader sees of some tiles: the probabilities of each crop as cut and turned
    180° (N, C), and the features stored in a set, as cut and turned (N, sizes, D)."""
    probs: np.ndarray
    turned_probs: np.ndarray
    features: np.ndarray
    turned: np.ndarray


class TaughtClassifier(CropClassifier):
    """A crop reader that reads with a set: exactly `base` (its session, views, glyph reader,
    copies constraint) plus the blend. The features of the crops as cut come from the same
    ONNX call as their probabilities (the first call of `probabilities`, which reads the
    crops as cut on every path), so a set costs only the blend."""

    def __init__(self, base: CropClassifier, tileset: TileSet | None,
                 how: Blend = DEFAULT_BLEND) -> None:
        if not has_features(base):
            raise ValueError("this crop reader has no 'features' output, so it cannot learn a set "
                             "(python -m datasets.export.classifier_features adds it)")
        self.__dict__.update(base.__dict__)
        self.base = base
        self.tileset = tileset
        self.how = how
        self.bank = Bank(tileset, self.names) if tileset is not None and len(tileset) else None
        self.chunk = FEATURE_CHUNK
        self._local = threading.local()  # one photo's as-cut features, per thread

    def mean_probabilities(self, views: list[np.ndarray]) -> np.ndarray:
        probs, feats = self.session.run([PROBABILITIES, FEATURES],
                                        {self.input_name: np.concatenate(views)})
        if getattr(self._local, "features", False) is None:
            self._local.features = feats[:len(views[0])]
        return probs.reshape(len(views), len(views[0]), -1).mean(axis=0)

    def probabilities(self, rgb: np.ndarray, detections) -> np.ndarray:
        if self.bank is None:
            return super().probabilities(rgb, detections)
        self._local.features = None
        raw = super().probabilities(rgb, detections)
        self._local.raw = raw
        feats = self._local.features  # None when there was no tile to read
        self._local.cosines = None if feats is None else self.bank.cosines(feats)
        return blend(raw, self._local.features, self.bank, self.how, self._local.cosines)

    def evidence(self, rgb: np.ndarray, detections) -> tuple[np.ndarray, np.ndarray]:
        """The reader's own probabilities (N, C), flowers and seasons re-read from shifted
        boxes as `refine` does, and the features of the crops as cut (N, D): what the blend
        works on (an evaluation can blend them many ways without reading again)."""
        self._local.features = None
        raw = CropClassifier.probabilities(self, rgb, detections)
        features = self._local.features
        if self.bonus_shift:
            raw = CropClassifier.reread_bonus(self, rgb, detections.xyxy, raw)
        return raw, features

    def reread_bonus(self, rgb: np.ndarray, boxes: np.ndarray, probs: np.ndarray) -> np.ndarray:
        if self.bank is None:
            return super().reread_bonus(rgb, boxes, probs)
        # the shifted crops are averaged into the reader's own reading, then blended once
        again = super().reread_bonus(rgb, boxes, self._local.raw)
        return blend(again, self._local.features, self.bank, self.how, self._local.cosines)

    def probe(self) -> np.ndarray:
        """The reader's features of `probe_image`: what a set records as its model."""
        return self.session.run([FEATURES], {self.input_name: probe_image(self.size)})[0][0]

    def features(self, rgb: np.ndarray, boxes: np.ndarray) -> "TileViews":
        """The tiles in `boxes` (in `rgb`'s pixels) as a set stores them, at the photo's size
        and shrunk to each of VIEW_SIDES (a set is taught close up and read from farther),
        as cut and turned 180°: ONNX calls of `chunk` crops (the same outputs as one call,
        in a fraction of its memory)."""
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        n, sizes = len(boxes), 1 + len(VIEW_SIDES)
        if not n:
            none = np.zeros((0, len(self.names)), np.float32)
            empty = np.zeros((0, sizes, 0), np.float32)
            return TileViews(none, none, empty, empty)
        cuts = [self.crops(rgb, boxes)] + [self.shrunk_crops(rgb, boxes, side)
                                           for side in VIEW_SIDES]
        batch = np.concatenate(cuts + [turn_over(c) for c in cuts])
        parts = [self.session.run([PROBABILITIES, FEATURES],
                                  {self.input_name: batch[i:i + self.chunk]})
                 for i in range(0, len(batch), self.chunk)]
        probs, feats = (np.concatenate(out) for out in zip(*parts))
        feats = feats.reshape(2, sizes, n, -1).transpose(0, 2, 1, 3)
        return TileViews(probs[:n], probs[sizes * n:(sizes + 1) * n], feats[0], feats[1])

    def shrunk_crops(self, rgb: np.ndarray, boxes: np.ndarray, side: int) -> np.ndarray:
        """Crops of the tiles as a photo `side` pixels across their short side shows them
        (a tile already that small as it is)."""
        from vision.recognition.refine import square_crop

        out = np.empty((len(boxes), self.size, self.size, 3), np.uint8)
        for i, box in enumerate(boxes):
            w, h = box[2] - box[0], box[3] - box[1]
            f = min(1.0, side / max(1.0, float(min(w, h))))
            pad = 0.3 * max(w, h)
            x0, y0 = int(max(0, box[0] - pad)), int(max(0, box[1] - pad))
            x1, y1 = int(min(rgb.shape[1], box[2] + pad)), int(min(rgb.shape[0], box[3] + pad))
            region = rgb[y0:y1, x0:x1]
            small = cv2.resize(region, (max(2, round(region.shape[1] * f)),
                                        max(2, round(region.shape[0] * f))),
                               interpolation=cv2.INTER_AREA)
            moved = (np.asarray(box, np.float64) - [x0, y0, x0, y0]) * f
            out[i] = square_crop(small, moved, self.size, self.margin)
        return np.ascontiguousarray(out.transpose(0, 3, 1, 2), np.float32) * (1.0 / 255.0)


def taught_refiner(tileset: TileSet | None = None, base: CropClassifier | None = None,
                   how: Blend = DEFAULT_BLEND) -> TaughtClassifier:
    """The app's refiner (vision.recognition.refine.default_refiner) reading with `tileset`
    (None or empty: exactly as without one). ValueError when the reader cannot learn a set."""
    base = default_refiner() if base is None else base
    if not isinstance(base, CropClassifier):
        raise ValueError("no crop reader to read with a tile set (models/tile_classifier.onnx "
                         "or $MAHJONG_LENS_CLASSIFIER)")
    return TaughtClassifier(base, tileset, how)
