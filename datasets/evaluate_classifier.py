"""Measure the crop classifier alone, on crops it never trained on, and time the pipeline.

    python -m datasets.evaluate_classifier [--model models/tile_classifier.onnx] \\
        [--camerash ../shared/data/camerash] [--synth cache/synth_val] [--rendered 20] \\
        [--timing PHOTO.jpg] [--json cache/classifier_eval.json]

Test sets (every one is outside training):
- `camerash-box`: the held-out Camerash photos (HELD_OUT_SETS), each labelled box cut by
  `vision.refine.square_crop` as the refiner cuts a detection;
- `camerash-file`: the same tiles, the crop files of raw-tiles/ as the data set gives them;
- `camerash-small`: the same boxes after shrinking the photo so that the tile is 28 pixels
  tall and saving it as JPEG quality 60 (a far tile of a phone photo);
- `synth-scenes`: labelled tiles of the synthetic validation scenes (held-out designs);
- `rendered`: `--rendered` crops per class drawn from the held-out designs' art.
Reported: accuracy overall, on the 34 suit and honour tiles, on the 8 bonus tiles, per
class, and the most common confusions.

`--timing PHOTO` reads the photo (e.g. a 12 MP JPEG) with the detector alone and with the
detector and this classifier: median seconds of decode + detect + refine over `--repeat`.
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

REPO = Path(__file__).resolve().parent.parent
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
    batch = np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    probs = np.concatenate([classifier.session.run(None, {classifier.input_name: batch[i:i + 256]})[0]
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
    from datasets.crop_sources import (
        camerash_crop_files,
        camerash_patches,
        scene_patches,
    )
    from vision.refine import square_crop
    sets = {}
    boxes = REPO / "datasets" / "camerash_boxes.json"
    if args.camerash:
        patches = camerash_patches(args.camerash, boxes, held_out=True)
        labels = np.array(patches.labels)
        sets["camerash-box"] = ([patches.crop(i, size, margin) for i in range(len(patches))], labels)
        images, file_labels, _ = camerash_crop_files(args.camerash, boxes, held_out=True)
        sets["camerash-file"] = ([cv2.resize(im, (size, size), interpolation=cv2.INTER_AREA
                                             if min(im.shape[:2]) > size else cv2.INTER_LINEAR)
                                  for im in images], np.array(file_labels))
        small = [shrunk(patches, i, 28, 60) for i in range(len(patches))]
        sets["camerash-small"] = ([square_crop(im, box, size, margin) for im, box in small], labels)
    if args.synth:
        patches = scene_patches(args.synth, held_out_designs=True)
        sets["synth-scenes"] = ([patches.crop(i, size, margin) for i in range(len(patches))],
                                np.array(patches.labels))
    if args.rendered:
        from datasets.crop_render import FaceBank, rendered_crop
        from datasets.designs import select
        bank = FaceBank(select("heldout"))
        rng = np.random.default_rng([args.seed, 4242])
        labels = np.repeat(np.arange(len(class_names())), args.rendered)
        sets["rendered"] = ([rendered_crop(rng, bank, int(c), size, margin) for c in labels],
                            labels)
    return sets


def timing(model: Path, photo: Path, repeat: int) -> dict:
    from vision.pipeline import TileReader
    from vision.refine import CropClassifier
    out = {"photo": str(photo)}
    for name, refiner in (("detector", None), ("detector+classifier", CropClassifier(model))):
        reader = TileReader(refiner=refiner)
        reader.read(photo)  # warm-up
        seconds = [reader.read(photo).seconds for _ in range(repeat)]
        found = reader.read(photo)
        out[name] = {"median_s": round(float(np.median(seconds)), 4),
                     "p90_s": round(float(np.percentile(seconds, 90)), 4),
                     "tiles": len(found.detections),
                     "decoded": list(found.photo.rgb.shape[:2]),
                     "full": [found.photo.height, found.photo.width]}
        print(f"{name}: median {out[name]['median_s'] * 1000:.0f} ms, p90 "
              f"{out[name]['p90_s'] * 1000:.0f} ms, {out[name]['tiles']} tiles, decoded "
              f"{out[name]['decoded']} of {out[name]['full']}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=REPO / "models" / "tile_classifier.onnx")
    parser.add_argument("--camerash", type=Path, help="folder of the Camerash data set")
    parser.add_argument("--synth", type=Path, help="synthetic scenes of held-out designs")
    parser.add_argument("--rendered", type=int, default=0, help="rendered crops per class")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--timing", type=Path, help="a photo to time the pipeline on")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    cv2.setNumThreads(args.threads)
    from vision.refine import CropClassifier
    classifier = CropClassifier(args.model, threads=args.threads)
    report = {"model": str(args.model), "sets": {}}
    for name, (crops, labels) in test_sets(args, classifier.size, classifier.margin).items():
        start = time.time()
        result = scores(classify(classifier, crops), labels)
        report["sets"][name] = result
        worst = sorted((v, k) for k, v in result["per_class"].items())[:6]
        print(f"{name}: {result['n']} crops, accuracy {result['accuracy']:.3f} (suits and "
              f"honours {result['suit_honour']}, bonus {result['bonus']}, back "
              f"{result['back']}) in {time.time() - start:.1f} s; weakest: "
              + ", ".join(f"{k} {v:.2f}" for v, k in worst)
              + "; confusions: " + ", ".join(f"{t}->{p} x{n}" for t, p, n in result["confusions"][:8]))
    if args.timing:
        report["timing"] = timing(args.model, args.timing, args.repeat)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
