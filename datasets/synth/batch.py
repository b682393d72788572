"""Run the scene generator scene by scene, skipping scenes that fail, with a log of them.

    python -m datasets.synth.batch --out DIR --count N --seed S [--size 1280] [--designs train]
                                   [--label-face-down]

Same files as `python -m datasets.synth.generate` (it calls its `write_scene`), but one failing scene
(a generator bug) costs that scene only, not the whole run; failures are listed in
DIR/failed.json so the model card can say how many scenes the training set lacks.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from datasets.art.designs import select
from datasets.synth.generate import write_scene


def _one(job):
    out, seed, index, designs, size, label_face_down = job
    try:
        write_scene(Path(out), seed, index, designs, size, None, label_face_down)
        return index, None
    except Exception as exc:  # noqa: BLE001 - any generator failure skips that scene
        return index, f"{type(exc).__name__}: {exc} | {traceback.format_exc().splitlines()[-3].strip()}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=1280)
    parser.add_argument("--designs", default="train")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--label-face-down", action="store_true",
                        help="also label face-down tiles of walls and other hands (`back`)")
    args = parser.parse_args(argv)
    designs = select(args.designs, None)
    for sub in ("images", "labels", "truth"):
        (args.out / sub).mkdir(parents=True, exist_ok=True)
    jobs = [(str(args.out), args.seed, i, designs, args.size, args.label_face_down)
            for i in range(args.count)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        failed = {i: why for i, why in pool.map(_one, jobs, chunksize=4) if why}
    (args.out / "failed.json").write_text(json.dumps(failed, indent=1))
    print(json.dumps({"scenes": args.count - len(failed), "failed": len(failed),
                      "designs": len(designs), "seconds": round(time.perf_counter() - started, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
