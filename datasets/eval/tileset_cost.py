"""What a table's set costs: a 12 MP photo read with a full set against untaught, and the peak
memory of teaching a 42-tile sheet.

    python -m datasets.eval.tileset_cost read [--photo PHOTO.jpg] [--repeat 15]
    python -m datasets.eval.tileset_cost memory [--chunk N]
    (each: [--json FILE] [--cache cache/tileset_eval])

`read`: a full set (MAX_PER_CLASS = 8 examples of each of the 42 tiles: the tiles of 8
generated sheet photos of SET_DESIGN, seeds 1-8, cut from their true boxes and labelled
right, with what the reader read each as) is built once; then the photo (default: PHOTO, one
generated scene of a 14-tile hand, its flower and one more tile, drawn at 4000 x 3000) is read
by the app's pipeline untaught and with the set, in turn (each first every other time),
`--repeat` times after one warm-up each: medians of the read's own seconds and of the
process's CPU seconds (every thread's; steadier than the clock on a busy machine), and their
ratios, in one run on one machine.

`memory`: the peak resident memory of a fresh process that loads the reader, decodes a
42-tile sheet photo drawn at 4000 px and reads its tiles as a set stores them
(TaughtClassifier.features, the costly part of teaching), against one that stops before
that call, and of `mahjong-lens teach` on that photo (its 42 codes in rows); each in a child
process, by its own high-water mark (VmHWM of Linux's /proc/self/status: getrusage's
ru_maxrss would carry this process's own peak across exec).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.runtime import REPO_ROOT

SET_DESIGN = "xmj_real"          # a training design with all 42 faces
SET_SEEDS = tuple(range(1, 9))   # one sheet photo per example of each tile
PHOTO = ("xmj_real", 5150, 7)    # design, scene seed, index: 4000 x 3000, a 14-tile hand + 2
PHOTO_SIDE = 4000
SHEET_SIDE = 4000                # the sheet photo of `memory`, as a phone takes it


def full_set(refiner):
    """A TileSet of 8 examples of each of SET_DESIGN's 42 tiles, labelled right."""
    from datasets.eval.sheet_photo import make_sheet
    from vision.tileset.learn import plain_reads
    from vision.tileset.store import MAX_PER_CLASS, TileSet

    tileset = TileSet("full", refiner.probe())
    for when, seed in enumerate(SET_SEEDS):
        img, truth = make_sheet(seed, SET_DESIGN)
        seen = refiner.features(img, np.array(truth["boxes"], np.float32))
        tileset = tileset.add(truth["codes"], seen.features, seen.turned, "sheet",
                              when=float(when), reads=plain_reads(seen, refiner.names))
    if len(tileset.per_class()) != 42 or min(tileset.per_class().values()) < MAX_PER_CLASS:
        raise SystemExit(f"not a full set: {tileset.per_class()}")
    return tileset


def hand_photo(cache: Path) -> Path:
    """PHOTO drawn once into the cache, as a 12 MP JPEG."""
    from datasets.synth.generate import generate

    design, seed, index = PHOTO
    folder = cache / f"cost_photo_{design}_{seed}"
    path = folder / "images" / f"{index:06d}.jpg"
    if not path.is_file():
        generate(folder, 1, seed, designs_spec=design, size=PHOTO_SIDE, start=index)
    return path


def run_read(photo: Path | None, repeat: int, cache: Path) -> dict:
    """Median seconds of the app's read of `photo`, untaught and with a full set, in turn."""
    from vision.pipeline import TileReader
    from vision.tileset.reader import TaughtClassifier, taught_refiner

    cache.mkdir(parents=True, exist_ok=True)
    photo = photo or hand_photo(cache)
    base = taught_refiner()
    tileset = full_set(base)
    readers = {"untaught": TileReader(refiner=TaughtClassifier(base.base, None)),
               "full_set": TileReader(refiner=TaughtClassifier(base.base, tileset))}
    seconds: dict[str, list[float]] = {mode: [] for mode in readers}
    cpu: dict[str, list[float]] = {mode: [] for mode in readers}
    for mode, reader in readers.items():  # warm-up
        found = reader.read(photo)
    for i in range(repeat):
        for mode in list(readers)[::1 if i % 2 else -1]:  # each first in turn
            start = time.process_time()
            seconds[mode].append(readers[mode].read(photo).seconds)
            cpu[mode].append(time.process_time() - start)
    median = {mode: round(float(np.median(s)), 4) for mode, s in seconds.items()}
    median_cpu = {mode: round(float(np.median(s)), 4) for mode, s in cpu.items()}
    out = {"photo": str(photo), "tiles": len(found.detections), "examples": len(tileset),
           "repeat": repeat, "median_s": median,
           "ratio": round(median["full_set"] / median["untaught"], 3),
           "median_cpu_s": median_cpu,
           "cpu_ratio": round(median_cpu["full_set"] / median_cpu["untaught"], 3)}
    print(json.dumps(out), flush=True)
    return out


