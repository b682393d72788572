"""Differential test of our MCR scorer (preset `china`) against PyMahjongGB.

    python -m scripts.diff_pymahjonggb --count 20000 --seed 1

Random valid winning hands of every shape (scripts/mcr_oracle.py), every flag; the
total and the multiset of fan names must agree. Hands in the allow-list
(tests/scoring/data/pmgb_allowlist.tsv, each with the rule text that decides it) are
counted apart. Flag combinations that cannot happen at a table (robbing a kong of a tile you
hold, a replacement tile without a kong, Last Tile with a copy in hand) are passed as they
are: both scorers drop them, and they are counted. Exit status 1 on any mismatch.
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter

from scoring.hand import format_hand
from scoring.rules.mcr import PRESETS, score
from scripts.mcr_oracle import our_fans, pmgb_score, random_hand
from vision.runtime import REPO_ROOT

ALLOWLIST = REPO_ROOT / "tests" / "scoring" / "data" / "pmgb_allowlist.tsv"


def case_key(hand, ctx) -> str:
    flags = "".join(c for c, on in (("s", ctx.self_drawn), ("l", ctx.last_tile), ("k", ctx.kong),
                                      ("4", ctx.fourth_tile)) if on)
    return f"{format_hand(hand)}|{flags or 'd'}|{'ESWN'[ctx.seat]}{'ESWN'[ctx.round]}|{len(hand.bonus)}"


def load_allowlist() -> dict[str, str]:
    out = {}
    if ALLOWLIST.exists():
        for line in ALLOWLIST.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                key, _, rule = line.partition("\t")
                out[key.strip()] = rule.strip()
    return out


def run(count: int, seed: int, verbose: bool = True) -> dict:
    rng = random.Random(seed)
    allow = load_allowlist()
    options = PRESETS["china"]
    stats: Counter = Counter()
    mismatches = []
    fans_seen: Counter = Counter()
    for _ in range(count):
        g = random_hand(rng)
        stats[g.kind] += 1
        ours = score(g.hand, g.ctx, options)
        if ours.details.get("ignored_flags"):
            stats["normalised_flags"] += 1
        try:
            total, fans = pmgb_score(g.hand, g.ctx)
        except TypeError as exc:
            stats[f"pmgb_error {exc}"] += 1
            if ours.total:
                mismatches.append((case_key(g.hand, g.ctx), f"PyMahjongGB {exc}", ours.total, dict(our_fans(ours))))
            continue
        fans_seen.update(fans.keys())
        mine = our_fans(ours)
        if total == ours.total and fans == mine:
            stats["agree"] += 1
            continue
        key = case_key(g.hand, g.ctx)
        if key in allow:
            stats["allow_listed"] += 1
            continue
        mismatches.append((key, (total, dict(fans)), ours.total, dict(mine)))
    if verbose:
        for key, theirs, total, mine in mismatches[:40]:
            print(f"MISMATCH {key}\n  pmgb: {theirs}\n  ours: {total} {mine}")
    return {"count": count, "seed": seed, "mismatches": len(mismatches), "stats": dict(stats),
            "fans_seen": len(fans_seen), "never_seen": sorted(set(PMGB_NAMES) - set(fans_seen)),
            "cases": mismatches}


PMGB_NAMES: list[str] = []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from scoring.rules.mcr.fans import FANS
    PMGB_NAMES.extend(f.name for f in FANS)
    report = run(args.count, args.seed)
    print(f"hands {report['count']} seed {report['seed']} mismatches {report['mismatches']}")
    print("shapes and flags:", {k: v for k, v in sorted(report["stats"].items())})
    print(f"fans seen {report['fans_seen']}; never seen: {report['never_seen']}")
    return 1 if report["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
