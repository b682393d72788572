"""Development measure of the glyph reader (vision/recognition/glyphs.py): flowers and seasons read right.

    python -m datasets.eval.glyphs [--camerash ../shared/data/camerash] [--sets 100] \\
        [--min-side 60] [--scenes cache/synth_fd_dev ...] [--glyphs OTHER.onnx] \\
        [--weights 0.7,0.7,0.35 ...] [--json cache/glyph_eval.json]

Three sources, none held out (choices are made on them):
- `real`: the flowers and seasons of the Camerash photos of the sets that are *not* held out
  (the crop classifier trained on them, so `glyphs alone` is the telling figure there);
- `procedural`: `--sets` procedural bonus sets of seeds no training run draws
  (crop_render.BONUS_DEV_SEED0 on), each tile drawn by `crop_render.render_tile` as the
  classifier's test crops are (`--min-side`: drawn again until that many pixels across, a
  close photo as the real ones are); `as drawn` (sets that print the flowers' number at
  the right and the seasons' at the left, or every number on one side) and `flipped` (left
  and right swapped: the flowers' number at the left, as a few real sets print it);
- `scenes`: the labelled flowers and seasons of synthetic scenes (`--scenes`, development
  scenes only), in their true boxes, those at least LEGIBLE[0] + half the ramp across (45 px)
  as the app decodes them. Many designs print no number, so `number right` counts the
  tiles whose strongest number is their own among those where one is seen at 0.5 or more;
  and `number on no-glyph tiles` is the share of such tiles (honours, 5-9 of dots and
  bamboo, backs: glyph_render.NO_GLYPH_CODES) on which a number is seen at 0.5 or more,
  which should be none.
Each tile is read by the app's crop classifier (the views its metadata names, as the app
reads) and by the glyph reader; a tile
counts when the class of highest probability after `reweigh` is its own (`classifier +
glyphs`), or when the glyph evidence alone picks it (`glyphs alone`). `--weights` are the
number's, the character's and the side's weights of `vision.recognition.glyphs.evidence`, given once or
more (the tiles are read once).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from datasets.real.camerash_boxes import BOXES_JSON
from datasets.synth.glyph_render import NO_GLYPH_CODES
from vision.recognition.glyphs import (
    BONUS_CODES,
    LEGIBLE,
    WEIGHT_CHAR,
    WEIGHT_NUMBER,
    WEIGHT_SIDE,
    GlyphReader,
    evidence,
    legibility,
    reweigh,
)
from vision.recognition.refine import CropClassifier
from vision.runtime import DEFAULT_CLASSIFIER_PATH
from vision.types import Detections


def read_tiles(classifier: CropClassifier, glyphs: GlyphReader, tiles) -> dict:
    """Per tile (image, box): the classifier's probabilities, the glyphs seen and where, and
    the tile's legibility."""
    probs, seen, side, scale = [], [], [], []
    for rgb, box in tiles:
        found = Detections(np.array([box], np.float32), np.zeros(1, int), np.ones(1, np.float32),
                           ("tile",))
        probs.append(classifier.probabilities(rgb, found)[0])
        best, where = glyphs.seen(rgb, [box])
        seen.append(best[0])
        side.append(where[0])
        scale.append(legibility(np.array([box], np.float32))[0])
    return {"probs": np.array(probs), "seen": np.array(seen), "side": np.array(side),
            "scale": np.array(scale)}


def right(read: dict, labels, glyphs: GlyphReader, names, weights) -> dict:
    """Tiles read right with these evidence weights: with the classifier, and by glyphs alone."""
    with_classifier = alone = 0
    for i, label in enumerate(labels):
        ev = read["scale"][i] * evidence(read["seen"][i], read["side"][i], glyphs.arabic,
                                         glyphs.chinese, glyphs.chars, weights)
        with_classifier += int(np.argmax(reweigh(read["probs"][i], names, ev)) == label)
        alone += int(names.index(BONUS_CODES[int(ev.argmax())]) == label)
    return {"classifier + glyphs": with_classifier, "glyphs alone": alone}


