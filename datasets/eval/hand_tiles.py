"""The tiles of a laid hand: how many the hand read misses, invents and leaves out.

    python -m datasets.synth --out cache/hands_train --count 300 --seed 4400 --designs train
    python -m datasets.eval.hand_tiles --scenes cache/hands_train [--json OUT]

For each readable scene (datasets.eval.layout.readable) the photo goes through the reader
and `read_layout`, as the page reads it. The hand's tiles of the truth (concealed, in melds,
the winning tile; labelled) are matched to the tiles of the hand read
(vision.layout.table.hand_tiles) at IoU 0.5 or more:

- missed: a tile of the hand with no tile of the hand read on it; of these, `not_found` had
  no box of the finder on it at all, `left_out` was found and read but put aside by the
  layout as not part of the hand (`TableLayout.ignored`), and the rest were found and lost
  on the way (merged, or dropped as doubtful);
- invented: a tile of the hand read on no tile of the hand;
- hands exact: the notation, bonus and winning tile as the truth (datasets.eval.layout).

The same for the blank white dragon alone (5z), and the tiles of the hand read that were
found by looking again at a row (vision/recognition/look.py): `looked`, of which `looked_wrong`
lie on no tile of the hand.

`--faults SEED` measures the second look at a row: in each scene one or two of the hand's
finder boxes (chosen at random) are taken away, with any weak box on the same tile (a tile the
finder missed), or cut to their upper half; `recovered` counts those tiles that the hand read
has again (a tile of the hand read on each, IoU 0.5), `recovered_right` with its code right;
`faulted_inner` / `recovered_inner` the same for tiles between two others of their row (the
ends of a row are not looked at). Nothing is chosen on these figures.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

from datasets.eval import print_report
from vision.boxes import box_iou

IOU = 0.5


def _hits(box, boxes) -> bool:
    """Whether a box lies on any of `boxes` (IoU at least IOU)."""
    return bool(len(boxes)) and bool((box_iou(box, boxes) >= IOU).any())


def hand_truth(truth: dict) -> list[dict]:
    """The labelled tiles of the hand: concealed, in melds, the winning tile."""
    return [t for t in truth["tiles"] if t.get("label")
            and (t["group"] in ("concealed", "winning") or t["group"].startswith("meld"))]


def tally(truth: dict, found_boxes, layout) -> Counter:
    """One scene's counts (module doc)."""
    from vision.layout.table import hand_tiles

    laid = [(t.code, t.box) for t in hand_tiles(layout)]
    aside = [t.box for t in layout.ignored]
    want = hand_truth(truth)
    out = Counter(tiles=len(want))
    for t in want:
        if _hits(t["box"], [b for _, b in laid]):
            continue
        kind = ("not_found" if not _hits(t["box"], found_boxes)
                else "left_out" if _hits(t["box"], aside) else "lost")
        out.update({"missed": 1, kind: 1, "missed_5z": int(t["label"] == "5z")})
    for tile in hand_tiles(layout):
        wrong = not _hits(tile.box, [t["box"] for t in want])
        out.update({"looked": int(tile.looked_again), "looked_wrong": int(tile.looked_again and wrong)})
        if wrong:
            out.update({"invented": 1, "invented_5z": int(tile.code == "5z")})
    out["white_dragons"] = sum(t["label"] == "5z" for t in want)
    return out


