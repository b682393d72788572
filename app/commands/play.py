"""`mahjong-lens play`: Hong Kong practice hands (preset hk001) between computer players.

`--auto` plays K hands (seeds N, N+1, ...) with four computer players and prints each result
and a summary; `--json` prints one object per hand instead: seed, winner (E/S/W/N or null
for a draw), self_drawn, discarder, hand (notation), bonus, total (fan after the limit),
fans (as `score --json`), payments (seat → amount, zero-sum) and moves (log entries).
"""
from __future__ import annotations

import json

from app.commands import SUMMARIES
from app.i18n import _, format_fixed, format_percent, ngettext
from app.i18n.fans import fan_name
from game.state import SEATS

MAX_HANDS = 1_000_000


def add_parser(sub) -> None:
    p = sub.add_parser("play", help=_(SUMMARIES["play"]))
    p.add_argument("--seed", default="1", help=_("seed of the first hand (default 1)"))
    p.add_argument("--auto", action="store_true", help=_("four computer players (required for now)"))
    p.add_argument("--hands", default="1", help=_("how many hands: seeds N, N+1, ... (default 1)"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per hand"))
    p.set_defaults(run=run)


def _text(record: dict) -> str:
    if record["winner"] is None:
        return _("seed {seed}: draw, no payment ({moves} moves)").format(seed=record["seed"],
                                                                        moves=record["moves"])
    how = _("self-drawn") if record["self_drawn"] else \
        _("on {seat}'s discard").format(seat=record["discarder"])
    fans = ", ".join(f"{fan_name('hk001', f['name'])} {f['points'] * f['count']}" for f in record["fans"])
    pays = " ".join(f"{s} {v:+d}" for s, v in record["payments"].items())
    # the hand's notation ends with its bonus tiles
    return _("seed {seed}: {seat} wins {how}, {hand}: {total} fan ({fans}); {pays}").format(
        seed=record["seed"], seat=record["winner"], how=how, hand=record["hand"],
        total=record["total"], fans=fans, pays=pays)


def _summary(s) -> str:
    """The hands' summary (game.auto.Summary) in the player's language."""
    seats = ", ".join(f"{seat} {n}" for seat, n in zip(SEATS, s.wins_by_seat))
    return ngettext(
        "{hands} hand: {won} won ({share}), {drawn} drawn; average fan of a win {fan}; "
        "self-drawn {self_drawn}; wins by seat: {seats}",
        "{hands} hands: {won} won ({share}), {drawn} drawn; average fan of a win {fan}; "
        "self-drawn {self_drawn}; wins by seat: {seats}", s.hands).format(
        hands=s.hands, won=s.won, share=format_percent(s.win_share), drawn=s.hands - s.won,
        fan=format_fixed(s.average_fan), self_drawn=s.self_drawn, seats=seats)


def _whole(text: str, flag: str, low: int, high: int) -> int:
    """A whole number within bounds, or one line saying what was wrong (argparse would print
    its usage too)."""
    try:
        value = int(str(text).strip())
    except ValueError:
        raise ValueError(_("{flag} takes a whole number, got {text}").format(flag=flag, text=repr(text))) from None
    if not low <= value <= high:
        raise ValueError(_("{flag} must be {low}..{high}, got {value}").format(
            flag=flag, low=low, high=high, value=value))
    return value


def run(args) -> int:
    if not args.auto:
        raise ValueError(_("only computer-only hands are played here: add --auto "
                           "(play a hand yourself on the page: mahjong-lens app, Practice)"))
    first = _whole(args.seed, "--seed", 0, 2 ** 63)
    hands = _whole(args.hands, "--hands", 1, MAX_HANDS)
    from game.auto import hand_record, play_hand, summarise

    def played():
        for seed in range(first, first + hands):
            record = hand_record(play_hand(seed))
            print(json.dumps(record, ensure_ascii=False) if args.json else _text(record),
                  flush=args.json)
            yield record
    summary = summarise(played())  # one hand at a time: only the counts are kept
    if not args.json:
        print(_summary(summary))
    return 0
