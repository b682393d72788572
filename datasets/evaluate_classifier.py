"""Measure the crop classifier alone, on crops it never trained on, and time the pipeline.

    python -m datasets.evaluate_classifier [--model models/tile_classifier.onnx] \\
        [--camerash ../shared/data/camerash] [--synth cache/synth_val] [--rendered 20] \\
        [--paired [--paired-conf 0.001]] [--timing PHOTO.jpg] [--json cache/classifier_eval.json]

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
  training run draws (datasets.crop_render.BONUS_DEV_SEED0), 12 crops of each of their 9
  tiles: can the reader read a flower, season or white dragon of a set it has never seen?
  (For development: choices are made on it.)
- `unseen-sets`: `--unseen-sets` whole procedural sets of seeds no training run draws
  (datasets.crop_render.UNSEEN_SET_SEED0 on), 20 crops of each of their 42 faces and of
  `back`: a development stand-in for tile art the reader has never seen (choices are made on
  it; it is our own drawing, so it flatters the reader beside truly foreign art).
- `unseen-variants`: `--unseen-variants` the same sets drawn with their own arrangements and
  styles of dots and sticks (datasets.faces.sample_variants), as real sets differ: does the
  reader count elements, or has it learned one picture per count? (Development.)
Crops are read once (`--upside-down`: both ways up, averaged). Reported: accuracy overall, on the 34 suit and honour tiles, on the 8 bonus tiles, per
class, and the most common confusions.

`--paired` runs the detector on the held-out photos and scenes and compares, detection by
detection, its class with the refined class (the refiner moves no box and keeps the score,
so the pairs are the same): which tiles the refiner fixes and which it breaks.
`--timing PHOTO` reads the photo (e.g. a 12 MP JPEG) through the app's pipeline with this
classifier: median seconds of decode + detect + refine over `--repeat`, with the detector's
and the model's own share. (`--paired` needs a detector with its own classes, not a tile
finder.)
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
    from datasets.crop_sources import (
        camerash_crop_files,
        camerash_patches,
        scene_patches,
    )
    from vision.recognition.refine import square_crop
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
        from datasets.crop_render import FaceBank
        from datasets.designs import select
        bank = FaceBank(select(args.rendered_designs))
        drawable = [c for c in range(len(class_names()))   # `back` (42) every design has
                    if c >= bank.present.shape[1] or bank.present[:, c].any()]
        labels = np.repeat(np.array(drawable), args.rendered)
        sets["rendered"] = _rendered(bank, labels, [args.seed, 4242], size, margin)
    if args.bonus_dev:
        from datasets.crop_render import BONUS_DEV_SEED0, FaceBank
        bank = FaceBank([], bonus_sets=args.bonus_dev, bonus_seed0=BONUS_DEV_SEED0,
                        white_sets=args.bonus_dev)
        labels = np.repeat(np.array([*BONUS, class_names().index("5z")]), 12 * args.bonus_dev)
        sets["bonus-dev"] = _rendered(bank, labels, [args.seed, 4343], size, margin)
    for name, count, variants, seed in (("unseen-sets", args.unseen_sets, False, 4444),
                                        ("unseen-variants", args.unseen_variants, True, 4545)):
        if count:
            from datasets.crop_render import UNSEEN_SET_SEED0, FaceBank
            bank = FaceBank([])
            bank.add_procedural_sets(range(UNSEEN_SET_SEED0, UNSEEN_SET_SEED0 + count),
                                     variants=variants)
            labels = np.repeat(np.arange(len(class_names())), 20)
            sets[name] = _rendered(bank, labels, [args.seed, seed], size, margin)
    return sets


def _rendered(bank, labels: np.ndarray, seed: list[int], size: int, margin: float
              ) -> tuple[list, np.ndarray]:
    """One crop per label drawn from the designs of `bank`, as the classifier trains on them."""
    from datasets.crop_render import rendered_crop
    rng = np.random.default_rng(seed)
    return [rendered_crop(rng, bank, int(c), size, margin) for c in labels], labels


def _median_seconds(call, repeat: int) -> float:
    """Median wall seconds of `call()` over `repeat` runs, after one to warm up."""
    call()
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - start)
    return float(np.median(seconds))


def timing(model: Path, detector: Path | None, photo: Path, repeat: int) -> dict:
    """Median seconds of the app's pipeline on `photo` (decode, detect, refine with this
    classifier read as the app reads it: vision.recognition.refine.default_refiner, its views, the
    glyphs and one set), and of its parts: the finder on the decoded photo (letterbox, ONNX,
    NMS, and the second look at small tiles of vision/recognition/zoom.py) and the model's own ONNX
    call, one pass."""
    from vision.runtime import model_path
    from vision.pipeline import TileReader
    from vision.recognition.refine import default_refiner
    out = {"photo": str(photo)}
    refiner = default_refiner(model)
    reader = TileReader(detector or model_path(), refiner=refiner)
    reader.read(photo)  # warm-up
    seconds = [reader.read(photo).seconds for _ in range(repeat)]
    found = reader.read(photo)
    rgb = found.photo.rgb
    det = reader.detector
    detect_s, model_s = [], []
    blob = det.prepare(rgb)[0]
    for _ in range(repeat):
        start = time.perf_counter()
        reader.find(rgb)
        detect_s.append(time.perf_counter() - start)
        start = time.perf_counter()
        det.session.run(None, {det.input_name: blob})
        model_s.append(time.perf_counter() - start)
    out["pipeline"] = {"median_s": round(float(np.median(seconds)), 4),
                       "p90_s": round(float(np.percentile(seconds, 90)), 4),
                       "tiles": len(found.detections), "decoded": list(rgb.shape[:2]),
                       "full": [found.photo.height, found.photo.width]}
    out["detect_on_decoded_s"] = round(float(np.median(detect_s)), 4)
    out["model_alone_s"] = round(float(np.median(model_s)), 4)
    print(f"pipeline: median {np.median(seconds) * 1000:.0f} ms, p90 "
          f"{np.percentile(seconds, 90) * 1000:.0f} ms, {len(found.detections)} tiles, decoded "
          f"{list(rgb.shape[:2])} of {out['pipeline']['full']}; finder on the decoded photo, "
          f"with its second look at small tiles, {np.median(detect_s) * 1000:.0f} ms; the "
          f"model's ONNX call {np.median(model_s) * 1000:.0f} ms a pass")
    from vision.types import Detections
    h, w = rgb.shape[:2]
    tile_h = min(h, w) / 10
    if reader.stacking is not None:  # the stack classifier: four pungs' worth of lines
        boxes = np.array([[k * tile_h * 0.8, y, k * tile_h * 0.8 + tile_h * 0.75, y + tile_h]
                          for y in (0, 2 * tile_h) for k in range(6)], np.float32)
        codes = [code for code in ("1m", "2p", "3s", "4z") for _ in range(3)]
        median = _median_seconds(lambda: reader.stacking.on_top(rgb, boxes, codes), repeat)
        out["stack_4_lines_s"] = round(median, 4)
        print(f"stack classifier alone, 4 lines of three like tiles: median {median * 1000:.1f} ms")
    # The refine step alone for a hand's worth of tiles, whatever the detector finds: boxes
    # of a tile's size (a tenth of the short side tall) spread over the decoded photo.
    for count in (20, 40):
        xs = np.linspace(0, w - tile_h, count)
        ys = np.linspace(0, h - tile_h, count)
        boxes = np.stack([xs, ys, xs + tile_h * 0.75, ys + tile_h], axis=1)
        dets = Detections(boxes, np.zeros(count, np.int64), np.full(count, 0.3), reader.names)
        median = _median_seconds(lambda dets=dets: refiner.refine(rgb, dets), repeat)
        out[f"refine_{count}_tiles_s"] = round(median, 4)
        print(f"refine alone, {count} tiles of {tile_h:.0f} px: median {median * 1000:.1f} ms")
    return out


def paired(model: Path, detector: Path | None, synth: Path | None, camerash: Path | None,
           conf: float) -> dict:
    """Class of the same detections with and without the refiner: the refiner moves no box
    and changes no confidence, so both readings match the labelled tiles in the same pairs
    (IoU >= 0.5, confidence >= `conf`); count the pairs each reading gets right."""
    from datasets.evaluate import (
        MAP_CONF,
        camerash_samples,
        match_tiles,
        run_reader,
        synth_samples,
    )
    from vision.runtime import model_path
    from vision.pipeline import TileReader
    from vision.recognition.refine import CropClassifier, PassThrough
    sets = []
    if synth:
        sets.append(("synthetic held-out designs", synth_samples(synth)))
    if camerash:
        sets.append(("Camerash held-out real photos",
                     camerash_samples(camerash, REPO / "datasets" / "camerash_boxes.json")))
    classifier = CropClassifier(model)

    class SameDecode(PassThrough):  # the detector sees the same pixels in both readings
        decode_min_side = classifier.decode_min_side

    plain = TileReader(detector or model_path(), conf=MAP_CONF, refiner=SameDecode())
    refined = TileReader(detector or model_path(), conf=MAP_CONF, refiner=classifier)
    out = {}
    for name, samples in sets:
        counts = Counter()
        for sample, a, b in zip(samples, run_reader(plain, samples), run_reader(refined, samples)):
            keep = a.confidence >= conf
            assert np.array_equal(keep, b.confidence >= conf)
            for p, g in match_tiles(a.xyxy[keep], a.confidence[keep], sample.xyxy):
                truth = sample.class_id[g]
                right_a, right_b = a.class_id[keep][p] == truth, b.class_id[keep][p] == truth
                counts["pairs"] += 1
                counts["detector_right"] += int(right_a)
                counts["refined_right"] += int(right_b)
                counts["fixed"] += int(right_b and not right_a)
                counts["broken"] += int(right_a and not right_b)
        out[name] = dict(counts) | {"conf": conf}
        n = max(1, counts["pairs"])
        print(f"{name}: {counts['pairs']} detections on a labelled tile (IoU >= 0.5, conf >= "
              f"{conf}): class right {counts['detector_right'] / n:.3f} by the detector, "
              f"{counts['refined_right'] / n:.3f} refined ({counts['fixed']} fixed, "
              f"{counts['broken']} broken)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=REPO / "models" / "tile_classifier.onnx")
    parser.add_argument("--camerash", type=Path, help="folder of the Camerash data set")
    parser.add_argument("--synth", type=Path, help="synthetic scenes of held-out designs")
    parser.add_argument("--rendered", type=int, default=0, help="rendered crops per class")
    parser.add_argument("--rendered-designs", default="heldout", help="whose art --rendered "
                        "draws: heldout (report) or dev (datasets.designs.DEVELOPMENT: choose)")
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
    parser.add_argument("--timing", type=Path, help="a photo to time the pipeline on")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--paired", action="store_true", help="compare the classes of the "
                        "detector's own detections with and without the refiner")
    parser.add_argument("--paired-conf", type=float, default=0.001)
    parser.add_argument("--detector", type=Path, help="detector ONNX for --paired and --timing")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    cv2.setNumThreads(args.threads)
    from vision.recognition.refine import CropClassifier
    classifier = CropClassifier(args.model, threads=args.threads, upside_down=args.upside_down)
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
    if args.paired:
        report["paired"] = paired(args.model, args.detector, args.synth, args.camerash,
                                  args.paired_conf)
    if args.timing:
        report["timing"] = timing(args.model, args.detector, args.timing, args.repeat)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
