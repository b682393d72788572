"""Time the app's pipeline on one photo: decode, find, read, as the page and the CLI run it.

    python -m datasets.eval.timing PHOTO.jpg [--classifier models/tile_classifier.onnx] \\
        [--detector models/detector.onnx] [--repeat 15] [--json cache/timing.json]

Median and 90th percentile seconds of decode + detect + refine over `--repeat` reads (after
one to warm up), with the parts: the finder on the decoded photo, its ONNX call alone, the
stack classifier on four lines of three like tiles, and the refine step alone on 20 and 40
tiles of a hand's size.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from vision.runtime import DEFAULT_CLASSIFIER_PATH


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("photo", type=Path, help="the photo to read (e.g. a 12 MP JPEG)")
    parser.add_argument("--classifier", type=Path, default=DEFAULT_CLASSIFIER_PATH)
    parser.add_argument("--detector", type=Path, help="detector ONNX (default: the app's)")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    out = timing(args.classifier, args.detector, args.photo, args.repeat)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
