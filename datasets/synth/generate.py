"""Generate synthetic table photos with YOLO labels and JSON truth.

    python -m datasets.synth --out DIR --count N --seed S [--size 1280] [--workers K]
                             [--designs train|heldout|all|PATTERNS] [--start I] [--label-face-down]

Writes DIR/images/NNNNNN.jpg, DIR/labels/NNNNNN.txt (YOLO, classes of datasets/classes.yaml),
DIR/truth/NNNNNN.json and DIR/data.yaml. Scene i depends only on (seed, i): the same seed gives
identical files whatever the number of workers. Needs the art cache (bash datasets/art/install_art.sh);
with only CJK fonts present, `--designs 'proc_*'` works after `python -m datasets.art.build`.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2

from datasets.art.atlas import art_dir
from datasets.art.designs import HELD_OUT, select
from datasets.classes import class_names
from datasets.synth.scene import make_scene

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def write_scene(out: Path, seed: int, index: int, designs: list[str], size: int, root: str | None,
                label_face_down: bool = False, more_kongs: bool = False) -> int:
    img, quality, truth, yolo = make_scene(seed, index, designs, size, root, label_face_down,
                                           more_kongs)
    stem = f"{index:06d}"
    truth["image"] = f"images/{stem}.jpg"
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    (out / "images" / f"{stem}.jpg").write_bytes(buf.tobytes())
    (out / "labels" / f"{stem}.txt").write_text("".join(line + "\n" for line in yolo))
    (out / "truth" / f"{stem}.json").write_text(json.dumps(truth, separators=(",", ":")))
    return len(yolo)


def find_scenes(folder: Path) -> list[tuple[Path, Path]]:
    """(image, YOLO label) pairs: the label is beside the image or in a sibling labels/."""
    pairs = []
    for image in sorted(p for p in folder.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES):
        candidates = [image.with_suffix(".txt")]
        parts = list(image.parts)
        if "images" in parts:
            parts[len(parts) - 1 - parts[::-1].index("images")] = "labels"
            candidates.append(Path(*parts).with_suffix(".txt"))
        label = next((c for c in candidates if c.is_file()), None)
        if label is not None:
            pairs.append((image, label))
    return pairs


def _worker(args):
    return write_scene(*args)


def _init_worker():
    cv2.setNumThreads(1)  # one process per core: OpenCV's own threads would only contend


def generate(out: Path, count: int, seed: int, designs_spec: str | None = None, size: int = 1280, workers: int = 1,
             start: int = 0, root: str | None = None, label_face_down: bool = False,
             more_kongs: bool = False) -> dict:
    designs = select(designs_spec, root)
    if not designs:
        raise SystemExit(f"no tile designs match {designs_spec!r} in {root or art_dir()}: run bash datasets/art/install_art.sh")
    for sub in ("images", "labels", "truth"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    names = class_names()
    (out / "data.yaml").write_text(f"path: {out.resolve()}\ntrain: images\nval: images\nnames:\n"
                                   + "".join(f"  {i}: {n}\n" for i, n in enumerate(names)))
    jobs = [(out, seed, i, designs, size, root, label_face_down, more_kongs)
            for i in range(start, start + count)]
    t, cpu = time.perf_counter(), time.process_time()
    if workers > 1:
        # spawn, not fork: a forked child inherits OpenCV's thread pool in an unknown state.
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init_worker) as ex:
            boxes = sum(ex.map(_worker, jobs, chunksize=4))
    else:
        boxes = sum(map(_worker, jobs))
    dt = time.perf_counter() - t
    cpu = time.process_time() - cpu if workers == 1 else None
    return {"scenes": count, "cpu_s_per_scene": cpu and round(cpu / count, 3), "boxes": boxes, "seconds": round(dt, 2), "scenes_per_s": round(count / dt, 2),
            "designs": len(designs), "held_out": [d for d in designs if d in HELD_OUT]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0, help="first scene index (to extend a run)")
    ap.add_argument("--size", type=int, default=1280, help="long side in pixels")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--designs", default="train", help="train (default: all but the held-out designs), heldout, all, "
                    "or comma-separated name patterns; a leading - excludes")
    ap.add_argument("--art", default=None, help="art cache (default $MAHJONG_ART_DIR or cache/art)")
    ap.add_argument("--label-face-down", action="store_true",
                    help="also label face-down tiles of walls and other hands as `back` (the "
                         "tile finder's training data)")
    ap.add_argument("--more-kongs", action="store_true",
                    help="draw kongs, and kongs with the fourth tile on top, more often (the stack "
                         "classifier's training data, datasets/train/stacking.py)")
    a = ap.parse_args(argv)
    print(json.dumps(generate(a.out, a.count, a.seed, a.designs, a.size, a.workers, a.start, a.art,
                              a.label_face_down, a.more_kongs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
