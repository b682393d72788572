"""Teaching sheets, perturbed: are the codes stored on the right tiles?

    python -m datasets.eval.sheet_align choose [--seeds 6]            # development sheets
    python -m datasets.eval.sheet_align report [--seeds 6] [--camerash ../shared/data/camerash]
    python -m datasets.eval.sheet_align reading [--scenes 43] [--camerash ...]

A sheet is a photo of a set's tiles laid in the suggested rows, with the codes typed. Two
kinds: generated sheets of the development designs (datasets.eval.sheet_photo; the reader
never trained on them and agrees with only part of the codes) and sheets laid from the real
crops of the held-out Camerash sets (never trained on), on a green table. Each is taught
with one perturbation (`PERTURBATIONS`): none, a missed tile (the blank white dragon among
them), a tile found as two half boxes, a box that is no tile, a confident misread, the
sheet turned 90/180/270°, rows typed in another order, a typed code whose tile is absent,
a short sheet (1f-4f) and one code repeated. The finder's boxes and the reader's
probabilities are perturbed where they come out (`Hooks`), the photo itself for turns.

Per sheet: tiles present, labels stored right, stored wrong (a taught tile whose box is no
tile of that code), untaught, refused. `choose` tries the alignment's costs on development
sheets only, by the rule written in `RULE` before any figure was seen; `report` runs the
chosen costs once on the held-out Camerash sheets and writes them, with the development
figures of those costs, to models/sheet_align_eval.json.

`reading`: photos read without a set, with a set taught from one sheet through the real
teaching path, and with a set taught from the same sheet with its first row typed shifted
by one (9m typed first: mislabelled on purpose): per-tile F1 of each, the difference and
its standard error (bootstrap over photos, paired). Development designs: `--scenes` scenes
of each (seed READING_SEED); held-out Camerash sets: each set's photos, taught from a sheet
laid from its crops. Writes models/sheet_reading_eval.json.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

RULE = ("Of the cost settings in GRID, those that store no label wrong on the development "
        "sheets; of these, the one that stores the most labels right; on a tie, the larger "
        "sure margin, then the smaller reader weight.")
SHEET_ROWS = ("123456789m", "123456789p", "123456789s", "1234567z", "12345678f")
PERTURBATIONS = ("none", "missed", "missed_white", "half", "extra", "misread", "turn90",
                 "turn180", "turn270", "rows_swapped", "absent", "short", "repeated")
OUT = Path(__file__).resolve().parents[2] / "models" / "sheet_align_eval.json"
GREEN = (38, 96, 62)


@dataclass
class Case:
    """One perturbed sheet: the photo, the truth (codes and boxes of the tiles present, in
    the photo's pixels), the codes typed, and what to change in the finder's and the
    reader's output (`drop`, `halve`, `add` boxes; `misread`: (box, code))."""
    name: str
    rgb: np.ndarray
    codes: list
    boxes: np.ndarray
    typed: str
    drop: tuple = ()
    halve: tuple = ()
    add: tuple = ()
    misread: tuple = ()


def _iou(a, b) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
    return w * h / union if union > 0 else 0.0


class Hooks:
    """The finder and the reader of a teach, changed as a Case says."""

    def __init__(self, reader, case: Case) -> None:
        self.reader, self.case = reader, case

    def find(self, rgb):
        from vision.types import Detections

        found = self.base_find(rgb)
        boxes, scores = found.xyxy.astype(np.float64), self.reader_scores(found)
        keep = [i for i, b in enumerate(boxes)
                if not any(_iou(b, t) > 0.3 for t in self.case.drop)]
        boxes, scores = list(boxes[keep]), list(scores[keep])
        for t in self.case.halve:
            near = [i for i, b in enumerate(boxes) if _iou(b, t) > 0.3]
            for i in sorted(near, reverse=True):
                del boxes[i], scores[i]
            mid = (t[1] + t[3]) / 2
            boxes += [np.array([t[0], t[1], t[2], mid]), np.array([t[0], mid, t[2], t[3]])]
            scores += [0.6, 0.55]
        for t in self.case.add:
            boxes.append(np.asarray(t, np.float64))
            scores.append(0.8)
        xyxy = np.array(boxes, np.float32).reshape(-1, 4)
        n = len(xyxy)
        conf = np.array(scores, np.float32)
        return Detections(xyxy, np.zeros(n, np.int64), conf, ("tile",), tile_score=conf)

    def two_views(self, refiner, rgb, boxes):
        upright, turned = self.base_two_views(refiner, rgb, boxes)
        names = list(refiner.names)
        for target, code in self.case.misread:
            for i, b in enumerate(boxes):
                if _iou(b, target) > 0.5:
                    for probs in (upright, turned):
                        probs[i] = 0.02 / len(names)
                        probs[i, names.index(code)] = 0.98
        return upright, turned

    def reader_scores(self, found):
        score = found.confidence if found.tile_score is None else found.tile_score
        return np.asarray(score, np.float64)

    def __enter__(self):
        from vision.tileset import placing

        self.base_find, self.base_two_views = self.reader.find, placing._two_views
        self.reader.find = self.find
        placing._two_views = self.two_views
        return self

    def __exit__(self, *exc) -> None:
        from vision.tileset import placing

        self.reader.find = self.base_find
        placing._two_views = self.base_two_views


# --- sheets ----------------------------------------------------------------------------

def dev_sheet(seed: int, design: str, rows=SHEET_ROWS):
    from datasets.eval.sheet_photo import make_sheet

    from datasets.art.atlas import load_meta
    from scoring.tiles import parse_tiles

    present = set(load_meta(design)["present"])
    if not any(c in present for r in rows for c in parse_tiles(r, allow_bonus=True)):
        return None, [], np.zeros((0, 4))
    rgb, truth = make_sheet(seed, design, rows)
    return rgb, list(truth["codes"]), np.array(truth["boxes"], np.float64)


def camerash_tiles(camerash: Path, held_out: bool = True) -> dict[str, dict[str, list[Path]]]:
    """{set: {code: crop files}} of the Camerash sets held out (or not)."""
    from datasets.real.camerash_boxes import BOXES_JSON

    photos = json.loads(BOXES_JSON.read_text())["photos"]
    sets: dict[str, dict[str, list[Path]]] = {}
    for p in photos.values():
        if bool(p["held_out"]) != held_out:
            continue
        for t in p["tiles"]:
            sets.setdefault(p["set"], {}).setdefault(t["code"], []).append(
                camerash / "raw-tiles" / t["crop"])
    return sets


def laid_sheet(tiles: dict[str, list[Path]], rows, rng, height: int = 120):
    """Real crops laid in rows on a green table: (RGB, codes, boxes) of the codes the set
    has, one crop each (chosen by `rng`), each as the product photo shows it (a few upside
    down)."""
    import cv2
    from PIL import Image
    from scoring.tiles import parse_tiles

    placed = []
    y = 40
    for row in rows:
        x = 40
        for code in parse_tiles(row, allow_bonus=True):
            if code not in tiles:
                continue
            crop = np.asarray(Image.open(tiles[code][int(rng.integers(len(tiles[code])))])
                              .convert("RGB"))
            w = max(8, round(crop.shape[1] * height / crop.shape[0]))
            placed.append((code, cv2.resize(crop, (w, height), interpolation=cv2.INTER_AREA),
                           x + int(rng.integers(-3, 4)), y + int(rng.integers(-4, 5))))
            x += w + int(rng.integers(4, 14))
        y += int(height * rng.uniform(1.25, 1.45))
    if not placed:
        return None, [], np.zeros((0, 4))
    width = max(x0 + c.shape[1] for _, c, x0, _ in placed) + 40
    canvas = np.empty((y + 20, width, 3), np.float32)
    canvas[:] = GREEN
    canvas += rng.normal(0, 5, canvas.shape)
    boxes = []
    for code, crop, x0, y0 in placed:
        canvas[y0:y0 + crop.shape[0], x0:x0 + crop.shape[1]] = crop
        boxes.append([x0, y0, x0 + crop.shape[1], y0 + crop.shape[0]])
    return (np.clip(canvas, 0, 255).astype(np.uint8), [c for c, *_ in placed],
            np.array(boxes, np.float64))


def turned(rgb, boxes, quarters: int):
    """The photo and boxes turned `quarters` quarter turns counter-clockwise."""
    from vision.tileset.sheet import turned_boxes

    for _ in range(quarters):
        boxes = turned_boxes(boxes, float(rgb.shape[1]))
        rgb = np.ascontiguousarray(np.rot90(rgb))
    return rgb, np.asarray(boxes, np.float64)


def typed_text(codes_rows, with_rows: bool) -> str:
    from vision.tileset.sheet import codes_text
    text = codes_text(codes_rows)
    return text if with_rows else text.replace(" ", "")


def perturbed(kind: str, make, rng, with_rows: bool) -> Case:
    """A Case of `kind`; `make(rows)` lays a sheet of those rows: (RGB, codes, boxes)."""
    if kind == "short":
        rgb, codes, boxes = make(("1234f",))
        return Case(kind, rgb, codes, boxes, typed_text([codes], with_rows))
    if kind == "repeated":
        rgb, codes, boxes = make(("5555z",))
        return Case(kind, rgb, codes, boxes, typed_text([codes], with_rows))
    if kind == "absent":
        _, full, _ = make(SHEET_ROWS)
        rows = _rows_of(full)
        gone = full[int(rng.integers(len(full)))]
        rgb, codes, boxes = make(tuple(_row_text([c for c in r if c != gone])
                                       for r in rows if [c for c in r if c != gone]))
        return Case(kind, rgb, codes, boxes, typed_text(rows, with_rows))
    rgb, codes, boxes = make(SHEET_ROWS)
    rows = _rows_of(codes)
    case = Case(kind, rgb, codes, boxes, typed_text(rows, with_rows))
    pick = int(rng.integers(len(codes)))
    if kind == "missed":
        case.drop = (boxes[pick],)
    elif kind == "missed_white" and "5z" in codes:
        case.drop = (boxes[codes.index("5z")],)
    elif kind == "half":
        case.halve = (boxes[pick],)
    elif kind == "extra":
        case.add = (_bare_box(rgb, boxes, rng),)
    elif kind == "misread":
        wrong = [c for c in sorted(set(codes)) if c != codes[pick]]
        case.misread = ((boxes[pick], wrong[int(rng.integers(len(wrong)))]),)
    elif kind.startswith("turn"):
        case.rgb, case.boxes = turned(rgb, boxes, int(kind[4:]) // 90)
    elif kind == "rows_swapped":
        order = list(range(len(rows)))
        same = [i for i, r in enumerate(rows) if len(r) == 9]
        if len(same) >= 2:
            a, b = rng.choice(same, 2, replace=False)
            order[a], order[b] = order[b], order[a]
        case.typed = typed_text([rows[i] for i in order], True)
    return case


def _rows_of(codes) -> list[list[str]]:
    """The codes cut into the suggested rows' suits: characters, dots, bamboo, honours, bonus."""
    rows: list[list[str]] = [[] for _ in SHEET_ROWS]
    for c in codes:
        rows["mpszf".index(c[-1])].append(c)
    return [r for r in rows if r]


def _row_text(row) -> str:
    from scoring.tiles import format_tiles
    return format_tiles(list(row), honours_as_letters=False)


def _bare_box(rgb, boxes, rng) -> np.ndarray:
    """A tile-sized box on bare table: past the end of a row, or below the last row."""
    w = float(np.median(boxes[:, 2] - boxes[:, 0]))
    h = float(np.median(boxes[:, 3] - boxes[:, 1]))
    last = boxes[np.argmax(boxes[:, 2])]
    x0 = min(rgb.shape[1] - w - 2, last[2] + w * 0.3)
    if x0 <= last[2]:
        x0, y0 = float(boxes[:, 0].min()), min(rgb.shape[0] - h - 2, float(boxes[:, 3].max()) + 4)
    else:
        y0 = float(last[1])
    return np.array([x0, y0, x0 + w, y0 + h])


# --- running ---------------------------------------------------------------------------

def taught_tiles(found, plan, costs):
    """(photo, box in the photo's pixels, code) of each tile a save would store unasked."""
    from vision.tileset.placing import doubt_of

    out = []
    for k, (photo, one) in enumerate(zip(found, plan.chains)):
        matched = [e for e in plan.alignment.matches() if e.photo == k]
        sx, sy = photo.scale
        for e, doubt in zip(matched, doubt_of(matched, one, costs)):
            if not doubt:
                out.append((k, one.boxes[e.box] * np.array([sx, sy, sx, sy]),
                            plan.codes[e.codes[0]]))
    return out


def score(case: Case, taught) -> dict:
    right = wrong = 0
    for _, box, code in taught:
        hit = [i for i, b in enumerate(case.boxes) if _iou(box, b) >= 0.5]
        ok = bool(hit) and case.codes[hit[0]] == code
        right, wrong = right + ok, wrong + (not ok)
    return {"present": len(case.codes), "right": right, "wrong": wrong,
            "untaught": len(case.codes) - right, "refused": False}


def observe_case(case: Case, reader):
    from vision.tileset.placing import observe
    import io
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(case.rgb).save(buf, "PNG")
    with Hooks(reader, case):
        return observe(buf.getvalue(), reader, 0.5)


def decide_case(case: Case, found, reader, costs) -> dict:
    from vision.tileset import TileSetError
    from vision.tileset.placing import decide

    try:
        plan = decide([found], case.typed, reader.refiner, costs)
    except TileSetError as exc:
        return {"present": len(case.codes), "right": 0, "wrong": 0,
                "untaught": len(case.codes), "refused": str(exc)[:80]}
    return score(case, taught_tiles([found], plan, costs))


def cases(kind: str, seeds: int, camerash: Path | None):
    """(source, Case) of every perturbed sheet of `kind` ("dev" or "heldout")."""
    from datasets.art.designs import DEVELOPMENT, SET_DEVELOPMENT

    for seed in range(seeds):
        rng = np.random.default_rng([seed, 43])
        if kind == "dev":
            designs = list(SET_DEVELOPMENT + DEVELOPMENT)
            makers = {d: (lambda rows, d=d, s=seed: dev_sheet(s, d, rows)) for d in designs}
        else:
            sets = camerash_tiles(camerash, held_out=True)
            makers = {f"camerash{name}": (lambda rows, t=tiles, s=seed: laid_sheet(
                t, rows, np.random.default_rng([s, 44]))) for name, tiles in sets.items()}
        for source, make in makers.items():
            for p, pert in enumerate(PERTURBATIONS):
                case = perturbed(pert, make, rng, with_rows=(seed + p) % 2 == 0)
                if case.codes:  # a set without that face has no such sheet
                    yield source, case


def tally(rows: list[dict]) -> dict:
    total = {k: sum(r[k] for r in rows) for k in ("present", "right", "wrong", "untaught")}
    total["sheets"] = len(rows)
    total["refused"] = sum(bool(r["refused"]) for r in rows)
    total["right_share"] = round(total["right"] / max(1, total["present"]), 4)
    return total


GRID = [dict(read_weight=w, sure=s) for w in (1.0, 0.5) for s in (3.0, 4.0, 6.0)]


def run(kind: str, seeds: int, camerash: Path | None, grid, log: Path | None = None) -> dict:
    """Per cost setting of `grid`, the tally of every perturbed sheet of `kind`, and per
    perturbation; each sheet is observed once (finder and reader) and aligned per setting.
    `log`: where the rows so far are kept while it runs."""
    from vision.tileset.align import Costs
    from vision.tileset.teaching import sheet_reader

    reader = sheet_reader()
    results = {i: [] for i in range(len(grid))}
    start = time.perf_counter()
    for n, (source, case) in enumerate(cases(kind, seeds, camerash)):
        found = observe_case(case, reader)
        for i, setting in enumerate(grid):
            row = decide_case(case, found, reader, Costs(**setting))
            results[i].append({"source": source, "perturbation": case.name, **row})
        if log is not None:
            log.write_text(json.dumps(results))
        if n % 20 == 0:
            print(f"{kind}: {n + 1} sheets, {time.perf_counter() - start:.0f} s", flush=True)
    out = []
    for i, setting in enumerate(grid):
        rows = results[i]
        per = {p: tally([r for r in rows if r["perturbation"] == p]) for p in PERTURBATIONS}
        out.append({"costs": setting, "all": tally(rows), "per_perturbation": per,
                    "wrong_sheets": [r for r in rows if r["wrong"]][:20]})
    return {"kind": kind, "seeds": seeds, "settings": out}


def chosen(dev: dict) -> dict:
    """The setting RULE picks from the development tallies."""
    ok = [s for s in dev["settings"] if s["all"]["wrong"] == 0] or dev["settings"]
    return max(ok, key=lambda s: (s["all"]["right"], s["costs"]["sure"],
                                  -s["costs"]["read_weight"]))["costs"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("choose", "report", "reading"))
    parser.add_argument("--scenes", type=int, default=43)
    parser.add_argument("--cache", type=Path, default=Path("cache") / "tileset_eval")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--camerash", type=Path, default=Path("../shared/data/camerash"))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--choice", type=Path, default=Path("cache") / "sheet_align_choose.json",
                        help="choose writes its figures here; report reads the development "
                             "figures of the chosen costs from it")
    args = parser.parse_args(argv)
    if args.what == "reading":
        return run_reading(args)
    if args.what == "choose":
        dev = run("dev", args.seeds, None, GRID, args.choice)
        for s in dev["settings"]:
            print(s["costs"], s["all"])
        print("chosen by the rule:", chosen(dev))
        args.choice.write_text(json.dumps(dev, indent=1) + "\n")
        return 0
    from vision.tileset.align import COSTS
    setting = {"read_weight": COSTS.read_weight, "sure": COSTS.sure}
    held_out = run("heldout", args.seeds, args.camerash, [setting])["settings"][0]
    dev = json.loads(args.choice.read_text())  # read last: `choose` may run beside it
    report = {"rule": RULE, "costs": setting, "development_seeds": dev["seeds"],
              "development": next(s for s in dev["settings"] if s["costs"] == setting),
              "held_out_seeds": args.seeds, "held_out": held_out}
    for part in ("development", "held_out"):
        print(part, report[part]["all"])
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    return 0


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
        typed = typed_text(_rows_of(truth["codes"]), True)
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
        typed = typed_text(_rows_of(codes), True)
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


if __name__ == "__main__":
    sys.exit(main())
