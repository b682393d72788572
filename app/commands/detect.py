"""`mahjong-lens detect PHOTO... --json`: one JSON line per photo with the tiles found.

Each line is {"image", "width", "height", "seconds", "tiles": [{"code", "box", "confidence"}]}
(docs/architecture.md, "Command line"); a photo that cannot be read gets {"image", "error"} instead,
the others are still read, and the exit status is then 2 with a one-line summary on stderr.
A photo in which no tile is found counts as bad input too: its line carries the
empty `tiles` and an `error` that says so; every other line has `"error": null`.
Without --json the same facts are printed as one readable line per photo.
"""
from __future__ import annotations

import argparse
import json
import sys

from typing import TYPE_CHECKING

from app.commands import SUMMARIES
from app.commands.sets import add_set_option, set_refiner
from app.i18n import _, ngettext
from app.i18n.messages import translate

if TYPE_CHECKING:  # vision (numpy, OpenCV, onnxruntime) loads only when a photo is read:
    from vision.pipeline import PhotoReading  # `mahjong-lens score --hand` must start fast


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "detect", help=_(SUMMARIES["detect"]),
        description=_("Find and read the tiles in each photo; one line per photo."))
    parser.add_argument("photos", nargs="+", metavar="PHOTO", help=_("image files (JPEG, PNG, ...)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object per photo"))
    parser.add_argument("--model", default=None,
                        help=_("tile finder model, an ONNX file (default: the one that comes "
                               "with mahjong-lens)"))
    parser.add_argument("--conf", type=_fraction, default=None,
                        help=_("lowest tile score listed, 0..1 (default 0.5, or "
                               "$MAHJONG_LENS_CONF)"))
    parser.add_argument("--max-megapixels", type=float, default=None,
                        help=_("refuse larger images (default 64)"))
    add_set_option(parser)
    parser.set_defaults(run=run)


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a number in 0..1, got {text}").format(text=repr(text))) from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(_("expected a number in 0..1, got {text}").format(text=value))
    return value


def reading_order(xyxy) -> list[int]:
    """Tiles as a person reads them: rows from the top (a tile joins a row when its centre
    lies within half a tile's height of the row's first), each row left to right."""
    boxes = [tuple(float(v) for v in box) for box in xyxy]
    if not boxes:
        return []
    heights = sorted(b[3] - b[1] for b in boxes)
    half = heights[len(heights) // 2] / 2
    rows: list[tuple[list[int], float]] = []
    for i in sorted(range(len(boxes)), key=lambda i: boxes[i][1] + boxes[i][3]):
        centre = (boxes[i][1] + boxes[i][3]) / 2
        if rows and centre - rows[-1][1] <= half:
            rows[-1][0].append(i)
        else:
            rows.append(([i], centre))
    return [i for row, _ in rows for i in sorted(row, key=lambda i: boxes[i][0] + boxes[i][2])]


def reading_to_json(image: str, reading: PhotoReading) -> dict:
    found = reading.detections
    codes, xyxy, confidence = list(found.codes), list(found.xyxy), list(found.confidence)
    tiles = [{"code": codes[i], "box": [round(float(v), 1) for v in xyxy[i]],
              "confidence": round(float(confidence[i]), 4)} for i in reading_order(xyxy)]
    line = {"image": image, "width": reading.photo.width, "height": reading.photo.height,
            "seconds": round(reading.seconds, 4), "tiles": tiles, "error": None}
    if not tiles:  # a photo without tiles is bad input, said in one line
        line["error"] = "no tiles found in this photo"
    return line


def run(args: argparse.Namespace) -> int:
    from vision.runtime import model_path
    from vision.image import DEFAULT_MAX_PIXELS, ImageError
    from vision.pipeline import TileReader

    if args.max_megapixels is not None and not 0 < args.max_megapixels <= 1000:
        raise ValueError(f"--max-megapixels takes a number from 0 to 1000, got {args.max_megapixels:g}")
    max_pixels = DEFAULT_MAX_PIXELS if args.max_megapixels is None else int(args.max_megapixels * 1e6)
    try:
        # no stack classifier: it tells a kong's fourth tile for the melds, and detect
        # prints tiles, not melds (its model is then never loaded)
        reader = TileReader(args.model or model_path(), max_pixels=max_pixels,
                            conf=args.conf, refiner=set_refiner(args), stacking=None)
    except FileNotFoundError as exc:
        raise ValueError(str(exc)) from None
    failed = 0
    for image in args.photos:
        try:
            line = reading_to_json(image, reader.read(image))
        except ImageError as exc:
            line = {"image": image, "error": str(exc)}
        failed += line["error"] is not None
        if args.json:
            print(json.dumps(line, ensure_ascii=False), flush=True)
        elif line["error"]:
            print(_("{image}: error: {error}").format(image=image, error=translate(line["error"])),
                  flush=True)
        else:
            codes = " ".join(tile["code"] for tile in line["tiles"])
            count = len(line["tiles"])
            print(ngettext("{image}: {count} tile in {seconds} s: {codes}",
                           "{image}: {count} tiles in {seconds} s: {codes}", count).format(
                image=image, count=count, seconds=f"{line['seconds']:.3f}", codes=codes), flush=True)
    if failed:
        print("mahjong-lens detect: " + ngettext(
            "{failed} of {total} photo could not be read or showed no tile",
            "{failed} of {total} photos could not be read or showed no tile", len(args.photos)).format(
                failed=failed, total=len(args.photos)), file=sys.stderr)
        return 2
    return 0
