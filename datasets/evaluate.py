"""Measure the detector (with its refiner) as the user meets it: photo files in, tiles out.

    python -m datasets.evaluate --synth cache/synth_val [--camerash ../shared/data/camerash [--scale 0.5] [--turn 90]
        [--blur 0.04] [--noise 20]] \
        [--model models/detector.onnx] [--json cache/eval.json] [--limit N] [--conf C] \
        [--classifier none | PATH [--reader] [--upside-down] [--margins 0.03,0.13]
                              [--min-confidence 0.5]] [--views 2] [--turn-below 0.8] [--no-glyphs]

Without `--classifier` the pipeline is the app's (vision.recognition.refine.default_refiner: the committed
crop classifier in reader mode, each crop read as many ways as its metadata says, turned only
when the crop as cut leaves it unsure; `--views` and `--turn-below` change that);
`--classifier none` measures the detector alone (not possible for a tile finder),
`--classifier PATH` another classifier.

Two test sets: synthetic scenes drawn with tile designs never used in training (YOLO labels
beside the images), and the held-out Camerash photos with the boxes of
datasets/camerash_boxes.json. Those photos are only partly labelled (only tiles that have a
crop have a box), so there a detection whose best IoU with every labelled box is under
IGNORE_IOU is left out: it most likely sits on an unlabelled tile.

Reported per set: mAP50 and mAP50-95 (COCO 101-point AP, class-aware matching, detections
down to confidence 0.001, ranked by their final confidence, one class per box: what the app
shows); beside it `mAP50_top3`, each box also scored for its reader's two runner-up classes
(at tile score x their probability), the way ultralytics' val scores a box for several
classes (`multi_label`): it credits a right class ranked second, which the app offers as a
correction, so it is never the headline figure; per-tile precision, recall and
F1 at the operating confidence, a tile counting when a detection overlaps it with IoU >= 0.5
and has its class (the confidence is applied as the app applies it, to the detector's tile
score: in reader mode the class probability lowers a tile's confidence but never drops it);
F1 at a grid of confidences (to pick the operating point on a development set), F1 per class,
the share of photos read with no error (every labelled tile right, nothing extra), the
confusion pairs (true -> read), the median seconds per photo (decode, detect, refine), and
`marks`: how many of the shown tiles that need a tap (misread, or a box on no tile) the page
marks orange (confidence under a threshold, app.recognise.LOW_CONFIDENCE), against how many
right tiles it marks for nothing, at a grid of thresholds.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from vision.boxes import box_iou

IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)
IGNORE_IOU = 0.25
MAP_CONF = 0.001


@dataclass
class Sample:
    """One photo's truth: boxes (M, 4) in photo pixels and class ids (M,)."""
    image: Path
    xyxy: np.ndarray
    class_id: np.ndarray
    partial: bool = False  # only some tiles labelled: ignore detections away from them


@dataclass
class Result:
    """One photo's detections (all down to MAP_CONF) and reading time."""
    xyxy: np.ndarray
    class_id: np.ndarray
    confidence: np.ndarray
    seconds: float
    error: str | None = None
    tile_score: np.ndarray | None = None  # what the operating confidence applies to (the app's rule)
    alt_class_id: np.ndarray | None = None  # (N, K) the reader's runner-up classes, best first
    alt_confidence: np.ndarray | None = None

    def with_runners_up(self) -> Result:
        """Each box once more for each runner-up class, at its own confidence."""
        if self.alt_class_id is None or len(self.xyxy) == 0:
            return self
        k = self.alt_class_id.shape[1]
        return Result(np.concatenate([self.xyxy, np.repeat(self.xyxy, k, axis=0)]),
                      np.concatenate([self.class_id, self.alt_class_id.reshape(-1)]),
                      np.concatenate([self.confidence, self.alt_confidence.reshape(-1)]),
                      self.seconds, self.error)

    def select(self, keep: np.ndarray) -> Result:
        """Only the detections where `keep` is true (every per-detection field)."""
        def pick(values):
            return None if values is None else values[keep]
        return replace(self, xyxy=self.xyxy[keep], class_id=self.class_id[keep],
                       confidence=self.confidence[keep], tile_score=pick(self.tile_score),
                       alt_class_id=pick(self.alt_class_id),
                       alt_confidence=pick(self.alt_confidence))

    def kept(self, conf: float) -> np.ndarray:
        """The detections the app shows at operating confidence `conf`."""
        score = self.confidence if self.tile_score is None else self.tile_score
        return score >= conf


