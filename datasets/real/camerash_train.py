"""Real training photos: every tile of the non-held-out Camerash photos, boxed.

`camerash_boxes.json` boxes one copy of each tile per photo (the one its crop was cut
from), but the photos show up to four copies of each tile, so as training data they would
teach the detector that the other copies are table. The copies are the same tile of the
same set under the same light, so the boxed copy, used as a template on its own photo, finds
the others: every peak of `cv2.matchTemplate` at or above MIN_COPY_SCORE, non-overlapping,
is a copy. Overlaps between the templates of different tiles keep the best-scoring one.

    python -m datasets.real.camerash_train --camerash ../shared/data/camerash \
        --out cache/camerash_train [--draw cache/camerash_train_look]

Output: the synth layout (image + YOLO label .txt beside it) that datasets/train/detector.py
reads with `--real`. Held-out photos (HELD_OUT_SETS) are never written. The photos stay out
of the repository; this folder is rebuilt from ../shared when needed.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from datasets.classes import class_index
from datasets.real.camerash_boxes import BOXES_JSON, box_overlap
from vision.image import decode_image
from vision.runtime import REPO_ROOT

MIN_COPY_SCORE = 0.8
MAX_OVERLAP = 0.3  # boxes of two copies never overlap more than this (tiles lie side by side)


def find_copies(grey: np.ndarray, box: list[int]) -> list[tuple[list[int], float]]:
    """Boxes (x1, y1, x2, y2) and scores of every copy of the tile in `box`, best first."""
    x1, y1, x2, y2 = box
    template = grey[y1:y2, x1:x2]
    # shrink big photos for speed; the peaks are refined at full scale below
    factor = max(1, int(min(template.shape) // 40))
    small = cv2.resize(grey, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA)
    small_t = cv2.resize(template, None, fx=1 / factor, fy=1 / factor,
                         interpolation=cv2.INTER_AREA)
    result = cv2.matchTemplate(small, small_t, cv2.TM_CCOEFF_NORMED)
    width, height = x2 - x1, y2 - y1
    found: list[tuple[list[int], float]] = []
    while True:
        _, score, _, (x, y) = cv2.minMaxLoc(result)
        if score < MIN_COPY_SCORE - 0.1:  # coarse scores run a little low
            break
        # blank out this peak's neighbourhood (a tile's size) before the next one
        rx, ry = max(1, small_t.shape[1] // 2), max(1, small_t.shape[0] // 2)
        result[max(0, y - ry):y + ry + 1, max(0, x - rx):x + rx + 1] = -1
        fx, fy = x * factor, y * factor
        margin = 2 * factor + 2
        wx0, wy0 = max(0, fx - margin), max(0, fy - margin)
        window = grey[wy0:min(grey.shape[0], fy + height + margin),
                      wx0:min(grey.shape[1], fx + width + margin)]
        if window.shape[0] < height or window.shape[1] < width:
            continue
        fine = cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED)
        _, fine_score, _, (dx, dy) = cv2.minMaxLoc(fine)
        if fine_score < MIN_COPY_SCORE:
            continue
        candidate = [wx0 + dx, wy0 + dy, wx0 + dx + width, wy0 + dy + height]
        if all(box_overlap(candidate, other) <= MAX_OVERLAP for other, _ in found):
            found.append((candidate, float(fine_score)))
    return found


def label_photo(rgb: np.ndarray, tiles: list[dict]) -> list[tuple[str, list[int], float]]:
    """(code, box, score) for every tile copy found in the photo, overlaps resolved by score."""
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    candidates = [(tile["code"], box, score)
                  for tile in tiles for box, score in find_copies(grey, tile["box"])]
    candidates.sort(key=lambda c: -c[2])
    kept: list[tuple[str, list[int], float]] = []
    for code, box, score in candidates:
        if all(box_overlap(box, other) <= MAX_OVERLAP for _, other, _ in kept):
            kept.append((code, box, score))
    return kept


def build(camerash: Path, boxes_json: Path, out: Path, draw_to: Path | None = None) -> dict:
    boxes = json.loads(boxes_json.read_text())
    classes = class_index()
    out.mkdir(parents=True, exist_ok=True)
    summary = {}
    for name, photo in sorted(boxes["photos"].items()):
        if photo["held_out"] or not photo["tiles"]:
            continue
        rgb = decode_image(camerash / "raw-images" / name)
        found = label_photo(rgb, photo["tiles"])
        height, width = rgb.shape[:2]
        stem = "camerash_" + Path(name).stem
        cv2.imwrite(str(out / f"{stem}.jpg"), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR),
                    [cv2.IMWRITE_JPEG_QUALITY, 95])
        rows = [f"{classes[code]} {(b[0] + b[2]) / 2 / width:.6f} {(b[1] + b[3]) / 2 / height:.6f} "
                f"{(b[2] - b[0]) / width:.6f} {(b[3] - b[1]) / height:.6f}\n"
                for code, b, _ in found]
        (out / f"{stem}.txt").write_text("".join(rows))
        summary[name] = {"boxed": len(photo["tiles"]), "found": len(found)}
        if draw_to is not None:
            draw_to.mkdir(parents=True, exist_ok=True)
            canvas = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
            for code, (x1, y1, x2, y2), _ in found:
                cv2.rectangle(canvas, (x1, y1), (x2, y2), (0, 200, 0), 2)
                cv2.putText(canvas, code, (x1 + 3, y1 + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                            (0, 0, 255), 2)
            cv2.imwrite(str(draw_to / f"{stem}.jpg"), canvas)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--camerash", type=Path, default=REPO_ROOT.parent / "shared" / "data" / "camerash")
    parser.add_argument("--boxes", type=Path, default=BOXES_JSON)
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "cache" / "camerash_train")
    parser.add_argument("--draw", type=Path, default=None, help="folder for overlays to look at")
    args = parser.parse_args(argv)
    if not (args.camerash / "raw-images").is_dir():
        print(f"error: no Camerash photos under {args.camerash}", file=sys.stderr)
        return 2
    summary = build(args.camerash, args.boxes, args.out, args.draw)
    for name, counts in summary.items():
        print(f"{name}: {counts['boxed']} boxed -> {counts['found']} tiles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