def faults(truth: dict, seed: int):
    """A `TileReader.read` finder edit that takes away or halves 1-2 of the hand's boxes (module
    doc), and the list it fills with the truth tiles it changed."""
    import numpy as np

    rng = np.random.default_rng(seed)
    hand = [t for t in hand_truth(truth) if t.get("box")]
    changed: list[dict] = []

    def edit(kept, weak, scale):
        if not len(kept) or not hand:
            return kept, weak
        boxes = np.asarray(kept.xyxy, np.float64) * np.array([*scale, *scale])
        hit = [(t, int(box_iou(t["box"], boxes).argmax())) for t in hand
               if box_iou(t["box"], boxes).max() >= IOU]
        if not hit:
            return kept, weak
        chosen = rng.choice(len(hit), size=min(len(hit), int(rng.integers(1, 3))), replace=False)
        xyxy, gone = np.array(kept.xyxy), []
        for c in chosen:
            t, i = hit[c]
            changed.append(t)
            if rng.random() < 0.5:
                gone.append(i)
            else:
                xyxy[i, 3] = (xyxy[i, 1] + xyxy[i, 3]) / 2
        on_gone = (box_iou(weak.xyxy, kept.xyxy[gone]).max(axis=1) >= 0.3 if gone and len(weak)
                   else np.zeros(len(weak), bool))
        kept = replace(kept, xyxy=xyxy.astype(np.float32))
        return (kept.select(np.setdiff1d(np.arange(len(kept)), gone)),
                weak.select(np.flatnonzero(~on_gone)))
    return edit, changed


def recovery(truth: dict, changed: list[dict], layout) -> Counter:
    """How many of the changed tiles the hand read has again (module doc)."""
    from vision.layout.table import hand_tiles

    laid = hand_tiles(layout)
    out = Counter()
    for t in changed:
        inner = _inner(truth, t)
        on = [x for x in laid if box_iou(t["box"], [x.box]).max() >= IOU]
        out.update({"faulted": 1, "recovered": int(bool(on)),
                    "recovered_right": int(any(x.code == t["label"] for x in on)),
                    "faulted_inner": int(inner), "recovered_inner": int(inner and bool(on))})
    return out


def _inner(truth: dict, tile: dict) -> bool:
    """Whether a tile of the hand lies between two others of its group (not at a row's end)."""
    group = [t for t in hand_truth(truth) if t["group"] == tile["group"] and t.get("box")]
    if len(group) < 3:
        return False
    centre = [((t["box"][0] + t["box"][2]) / 2, (t["box"][1] + t["box"][3]) / 2) for t in group]
    xs, ys = zip(*centre)
    axis = 0 if max(xs) - min(xs) >= max(ys) - min(ys) else 1
    order = sorted(range(len(group)), key=lambda k: centre[k][axis])
    return group.index(tile) in order[1:-1]


def evaluate(scenes: Path, limit: int | None = None, fault_seed: int | None = None,
             look: bool = True) -> dict:
    from datasets.eval.layout import compare, readable
    from vision.layout import read_layout
    from vision.pipeline import TileReader

    reader = TileReader(look=look)
    total, exact, n = Counter(), 0, 0
    for path in sorted((scenes / "truth").glob("*.json"))[:limit]:
        truth = json.loads(path.read_text())
        if not readable(truth):
            continue
        edit, changed = faults(truth, fault_seed + n) if fault_seed is not None else (None, [])
        reading = reader.read(scenes / truth["image"], finder_edit=edit)
        layout = read_layout(reading.detections)
        total += tally(truth, reading.detections.xyxy, layout) + recovery(truth, changed, layout)
        exact += bool(compare(truth, layout)["exact"])
        n += 1
    tiles = max(1, total["tiles"])
    return {"scenes": n, "hands_exact": round(exact / max(1, n), 4), **dict(total),
            "missed_share": round(total["missed"] / tiles, 4),
            "left_out_share": round(total["left_out"] / tiles, 4),
            "invented_share": round(total["invented"] / tiles, 4),
            **({"recovered_share": round(total["recovered"] / max(1, total["faulted"]), 4),
                "recovered_inner_share": round(total["recovered_inner"] / max(1, total["faulted_inner"]), 4)}
               if fault_seed is not None else {})}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=Path, required=True)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--faults", type=int, metavar="SEED",
                        help="take away or halve 1-2 of each hand's finder boxes (module doc)")
    parser.add_argument("--no-look", action="store_true",
                        help="read without the second look at the rows (the figures before it)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    print_report(evaluate(args.scenes, args.limit, args.faults, look=not args.no_look), args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
