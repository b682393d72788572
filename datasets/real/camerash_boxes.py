"""Boxes with labels for the real Camerash photos, found by template matching of their crops.

The 628 crops in `raw-tiles/` were cut unscaled from the 25 photos in `raw-images/`, so each
crop sits somewhere in one photo at scale 1: `cv2.matchTemplate` finds where (searched at a
reduced scale first, then refined at full scale in a small window). A match counts when its
normalised correlation at full scale is at least MIN_SCORE; the rest are listed as misses.

    python -m datasets.real.camerash_boxes --camerash ../shared/data/camerash \
        --out datasets/real/camerash_boxes.json [--draw cache/camerash_look]

The boxes are our own derived data (the photos are never committed). Only the tiles that
have a crop get a box: most photos show more tiles than were cut, so evaluation on them must
ignore detections that overlap no labelled box (datasets/eval/reader.py does).

Held-out split (HELD_OUT_SETS): whole tile sets, so that no design of the held-out photos is
seen in training; a generator that textures tiles with Camerash crops must skip every crop
whose photo is held out (the JSON lists `held_out_crops`).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

# label-name of labels/label.csv -> project code (README of the data set)
_HONOURS = {"east": "1z", "south": "2z", "west": "3z", "north": "4z", "white": "5z",
            "green": "6z", "red": "7z"}
_BONUS = {"plum": "1f", "orchid": "2f", "chrysanthemum": "3f", "bamboo": "4f",
          "spring": "5f", "summer": "6f", "autumn": "7f", "winter": "8f"}
_SUITS = {"dots": "p", "bamboo": "s", "characters": "m"}
# label errors found by eye (data set README)
LABEL_FIXES = {"133.jpg": "8p", "350.jpg": "9p"}
MIN_SCORE = 0.9
# Tile sets by photo name prefix ("1-3.jpg" is set "1"); held out = never used in training.
BOXES_JSON = Path(__file__).with_name("camerash_boxes.json")  # committed: what this module found
HELD_OUT_SETS = ("1", "4", "7", "9", "12")


def code_of(label_name: str) -> str:
    group, _, rest = label_name.partition("-")
    if group in _SUITS:
        return f"{int(rest)}{_SUITS[group]}"
    if group == "honors":
        return _HONOURS[rest]
    if group == "bonus":
        return _BONUS[rest]
    raise ValueError(f"unknown Camerash label {label_name!r}")


def photo_set(image_name: str) -> str:
    return Path(image_name).stem.split("-")[0]


def read_crop_labels(camerash: Path) -> dict[str, str]:
    """crop file name -> code, with the known label errors fixed and duplicates dropped."""
    labels = {}
    with open(camerash / "labels" / "data.csv", newline="", encoding="utf-8-sig") as handle:
        for row in csv.DictReader(handle):
            labels.setdefault(row["image-name"], code_of(row["label-name"]))
    labels.update({name: code for name, code in LABEL_FIXES.items() if name in labels})
    return labels


def _grey(path: Path) -> np.ndarray:
    from vision.image import decode_image
    return cv2.cvtColor(decode_image(path), cv2.COLOR_RGB2GRAY)


_PHOTOS: dict[str, np.ndarray] = {}


def _load_photos(folder: str) -> None:
    for path in sorted(Path(folder).iterdir()):
        _PHOTOS[path.name] = _grey(path)


def _reduction(crop: np.ndarray) -> int:
    """The largest of 8, 4, 2, 1 that leaves the crop at least 24 pixels on its short side."""
    for factor in (8, 4, 2):
        if min(crop.shape) / factor >= 24:
            return factor
    return 1


def locate(crop: np.ndarray) -> tuple[str, tuple[int, int], float] | None:
    """(photo name, top-left x, y, full-scale score) of the best place of `crop`."""
    factor = _reduction(crop)
    small_crop = cv2.resize(crop, None, fx=1 / factor, fy=1 / factor,
                            interpolation=cv2.INTER_AREA) if factor > 1 else crop
    best = None
    for name, photo in _PHOTOS.items():
        if photo.shape[0] < crop.shape[0] or photo.shape[1] < crop.shape[1]:
            continue
        small = cv2.resize(photo, None, fx=1 / factor, fy=1 / factor,
                           interpolation=cv2.INTER_AREA) if factor > 1 else photo
        if small.shape[0] < small_crop.shape[0] or small.shape[1] < small_crop.shape[1]:
            continue
        result = cv2.matchTemplate(small, small_crop, cv2.TM_CCOEFF_NORMED)
        _, score, _, (x, y) = cv2.minMaxLoc(result)
        if best is None or score > best[2]:
            best = (name, (x * factor, y * factor), score)
    if best is None:
        return None
    name, (x, y), _ = best
    photo = _PHOTOS[name]
    margin = 2 * factor + 2
    x0, y0 = max(0, x - margin), max(0, y - margin)
    x1 = min(photo.shape[1], x + crop.shape[1] + margin)
    y1 = min(photo.shape[0], y + crop.shape[0] + margin)
    result = cv2.matchTemplate(photo[y0:y1, x0:x1], crop, cv2.TM_CCOEFF_NORMED)
    _, score, _, (dx, dy) = cv2.minMaxLoc(result)
    return name, (x0 + dx, y0 + dy), float(score)


def _locate_file(crop_path: str):
    return crop_path, locate(_grey(Path(crop_path)))


def build_boxes(camerash: Path) -> dict:
    labels = read_crop_labels(camerash)
    crops = [str(camerash / "raw-tiles" / name) for name in sorted(labels)]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1, initializer=_load_photos,
                             initargs=(str(camerash / "raw-images"),)) as pool:
        found = list(pool.map(_locate_file, crops, chunksize=8))
    photos = {}
    for path in sorted((camerash / "raw-images").iterdir()):
        height, width = _grey(path).shape
        photos[path.name] = {"width": width, "height": height, "set": photo_set(path.name),
                             "held_out": photo_set(path.name) in HELD_OUT_SETS, "tiles": []}
    misses, held_out_crops = [], []
    for crop_path, hit in found:
        name = Path(crop_path).name
        crop_h, crop_w = cv2.imread(crop_path, cv2.IMREAD_GRAYSCALE).shape
        if hit is None or hit[2] < MIN_SCORE:
            misses.append({"crop": name, "code": labels[name],
                           "best": None if hit is None else [hit[0], round(hit[2], 4)]})
            continue
        photo, (x, y), score = hit
        photos[photo]["tiles"].append({"crop": name, "code": labels[name],
                                       "box": [x, y, x + crop_w, y + crop_h],
                                       "score": round(score, 4)})
        if photos[photo]["held_out"]:
            held_out_crops.append(name)
    for photo in photos.values():
        photo["tiles"], dropped = drop_duplicates(photo["tiles"])
        misses += dropped
    held_out_crops = [name for name in held_out_crops
                      if any(t["crop"] == name for p in photos.values() for t in p["tiles"])]
    return {"source": "Camerash/mahjong-dataset (MIT), raw-images + raw-tiles",
            "min_score": MIN_SCORE, "held_out_sets": list(HELD_OUT_SETS),
            "photos": photos, "held_out_crops": sorted(held_out_crops), "misses": misses}


def box_overlap(a: list[float], b: list[float]) -> float:
    """Intersection over union of two (x1, y1, x2, y2) boxes."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def drop_duplicates(tiles: list[dict]) -> tuple[list[dict], list[dict]]:
    """Two crops on one tile (IoU > 0.5): keep the better match if both say the same code,
    drop both if they disagree (the label of that tile is then unknown)."""
    ordered = sorted(tiles, key=lambda t: -t["score"])
    kept, dropped = [], []
    for tile in ordered:
        rivals = [k for k in kept if box_overlap(k["box"], tile["box"]) > 0.5]
        if not rivals:
            kept.append(tile)
            continue
        dropped.append({"crop": tile["crop"], "code": tile["code"], "best": "duplicate"})
        for rival in rivals:
            if rival["code"] != tile["code"] and rival in kept:
                kept.remove(rival)
                dropped.append({"crop": rival["crop"], "code": rival["code"],
                                "best": "conflict"})
    return sorted(kept, key=lambda t: t["crop"]), dropped