def real_tiles(camerash: Path):
    from datasets.real.crop_sources import camerash_patches
    patches = camerash_patches(camerash, BOXES_JSON, held_out=False)
    keep = [i for i, c in enumerate(patches.labels) if 34 <= c < 42]
    return [(patches.images[i], patches.boxes[i]) for i in keep], [patches.labels[i] for i in keep]


def procedural_tiles(sets: int, flip: bool, min_side: float = 0.0, seed: int = 4545):
    """Each set's 8 tiles, each drawn again until its short side is `min_side` or more."""
    from datasets.synth.crop_render import BONUS_DEV_SEED0, FaceBank, render_tile
    tiles, labels = [], []
    for s in range(BONUS_DEV_SEED0, BONUS_DEV_SEED0 + sets):
        bank = FaceBank([], bonus_sets=1, bonus_seed0=s, flip_bonus=flip)
        rng = np.random.default_rng([seed, s])
        for c in range(34, 42):
            image, box = render_tile(rng, bank, c)
            while min(box[2] - box[0], box[3] - box[1]) < min_side:
                image, box = render_tile(rng, bank, c)
            tiles.append((image, box))
            labels.append(c)
    return tiles, labels


def scene_tiles(folder: Path, codes, min_side: float, pad: float = 0.25):
    """(tiles, labels) of the scenes' labelled tiles of `codes` at least `min_side` across,
    each as its own padded cut of the scene (image, box in it), and their class ids."""
    from PIL import Image

    from datasets.classes import class_index
    from datasets.eval.samples import synth_samples
    from vision.boxes import short_sides
    wanted = [class_index()[c] for c in codes]
    tiles, labels = [], []
    for sample in synth_samples(folder):
        keep = np.isin(sample.class_id, wanted) & (short_sides(sample.xyxy) >= min_side)
        if not keep.any():
            continue
        rgb = np.asarray(Image.open(sample.image).convert("RGB"))
        for box, label in zip(sample.xyxy[keep], sample.class_id[keep]):
            m = pad * (box[2:] - box[:2])
            x1, y1 = np.maximum(0, np.floor(box[:2] - m)).astype(int)
            x2, y2 = np.ceil(box[2:] + m).astype(int)
            tiles.append((rgb[y1:y2, x1:x2].copy(), box - np.array([x1, y1, x1, y1])))
            labels.append(int(label))
    return tiles, labels


def pick(tiles, labels, keep):
    """The (tiles, labels) where `keep` is true."""
    return [t for t, k in zip(tiles, keep) if k], [c for c, k in zip(labels, keep) if k]


def numbers(read: dict, labels, glyphs: GlyphReader, names) -> dict:
    """Of the tiles on which a number 1-4 is seen at 0.5 or more: how many, and how many
    of those read their own number (a flower's or season's place in its four)."""
    number = np.maximum(read["seen"][:, glyphs.arabic], read["seen"][:, glyphs.chinese])
    seen = number.max(axis=1) >= 0.5
    own = np.array([BONUS_CODES.index(names[c]) % 4 for c in labels])
    return {"number seen": int(seen.sum()),
            "number right": int((seen & (number.argmax(axis=1) == own)).sum())}


