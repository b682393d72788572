"""Teaching sheets, perturbed: are the codes stored on the right tiles?

    python -m datasets.eval.sheet_align choose [--seeds 6]            # development sheets
    python -m datasets.eval.sheet_align report [--seeds 6] [--camerash ../shared/data/camerash]

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
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.boxes import box_iou

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
    return float(box_iou(a, b)[0, 0])


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
        return np.asarray(found.finder_score, np.float64)

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
        rows = suit_rows(full)
        gone = full[int(rng.integers(len(full)))]
        rgb, codes, boxes = make(tuple(_row_text([c for c in r if c != gone])
                                       for r in rows if [c for c in r if c != gone]))
        return Case(kind, rgb, codes, boxes, typed_text(rows, with_rows))
    rgb, codes, boxes = make(SHEET_ROWS)
    rows = suit_rows(codes)
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


def suit_rows(codes) -> list[list[str]]:
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
    parser.add_argument("what", choices=("choose", "report"))
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--camerash", type=Path, default=Path("../shared/data/camerash"))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--choice", type=Path, default=Path("cache") / "sheet_align_choose.json",
                        help="choose writes its figures here; report reads the development "
                             "figures of the chosen costs from it")
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
