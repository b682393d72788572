"""How reading depends on a tile's size in photo pixels: the threshold of the hint to come
closer (vision/legibility.py).

    python -m datasets.eval.size --scenes cache/synth_fd_dev [--limit N]

Runs the app's reader on synthetic scenes with JSON truth and, for the face-up tiles of the
hand (concealed, melds, bonus, winning; other players' tiles and walls left out), reports by
the tile's short side: the share read right among those found (box IoU >= 0.5 at the
operating confidence), and, by the median short side of a photo's hand tiles, the share of
photos whose every hand tile was found and read right. Development scenes only: the
threshold is chosen here.
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

import numpy as np

from datasets.eval.metrics import match_tiles
from datasets.eval.samples import MAP_CONF, Sample, run_reader, synth_samples
from vision.boxes import short_sides

BINS = (0, 16, 20, 24, 28, 32, 36, 40, 48, 56, 64, 80, 10_000)


def hand_mask(sample: Sample) -> np.ndarray:
    """Which labels of `sample` are face-up tiles of the hand, from the scene's truth JSON
    (each label matched to the truth tile with the nearest box)."""
    truth = json.loads((sample.image.parent.parent / "truth" / f"{sample.image.stem}.json").read_text())
    tiles = [t for t in truth["tiles"] if t.get("label") is not None]
    if not tiles or len(sample.xyxy) == 0:
        return np.zeros(len(sample.xyxy), bool)
    boxes = np.array([t["box"] for t in tiles], np.float64)
    nearest = np.abs(sample.xyxy[:, None, :] - boxes[None]).sum(axis=2).argmin(axis=1)
    return np.array([tiles[k].get("face") == "up" and tiles[k].get("group") not in (None, "distractor")
                     for k in nearest])


def size_table(samples: list[Sample], results, conf: float) -> dict:
    """Per tile (short side, read right) and per photo (median short side, all right)."""
    tiles, photos = [], []
    for sample, result in zip(samples, results):
        hand = hand_mask(sample)
        if not hand.any():
            continue
        keep = result.kept(conf)
        read, confidence = result.class_id[keep], result.confidence[keep]
        found = {g: p for p, g in match_tiles(result.xyxy[keep], confidence, sample.xyxy)}
        side = short_sides(sample.xyxy)
        right = [g in found and read[found[g]] == sample.class_id[g] for g in range(len(side))]
        tiles += [(float(side[g]), bool(right[g])) for g in np.where(hand)[0] if g in found]
        photos.append((float(np.median(side[hand])), all(right[g] for g in np.where(hand)[0])))

    def binned(rows):
        out = []
        for lo, hi in itertools.pairwise(BINS):
            hits = [ok for size, ok in rows if lo <= size < hi]
            if hits:
                out.append({"from": lo, "to": hi, "n": len(hits), "right": round(float(np.mean(hits)), 3)})
        return out
    return {"tiles_read_right": binned(tiles), "photos_all_right": binned(photos)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=Path, required=True, help="synthetic scenes with truth/")
    parser.add_argument("--limit", type=int, default=0, help="at most this many scenes")
    parser.add_argument("--json", type=Path, help="write the table here")
    args = parser.parse_args(argv)
    if not (args.scenes / "truth").is_dir():
        parser.error(f"{args.scenes}: no truth/ folder (scenes of datasets.synth.generate)")
    from vision.pipeline import TileReader
    from vision.runtime import OPERATING_CONF
    samples = synth_samples(args.scenes)[: args.limit or None]
    table = size_table(samples, run_reader(TileReader(conf=MAP_CONF), samples), OPERATING_CONF)
    for key, title in (("tiles_read_right", "found face-up hand tiles read right, by short side"),
                       ("photos_all_right", "photos with the whole hand right, by median short side")):
        print(title)
        for row in table[key]:
            print(f"  {row['from']:>4}-{row['to']:<5} n={row['n']:5d}  {row['right']:.3f}")
    if args.json:
        args.json.write_text(json.dumps(table, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
