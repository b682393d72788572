"""Measure the detector (with its refiner) as the user meets it: photo files in, tiles out.

    python -m datasets.eval.reader --synth cache/synth_val [--camerash ../shared/data/camerash [--scale 0.5] [--turn 90]
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
datasets/real/camerash_boxes.json. Those photos are only partly labelled (only tiles that have a
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
from pathlib import Path

import numpy as np

from datasets.eval.metrics import (
    f1,
    f1_interval,
    group_f1,
    marks,
    mean_average_precision,
    photo_counts,
    score_tiles,
    tile_finding_ap50,
)
from datasets.eval.samples import (
    MAP_CONF,
    Result,
    Sample,
    camerash_samples,
    reshot,
    run_reader,
    synth_samples,
    without_class,
)
from datasets.real.camerash_boxes import BOXES_JSON

CONF_GRID = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6)


def interval(out: dict) -> str:
    lo_hi = out.get("f1_interval_95")
    return f" (95 % {lo_hi[0]:.3f}-{lo_hi[1]:.3f} over photos)" if lo_hi else ""


def _ranking(samples: list[Sample], results: list[Result], num_classes: int) -> dict:
    """mAP50 and mAP50-95; with runners-up from the reader, mAP50_top3 too."""
    maps = mean_average_precision(samples, results, num_classes)
    if any(r.alt_class_id is not None for r in results):
        maps["mAP50_top3"] = mean_average_precision(
            samples, [r.with_runners_up() for r in results], num_classes)["mAP50"]
    return maps


def _f1_by_conf(samples: list[Sample], results: list[Result]) -> dict[float, float]:
    by_conf = {}
    for threshold in CONF_GRID:  # to pick an operating point on a development set
        counts = score_tiles(samples, results, threshold)
        by_conf[threshold] = round(f1(counts.tp, counts.fp, counts.fn)[2], 4)
    return by_conf


def report(name: str, samples: list[Sample], results: list[Result], names: tuple[str, ...],
           conf: float) -> dict:
    maps = _ranking(samples, results, len(names))
    tiles = score_tiles(samples, results, conf)
    by_conf = _f1_by_conf(samples, results)
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
           # per photo: image, right, shown wrong, missed (datasets.eval.compare pairs two runs by these)
           "photo_counts": [[str(s.image), *map(int, c)] for s, c in zip(samples, counts)]}
    _print_report(out, precision, recall, f1_all)
    return out


def _print_report(out: dict, precision: float, recall: float, f1_all: float) -> None:
    """The report as text; precision, recall and F1 before rounding."""
    print(f"\n== {out['set']}: {out['photos']} photos, {out['tiles']} labelled tiles")
    top3 = f" (top-3 {out['mAP50_top3']:.3f})" if "mAP50_top3" in out else ""
    print(f"mAP50 {out['mAP50']:.3f}{top3}  mAP50-95 {out['mAP50-95']:.3f}  tile AP50 "
          f"{out['tile_AP50']:.3f}  |  at conf {out['conf']}: "
          f"P {precision:.3f}  R {recall:.3f}  F1 {f1_all:.3f}{interval(out)}  |  photos without error "
          f"{out['photos_without_error']:.1%}  |  median {out['median_seconds']} s/photo  |  "
          f"tiles found {out['tiles_found']} of {out['tiles']}")
    print("F1 by confidence: " + ", ".join(f"{c} {v:.3f}" for c, v in out["f1_by_conf"].items()))
    worst = sorted(out["f1_per_class"].items(), key=lambda item: item[1])[:10]
    print("lowest class F1: " + ", ".join(f"{code} {value:.2f}" for code, value in worst))
    print(f"mean class F1: flowers and seasons {out['f1_flowers_seasons']}, suits and honours "
          f"{out['f1_suits_honours']}")
    print("orange marks (threshold: wrong tiles marked, right tiles marked): " + ", ".join(
        f"{t} {w / max(1, nw):.0%} {r / max(1, nr):.0%}" for t, (w, nw, r, nr) in out["marks"].items()))
    print("confusions (true -> read): " + (", ".join(
        f"{t}->{r} x{n}" for t, r, n in out["confusions"][:15]) or "none"))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--synth", type=Path, help="synthetic scenes with held-out designs")
    parser.add_argument("--camerash", type=Path, help="folder of the Camerash data set")
    parser.add_argument("--boxes", type=Path, default=BOXES_JSON)
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
    return parser


def _refiner(args: argparse.Namespace):
    """The second stage the options ask for; None: the app's own
    (vision.recognition.refine.default_refiner)."""
    from vision.recognition.refine import CropClassifier, PassThrough
    if args.classifier is None:
        return None
    if str(args.classifier).lower() == "none":
        return PassThrough()
    return CropClassifier(args.classifier, min_confidence=args.min_confidence,
                          mode="reader" if args.reader else "override",
                          upside_down=args.upside_down,
                          margins=tuple(float(m) for m in args.margins.split(",") if m),
                          one_set=args.one_set)


def _reader(args: argparse.Namespace, parser: argparse.ArgumentParser):
    """The TileReader to measure, its refiner set as the options say."""
    from vision.pipeline import NMS_IOU, TileReader
    from vision.runtime import model_path
    refiner = _refiner(args)
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
    return reader


def _how(args: argparse.Namespace) -> str:
    """How the photos are taken, for the report's title."""
    return ((f", shrunk to {args.scale:g}" if args.scale != 1.0 else "")
            + (f", blurred by {args.blur:g} of a tile" if args.blur else "")
            + (f", noise {args.noise:g} grey levels" if args.noise else "")
            + (f", turned {args.turn} degrees" if args.turn else ""))


