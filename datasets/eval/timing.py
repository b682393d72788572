"""Time the app's pipeline on one photo: decode, find, read, as the page and the CLI run it.

    python -m datasets.eval.timing PHOTO.jpg [--classifier models/tile_classifier.onnx] \\
        [--detector models/detector.onnx] [--repeat 15] [--json cache/timing.json]

Median and 90th percentile seconds of decode + detect + refine over `--repeat` reads (after
one to warm up), with the parts: the finder on the decoded photo, its ONNX call alone, the
stack classifier on four lines of three like tiles, and the refine step alone on 20 and 40
tiles of a hand's size.

    python -m datasets.eval.timing startup [--repeat 21]

The command line's start-up: CPU seconds (user + system) of `mahjong-lens --help` and of an
empty Python start (`python -c pass`), runs interleaved so that a load on the machine weighs
on both alike; medians and their ratio.

    python -m datasets.eval.timing peer PHOTO... [--command] [--repeat 9]

Our reading beside PyPI `mahjong-detector`'s, in-process or as whole commands
(datasets/eval/timing_peer.py).

    python -m datasets.eval.timing page PHOTO [--repeat 5]

The page in a real browser: a photo's upload to its hand shown (datasets/eval/timing_page.py).

    python -m datasets.eval.timing taps PHOTO [--repeat 7]

The page in a real browser: a tap (a hand tile, a palette tile, who discarded, a practice
tile and its discard) to what it changed drawn (datasets/eval/timing_taps.py).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from vision.runtime import DEFAULT_CLASSIFIER_PATH


def _seconds(call) -> float:
    """Wall seconds of one `call()`."""
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def _median_seconds(call, repeat: int) -> float:
    """Median wall seconds of `call()` over `repeat` runs, after one to warm up."""
    call()
    return float(np.median([_seconds(call) for _ in range(repeat)]))


def timing(model: Path, detector: Path | None, photo: Path, repeat: int) -> dict:
    """Median seconds of the app's pipeline on `photo` (decode, detect, refine with this
    classifier read as the app reads it: vision.recognition.refine.default_refiner, its views, the
    glyphs and one set), and of its parts: the finder on the decoded photo (letterbox, ONNX,
    NMS, and the second look at small tiles of vision/recognition/zoom.py) and the model's own ONNX
    call, one pass."""
    from vision.pipeline import TileReader
    from vision.recognition.refine import default_refiner
    from vision.runtime import model_path
    refiner = default_refiner(model)
    reader = TileReader(detector or model_path(), refiner=refiner)
    pipeline, rgb = _time_pipeline(reader, photo, repeat)
    out = {"photo": str(photo), **pipeline}
    # The parts alone on boxes of a tile's size (a tenth of the short side tall), whatever
    # the detector finds in the photo.
    tile_h = min(rgb.shape[:2]) / 10
    if reader.stacking is not None:
        out["stack_4_lines_s"] = _time_stacking(reader.stacking, rgb, tile_h, repeat)
    for count in (20, 40):
        out[f"refine_{count}_tiles_s"] = _time_refine(refiner, reader.names, rgb, tile_h, count,
                                                      repeat)
    return out


def _time_pipeline(reader, photo: Path, repeat: int) -> tuple[dict, np.ndarray]:
    """The whole read of `photo` and the finder's share of it, printed; with the decoded
    photo the parts are then timed on."""
    reader.read(photo)  # warm-up
    seconds = [reader.read(photo).seconds for _ in range(repeat)]
    found = reader.read(photo)
    rgb = found.photo.rgb
    detect_s, model_s = _time_finder(reader, rgb, repeat)
    full = [found.photo.height, found.photo.width]
    times = {"pipeline": {"median_s": round(float(np.median(seconds)), 4),
                          "p90_s": round(float(np.percentile(seconds, 90)), 4),
                          "tiles": len(found.detections), "decoded": list(rgb.shape[:2]),
                          "full": full},
             "detect_on_decoded_s": round(float(np.median(detect_s)), 4),
             "model_alone_s": round(float(np.median(model_s)), 4)}
    print(f"pipeline: median {np.median(seconds) * 1000:.0f} ms, p90 "
          f"{np.percentile(seconds, 90) * 1000:.0f} ms, {len(found.detections)} tiles, decoded "
          f"{list(rgb.shape[:2])} of {full}; finder on the decoded photo, "
          f"with its second look at small tiles, {np.median(detect_s) * 1000:.0f} ms; the "
          f"model's ONNX call {np.median(model_s) * 1000:.0f} ms a pass")
    return times, rgb


def _time_finder(reader, rgb: np.ndarray, repeat: int) -> tuple[list[float], list[float]]:
    """Seconds of `repeat` finds on the decoded photo and, in turn with each, of the
    detector's ONNX call alone on its letterboxed blob."""
    det = reader.detector
    blob = det.prepare(rgb)[0]
    detect_s, model_s = [], []
    for _ in range(repeat):
        detect_s.append(_seconds(lambda: reader.find(rgb)))
        model_s.append(_seconds(lambda: det.run(blob)))
    return detect_s, model_s