CHILD = """
import json, numpy as np
from vision.image import load_photo
from vision.tileset.reader import taught_refiner
truth = json.loads(open({truth!r}).read())
refiner = taught_refiner()
if {chunk} > 0:
    refiner.chunk = {chunk}
photo = load_photo({photo!r}, min_side=refiner.decode_min_side)
sx, sy = photo.scale
if {teach}:
    refiner.features(photo.rgb, np.array(truth["boxes"], np.float32) / [sx, sy, sx, sy])
print(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")))
"""


def sheet_photo(cache: Path) -> tuple[Path, Path]:
    """A 42-tile sheet photo of SET_DESIGN drawn at SHEET_SIDE, as a JPEG, and its truth."""
    from datasets.eval.sheet_photo import make_sheet

    path, truth = cache / f"cost_sheet_{SHEET_SIDE}.jpg", cache / f"cost_sheet_{SHEET_SIDE}.json"
    if not (path.is_file() and truth.is_file()):
        cache.mkdir(parents=True, exist_ok=True)
        img, labels = make_sheet(SET_SEEDS[0], SET_DESIGN, long_side=SHEET_SIDE)
        cv2.imwrite(str(path), cv2.cvtColor(img, cv2.COLOR_RGB2BGR),
                    [cv2.IMWRITE_JPEG_QUALITY, 90])
        truth.write_text(json.dumps({"codes": labels["codes"],
                                     "boxes": np.asarray(labels["boxes"]).tolist()}))
    return path, truth


# the whole command, as a player runs it (its own output discarded)
COMMAND = """
import contextlib, io, tempfile
from app.cli import main
with tempfile.TemporaryDirectory() as data, contextlib.redirect_stdout(io.StringIO()):
    status = main(["teach", {photo!r}, "--tiles", {codes!r}, "--set", "cost", "--data-dir", data])
print(status, next(line.split()[1] for line in open("/proc/self/status")
                   if line.startswith("VmHWM")))
"""


def peak_mb(code: str) -> float:
    """Peak resident MB of a child process running `code` (which prints VmHWM last)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO_ROOT, check=True, timeout=600)
    return round(int(done.stdout.split()[-1]) / 1024, 1)  # kB


def run_memory(chunk: int, cache: Path) -> dict:
    """Peak memory of reading a sheet's tiles as a set stores them, and without that call."""
    from datasets.eval.sheet_photo import SHEET_CODES

    photo, truth = (str(path) for path in sheet_photo(cache))
    child = lambda teach: CHILD.format(photo=photo, truth=truth, teach=teach, chunk=chunk)
    out = {"sheet_side": SHEET_SIDE, "chunk": chunk or "shipped",
           "peak_mb_loaded": peak_mb(child(False)), "peak_mb_features": peak_mb(child(True)),
           "peak_mb_teach_command": peak_mb(COMMAND.format(photo=photo, codes=SHEET_CODES))}
    print(json.dumps(out), flush=True)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("read", "memory"))
    parser.add_argument("--photo", type=Path, help="read: the photo (default: PHOTO, drawn)")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--chunk", type=int, default=0,
                        help="memory: crops per ONNX call (0: the reader's own)")
    parser.add_argument("--cache", type=Path, default=REPO_ROOT / "cache" / "tileset_eval")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    out = (run_read(args.photo, args.repeat, args.cache) if args.what == "read"
           else run_memory(args.chunk, args.cache))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
