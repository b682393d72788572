"""Measure the crop classifier alone, on crops it never trained on.

    python -m datasets.eval.classifier [--model models/tile_classifier.onnx] \\
        [--camerash ../shared/data/camerash] [--synth cache/synth_val] [--rendered 20] \\
        [--paired [--paired-conf 0.001]] [--json cache/classifier_eval.json]

Test sets (every one is outside training):
- `camerash-box`: the held-out Camerash photos (HELD_OUT_SETS), each labelled box cut by
  `vision.recognition.refine.square_crop` as the refiner cuts a detection;
- `camerash-file`: the same tiles, the crop files of raw-tiles/ as the data set gives them;
- `camerash-small`: the same boxes after shrinking the photo so that the tile is 28 pixels
  tall and saving it as JPEG quality 60 (a far tile of a phone photo);
- `synth-scenes`: labelled tiles of the synthetic validation scenes (held-out designs);
- `rendered`: `--rendered` crops per class drawn from the held-out designs' art
  (`--rendered-designs dev`: from the development design no model learns, to choose by);
- `bonus-dev`: `--bonus-dev` procedural bonus sets and white dragons drawn from seeds no
  training run draws (datasets.synth.crop_render.BONUS_DEV_SEED0), 12 crops of each of their 9
  tiles: can the reader read a flower, season or white dragon of a set it has never seen?
  (For development: choices are made on it.)
- `unseen-sets`: `--unseen-sets` whole procedural sets of seeds no training run draws
  (datasets.synth.crop_render.UNSEEN_SET_SEED0 on), 20 crops of each of their 42 faces and of
  `back`: a development stand-in for tile art the reader has never seen (choices are made on
  it; it is our own drawing, so it flatters the reader beside truly foreign art).
- `unseen-variants`: `--unseen-variants` the same sets drawn with their own arrangements and
  styles of dots and sticks (datasets.art.faces.sample_variants), as real sets differ: does the
  reader count elements, or has it learned one picture per count? (Development.)
Crops are read once (`--upside-down`: both ways up, averaged). Reported: accuracy overall, on the 34 suit and honour tiles, on the 8 bonus tiles, per
class, and the most common confusions.

`--paired` runs the detector on the held-out photos and scenes and compares, detection by
detection, its class with the refined class (the refiner moves no box and keeps the score,
so the pairs are the same): which tiles the refiner fixes and which it breaks.
(`--paired` needs a detector with its own classes, not a tile finder.) The pipeline's time
with a classifier is measured by datasets/eval/timing.py.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from datasets.classes import class_names
from vision.runtime import REPO_ROOT

SUIT_HONOUR, BONUS = range(34), range(34, 42)


def scores(pred: np.ndarray, labels: np.ndarray) -> dict:
    names = class_names()
    pred, labels = np.asarray(pred), np.asarray(labels)
    right = pred == labels

    def acc(mask):
        return round(float(right[mask].mean()), 4) if mask.any() else None

    per_class = {names[c]: acc(labels == c) for c in range(len(names)) if (labels == c).any()}
    confusions = Counter((names[t], names[p]) for t, p in zip(labels, pred) if t != p)
    return {"n": len(labels), "accuracy": acc(np.ones(len(labels), bool)),
            "suit_honour": acc(np.isin(labels, SUIT_HONOUR)), "bonus": acc(np.isin(labels, BONUS)),
            "back": acc(labels == 42), "per_class": per_class,
            "confusions": [[t, p, n] for (t, p), n in confusions.most_common(20)]}


def classify(classifier, crops: list[np.ndarray]) -> np.ndarray:
    """The class of each crop, read as the classifier is set to (once, or both ways up)."""
    batch = np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    probs = np.concatenate([classifier.read_crops([batch[i:i + 256]])
                            for i in range(0, len(batch), 256)])
    return probs.argmax(axis=1)


def shrunk(patches, i: int, tile_px: int, quality: int) -> tuple[np.ndarray, list]:
    image, box = patches.images[i], patches.boxes[i]
    f = min(1.0, tile_px / max(box[3] - box[1], box[2] - box[0]))
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(2, round(w * f)), max(2, round(h * f))),
                       interpolation=cv2.INTER_AREA)
    _, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_UNCHANGED), [v * f for v in box]


def test_sets(args, size: int, margin: float) -> dict[str, tuple[list, np.ndarray]]:
    """The test sets the options ask for, (crops, labels) by name in report order."""
    sets = _camerash_sets(args.camerash, size, margin) if args.camerash else {}
    if args.synth:
        from datasets.real.crop_sources import scene_patches
        patches = scene_patches(args.synth, held_out_designs=True)
        sets["synth-scenes"] = (_crops(patches, size, margin), np.array(patches.labels))
    # Drawn sets: name, how many were asked for, the salt of their seed, and their art and
    # labels (made only when asked for).
    drawn = (("rendered", args.rendered, 4242,
              lambda: _design_art(args.rendered_designs, args.rendered)),
             ("bonus-dev", args.bonus_dev, 4343, lambda: _bonus_dev_art(args.bonus_dev)),
             ("unseen-sets", args.unseen_sets, 4444,
              lambda: _unseen_art(args.unseen_sets, variants=False)),
             ("unseen-variants", args.unseen_variants, 4545,
              lambda: _unseen_art(args.unseen_variants, variants=True)))
    for name, count, salt, art in drawn:
        if count:
            sets[name] = _rendered(*art(), [args.seed, salt], size, margin)
    return sets


def _crops(patches, size: int, margin: float) -> list[np.ndarray]:
    """Each labelled box cut as the refiner cuts a detection."""
    return [patches.crop(i, size, margin) for i in range(len(patches))]


def _camerash_sets(camerash: Path, size: int, margin: float) -> dict[str, tuple[list, np.ndarray]]:
    """The held-out Camerash tiles three ways: cut from the photo by their box, the data
    set's own crop files, and cut from the photo shrunk to a far tile's size."""
    from datasets.real.camerash_boxes import BOXES_JSON as boxes
    from datasets.real.crop_sources import camerash_crop_files, camerash_patches
    from vision.recognition.refine import square_crop
    patches = camerash_patches(camerash, boxes, held_out=True)
    labels = np.array(patches.labels)
    sets = {"camerash-box": (_crops(patches, size, margin), labels)}
    images, file_labels, _ = camerash_crop_files(camerash, boxes, held_out=True)
    sets["camerash-file"] = ([_resized(im, size) for im in images], np.array(file_labels))
    small = [shrunk(patches, i, 28, 60) for i in range(len(patches))]
    sets["camerash-small"] = ([square_crop(im, box, size, margin) for im, box in small], labels)
    return sets


def _resized(image: np.ndarray, size: int) -> np.ndarray:
    """A crop file at the classifier's size (area-averaged when shrunk)."""
    interpolation = cv2.INTER_AREA if min(image.shape[:2]) > size else cv2.INTER_LINEAR
    return cv2.resize(image, (size, size), interpolation=interpolation)