def _time_stacking(stacking, rgb: np.ndarray, tile_h: float, repeat: int) -> float:
    """The stack classifier alone on four lines of three like tiles (two rows of six boxes),
    printed; rounded median seconds."""
    boxes = np.array([[k * tile_h * 0.8, y, k * tile_h * 0.8 + tile_h * 0.75, y + tile_h]
                      for y in (0, 2 * tile_h) for k in range(6)], np.float32)
    codes = [code for code in ("1m", "2p", "3s", "4z") for _ in range(3)]
    median = _median_seconds(lambda: stacking.on_top(rgb, boxes, codes), repeat)
    print(f"stack classifier alone, 4 lines of three like tiles: median {median * 1000:.1f} ms")
    return round(median, 4)


def _time_refine(refiner, names, rgb: np.ndarray, tile_h: float, count: int,
                 repeat: int) -> float:
    """The refine step alone on `count` boxes of a tile's size spread over the photo,
    printed; rounded median seconds."""
    from vision.types import Detections
    h, w = rgb.shape[:2]
    xs = np.linspace(0, w - tile_h, count)
    ys = np.linspace(0, h - tile_h, count)
    boxes = np.stack([xs, ys, xs + tile_h * 0.75, ys + tile_h], axis=1)
    dets = Detections(boxes, np.zeros(count, np.int64), np.full(count, 0.3), names)
    median = _median_seconds(lambda: refiner.refine(rgb, dets), repeat)
    print(f"refine alone, {count} tiles of {tile_h:.0f} px: median {median * 1000:.1f} ms")
    return round(median, 4)


def _cpu_seconds(argv: list[str]) -> float:
    """User + system CPU seconds of one run of `argv`, its output discarded."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{' '.join(argv)} exited with status {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def startup(repeat: int) -> dict:
    """Median CPU seconds of `mahjong-lens --help` and of an empty Python start, and their
    ratio; the console script is run by this interpreter, as its first line says."""
    script = Path(sys.executable).with_name("mahjong-lens")
    if not script.is_file():
        raise SystemExit(f"no console script at {script}: pip install -e . first")
    commands = {"empty_python_s": [sys.executable, "-c", "pass"],
                "help_s": [sys.executable, str(script), "--help"]}
    runs: dict[str, list[float]] = {key: [] for key in commands}
    for _ in range(repeat):
        for key, argv in commands.items():
            runs[key].append(_cpu_seconds(argv))
    out = {key: round(float(np.median(values)), 4) for key, values in runs.items()}
    out["ratio"] = round(out["help_s"] / out["empty_python_s"], 2)
    print(f"mahjong-lens --help: median {out['help_s'] * 1000:.0f} ms CPU; empty Python "
          f"{out['empty_python_s'] * 1000:.0f} ms; ratio {out['ratio']:.2f} ({repeat} runs each)")
    return out


def _startup_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="timing startup", description=startup.__doc__)
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    out = startup(args.repeat)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["startup"]:
        return _startup_main(argv[1:])
    if argv[:1] == ["peer"]:  # beside PyPI mahjong-detector (datasets/eval/timing_peer.py)
        from datasets.eval.timing_peer import main as peer_main
        return peer_main(argv[1:])
    if argv[:1] == ["page"]:  # the page in a real browser (datasets/eval/timing_page.py)
        from datasets.eval.timing_page import main as page_main
        return page_main(argv[1:])
    if argv[:1] == ["taps"]:  # taps on the page in a real browser (datasets/eval/timing_taps.py)
        from datasets.eval.timing_taps import main as taps_main
        return taps_main(argv[1:])
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
