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

The same for the blank white dragon alone (5z). Nothing is chosen on these figures.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

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
    for code, box in laid:
        if not _hits(box, [t["box"] for t in want]):
            out.update({"invented": 1, "invented_5z": int(code == "5z")})
    out["white_dragons"] = sum(t["label"] == "5z" for t in want)
    return out


def evaluate(scenes: Path, limit: int | None = None) -> dict:
    from datasets.eval.layout import compare, readable
    from vision.layout import read_layout
    from vision.pipeline import TileReader

    reader = TileReader()
    total, exact, n = Counter(), 0, 0
    for path in sorted((scenes / "truth").glob("*.json"))[:limit]:
        truth = json.loads(path.read_text())
        if not readable(truth):
            continue
        reading = reader.read(scenes / truth["image"])
        layout = read_layout(reading.detections)
        total += tally(truth, reading.detections.xyxy, layout)
        exact += bool(compare(truth, layout)["exact"])
        n += 1
    tiles = max(1, total["tiles"])
    return {"scenes": n, "hands_exact": round(exact / max(1, n), 4), **dict(total),
            "missed_share": round(total["missed"] / tiles, 4),
            "left_out_share": round(total["left_out"] / tiles, 4),
            "invented_share": round(total["invented"] / tiles, 4)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=Path, required=True)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    report = evaluate(args.scenes, args.limit)
    print(json.dumps(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