def _design_art(designs: str, per_class: int):
    """The art of these designs, and `per_class` labels of each class they draw and of
    `back` (42), which every design has."""
    from datasets.art.designs import select
    from datasets.synth.crop_render import FaceBank
    bank = FaceBank(select(designs))
    drawable = [c for c in range(len(class_names()))
                if c >= bank.present.shape[1] or bank.present[:, c].any()]
    return bank, np.repeat(np.array(drawable), per_class)


def _bonus_dev_art(sets: int):
    """`sets` procedural bonus sets and white dragons never trained on, 12 labels of each
    of their 9 tiles per set."""
    from datasets.synth.crop_render import BONUS_DEV_SEED0, FaceBank
    bank = FaceBank([], bonus_sets=sets, bonus_seed0=BONUS_DEV_SEED0, white_sets=sets)
    return bank, np.repeat(np.array([*BONUS, class_names().index("5z")]), 12 * sets)


def _unseen_art(sets: int, variants: bool):
    """`sets` whole procedural sets never trained on (with their own arrangements of dots
    and sticks when `variants`), 20 labels of each class."""
    from datasets.synth.crop_render import UNSEEN_SET_SEED0, FaceBank
    bank = FaceBank([])
    bank.add_procedural_sets(range(UNSEEN_SET_SEED0, UNSEEN_SET_SEED0 + sets), variants=variants)
    return bank, np.repeat(np.arange(len(class_names())), 20)


def _rendered(bank, labels: np.ndarray, seed: list[int], size: int, margin: float
              ) -> tuple[list, np.ndarray]:
    """One crop per label drawn from the designs of `bank`, as the classifier trains on them."""
    from datasets.synth.crop_render import rendered_crop
    rng = np.random.default_rng(seed)
    return [rendered_crop(rng, bank, int(c), size, margin) for c in labels], labels


def paired(model: Path, detector: Path | None, synth: Path | None, camerash: Path | None,
           conf: float) -> dict:
    """Class of the same detections with and without the refiner: the refiner moves no box
    and changes no confidence, so both readings match the labelled tiles in the same pairs
    (IoU >= 0.5, confidence >= `conf`); count the pairs each reading gets right."""
    from datasets.eval.samples import run_reader
    sets = _paired_sets(synth, camerash)
    plain, refined = _plain_and_refined(model, detector)
    out = {}
    for name, samples in sets:
        counts = _pair_counts(samples, run_reader(plain, samples), run_reader(refined, samples),
                              conf)
        out[name] = dict(counts) | {"conf": conf}
        n = max(1, counts["pairs"])
        print(f"{name}: {counts['pairs']} detections on a labelled tile (IoU >= 0.5, conf >= "
              f"{conf}): class right {counts['detector_right'] / n:.3f} by the detector, "
              f"{counts['refined_right'] / n:.3f} refined ({counts['fixed']} fixed, "
              f"{counts['broken']} broken)")
    return out