def drop_unlabelled(sample: Sample, result: Result) -> Result:
    """For a partly labelled photo, keep only detections near some labelled tile."""
    if not sample.partial or len(result.xyxy) == 0:
        return result
    if len(sample.xyxy) == 0:
        keep = np.zeros(len(result.xyxy), bool)
    else:
        keep = box_iou(result.xyxy, sample.xyxy).max(axis=1) >= IGNORE_IOU
    return result.select(keep)


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


def synth_samples(folder: Path) -> list[Sample]:
    """Scenes of `datasets.synth`: each image with its YOLO label file."""
    from PIL import Image

    from datasets.train_detector import find_scenes
    samples = []
    for image, label in find_scenes(folder):
        width, height = Image.open(image).size
        rows = np.loadtxt(label, ndmin=2) if label.stat().st_size else np.zeros((0, 5))
        cx, cy, w, h = (rows[:, k] * scale for k, scale in
                        zip(range(1, 5), (width, height, width, height)))
        xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
        samples.append(Sample(image, xyxy.reshape(-1, 4), rows[:, 0].astype(np.int64)))
    return samples


def camerash_samples(camerash: Path, boxes_json: Path, held_out: bool = True) -> list[Sample]:
    """Held-out Camerash photos (or the others), partly labelled by template matching."""
    from datasets.classes import class_index
    boxes = json.loads(boxes_json.read_text())
    samples = []
    for name, photo in sorted(boxes["photos"].items()):
        if photo["held_out"] != held_out or not photo["tiles"]:
            continue
        xyxy = np.array([t["box"] for t in photo["tiles"]], np.float64)
        class_id = np.array([class_index()[t["code"]] for t in photo["tiles"]], np.int64)
        samples.append(Sample(camerash / "raw-images" / name, xyxy, class_id, partial=True))
    return samples


def reshot(samples: list[Sample], folder: Path, scale: float = 1.0, turns: int = 0,
           blur: float = 0.0, noise: float = 0.0) -> list[Sample]:
    """The photos resized by `scale` (Lanczos), blurred (a Gaussian of `blur` times the
    photo's median labelled tile short side: out of focus, or a shaking hand in dim light),
    with sensor noise (Gaussian, `noise` grey levels of 255, seeded by the photo's place in
    the list) and turned `turns` x 90 degrees counter-clockwise in their pixels (no EXIF),
    written into `folder` as JPEG q90, with their boxes moved alike: the same tiles seen
    smaller (from farther, through a messenger), in worse light, or from another side of
    the table."""
    import cv2
    from PIL import Image

    from vision.boxes import short_sides
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for index, sample in enumerate(samples):
        image = Image.open(sample.image).convert("RGB")
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.LANCZOS) if scale != 1.0 else image
        xyxy = sample.xyxy * scale
        if blur > 0 or noise > 0:
            pixels = np.asarray(image, np.float32)
            if blur > 0 and len(xyxy):
                side = float(np.median(short_sides(xyxy)))
                pixels = cv2.GaussianBlur(pixels, (0, 0), max(blur * side, 1e-3))
            if noise > 0:
                pixels = pixels + np.random.default_rng([index]).normal(0.0, noise, pixels.shape)
            image = Image.fromarray(np.clip(np.rint(pixels), 0, 255).astype(np.uint8))
        for _ in range(turns % 4):  # (x, y) -> (y, width - x), one quarter turn at a time
            x1, y1, x2, y2 = xyxy.T
            xyxy = np.stack([y1, image.width - x2, y2, image.width - x1], axis=1)
            image = image.transpose(Image.Transpose.ROTATE_90)
        path = folder / f"{sample.image.stem}.jpg"
        image.save(path, quality=90)
        out.append(replace(sample, image=path, xyxy=xyxy))
    return out


