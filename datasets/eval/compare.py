"""Two runs of datasets.eval.reader on the same photos, compared photo by photo.

    python -m datasets.eval.compare BASE.json NEW.json [--json cache/compare.json]

For each set both reports hold (by its name), the photos are paired by image and the change
of F1 is given with its 95 % interval, resampling the photos in pairs: a development rule can
then ask for a change beyond what reading the same photos again with any small change moves
(the development design moved by ±5 tiles with every glyph reader). Needs reports with
`photo_counts`, as datasets.eval.reader writes them.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from datasets.eval.metrics import f1_interval


def paired(base: dict, new: dict) -> dict:
    """One set's comparison; raises ValueError when the two did not read the same photos."""
    a = {row[0]: row[1:] for row in base.get("photo_counts") or []}
    b = {row[0]: row[1:] for row in new.get("photo_counts") or []}
    if not a or not b:
        raise ValueError(f"{base['set']}: no photo counts in the report (write it again with datasets.eval.reader)")
    if set(a) != set(b):
        raise ValueError(f"{base['set']}: the two runs read different photos ({len(a)} and {len(b)})")
    images = sorted(a)
    ca, cb = (np.array([d[i] for i in images], np.int64) for d in (a, b))

    def f1(c):
        tp, fp, fn = c.sum(axis=0)
        return 2 * tp / max(2 * tp + fp + fn, 1)
    lo, hi = f1_interval(cb, other=ca)
    return {"set": base["set"], "photos": len(images),
            "right": [int(ca[:, 0].sum()), int(cb[:, 0].sum())],
            "f1": [round(f1(ca), 4), round(f1(cb), 4)],
            "change": round(f1(cb) - f1(ca), 4), "change_95": [round(lo, 4), round(hi, 4)],
            "photos_changed": int((ca != cb).any(axis=1).sum())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--json", type=Path, help="write the comparison here")
    args = parser.parse_args(argv)
    try:
        reports = [{r["set"]: r for r in json.loads(p.read_text())["reports"]} for p in (args.base, args.new)]
        rows = [paired(reports[0][name], reports[1][name]) for name in reports[0] if name in reports[1]]
    except (OSError, ValueError, KeyError, TypeError) as err:
        print(f"compare: {err}", file=sys.stderr)
        return 2
    if not rows:
        print("compare: the two reports share no set", file=sys.stderr)
        return 2
    for r in rows:
        print(f"{r['set']}: {r['photos']} photos, tiles right {r['right'][0]} -> {r['right'][1]}, "
              f"F1 {r['f1'][0]:.4f} -> {r['f1'][1]:.4f}, change {r['change']:+.4f} "
              f"(95 % {r['change_95'][0]:+.4f} to {r['change_95'][1]:+.4f}), "
              f"{r['photos_changed']} photos read differently")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
