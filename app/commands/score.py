"""`mahjong-lens score`: score a hand given as notation, a photo, or batch lines on stdin."""
from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import sys
import threading

from app import i18n
from app.commands import SUMMARIES
from app.i18n import _
from app.i18n.fans import fan_label, fan_name
from app.i18n.messages import translate
from app.commands.read import add_winning_option, check_photo, read_photo, tiles_read
from app.commands.sets import add_set_option, set_refiner
from scoring.errors import InvalidHandError, one_line
from scoring.hand import Hand, split_notation
from scoring.request import error_object, score_request
from scoring.rules import RuleSet


def add_parser(sub) -> None:
    p = sub.add_parser("score", help=_(SUMMARIES["score"]))
    p.add_argument("photo", nargs="?", help=_("a photo of the hand, or '-' to read one case per line from stdin"))
    p.add_argument("--hand", help=_("the hand in notation, e.g. [123m][EEE1]456p789sNN"))
    p.add_argument("--rules", default="mcr", choices=[r.value for r in RuleSet], help=_("rule set (default mcr)"))
    p.add_argument("--preset", help=_("rule preset (MCR: wmo, china)"))
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help=_("override one rule option"))
    win = p.add_mutually_exclusive_group()
    win.add_argument("--self-drawn", action="store_true", help=_("the winning tile was drawn from the wall"))
    win.add_argument("--discarder", metavar="E|S|W|N", help=_("seat of the player who discarded the winning tile"))
    p.add_argument("--seat", default="E", metavar="E|S|W|N", help=_("the winner's seat wind (default E)"))
    p.add_argument("--round", default="E", metavar="E|S|W|N", help=_("the prevalent (round) wind (default E)"))
    p.add_argument("--dealer", default="E", metavar="E|S|W|N", help=_("the dealer's seat (default E)"))
    p.add_argument("--flowers", default="", metavar="1f,6f", help=_("the winner's bonus tiles"))
    p.add_argument("--last-tile", action="store_true", help=_("last tile of the wall (self-drawn) / last discard"))
    p.add_argument("--kong", action="store_true", help=_("won on a kong replacement (self-drawn) / robbed a kong"))
    p.add_argument("--fourth-tile", action="store_true", help=_("the winning tile is the last copy (other 3 visible)"))
    p.add_argument("--json", action="store_true", help=_("print JSON (one object per line)"))
    p.add_argument("--model", help=_("detector ONNX file for a photo (default: the committed model)"))
    add_winning_option(p)
    add_set_option(p)
    p.set_defaults(run=run)


