"""How often the page's "blurred photo" hint (vision.legibility.steady_hint) would show, by how
blurred the photos are: the threshold is chosen here, on development photos.

    python -m datasets.eval.sharpness --camerash ../shared/data/camerash --camerash-training \\
        [--synth cache/synth_fd_dev] [--blur 0,0.02,0.04,0.06,0.08] [--json cache/sharp.json]
        [--side 48] [--grid 0.06,0.07,0.08,0.09,0.10]

Each photo is read as the app reads it (decode, find, read, lay out), after `reshot` blurs
it by a Gaussian of F times its median labelled tile short side; the hand's sharpness
(vision.legibility.sharpness) is then compared with a grid of thresholds. Printed per set and
blur: photos measured (enough large tiles), the measure's spread, and the share flagged at
each threshold.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

from datasets.real.camerash_boxes import BOXES_JSON

GRID = (0.06, 0.07, 0.08, 0.09, 0.10)


def numbers(text: str) -> list[float]:
    """Comma-separated numbers; ValueError names the bad text."""
    try:
        return [float(b) for b in text.split(",") if b.strip()]
    except ValueError:
        raise ValueError(f"{text!r}: expected numbers separated by commas") from None


def measure(reader, samples) -> list[float | None]:
    """The hand's sharpness of each photo as the app reads it (None: not measurable)."""
    from vision.image import ImageError
    from vision.layout import read_layout
    from vision.legibility import sharpness
    values = []
    for sample in samples:
        try:
            reading = reader.read(sample.image)
        except ImageError:
            values.append(None)
            continue
        found = reading.detections  # from the operating point, as the page gets them
        layout = read_layout(found) if len(found) else None
        values.append(None if layout is None else
                      sharpness(reading.photo.rgb, layout, reading.photo.scale))
    return values


def summary(values: list[float | None], grid=GRID) -> dict:
    measured = np.array([v for v in values if v is not None])
    out = {"photos": len(values), "measured": len(measured)}
    if len(measured):
        out["spread"] = {k: round(float(np.percentile(measured, q)), 4)
                         for k, q in (("min", 0), ("p10", 10), ("median", 50), ("max", 100))}
        out["flagged"] = {str(t): round(float((measured < t).mean()), 4) for t in grid}
    return out


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    blurs, grid = _blurs_and_grid(parser, args)
    if args.side is not None:
        _measure_from(parser, args.side)
    sets = _photo_sets(args)
    if not sets:
        parser.error("give --camerash and/or --synth")
    report = _blurred_report(sets, blurs, grid)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--camerash", type=Path, help="folder of the Camerash data set")
    parser.add_argument("--camerash-training", action="store_true",
                        help="its training photos (development) instead of the held-out ones")
    parser.add_argument("--boxes", type=Path, default=BOXES_JSON)
    parser.add_argument("--synth", type=Path, action="append", default=[],
                        help="synthetic scenes (repeatable)")
    parser.add_argument("--blur", default="0,0.02,0.04,0.06,0.08",
                        help="comma-separated blurs, in tile short sides")
    parser.add_argument("--grid", default=",".join(map(str, GRID)), help="thresholds to count")
    parser.add_argument("--side", type=int, default=None,
                        help="measure tiles from this short side up (vision.sharpness.SHARP_SIDE)")
    parser.add_argument("--json", type=Path)
    return parser


def _blurs_and_grid(parser, args) -> tuple[list[float], list[float]]:
    """`--blur` and `--grid` as numbers; a bad one ends the run with a usage error."""
    try:
        return numbers(args.blur), numbers(args.grid)
    except ValueError as exc:
        parser.error(str(exc))


def _measure_from(parser, side: int) -> None:
    """Measure tiles from `side` pixels up: vision.sharpness reads SHARP_SIDE when it measures."""
    if side < 8:
        parser.error(f"--side {side}: expected 8 pixels or more")
    import vision.sharpness
    vision.sharpness.SHARP_SIDE = side


def _photo_sets(args) -> dict:
    """The photos to measure by set name: each `--synth` folder, then the Camerash photos."""
    from datasets.eval.samples import camerash_samples, synth_samples
    sets = {str(folder): synth_samples(folder) for folder in args.synth}
    if args.camerash:
        name = "Camerash " + ("training" if args.camerash_training else "held-out")
        sets[name] = camerash_samples(args.camerash, args.boxes, not args.camerash_training)
    return sets


def _blurred_report(sets: dict, blurs: list[float], grid: list[float]) -> dict:
    """Each set's summary at each blur, printed as it comes."""
    from datasets.eval.samples import reshot
    from vision.pipeline import TileReader
    reader = TileReader()
    report = {}
    for name, samples in sets.items():
        for blur in blurs:
            with tempfile.TemporaryDirectory() as folder:
                shot = reshot(samples, Path(folder), blur=blur) if blur else samples
                result = summary(measure(reader, shot), grid)
            report[f"{name}, blur {blur:g}"] = result
            print(f"{name}, blur {blur:g}: {json.dumps(result)}", flush=True)
    return report


if __name__ == "__main__":
    sys.exit(main())
