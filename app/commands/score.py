"""`mahjong-lens score`: score a hand given as notation, a photo, or batch lines on stdin."""
from __future__ import annotations

import json
import sys

from scoring.errors import InvalidHandError
from scoring.request import error_object, score_request
from scoring.rules import RuleSet


def add_parser(sub) -> None:
    p = sub.add_parser("score", help="score a hand (notation, photo, or '-' for JSON lines on stdin)")
    p.add_argument("photo", nargs="?", help="a photo of the hand, or '-' to read one case per line from stdin")
    p.add_argument("--hand", help="the hand in notation, e.g. [123m][EEE1]456p789sNN")
    p.add_argument("--rules", default="mcr", choices=[r.value for r in RuleSet])
    p.add_argument("--preset", help="rule preset (MCR: wmo, china)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="override one rule option")
    win = p.add_mutually_exclusive_group()
    win.add_argument("--self-drawn", action="store_true", help="the winning tile was drawn from the wall")
    win.add_argument("--discarder", metavar="E|S|W|N", help="seat of the player who discarded the winning tile")
    p.add_argument("--seat", default="E", metavar="E|S|W|N", help="the winner's seat wind (default E)")
    p.add_argument("--round", default="E", metavar="E|S|W|N", help="the prevalent (round) wind (default E)")
    p.add_argument("--dealer", default="E", metavar="E|S|W|N", help="the dealer's seat (default E)")
    p.add_argument("--flowers", default="", metavar="1f,6f", help="the winner's bonus tiles")
    p.add_argument("--last-tile", action="store_true", help="last tile of the wall (self-drawn) / last discard")
    p.add_argument("--kong", action="store_true", help="won on a kong replacement (self-drawn) / robbed a kong")
    p.add_argument("--fourth-tile", action="store_true", help="the winning tile is the last copy (other 3 visible)")
    p.add_argument("--json", action="store_true", help="print JSON (one object per line)")
    p.add_argument("--model", help="detector ONNX file for a photo (default: the committed model)")
    p.set_defaults(run=run)


def _overrides(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidHandError(f"--option takes KEY=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def _request_from_flags(args, hand_text: str) -> dict:
    return {"hand": hand_text, "self_drawn": args.self_drawn, "discarder": args.discarder,
            "seat": args.seat, "round": args.round, "dealer": args.dealer, "flowers": args.flowers,
            "last_tile": args.last_tile, "kong": args.kong, "fourth_tile": args.fourth_tile}


def _hand_from_photo(path: str, model: str | None) -> tuple[str, list[str]]:
    """Notation and bonus tiles read from a photo (detector + layout)."""
    from app.commands.read import read_photo  # vision is only imported when a photo is given
    layout = read_photo(path, model)
    if not layout.notation:
        raise InvalidHandError(f"{path}: the tiles read do not form a complete hand "
                               f"({' '.join(layout.notes) or 'check the photo with mahjong-lens read'})")
    return layout.notation, [t.code for t in layout.bonus]


def _batch(args, overrides) -> int:
    failed = 0
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        source = line
        try:
            if line.startswith("{"):
                try:
                    source = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InvalidHandError(f"malformed JSON ({exc.msg} at column {exc.colno})") from None
                if not isinstance(source, dict):
                    raise InvalidHandError("a JSON line must be an object")
                request = source
            else:
                request = {"hand": line}
            out = score_request(request, args.rules, args.preset, overrides)
        except (ValueError, OSError) as exc:
            failed += 1
            out = error_object(source, str(exc))
        print(json.dumps(out, ensure_ascii=False), flush=True)
    return 2 if failed else 0


def _print_text(out: dict) -> None:
    verdict = "valid" if out["valid"] else f"not valid: {out.get('reason')}"
    print(f"{out['hand']}  {out['total']}  ({verdict})")
    for fan in out.get("fans", []):
        times = f" x{fan['count']}" if fan["count"] > 1 else ""
        sets = f"  ← {' '.join(fan['sets'])}" if fan.get("sets") else ""
        print(f"  {fan['points'] * fan['count']:>4}  {fan['name']} {fan['name_zh']}{times}{sets}")
    if out.get("payments"):
        print("  payments: " + ", ".join(f"{k} {v:+g}" for k, v in out["payments"].items()))


def run(args) -> int:
    overrides = _overrides(args.option)
    if args.photo == "-":
        if args.hand:
            raise InvalidHandError("give either --hand or '-' (stdin), not both")
        return _batch(args, overrides)
    if bool(args.hand) == bool(args.photo):
        raise InvalidHandError("give the hand as --hand NOTATION, a PHOTO, or '-' for stdin")
    request = _request_from_flags(args, args.hand or "")
    if args.photo:
        notation, bonus = _hand_from_photo(args.photo, args.model)
        request["hand"] = notation
        request["flowers"] = ",".join(sorted(set(bonus) | set(filter(None, args.flowers.split(",")))))
    out = score_request(request, args.rules, args.preset, overrides)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        _print_text(out)
    return 0
