"""`mahjong-lens play`: Hong Kong practice hands (preset hk001) between computer players.

`--auto` plays K hands (seeds N, N+1, ...) with four computer players and prints each result
and a summary; `--json` prints one object per hand instead: seed, winner (E/S/W/N or null
for a draw), self_drawn, discarder, hand (notation), bonus, total (fan after the limit),
fans (as `score --json`), payments (seat → amount, zero-sum) and moves (log entries).
"""
from __future__ import annotations

import json

MAX_HANDS = 1_000_000


def add_parser(sub) -> None:
    p = sub.add_parser("play", help="play Hong Kong practice hands (hk001) between computer players")
    p.add_argument("--seed", default="1", help="seed of the first hand (default 1)")
    p.add_argument("--auto", action="store_true", help="four computer players (required for now)")
    p.add_argument("--hands", default="1", help="how many hands: seeds N, N+1, ... (default 1)")
    p.add_argument("--json", action="store_true", help="one JSON object per hand")
    p.set_defaults(run=run)


def _text(record: dict) -> str:
    if record["winner"] is None:
        return f"seed {record['seed']}: draw, no payment ({record['moves']} moves)"
    how = "self-drawn" if record["self_drawn"] else f"on {record['discarder']}'s discard"
    fans = ", ".join(f"{f['name']} {f['points'] * f['count']}" for f in record["fans"])
    pays = " ".join(f"{s} {v:+d}" for s, v in record["payments"].items())
    return (f"seed {record['seed']}: {record['winner']} wins {how}, {record['hand']}"
            f"{' +' + ','.join(record['bonus']) if record['bonus'] else ''}: {record['total']} fan "
            f"({fans}); {pays}")


def _whole(text: str, flag: str, low: int, high: int) -> int:
    """A whole number within bounds, or one line saying what was wrong (argparse would print
    its usage too)."""
    try:
        value = int(str(text).strip())
    except ValueError:
        raise ValueError(f"{flag} takes a whole number, got {text!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{flag} must be {low}..{high}, got {value}")
    return value


def run(args) -> int:
    if not args.auto:
        raise ValueError("only computer-only hands are played here: add --auto "
                         "(play a hand yourself on the page: mahjong-lens app, Practice)")
    first = _whole(args.seed, "--seed", 0, 2 ** 63)
    hands = _whole(args.hands, "--hands", 1, MAX_HANDS)
    from game.auto import hand_record, play_hand, summarise
    records = []
    for seed in range(first, first + hands):
        record = hand_record(play_hand(seed))
        records.append(record)
        print(json.dumps(record, ensure_ascii=False) if args.json else _text(record), flush=args.json)
    if not args.json:
        print(summarise(records).text())
    return 0