def draw(camerash: Path, boxes: dict, out: Path) -> None:
    from vision.types import Detections
    from vision.draw import draw_detections
    from vision.image import decode_image
    from datasets.classes import class_index, class_names
    out.mkdir(parents=True, exist_ok=True)
    for name, photo in boxes["photos"].items():
        tiles = photo["tiles"]
        found = Detections([t["box"] for t in tiles] or np.zeros((0, 4)),
                           [class_index()[t["code"]] for t in tiles],
                           [min(1.0, t["score"]) for t in tiles], class_names())
        image = draw_detections(decode_image(camerash / "raw-images" / name), found,
                                show_confidence=False)
        cv2.imwrite(str(out / (Path(name).stem + ".jpg")), cv2.cvtColor(image, cv2.COLOR_RGB2BGR))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--camerash", type=Path, default=Path("../shared/data/camerash"))
    parser.add_argument("--out", type=Path, default=Path("datasets/real/camerash_boxes.json"))
    parser.add_argument("--draw", type=Path, help="write overlays of the boxes here")
    args = parser.parse_args(argv)
    boxes = build_boxes(args.camerash)
    args.out.write_text(json.dumps(boxes, indent=1, ensure_ascii=False) + "\n")
    placed = sum(len(p["tiles"]) for p in boxes["photos"].values())
    print(f"{placed} crops placed, {len(boxes['misses'])} missed; wrote {args.out}")
    if args.draw:
        draw(args.camerash, boxes, args.draw)
    return 0


if __name__ == "__main__":
    sys.exit(main())
