"""`mahjong-lens detect PHOTO... --json`: one JSON line per photo with the tiles found.

Each line is {"image", "width", "height", "seconds", "tiles": [{"code", "box", "confidence"}]}
(design.md, "Command line"); a photo that cannot be read gets {"image", "error"} instead,
the others are still read, and the exit status is then 2 with a one-line summary on stderr.
A photo in which no tile is found counts as bad input too (issue 7): its line carries the
empty `tiles` and an `error` that says so; every other line has `"error": null`.
Without --json the same facts are printed as one readable line per photo.
"""
from __future__ import annotations

import argparse
import json
import sys

from typing import TYPE_CHECKING

from app.commands.sets import add_set_option, set_refiner
from app.i18n import _, ngettext
from app.i18n.messages import translate

if TYPE_CHECKING:  # vision (numpy, OpenCV, onnxruntime) loads only when a photo is read:
    from vision.pipeline import PhotoReading  # `mahjong-lens score --hand` must start fast


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "detect", help=_("find and read the tiles in photos"),
        description=_("Find and read the tiles in each photo; one line per photo."))
    parser.add_argument("photos", nargs="+", metavar="PHOTO", help=_("image files (JPEG, PNG, ...)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object per photo"))
    parser.add_argument("--model", default=None,
                        help=_("detector ONNX file (default: the committed models/detector.onnx)"))
    parser.add_argument("--conf", type=_fraction, default=None,
                        help=_("minimum tile score, 0..1 (default: the pipeline's operating "
                               "confidence, vision.pipeline.OPERATING_CONF or $MAHJONG_LENS_CONF)"))
    parser.add_argument("--max-megapixels", type=float, default=None,
                        help=_("refuse larger images (default: vision.image's limit, 64)"))
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


def reading_to_json(image: str, reading: PhotoReading) -> dict:
    found = reading.detections
    tiles = [{"code": code, "box": [round(float(v), 1) for v in box],
              "confidence": round(float(score), 4)}
             for code, box, score in zip(found.codes, found.xyxy, found.confidence)]
    line = {"image": image, "width": reading.photo.width, "height": reading.photo.height,
            "seconds": round(reading.seconds, 4), "tiles": tiles, "error": None}
    if not tiles:  # issue 7: a photo without tiles is bad input, said in one line
        line["error"] = "no tiles found in this photo"
    return line


def run(args: argparse.Namespace) -> int:
    from vision.runtime import model_path
    from vision.image import DEFAULT_MAX_PIXELS, ImageError
    from vision.pipeline import TileReader

    max_pixels = DEFAULT_MAX_PIXELS if args.max_megapixels is None else int(args.max_megapixels * 1e6)
    try:
        reader = TileReader(args.model or model_path(), max_pixels=max_pixels,
                            conf=args.conf, refiner=set_refiner(args))
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