def run_reader(reader, samples: list[Sample]) -> list[Result]:
    from vision.image import ImageError
    results = []
    for sample in samples:
        try:
            reading = reader.read(sample.image)
            found = reading.detections
            result = Result(found.xyxy.astype(np.float64), found.class_id, found.confidence,
                            reading.seconds, tile_score=reading.tile_score,
                            alt_class_id=found.alt_class_id, alt_confidence=found.alt_confidence)
        except ImageError as exc:
            result = Result(np.zeros((0, 4)), np.zeros(0, np.int64), np.zeros(0), 0.0, str(exc))
        results.append(drop_unlabelled(sample, result))
    return results


def without_class(samples: list[Sample], results: list[Result], class_id: int
                  ) -> tuple[list[Sample], list[Result]]:
    """The same photos with the labels of `class_id` and the detections read as it left out
    (`--face-up-only`: finders that label face-down walls or not are then compared on the
    tiles whose faces show; a face-down tile read as a face still counts as a wrong tile)."""
    kept_samples = [replace(s, xyxy=s.xyxy[s.class_id != class_id],
                            class_id=s.class_id[s.class_id != class_id]) for s in samples]
    return kept_samples, [r.select(r.class_id != class_id) for r in results]


CONF_GRID = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6)


def tile_finding_ap50(samples: list[Sample], results: list[Result]) -> float:
    """AP50 of "a tile is here", whatever its class: how well the detector finds tiles."""
    def one_class(items):
        return [replace(item, class_id=np.zeros_like(item.class_id)) for item in items]
    return mean_average_precision(one_class(samples), one_class(results), 1)["mAP50"]


def group_f1(per_class: dict[str, float]) -> dict[str, float | None]:
    """Mean F1 of the flowers and seasons and of the suits and honours present: a reading
    change can trade one group for the other with the total barely moving (session 17)."""
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


def interval(out: dict) -> str:
    lo_hi = out.get("f1_interval_95")
    return f" (95 % {lo_hi[0]:.3f}-{lo_hi[1]:.3f} over photos)" if lo_hi else ""