def false_numbers(glyphs: GlyphReader, tiles, labels) -> dict:
    """The share of tiles (none of which prints a glyph) on which a number 1-4 is seen at
    0.5 or more."""
    if not tiles:
        return {"tiles": 0, "number on no-glyph tiles": None}
    seen = np.array([glyphs.seen(rgb, [box])[0][0] for rgb, box in tiles])
    number = seen[:, glyphs.arabic + glyphs.chinese].max(axis=1)
    return {"tiles": len(tiles), "number on no-glyph tiles": round(float(np.mean(number >= 0.5)), 4)}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        options = _weight_options(args.weights)
    except ValueError:
        print("error: --weights takes three numbers, e.g. 0.7,0.7,0.35", file=sys.stderr)
        return 2
    classifier, glyphs = _app_readers(args.glyphs)
    names = list(classifier.names)
    sources = _drawn_sources(args)
    result = {}
    for folder in args.scenes:  # each folder's scenes read once, both kinds of tile cut
        bonus, no_glyph = _scene_cuts(folder, names)
        name = f"scenes {folder.name} no-glyph tiles"
        result[name] = false_numbers(glyphs, *no_glyph)
        print(name, json.dumps(result[name]), flush=True)
        sources[f"scenes {folder.name}"] = bonus
    for name, (tiles, labels) in sources.items():
        read = read_tiles(classifier, glyphs, tiles)
        result[name] = _figures(read, labels, glyphs, names, options)
        print(name, json.dumps(result[name]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--camerash", type=Path, default=None)
    parser.add_argument("--sets", type=int, default=100)
    parser.add_argument("--min-side", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=4545)
    parser.add_argument("--scenes", type=Path, action="append", default=[],
                        help="development scenes (datasets.synth.generate output); again for more")
    parser.add_argument("--glyphs", type=Path, default=None,
                        help="another glyph reader (default: the committed one)")
    parser.add_argument("--weights", action="append", default=None,
                        help="number,character,side weights; again for more")
    parser.add_argument("--json", type=Path, default=None)
    return parser


def _weight_options(texts: list[str] | None) -> list[tuple[float, ...]]:
    """The (number, character, side) evidence weights to try, the app's when none are
    given; ValueError when one is not three numbers."""
    options = [tuple(float(w) for w in text.split(",")) for text in
               (texts or [f"{WEIGHT_NUMBER},{WEIGHT_CHAR},{WEIGHT_SIDE}"])]
    if any(len(w) != 3 for w in options):
        raise ValueError("expected three numbers")
    return options


def _app_readers(glyph_model: Path | None) -> tuple[CropClassifier, GlyphReader]:
    """The crop classifier as the app reads (vision.recognition.refine.default_refiner: the
    views its metadata names), and this glyph reader or the committed one."""
    classifier = CropClassifier(DEFAULT_CLASSIFIER_PATH, mode="reader")
    classifier.set_views(classifier.views)
    glyphs = GlyphReader(glyph_model) if glyph_model else GlyphReader()
    return classifier, glyphs


def _drawn_sources(args) -> dict:
    """(tiles, labels) by source name: the Camerash flowers and seasons, and the procedural
    sets as drawn and flipped."""
    sources = {}
    if args.camerash:
        sources["real"] = real_tiles(args.camerash)
    if args.sets:
        for name, flip in (("procedural as drawn", False), ("procedural flipped", True)):
            sources[name] = procedural_tiles(args.sets, flip, args.min_side, args.seed)
    return sources


def _scene_cuts(folder: Path, names) -> tuple[tuple[list, list], tuple[list, list]]:
    """The (tiles, labels) of the scenes' flowers and seasons, and of their tiles that print
    no glyph, those legible as the app decodes them."""
    legible = (LEGIBLE[0] + LEGIBLE[1]) / 2
    tiles, labels = scene_tiles(folder, BONUS_CODES + NO_GLYPH_CODES, legible)
    bonus = [names[c] in BONUS_CODES for c in labels]
    return pick(tiles, labels, bonus), pick(tiles, labels, [not b for b in bonus])


def _figures(read: dict, labels, glyphs: GlyphReader, names, options) -> dict:
    """One source's figures: its tiles, those the classifier reads right alone, the numbers
    seen, and the tiles read right with each of the weight `options`."""
    out = {"tiles": len(labels),
           "classifier": int((read["probs"].argmax(axis=1) == labels).sum()),
           **numbers(read, labels, glyphs, names)}
    for weights in options:
        out[",".join(f"{w:g}" for w in weights)] = right(read, labels, glyphs, names, weights)
    return out


if __name__ == "__main__":
    sys.exit(main())