def _paired_sets(synth: Path | None, camerash: Path | None) -> list[tuple[str, list]]:
    """(name, samples) of the held-out scenes and photos given."""
    from datasets.eval.samples import camerash_samples, synth_samples
    from datasets.real.camerash_boxes import BOXES_JSON
    sets = []
    if synth:
        sets.append(("synthetic held-out designs", synth_samples(synth)))
    if camerash:
        sets.append(("Camerash held-out real photos", camerash_samples(camerash, BOXES_JSON)))
    return sets


def _plain_and_refined(model: Path, detector: Path | None):
    """Two readers of the same detector: one keeps its classes, one refines them with the
    classifier `model`."""
    from datasets.eval.samples import MAP_CONF
    from vision.pipeline import TileReader
    from vision.recognition.refine import CropClassifier, PassThrough
    from vision.runtime import model_path
    classifier = CropClassifier(model)

    class SameDecode(PassThrough):  # the detector sees the same pixels in both readings
        decode_min_side = classifier.decode_min_side

    return (TileReader(detector or model_path(), conf=MAP_CONF, refiner=SameDecode()),
            TileReader(detector or model_path(), conf=MAP_CONF, refiner=classifier))


def _pair_counts(samples, plain, refined, conf: float) -> Counter:
    """Over the detections at `conf` or more on a labelled tile: how many, how many each
    reading gets right, and how many the refiner fixes and breaks."""
    from datasets.eval.metrics import match_tiles
    counts = Counter()
    for sample, a, b in zip(samples, plain, refined):
        keep = a.confidence >= conf
        assert np.array_equal(keep, b.confidence >= conf)
        for p, g in match_tiles(a.xyxy[keep], a.confidence[keep], sample.xyxy):
            truth = sample.class_id[g]
            right_a, right_b = a.class_id[keep][p] == truth, b.class_id[keep][p] == truth
            counts.update(pairs=1, detector_right=int(right_a), refined_right=int(right_b),
                          fixed=int(right_b and not right_a), broken=int(right_a and not right_b))
    return counts


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    cv2.setNumThreads(args.threads)
    from vision.recognition.refine import CropClassifier
    classifier = CropClassifier(args.model, threads=args.threads, upside_down=args.upside_down)
    sets = test_sets(args, classifier.size, classifier.margin)
    report = {"model": str(args.model), "sets": _scored(classifier, sets)}
    if args.paired:
        report["paired"] = paired(args.model, args.detector, args.synth, args.camerash,
                                  args.paired_conf)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=REPO_ROOT / "models" / "tile_classifier.onnx")
    parser.add_argument("--camerash", type=Path, help="folder of the Camerash data set")
    parser.add_argument("--synth", type=Path, help="synthetic scenes of held-out designs")
    parser.add_argument("--rendered", type=int, default=0, help="rendered crops per class")
    parser.add_argument("--rendered-designs", default="heldout", help="whose art --rendered "
                        "draws: heldout (report) or dev (datasets.art.designs.DEVELOPMENT: choose)")
    parser.add_argument("--bonus-dev", type=int, default=0,
                        help="procedural bonus sets never trained on (development)")
    parser.add_argument("--unseen-sets", type=int, default=0,
                        help="whole procedural sets never trained on (development)")
    parser.add_argument("--unseen-variants", type=int, default=0,
                        help="the same sets with other arrangements of dots and sticks "
                        "(development)")
    parser.add_argument("--upside-down", action="store_true",
                        help="read each crop both ways up and average (2 views)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--paired", action="store_true", help="compare the classes of the "
                        "detector's own detections with and without the refiner")
    parser.add_argument("--paired-conf", type=float, default=0.001)
    parser.add_argument("--detector", type=Path, help="detector ONNX for --paired")
    parser.add_argument("--json", type=Path)
    return parser


def _scored(classifier, sets: dict) -> dict:
    """Each set's scores, printed as it is read with its weakest classes and commonest
    confusions."""
    out = {}
    for name, (crops, labels) in sets.items():
        start = time.time()
        result = out[name] = scores(classify(classifier, crops), labels)
        worst = sorted((v, k) for k, v in result["per_class"].items())[:6]
        print(f"{name}: {result['n']} crops, accuracy {result['accuracy']:.3f} (suits and "
              f"honours {result['suit_honour']}, bonus {result['bonus']}, back "
              f"{result['back']}) in {time.time() - start:.1f} s; weakest: "
              + ", ".join(f"{k} {v:.2f}" for v, k in worst)
              + "; confusions: " + ", ".join(f"{t}->{p} x{n}" for t, p, n in result["confusions"][:8]))
    return out


if __name__ == "__main__":
    sys.exit(main())