def report(name: str, samples: list[Sample], results: list[Result], names: tuple[str, ...],
           conf: float) -> dict:
    maps = mean_average_precision(samples, results, len(names))
    if any(r.alt_class_id is not None for r in results):
        maps["mAP50_top3"] = mean_average_precision(
            samples, [r.with_runners_up() for r in results], len(names))["mAP50"]
    tiles = score_tiles(samples, results, conf)
    by_conf = {}
    for threshold in CONF_GRID:  # to pick an operating point on a development set
        counts = score_tiles(samples, results, threshold)
        by_conf[threshold] = round(f1(counts.tp, counts.fp, counts.fn)[2], 4)
    precision, recall, f1_all = f1(tiles.tp, tiles.fp, tiles.fn)
    per_class = {names[c]: round(f1(*counts)[2], 4) for c, counts in sorted(tiles.per_class.items())
                 if counts[0] + counts[2] > 0}
    seconds = [r.seconds for r in results if r.error is None]
    counts = photo_counts(samples, results, conf)
    out = {"set": name, "photos": len(samples), "tiles": int(sum(len(s.class_id) for s in samples)),
           **{k: round(v, 4) for k, v in maps.items()},
           "tile_AP50": round(tile_finding_ap50(samples, results), 4),
           "conf": conf, "tiles_found": tiles.found,
           "precision": round(precision, 4), "recall": round(recall, 4),
           "f1": round(f1_all, 4),
           "f1_interval_95": [round(v, 4) for v in f1_interval(counts)] if len(counts) else None,
           "photos_without_error": round(tiles.photos_right / max(1, len(samples)), 4),
           "median_seconds": round(float(np.median(seconds)), 4) if seconds else None,
           "unreadable": [str(s.image) for s, r in zip(samples, results) if r.error],
           "f1_by_conf": by_conf,
           "f1_per_class": per_class,
           **group_f1(per_class),
           "marks": marks(samples, results, conf),
           "confusions": [[names[t], names[r], n] for (t, r), n in tiles.confusions.most_common()],
           # per photo: image, right, shown wrong, missed (datasets.compare pairs two runs by these)
           "photo_counts": [[str(s.image), *map(int, c)] for s, c in zip(samples, counts)]}
    print(f"\n== {name}: {out['photos']} photos, {out['tiles']} labelled tiles")
    top3 = f" (top-3 {out['mAP50_top3']:.3f})" if "mAP50_top3" in out else ""
    print(f"mAP50 {out['mAP50']:.3f}{top3}  mAP50-95 {out['mAP50-95']:.3f}  tile AP50 "
          f"{out['tile_AP50']:.3f}  |  at conf {conf}: "
          f"P {precision:.3f}  R {recall:.3f}  F1 {f1_all:.3f}{interval(out)}  |  photos without error "
          f"{out['photos_without_error']:.1%}  |  median {out['median_seconds']} s/photo  |  "
          f"tiles found {tiles.found} of {out['tiles']}")
    print("F1 by confidence: " + ", ".join(f"{c} {v:.3f}" for c, v in by_conf.items()))
    worst = sorted(per_class.items(), key=lambda item: item[1])[:10]
    print("lowest class F1: " + ", ".join(f"{code} {value:.2f}" for code, value in worst))
    print(f"mean class F1: flowers and seasons {out['f1_flowers_seasons']}, suits and honours "
          f"{out['f1_suits_honours']}")
    print("orange marks (threshold: wrong tiles marked, right tiles marked): " + ", ".join(
        f"{t} {w / max(1, nw):.0%} {r / max(1, nr):.0%}" for t, (w, nw, r, nr) in out["marks"].items()))
    print("confusions (true -> read): " + (", ".join(
        f"{t}->{r} x{n}" for t, r, n in out["confusions"][:15]) or "none"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--synth", type=Path, help="synthetic scenes with held-out designs")
    parser.add_argument("--camerash", type=Path, help="folder of the Camerash data set")
    parser.add_argument("--boxes", type=Path, default=Path(__file__).with_name("camerash_boxes.json"))
    parser.add_argument("--camerash-training", action="store_true",
                        help="read the Camerash photos the models trained on instead of the "
                             "held-out ones: a check that a new model still finds what it was "
                             "taught, never a measure")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="read the photos resized by this factor (0..1]")
    parser.add_argument("--turn", type=int, choices=(0, 90, 180, 270), default=0,
                        help="read the photos turned this many degrees counter-clockwise "
                             "(in the pixels, no EXIF)")
    parser.add_argument("--blur", type=float, default=0.0, metavar="F",
                        help="read the photos blurred: a Gaussian of F times their median tile "
                             "short side (0.04: soft; 0.08: badly out of focus)")
    parser.add_argument("--noise", type=float, default=0.0, metavar="STD",
                        help="read the photos with Gaussian sensor noise of STD grey levels")
    parser.add_argument("--model", type=Path, default=None, help="detector ONNX file")
    parser.add_argument("--conf", type=float, default=0.25, help="operating confidence")
    parser.add_argument("--iou", type=float, default=None,
                        help="NMS IoU (default: the app's, vision.pipeline.NMS_IOU)")
    parser.add_argument("--limit", type=int, default=0, help="at most this many synthetic scenes")
    parser.add_argument("--json", type=Path, help="write the report here")
    parser.add_argument("--classifier", type=Path, default=None,
                        help="crop classifier ONNX to refine with (default: the app's second "
                             "stage, vision.recognition.refine.default_refiner; 'none': the detector alone)")
    parser.add_argument("--reader", action="store_true",
                        help="with --classifier: the detector only finds tiles (sum of class "
                             "scores) and the classifier reads every class")
    parser.add_argument("--upside-down", action="store_true",
                        help="with --classifier: also read each crop turned 180° and average")
    parser.add_argument("--margins", default="",
                        help="with --classifier: also read crops cut with these margins "
                             "(comma-separated, of the box size) and average")
    parser.add_argument("--face-up-only", action="store_true",
                        help="leave out labels and readings of face-down tiles (`back`)")
    parser.add_argument("--one-set", type=float, default=0.0,
                        help="with --classifier in reader mode: read the tiles of tile score "
                             "from this value together as one set (vision/recognition/copies.py); 0: off")
    parser.add_argument("--min-confidence", type=float, default=0.5,
                        help="the classifier overrides a class only from this probability")
    parser.add_argument("--no-zoom", action="store_true",
                        help="read each photo once, without the second look at small tiles "
                             "(vision/recognition/zoom.py)")
    parser.add_argument("--views", type=int, choices=(1, 2, 6), default=None,
                        help="crops read per tile: 1 (one cut), 2 (both ways up), 6 (three "
                             "cuts both ways up); default: the refiner's own (the app's: "
                             "the classifier's metadata `views`, else 6)")
    parser.add_argument("--no-glyphs", action="store_true",
                        help="read flowers and seasons without their printed number and "
                             "character (vision/recognition/glyphs.py)")
    parser.add_argument("--turn-below", type=float, default=None,
                        help="read a tile turned 180 degrees too only when its top probability "
                             "as cut is under this (0: every tile); default: the refiner's own "
                             "(the app's: vision.recognition.refine.TURN_BELOW)")
    args = parser.parse_args(argv)
    if not 0.0 < args.scale <= 1.0:
        parser.error(f"--scale {args.scale}: expected a factor in (0, 1]")
    if args.blur < 0 or args.noise < 0:
        parser.error("--blur and --noise: expected 0 or more")
    from scoring.tiles import BACK
    from vision.runtime import model_path
    from vision.pipeline import NMS_IOU, TileReader
    from vision.recognition.refine import CropClassifier, PassThrough
    if args.classifier is None:  # the app's own second stage (vision.recognition.refine.default_refiner)
        refiner = None
    elif str(args.classifier).lower() == "none":
        refiner = PassThrough()
    else:
        refiner = CropClassifier(args.classifier, min_confidence=args.min_confidence,
                                 mode="reader" if args.reader else "override",
                                 upside_down=args.upside_down,
                                 margins=tuple(float(m) for m in args.margins.split(",") if m),
                                 one_set=args.one_set)
    try:
        reader = TileReader(args.model or model_path(), refiner=refiner, conf=MAP_CONF,
                            iou=NMS_IOU if args.iou is None else args.iou, zoom=not args.no_zoom)
    except (ValueError, FileNotFoundError) as exc:
        parser.error(str(exc))
    if args.no_glyphs and hasattr(reader.refiner, "glyphs"):
        reader.refiner.glyphs = None
    if args.views and hasattr(reader.refiner, "set_views"):
        reader.refiner.set_views(args.views)
    if args.turn_below is not None and hasattr(reader.refiner, "turn_below"):
        reader.refiner.turn_below = args.turn_below
    reports = []
    how = ((f", shrunk to {args.scale:g}" if args.scale != 1.0 else "")
           + (f", blurred by {args.blur:g} of a tile" if args.blur else "")
           + (f", noise {args.noise:g} grey levels" if args.noise else "")
           + (f", turned {args.turn} degrees" if args.turn else ""))
    with tempfile.TemporaryDirectory() as folder:
        def taken(samples: list[Sample], name: str) -> list[Sample]:
            if args.scale == 1.0 and not (args.turn or args.blur or args.noise):
                return samples
            return reshot(samples, Path(folder) / name, args.scale, args.turn // 90,
                          args.blur, args.noise)

        if args.synth:
            samples = taken(synth_samples(args.synth)[: args.limit or None], "synth")
            results = run_reader(reader, samples)
            if args.face_up_only:
                samples, results = without_class(samples, results, reader.names.index(BACK))
            reports.append(report(f"synthetic scenes ({args.synth})" + how
                                  + (", face-up tiles only" if args.face_up_only else ""),
                                  samples, results, reader.names, args.conf))
        if args.camerash:
            held_out = not args.camerash_training
            samples = taken(camerash_samples(args.camerash, args.boxes, held_out), "camerash")
            reports.append(report(f"Camerash {'held-out' if held_out else 'TRAINING'} real photos"
                                  + how, samples,
                                  run_reader(reader, samples), reader.names, args.conf))
    if not reports:
        parser.error("give --synth and/or --camerash")
    if args.json:
        refiner = reader.refiner
        args.json.write_text(json.dumps({"model": str(reader.detector.path),
                                         "classifier": str(args.classifier or "default"),
                                         "classifier_mode": getattr(refiner, "mode", "none"),
                                         "upside_down": getattr(refiner, "upside_down", False),
                                         "turn_below": getattr(refiner, "turn_below", 0.0),
                                         "margins": list(getattr(refiner, "extra_margins", ())),
                                         "nms_iou": reader.iou, "zoom": reader.zoom,
                                         "one_set": getattr(refiner, "one_set", 0.0),
                                         "glyphs": getattr(getattr(refiner, "glyphs", None),
                                                           "path", None),
                                         "reports": reports}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