def _taken(args: argparse.Namespace, samples: list[Sample], folder: Path) -> list[Sample]:
    """The photos as the options take them (into `folder`), or as they are."""
    if args.scale == 1.0 and not (args.turn or args.blur or args.noise):
        return samples
    return reshot(samples, folder, args.scale, args.turn // 90, args.blur, args.noise)


def _reports(args: argparse.Namespace, reader) -> list[dict]:
    """A report for each set given: the synthetic scenes, the Camerash photos."""
    from scoring.tiles import BACK
    reports = []
    how = _how(args)
    with tempfile.TemporaryDirectory() as folder:
        if args.synth:
            samples = _taken(args, synth_samples(args.synth)[: args.limit or None],
                             Path(folder) / "synth")
            results = run_reader(reader, samples)
            if args.face_up_only:
                samples, results = without_class(samples, results, reader.names.index(BACK))
            reports.append(report(f"synthetic scenes ({args.synth})" + how
                                  + (", face-up tiles only" if args.face_up_only else ""),
                                  samples, results, reader.names, args.conf))
        if args.camerash:
            held_out = not args.camerash_training
            samples = _taken(args, camerash_samples(args.camerash, args.boxes, held_out),
                             Path(folder) / "camerash")
            reports.append(report(f"Camerash {'held-out' if held_out else 'TRAINING'} real photos"
                                  + how, samples,
                                  run_reader(reader, samples), reader.names, args.conf))
    return reports


def _settings(args: argparse.Namespace, reader) -> dict:
    """What the reports were measured with, for the JSON."""
    refiner = reader.refiner
    return {"model": str(reader.detector.path),
            "classifier": str(args.classifier or "default"),
            "classifier_mode": getattr(refiner, "mode", "none"),
            "upside_down": getattr(refiner, "upside_down", False),
            "turn_below": getattr(refiner, "turn_below", 0.0),
            "margins": list(getattr(refiner, "extra_margins", ())),
            "nms_iou": reader.iou, "zoom": reader.zoom,
            "one_set": getattr(refiner, "one_set", 0.0),
            "glyphs": getattr(getattr(refiner, "glyphs", None), "path", None)}


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not 0.0 < args.scale <= 1.0:
        parser.error(f"--scale {args.scale}: expected a factor in (0, 1]")
    if args.blur < 0 or args.noise < 0:
        parser.error("--blur and --noise: expected 0 or more")
    reader = _reader(args, parser)
    reports = _reports(args, reader)
    if not reports:
        parser.error("give --synth and/or --camerash")
    if args.json:
        args.json.write_text(json.dumps({**_settings(args, reader), "reports": reports},
                                        indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
