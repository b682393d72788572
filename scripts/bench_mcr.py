"""Speed of our MCR scorer against PyMahjongGB on the same random winning hands.

    python -m scripts.bench_mcr --count 5000 --seed 7
    python -m scripts.bench_mcr --classical --count 5000    # Classical, hands per second
    python -m scripts.bench_mcr --batch --count 20000       # `score -` lines per second
    python -m scripts.bench_mcr --bytecodes --count 1000    # our bytecodes per hand

Prints hands per second for both and the ratio. Hands come from the differential
generator (scripts/mcr_oracle.py); both scorers get pre-built inputs, so the timing
is the scoring only (CPU time of this process). Our scorer runs with the `china` preset,
as in the differential test, after a warm-up round on other hands. `--classical` times the
Classical scorer alone on the same hands; `--batch` the whole `mahjong-lens score --rules mcr
--preset china -` command on those hands as JSON lines (CPU time of the command, start-up
included). `--bytecodes` counts the Python bytecodes our scorer executes per hand (first
round's hands, after the warm-up): the same on a loaded machine, a guide to which part
costs what (C work such as hashing and building objects is not in it).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from scoring.hand import format_hand
from scoring.rules import classical
from scoring.rules.mcr import PRESETS, score
from scripts.mcr_oracle import pmgb_pack, pmgb_tile, random_hand


def _inputs(seed: int, count: int):
    rng = random.Random(seed)
    cases = [random_hand(rng) for _ in range(count)]
    calls = [{"pack": tuple(pmgb_pack(m) for m in g.hand.melds), "hand": tuple(pmgb_tile(t) for t in g.hand.concealed),
              "winTile": pmgb_tile(g.hand.winning), "flowerCount": len(g.hand.bonus),
              "isSelfDrawn": g.ctx.self_drawn, "is4thTile": g.ctx.fourth_tile, "isAboutKong": g.ctx.kong,
              "isWallLast": g.ctx.last_tile, "seatWind": g.ctx.seat, "prevalentWind": g.ctx.round, "verbose": True}
             for g in cases]
    return cases, calls


def _classical(args) -> int:
    """Classical hands per second, each round on new hands, after a warm-up round."""
    options = classical.PRESETS["seed003"]
    for g in _inputs(args.seed + 1000, args.count)[0]:
        classical.score(g.hand, g.ctx, options)
    rates = []
    for r in range(args.rounds):
        cases = _inputs(args.seed + r, args.count)[0]
        start = time.process_time()
        for g in cases:
            classical.score(g.hand, g.ctx, options)
        rates.append(args.count / (time.process_time() - start))
        print(f"round {r}: classical {rates[-1]:8.0f} hands/s")
    print(f"classical (seed003)  {sorted(rates)[len(rates) // 2]:10.0f} hands/s (median round)")
    return 0


def _line(g) -> str:
    ctx = g.ctx
    return json.dumps({"hand": format_hand(g.hand), "self_drawn": ctx.self_drawn, "seat": "ESWN"[ctx.seat],
                       "round": "ESWN"[ctx.round], "discarder": None if ctx.discarder is None else "ESWN"[ctx.discarder],
                       "last_tile": ctx.last_tile, "kong": ctx.kong, "fourth_tile": ctx.fourth_tile})


def _batch(args) -> int:
    """Lines per second of the batch command, CPU time of the child process."""
    rates = []
    for r in range(args.rounds):
        with tempfile.TemporaryFile("w+") as lines:
            lines.write("\n".join(_line(g) for g in _inputs(args.seed + r, args.count)[0]) + "\n")
            lines.seek(0)
            before = os.times()
            done = subprocess.run([sys.executable, "-m", "app.cli", "score", "--rules", "mcr", "--preset", "china",
                                   "-"], stdin=lines, stdout=subprocess.DEVNULL, check=False)
            after = os.times()
        if done.returncode:  # a line answered with an error is not a scored line
            raise SystemExit(f"score - exited with status {done.returncode}")
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        rates.append(args.count / cpu)
        print(f"round {r}: {rates[-1]:8.0f} lines/s ({cpu:.2f} s CPU for {args.count} lines)")
    print(f"score - (mcr, china)  {sorted(rates)[len(rates) // 2]:10.0f} lines/s (median round)")
    return 0


def _bytecodes(args) -> int:
    """Bytecodes and Python calls per hand of our MCR scorer, counted by a tracer."""
    options = PRESETS["china"]
    for g in _inputs(args.seed + 1000, args.count)[0]:
        score(g.hand, g.ctx, options)
    cases = _inputs(args.seed, args.count)[0]
    counted = {"opcode": 0, "call": 0}

    def tracer(frame, event, arg):
        counted["call"] += 1
        frame.f_trace_opcodes = True
        return step

    def step(frame, event, arg):
        counted[event] = counted.get(event, 0) + 1
        return step

    sys.settrace(tracer)
    try:
        for g in cases:
            score(g.hand, g.ctx, options)
    finally:
        sys.settrace(None)
    print(f"ours (mcr, china)  {counted['opcode'] / args.count:10.0f} bytecodes a hand, "
          f"{counted['call'] / args.count:.1f} Python calls")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000, help="hands per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--classical", action="store_true", help="time the Classical scorer alone")
    parser.add_argument("--batch", action="store_true", help="time the `score -` command's lines")
    parser.add_argument("--bytecodes", action="store_true", help="count our bytecodes per hand")
    args = parser.parse_args()
    if args.bytecodes:
        return _bytecodes(args)
    if args.classical:
        return _classical(args)
    if args.batch:
        return _batch(args)
    from MahjongGB import MahjongFanCalculator

    options = PRESETS["china"]
    # warm-up on other hands: the per-suit and per-pattern caches fill as in a running app;
    # no hand of a measured round has been scored before
    warm, _ = _inputs(args.seed + 1000, args.count)
    for g in warm:
        score(g.hand, g.ctx, options)
    ours_best = theirs_best = 0.0
    ratios = []
    for r in range(args.rounds):
        cases, calls = _inputs(args.seed + r, args.count)
        # CPU time of this process, the two scorers interleaved in chunks of 100 hands:
        # the machine is shared, and both should see the same load
        ours_s = theirs_s = 0.0
        for lo in range(0, args.count, 100):
            start = time.process_time()
            for g in cases[lo:lo + 100]:
                score(g.hand, g.ctx, options)
            middle = time.process_time()
            for kwargs in calls[lo:lo + 100]:
                MahjongFanCalculator(**kwargs)
            ours_s += middle - start
            theirs_s += time.process_time() - middle
        ours, theirs = args.count / ours_s, args.count / theirs_s
        ratios.append(theirs / ours)
        ours_best, theirs_best = max(ours_best, ours), max(theirs_best, theirs)
        print(f"round {r}: ours {ours:8.0f} hands/s  PyMahjongGB {theirs:8.0f} hands/s  ratio {theirs / ours:5.1f}x")
    print(f"hands {args.count} x {args.rounds} rounds, seeds {args.seed}..{args.seed + args.rounds - 1}")
    print(f"ours (mcr, china)  {ours_best:10.0f} hands/s (best round)")
    print(f"PyMahjongGB        {theirs_best:10.0f} hands/s (best round)")
    print(f"ratio              {sorted(ratios)[len(ratios) // 2]:10.1f}x slower (median round; target <= 12x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