def _overrides(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidHandError(f"--option takes KEY=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def _request_from_flags(args) -> dict:
    """How the hand was won, from the flags (the hand itself is added by `run`)."""
    return {"self_drawn": args.self_drawn, "discarder": args.discarder,
            "seat": args.seat, "round": args.round, "dealer": args.dealer, "flowers": args.flowers,
            "last_tile": args.last_tile, "kong": args.kong, "fourth_tile": args.fourth_tile}


def _hand_from_photo(path: str, model: str | None, refiner=None, winning: str | None = None
                     ) -> tuple[Hand, list[str], tuple[str, ...]]:
    """The hand as the layout read it (won on `winning` when given), its bonus tiles and the
    reading's notes (a photo hint among them), from a photo."""
    layout = read_photo(path, model, refiner, winning)
    if layout.hand is None:
        raise InvalidHandError(f"{path}: the tiles read make no complete hand: {tiles_read(layout)}; "
                               f"`mahjong-lens read {path}` says more")
    return layout.hand, [t.code for t in layout.bonus], tuple(layout.notes)


MAX_LINE = 64 * 1024          # a scoring request is a few hundred bytes; more is not one
LINE_SECONDS = 5              # the most one line may take before it is answered with an error
_SURROGATE = re.compile("[\ud800-\udfff]")


MAX_DIGITS = 30  # no flag or option needs more; Python refuses past 4300, in its own words


def _signed(amount) -> str:
    """An amount in full with its sign (+12584632.32, never +1.25846e+07)."""
    from scoring.payments import money_text
    text = money_text(amount)
    return text if text.startswith("-") else "+" + text


def _small_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise InvalidHandError(f"a number of {len(text.lstrip('-'))} digits; options and flags "
                               f"take at most {MAX_DIGITS}")
    return int(text)


def _request_of(line: str):
    """A batch line → (what to echo, the request mapping). Raises ValueError for a bad line."""
    if not line.startswith("{"):
        return line, {"hand": line}
    try:
        source = json.loads(line, parse_int=_small_int)
    except json.JSONDecodeError as exc:
        raise InvalidHandError(f"malformed JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise InvalidHandError("JSON nested too deeply") from None
    if not isinstance(source, dict):
        raise InvalidHandError("a JSON line must be an object")
    return source, source


def _answer(raw: bytes | str, args, overrides) -> tuple[dict, bool]:
    """The one JSON object for one input line, and whether the line was bad. Never raises."""
    source = None
    try:
        if isinstance(raw, bytes):
            if len(raw) > MAX_LINE:
                raise InvalidHandError(f"line of {len(raw)} bytes, over the {MAX_LINE}-byte limit")
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InvalidHandError(f"line is not valid UTF-8 (byte {exc.start + 1})") from None
        line = raw.strip()
        if len(line) > MAX_LINE:
            raise InvalidHandError(f"line of {len(line)} characters, over the {MAX_LINE} limit")
        if not line:
            raise InvalidHandError("empty line: no hand")
        source, request = _request_of(line)
        with _deadline(LINE_SECONDS):
            return score_request(request, args.rules, args.preset, overrides), False
    except TimeoutError:
        return error_object(source, f"not scored: took over {LINE_SECONDS} s"), True
    except (ValueError, OSError) as exc:
        return error_object(source, one_line(exc)[:500]), True
    except Exception as exc:  # RecursionError, MemoryError, ...
        # a bug, not the player's input: the line still gets its answer and the run goes on
        return error_object(source, f"this line could not be scored ({type(exc).__name__})"), True


@contextlib.contextmanager
def _deadline(seconds: float):
    """TimeoutError when the block runs over `seconds` (main thread on Unix; else no bound)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expire(signum, frame):
        raise TimeoutError
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _emit(out: dict) -> None:
    """One JSON line, always valid UTF-8: a lone surrogate (from a \\udc80 escape or an
    undecodable byte) becomes U+FFFD, never a raw byte."""
    text = _SURROGATE.sub("\ufffd", json.dumps(out, ensure_ascii=False))
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        print(text, flush=True)
        return
    sys.stdout.flush()
    buffer.write(text.encode("utf-8") + b"\n")
    buffer.flush()


def _lines():
    """Input lines as bytes when stdin has them (so a bad byte is one bad line), else text.
    A line over MAX_LINE is read no further than that: the rest of it is skipped."""
    stream = getattr(sys.stdin, "buffer", None) or sys.stdin
    newline = "\n" if stream is sys.stdin else b"\n"
    while line := stream.readline(MAX_LINE + 1):
        if len(line) > MAX_LINE and not line.endswith(newline):
            while (rest := stream.readline(MAX_LINE + 1)) and not rest.endswith(newline):
                pass
        yield line


def _batch(args, overrides) -> int:
    failed = 0
    for raw in _lines():  # every line is answered, a blank one too: answers stay in step
        out, bad = _answer(raw, args, overrides)
        failed += bad
        _emit(_with_local_names(out, args))
    return 2 if failed else 0


def _print_text(out: dict) -> None:
    """The fan table in the current language: fan names as its players say them, with the
    Chinese name; amounts written the language's way (English output is unchanged)."""
    english = i18n.current() == i18n.SOURCE
    verdict = _("valid") if out["valid"] else \
        _("not valid: {reason}").format(reason=translate(out.get("reason")))
    print(f"{out['hand']}  {out['total']}  ({verdict})")
    for fan in out.get("fans", []):
        times = f" x{fan['count']}" if fan["count"] > 1 else ""
        sets = f"  ← {' '.join(fan['sets'])}" if fan.get("sets") else ""
        print(f"  {fan['points'] * fan['count']:>4}  {fan_label(out['rules'], fan['name'], fan['name_zh'])}"
              f"{times}{sets}")
    if out.get("payments"):
        amounts = ", ".join(f"{k} {_signed(v)}" if english else f"{k} {i18n.format_amount(v)}"
                            for k, v in out["payments"].items())
        print("  " + _("payments: {amounts}").format(amounts=amounts))
    elif out["valid"]:  # a discard win whose discarder is not given
        print("  " + _("payments: add --self-drawn, or --discarder E|S|W|N for a win on a discard"))
    for note in (out.get("details") or {}).get("ignored_flags") or ():
        print("  " + _("ignored: {note}").format(note=translate(note)))


def _check_photo(path: str) -> None:
    """A photo that is not there said first; a hand typed where the photo goes, told to
    go in --hand."""
    if os.path.exists(path):
        return
    try:
        split_notation(path, allow_bonus=True)
    except InvalidHandError:
        check_photo(path)
    raise ValueError(_("{text} is a hand in notation, not a photo: give it as --hand {text}").format(
        text=shlex.quote(path)))


def _with_local_names(out: dict, args) -> dict:
    """JSON keeps `name` (English) and `name_zh`; `--lang` adds `name_local` to each fan."""
    if not getattr(args, "lang", None) or not out.get("fans"):
        return out
    return {**out, "fans": [{**fan, "name_local": fan_name(out["rules"], fan["name"])} for fan in out["fans"]]}


def run(args) -> int:
    overrides = _overrides(args.option)
    if args.winning and (args.hand or args.photo == "-"):
        raise ValueError(_("--winning is for a photo: in notation the winning tile is the last "
                           "tile written"))
    if args.photo == "-":
        if args.hand:
            raise InvalidHandError("give either --hand or '-' (stdin), not both")
        return _batch(args, overrides)
    if args.hand and args.photo:
        raise InvalidHandError("give the hand as --hand NOTATION or as a PHOTO, not both")
    if bool(args.hand) == bool(args.photo):
        raise InvalidHandError("give the hand as --hand NOTATION, a PHOTO, or '-' for stdin")
    request, hand = _request_from_flags(args), None
    if args.photo:
        _check_photo(args.photo)
        hand, bonus, notes = _hand_from_photo(args.photo, args.model, set_refiner(args), args.winning)
        for note in notes:  # on stderr: the score on stdout stays one result
            print(_("note: {note}").format(note=translate(note)), file=sys.stderr)
        request["flowers"] = ",".join(sorted(set(bonus) | set(filter(None, args.flowers.split(",")))))
    else:
        request["hand"] = args.hand
    out = score_request(request, args.rules, args.preset, overrides, hand=hand)
    if args.json:
        print(json.dumps(_with_local_names(out, args), ensure_ascii=False))
    else:
        _print_text(out)
    return 0
