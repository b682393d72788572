"""Reading with a set taught from one sheet through the real teaching path: never worse?

    python -m datasets.eval.sheet_reading [--scenes 43] [--camerash ../shared/data/camerash]

Photos read without a set, with a set taught from one sheet (vision.tileset.read_sheet, the
tiles `Sheet.taught` as examples), and with a set taught from the same sheet with its first
row typed shifted by one (9m typed first: mislabelled on purpose): per-tile F1 of each, the
difference and its standard error (bootstrap over photos, paired). Development designs
(datasets.art.designs: SET_DEVELOPMENT and DEVELOPMENT), `--scenes` scenes of each (seed
READING_SEED), each taught from its generated sheet (datasets.eval.sheet_photo); held-out
Camerash sets: each set's photos, taught from a sheet laid from its crops
(datasets.eval.sheet_align.laid_sheet). Writes models/sheet_reading_eval.json.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from datasets.eval.sheet_align import SHEET_ROWS, suit_rows, camerash_tiles, laid_sheet, typed_text

READING_SEED = 4343
READING_OUT = Path(__file__).resolve().parents[2] / "models" / "sheet_reading_eval.json"


def shifted(text: str) -> str:
    """CODES with its first row typed shifted by one (its last code first)."""
    rows = text.split()
    first = rows[0]
    return " ".join([first[-2] + first[:-2] + first[-1]] + rows[1:])


def taught_set(name: str, photo, typed: str, sheets):
    """The set a sheet photo (bytes) teaches through read_sheet (None when refused), and the
    number of tiles taught."""
    from vision.tileset import TileSet, TileSetError, read_sheet

    try:
        sheet = read_sheet([photo], typed, reader=sheets)
    except TileSetError:
        return None, 0
    pick = sheet.taught
    codes = [sheet.codes[i] for i in pick]
    return (TileSet(name, sheet.probe).add(codes, sheet.features[pick], sheet.turned[pick],
                                           "sheet", reads=codes), len(pick))


def counts_of(sample, result) -> tuple[int, int, int]:
    from datasets.eval.metrics import score_tiles
    from vision.runtime import operating_conf

    c = score_tiles([sample], [result], operating_conf())
    return c.tp, c.fp, c.fn


def compared(per_photo: dict, rng_seed: int = 0, rounds: int = 1000) -> dict:
    """F1 of each mode from summed counts, and each mode's difference from untaught with its
    standard error (paired bootstrap over photos)."""
    from datasets.eval.metrics import f1

    arrays = {m: np.array(v, np.float64) for m, v in per_photo.items()}
    n = len(arrays["untaught"])
    rng = np.random.default_rng(rng_seed)
    picks = rng.integers(0, n, (rounds, n))

    def f1_of(a, idx=None):
        tp, fp, fn = (a if idx is None else a[idx]).sum(axis=0)
        return f1(tp, fp, fn)[2]

    out = {"photos": n}
    for mode, a in arrays.items():
        out[mode] = round(f1_of(a), 4)
        if mode != "untaught":
            diffs = [f1_of(a, i) - f1_of(arrays["untaught"], i) for i in picks]
            out[f"{mode}_minus_untaught"] = round(f1_of(a) - f1_of(arrays["untaught"]), 4)
            out[f"{mode}_se"] = round(float(np.std(diffs)), 4)
    return out


def read_modes(samples_and_read, sets) -> dict:
    """Per mode, per photo (tp, fp, fn): `samples_and_read(refiner)` yields (sample, result)."""
    return {mode: [counts_of(s, r) for s, r in samples_and_read(refiner)]
            for mode, refiner in sets.items()}


def reading_dev(count: int, cache: Path) -> dict:
    import cv2
    from datasets.art.designs import DEVELOPMENT, SET_DEVELOPMENT
    from datasets.eval.sheet_photo import make_sheet
    from datasets.eval.tileset import SHEET_SEED, read_scene
    from datasets.eval.tileset_scenes import load_scenes, scenes_of, setup
    from vision.tileset.reader import TaughtClassifier

    sheets, base, reader, stacker = setup(cache)
    per_photo = {"untaught": [], "taught": [], "mislabelled": []}
    designs = []
    for design in SET_DEVELOPMENT + DEVELOPMENT:
        img, truth = make_sheet(SHEET_SEED, design)
        photo = cv2.imencode(".png", cv2.cvtColor(img, cv2.COLOR_RGB2BGR))[1].tobytes()
        typed = typed_text(suit_rows(truth["codes"]), True)
        sets = {"untaught": (None, 0), "taught": taught_set(design, photo, typed, sheets),
                "mislabelled": taught_set(design, photo, shifted(typed), sheets)}
        scenes = load_scenes(scenes_of(design, count, READING_SEED, cache), reader)
        refiners = {m: TaughtClassifier(base.base, ts) for m, (ts, _) in sets.items()}
        rows = read_modes(lambda refiner: [(sc.sample, read_scene(sc, refiner, stacker)[0])
                                           for sc in scenes], refiners)
        for mode in per_photo:
            per_photo[mode] += rows[mode]
        designs.append({"design": design, "taught_tiles": {m: n for m, (_, n) in sets.items()},
                        **compared(rows)})
        print(json.dumps(designs[-1]), flush=True)
    return {"designs": designs, "overall": compared(per_photo), "scenes_per_design": count,
            "scene_seed": READING_SEED}


def reading_camerash(camerash: Path) -> dict:
    import cv2
    from datasets.eval.samples import camerash_samples, run_reader
    from datasets.real.camerash_boxes import BOXES_JSON
    from vision.pipeline import TileReader
    from vision.tileset.reader import TaughtClassifier, taught_refiner
    from vision.tileset.teaching import sheet_reader

    sheets, base = sheet_reader(), taught_refiner()
    photos = json.loads(BOXES_JSON.read_text())["photos"]
    samples = camerash_samples(camerash, BOXES_JSON, held_out=True)
    per_photo = {"untaught": [], "taught": [], "mislabelled": []}
    sets_out = []
    for name, tiles in sorted(camerash_tiles(camerash, held_out=True).items()):
        rgb, codes, _ = laid_sheet(tiles, SHEET_ROWS, np.random.default_rng([0, 44]))
        photo = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))[1].tobytes()
        typed = typed_text(suit_rows(codes), True)
        sets = {"untaught": (None, 0), "taught": taught_set(name, photo, typed, sheets),
                "mislabelled": taught_set(name, photo, shifted(typed), sheets)}
        mine = [s for s in samples if photos[Path(s.image).name]["set"] == name]
        rows = read_modes(lambda refiner: list(zip(mine, run_reader(
            TileReader(refiner=refiner), mine))),
            {m: TaughtClassifier(base.base, ts) for m, (ts, _) in sets.items()})
        for mode in per_photo:
            per_photo[mode] += rows[mode]
        sets_out.append({"set": name, "taught_tiles": {m: n for m, (_, n) in sets.items()},
                         **compared(rows)})
        print(json.dumps(sets_out[-1]), flush=True)
    return {"sets": sets_out, "overall": compared(per_photo)}


def run_reading(args) -> int:
    report = {"held_out_camerash": reading_camerash(args.camerash),
              "development": reading_dev(args.scenes, args.cache)}
    for part in report:
        print(part, report[part]["overall"])
    READING_OUT.write_text(json.dumps(report, indent=1) + "\n")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=43)
    parser.add_argument("--cache", type=Path, default=Path("cache") / "tileset_eval")
    parser.add_argument("--camerash", type=Path, default=Path("../shared/data/camerash"))
    return run_reading(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
