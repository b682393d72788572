"""The second look at the rows (vision/recognition/look.py) on the held-out real Camerash
photos: tiles of a row whose finder box is taken away (with any weak box on it) or cut to
its upper half, and whether the read brings them back with the code read before.

    python -m datasets.eval.look_real --camerash ../shared/data/camerash [--per-photo 10]

Tiles tried: those with two tiles of their row on each side (a hole beside a row's last tile
is not looked at), up to `--per-photo` spread over each photo. Also counted: tiles the look
adds to the untouched photos where the plain read found no tile (`added_untouched`: look at
them; a tile cut by the photo's edge, found as a sliver, is one). Nothing is chosen on these
figures.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

from datasets.eval import print_report
from vision.boxes import box_iou


def inner(xyxy: np.ndarray, k: int) -> list[int]:
    """`k` tiles with two tiles of their row on each side, spread over the photo."""
    centre = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    width = np.median(np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1]))

    def beside(i: int, side: int) -> int:
        return int(np.sum((np.abs(centre[:, 1] - centre[i, 1]) < 0.3 * width)
                          & (side * (centre[:, 0] - centre[i, 0]) > 0.5 * width)
                          & (side * (centre[:, 0] - centre[i, 0]) < 2.5 * width)))

    both = [i for i in range(len(xyxy)) if beside(i, 1) == 2 and beside(i, -1) == 2]
    return both[::max(1, len(both) // k)][:k] if k else both


def fault(box: np.ndarray, kind: str):
    """A `TileReader.read` finder edit: the finder's box on `box` taken away or halved."""
    def edit(kept, weak, scale):
        s = np.array([*scale, *scale])
        on = np.flatnonzero(box_iou(kept.xyxy * s, box)[:, 0] >= 0.5)
        if kind == "halved":
            xyxy = np.array(kept.xyxy)
            xyxy[on, 3] = (xyxy[on, 1] + xyxy[on, 3]) / 2
            return replace(kept, xyxy=xyxy), weak
        near = box_iou(weak.xyxy * s, box)[:, 0] >= 0.3 if len(weak) else np.zeros(0, bool)
        return (kept.select(np.setdiff1d(np.arange(len(kept)), on)),
                weak.select(np.flatnonzero(~near)))
    return edit


def evaluate(camerash: Path, per_photo: int) -> dict:
    from datasets.real.camerash_boxes import HELD_OUT_SETS, photo_set
    from vision.pipeline import TileReader

    reader, plain = TileReader(), TileReader(look=False)
    out = Counter()
    photos = sorted(p for p in (camerash / "raw-images").iterdir() if photo_set(p.name) in HELD_OUT_SETS)
    for path in photos:
        first, bare = reader.read(path).detections, plain.read(path).detections
        added = np.flatnonzero(first.looked) if first.looked is not None else []
        out["photos"] += 1
        out["looked_untouched"] += len(added)
        out["added_untouched"] += sum(not len(bare) or box_iou(first.xyxy[i], bare.xyxy).max() < 0.3
                                         for i in added)
        xyxy = np.asarray(bare.xyxy, np.float64)
        for t in inner(xyxy, per_photo):
            for kind in ("taken_away", "halved"):
                again = reader.read(path, finder_edit=fault(xyxy[t], kind)).detections
                near = box_iou(again.xyxy, xyxy[t])[:, 0]
                back = near.max() >= 0.5
                out.update({f"{kind}": 1, f"{kind}_back": int(back),
                            f"{kind}_right": int(back and again.codes[near.argmax()] == bare.codes[t])})
    return {k: int(v) for k, v in out.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--camerash", type=Path, default=Path("../shared/data/camerash"))
    parser.add_argument("--per-photo", type=int, default=10)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if not (args.camerash / "raw-images").is_dir():
        print(f"look_real: no Camerash photos under {args.camerash}", file=sys.stderr)
        return 2
    print_report(evaluate(args.camerash, args.per_photo), args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
