"""Labelled tile boxes cut from photos, for training and testing the crop classifier.

Two sources: synthetic scenes of `datasets.synth.generate` (truth JSON beside each image: every
labelled face-up tile and every labelled `back`), and the Camerash photos with the boxes of
datasets/real/camerash_boxes.json (held-out sets or the others). Each box is kept as a patch of
the photo with CONTEXT of the box size around it, so that a crop can be cut later with a
jittered box, as a detector would give it, by `vision.recognition.refine.square_crop`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.recognition.refine import square_crop

from datasets.art.designs import DEVELOPMENT, HELD_OUT
from datasets.classes import class_index
from datasets.synth.crop_render import jitter_box, photograph

CONTEXT = 0.35


@dataclass
class Patches:
    """Photo patches around labelled boxes: `boxes` (N, 4) are in each patch's pixels."""

    images: list = field(default_factory=list)
    boxes: list = field(default_factory=list)
    labels: list = field(default_factory=list)
    origin: list = field(default_factory=list)  # "photo name" or "scene/design"

    def add(self, rgb: np.ndarray, box, label: int, origin: str) -> None:
        height, width = rgb.shape[:2]
        x1, y1, x2, y2 = box
        cx, cy = (x2 - x1) * CONTEXT + 2, (y2 - y1) * CONTEXT + 2
        left, top = int(max(0, x1 - cx)), int(max(0, y1 - cy))
        right, bottom = int(min(width, np.ceil(x2 + cx))), int(min(height, np.ceil(y2 + cy)))
        self.images.append(np.ascontiguousarray(rgb[top:bottom, left:right]))
        self.boxes.append([x1 - left, y1 - top, x2 - left, y2 - top])
        self.labels.append(label)
        self.origin.append(origin)

    def __len__(self) -> int:
        return len(self.labels)

    def crop(self, i: int, size: int, margin: float) -> np.ndarray:
        """The crop of box `i` as the runtime cuts it, with no change."""
        return square_crop(self.images[i], self.boxes[i], size, margin)


def _read_rgb(path: Path) -> np.ndarray:
    from vision.image import load_photo
    return load_photo(path).rgb


def scene_patches(folders: Path | list[Path], held_out_designs: bool = False,
                  per_class: int = 0, seed: int = 0) -> Patches:
    """Labelled tiles of synthetic scenes (one folder or several) whose design is (or is
    not) held out, never of a development design; with `per_class`, at most that many of each class (scenes taken in a
    seeded random order)."""
    out = Patches()
    index = class_index()
    folders = [folders] if isinstance(folders, Path) else folders
    truths = sorted(t for folder in folders for t in (folder / "truth").glob("*.json"))
    if per_class:
        truths = [truths[i] for i in np.random.default_rng(seed).permutation(len(truths))]
    counts = np.zeros(len(index), int)
    for truth_path in truths:
        truth = json.loads(truth_path.read_text())
        tiles = [t for t in truth["tiles"] if t.get("label") and t.get("box")
                 and (t.get("design") in HELD_OUT) == held_out_designs
                 and t.get("design") not in DEVELOPMENT   # chosen by, so never learnt
                 and not (per_class and counts[index[t["label"]]] >= per_class)]
        if not tiles:
            continue
        rgb = _read_rgb(truth_path.parent.parent / truth["image"])
        for t in tiles:
            counts[index[t["label"]]] += 1
            out.add(rgb, t["box"], index[t["label"]], f"{truth_path.stem}/{t.get('design')}")
        if per_class and counts.min() >= per_class:
            break
    return out


def camerash_patches(camerash: Path, boxes_json: Path, held_out: bool) -> Patches:
    """Labelled tiles of the Camerash photos of the held-out sets, or of the other sets."""
    out = Patches()
    index = class_index()
    boxes = json.loads(Path(boxes_json).read_text())
    for name, photo in sorted(boxes["photos"].items()):
        if photo["held_out"] != held_out or not photo["tiles"]:
            continue
        rgb = _read_rgb(camerash / "raw-images" / name)
        for t in photo["tiles"]:
            out.add(rgb, t["box"], index[t["code"]], name)
    return out


def camerash_crop_files(camerash: Path, boxes_json: Path, held_out: bool = True
                        ) -> tuple[list[np.ndarray], list[int], list[str]]:
    """The crop files of raw-tiles/ placed in held-out (or other) photos, as cut by the
    data set's author, with their labels (known errors fixed) and photo names."""
    boxes = json.loads(Path(boxes_json).read_text())
    index = class_index()
    images, labels, photos = [], [], []
    for name, photo in sorted(boxes["photos"].items()):
        if photo["held_out"] != held_out:
            continue
        for t in photo["tiles"]:
            images.append(_read_rgb(camerash / "raw-tiles" / t["crop"]))
            labels.append(index[t["code"]])
            photos.append(name)
    return images, labels, photos


def _turn(image: np.ndarray, box, k: int):
    """Image and box turned by k * 90 degrees counter-clockwise (never mirrored)."""
    x1, y1, x2, y2 = box
    h, w = image.shape[:2]
    for _ in range(k % 4):
        image = cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)
        x1, y1, x2, y2 = y1, w - x2, y2, w - x1
        h, w = w, h
    return image, [x1, y1, x2, y2]


def augmented_crop(rng: np.random.Generator, patches: Patches, i: int, size: int,
                   margin: float, clean: bool) -> np.ndarray:
    """A training crop of box `i`: turned (0 and 180 common), shrunk at random when the
    photo is `clean` (product photos show tiles large and sharp), photographed, jittered."""
    r = rng.random()
    k = 0 if r < 0.6 else 2 if r < 0.85 else int(rng.choice([1, 3]))
    image, box = _turn(patches.images[i], patches.boxes[i], k)
    tile = max(box[2] - box[0], box[3] - box[1])
    if clean:
        target = float(np.exp(rng.uniform(*np.log([14, 28] if rng.random() < 0.2 else [28, 110]))))
        f = min(1.0, target / max(tile, 1.0))
        if f < 1:
            h, w = image.shape[:2]
            image = cv2.resize(image, (max(2, round(w * f)), max(2, round(h * f))),
                               interpolation=cv2.INTER_AREA)
            box = [v * f for v in box]
            tile *= f
    if clean or rng.random() < 0.5:
        image = photograph(rng, image, tile)
    return square_crop(image, jitter_box(rng, box), size, margin)
