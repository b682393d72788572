"""Scores of a reading against the truth: tile matching, mAP, per-tile F1 at an operating
confidence, per-class F1, the page's orange marks, and F1 intervals resampled by photo."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np

from datasets.eval.samples import Result, Sample
from vision.boxes import box_iou

IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)


def match_tiles(pred_xyxy, pred_conf, gt_xyxy, iou_threshold=0.5) -> list[tuple[int, int]]:
    """Greedy one-to-one matching by confidence, class-blind: (pred index, gt index) pairs."""
    if len(pred_xyxy) == 0 or len(gt_xyxy) == 0:
        return []
    iou = box_iou(pred_xyxy, gt_xyxy)
    taken = np.zeros(len(gt_xyxy), bool)
    pairs = []
    for p in np.argsort(-np.asarray(pred_conf), kind="stable"):
        candidates = np.where(~taken & (iou[p] >= iou_threshold), iou[p], -1.0)
        g = int(candidates.argmax())
        if candidates[g] >= 0:
            taken[g] = True
            pairs.append((int(p), g))
    return pairs


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    """COCO 101-point interpolated AP of a precision/recall curve (ordered by confidence)."""
    envelope = np.concatenate([[0.0], precision, [0.0]])
    recall = np.concatenate([[0.0], recall, [1.0]])
    envelope = np.flip(np.maximum.accumulate(np.flip(envelope)))
    points = np.linspace(0, 1, 101)
    index = np.searchsorted(recall, points, side="left")  # first point reaching each recall
    return float(np.mean(envelope[index]))


def mean_average_precision(samples: list[Sample], results: list[Result],
                           num_classes: int) -> dict[str, float]:
    """mAP50 and mAP50-95 over the classes present in the truth (class-aware matching)."""
    ap = np.zeros((num_classes, len(IOU_THRESHOLDS)))
    present = np.zeros(num_classes, bool)
    for c in range(num_classes):
        n_gt = sum(int((s.class_id == c).sum()) for s in samples)
        if n_gt == 0:
            continue
        present[c] = True
        scored = []  # (confidence, photo index, detection index)
        for i, r in enumerate(results):
            scored += [(float(r.confidence[j]), i, j) for j in np.where(r.class_id == c)[0]]
        scored.sort(key=lambda item: -item[0])
        for t, threshold in enumerate(IOU_THRESHOLDS):
            taken = {i: np.zeros(int((s.class_id == c).sum()), bool) for i, s in enumerate(samples)}
            hits = np.zeros(len(scored))
            for k, (_, i, j) in enumerate(scored):
                truth = samples[i].xyxy[samples[i].class_id == c]
                if len(truth) == 0:
                    continue
                iou = box_iou(results[i].xyxy[j:j + 1], truth)[0]
                iou[taken[i]] = -1
                g = int(iou.argmax())
                if iou[g] >= threshold:
                    taken[i][g] = True
                    hits[k] = 1
            tp = np.cumsum(hits)
            recall = tp / n_gt
            precision = tp / np.arange(1, len(hits) + 1) if len(hits) else np.zeros(0)
            ap[c, t] = average_precision(recall, precision)
    if not present.any():
        return {"mAP50": 0.0, "mAP50-95": 0.0}
    return {"mAP50": float(ap[present, 0].mean()), "mAP50-95": float(ap[present].mean())}


@dataclass
class TileScore:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    per_class: dict = field(default_factory=dict)  # class id -> [tp, fp, fn]
    confusions: Counter = field(default_factory=Counter)  # (true id, read id) -> count
    photos_right: int = 0
    found: int = 0  # labelled tiles under a shown box (IoU >= 0.5), whatever it reads

    def add(self, c: int, tp=0, fp=0, fn=0) -> None:
        counts = self.per_class.setdefault(c, [0, 0, 0])
        counts[0] += tp
        counts[1] += fp
        counts[2] += fn


def f1(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall, (2 * precision * recall / (precision + recall)
                               if precision + recall else 0.0)


def shown_matches(sample: Sample, result: Result, conf: float
                  ) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """The detections the app shows at `conf` (class ids, confidences) and their one-to-one
    matches with the labelled tiles (IoU >= 0.5): (shown index, label index) pairs."""
    keep = result.kept(conf)
    cls, confidence = result.class_id[keep], result.confidence[keep]
    return cls, confidence, match_tiles(result.xyxy[keep], confidence, sample.xyxy)


def score_tiles(samples: list[Sample], results: list[Result], conf: float) -> TileScore:
    """Per-tile counts at the operating confidence: right box (IoU >= 0.5) and right class."""
    score = TileScore()
    for sample, result in zip(samples, results):
        cls, _, pairs = shown_matches(sample, result, conf)
        right = 0
        matched_pred = {p for p, _ in pairs}
        matched_gt = {g for _, g in pairs}
        for p, g in pairs:
            true, read = int(sample.class_id[g]), int(cls[p])
            if true == read:
                right += 1
                score.add(true, tp=1)
            else:
                score.confusions[(true, read)] += 1
                score.add(true, fn=1)
                score.add(read, fp=1)
        for p in set(range(len(cls))) - matched_pred:
            score.add(int(cls[p]), fp=1)
        for g in set(range(len(sample.class_id))) - matched_gt:
            score.add(int(sample.class_id[g]), fn=1)
        score.found += len(pairs)
        score.tp += right
        score.fp += len(cls) - right
        score.fn += len(sample.class_id) - right
        score.photos_right += (result.error is None and right == len(sample.class_id)
                               and len(cls) == right)
    return score


MARK_GRID = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def marks(samples: list[Sample], results: list[Result], conf: float,
          grid: tuple[float, ...] = MARK_GRID) -> dict[float, list[int]]:
    """How well the page's orange marks (a shown tile under a confidence) point at what needs
    a tap. Per threshold: [wrong shown tiles marked, wrong shown tiles, right ones marked,
    right ones]; wrong is a misread tile or a box on no labelled tile. (Missed tiles show no
    box to mark.)"""
    wrong_conf, right_conf = [], []
    for sample, result in zip(samples, results):
        cls, confidence, pairs = shown_matches(sample, result, conf)
        right = np.zeros(len(cls), bool)
        for p, g in pairs:
            right[p] = int(sample.class_id[g]) == int(cls[p])
        wrong_conf.extend(confidence[~right])
        right_conf.extend(confidence[right])
    wrong_conf, right_conf = np.asarray(wrong_conf), np.asarray(right_conf)
    return {t: [int((wrong_conf < t).sum()), len(wrong_conf), int((right_conf < t).sum()),
                len(right_conf)] for t in grid}


def tile_finding_ap50(samples: list[Sample], results: list[Result]) -> float:
    """AP50 of "a tile is here", whatever its class: how well the detector finds tiles."""
    def one_class(items):
        return [replace(item, class_id=np.zeros_like(item.class_id)) for item in items]
    return mean_average_precision(one_class(samples), one_class(results), 1)["mAP50"]


def group_f1(per_class: dict[str, float]) -> dict[str, float | None]:
    """Mean F1 of the flowers and seasons and of the suits and honours present: a reading
    change can trade one group for the other with the total barely moving."""
    from scoring.tiles import BONUS, PLAYING

    def mean(codes):
        values = [per_class[c] for c in codes if c in per_class]
        return round(float(np.mean(values)), 4) if values else None
    return {"f1_flowers_seasons": mean(BONUS), "f1_suits_honours": mean(PLAYING)}


def photo_counts(samples: list[Sample], results: list[Result], conf: float) -> np.ndarray:
    """(photos, 3): each photo's tiles right, shown wrong (or not a tile) and missed."""
    counts = [score_tiles([s], [r], conf) for s, r in zip(samples, results)]
    return np.array([[c.tp, c.fp, c.fn] for c in counts], np.int64).reshape(-1, 3)


def f1_interval(counts: np.ndarray, draws: int = 2000, seed: int = 0,
                other: np.ndarray | None = None) -> tuple[float, float]:
    """95 % interval of F1 over `counts` (photo_counts) resampled by photo, or, given the
    counts of `other` reading the same photos, of the difference F1 - F1(other), resampled
    in pairs: with 2-5 real tiles a class and photos that err together, what a change of a
    few tiles means."""
    rng = np.random.default_rng(seed)
    picks = rng.integers(len(counts), size=(draws, len(counts)))

    def f1s(c):
        tp, fp, fn = c[picks].sum(axis=1).T.astype(float)
        return 2 * tp / np.maximum(2 * tp + fp + fn, 1)
    values = f1s(counts) - (f1s(other) if other is not None else 0.0)
    return float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))
