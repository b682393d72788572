"""`mahjong-lens sets [--json]`: the tile sets taught (name, examples per class, when last
taught, the faces not seen yet, and the fixes learnt: the examples the reader alone reads
otherwise, as "read as>is": count); `mahjong-lens sets --delete NAME` removes one, and
`mahjong-lens sets --forget NAME READ CODE` forgets a fix made by mistake (the set's
examples the reader reads as READ that are CODE). A damaged set is listed with its
one-line reason."""
from __future__ import annotations

import json
import time

from app.commands import SUMMARIES
from app.i18n import _, ngettext
from scoring.tiles import format_tiles


def add_parser(sub) -> None:
    p = sub.add_parser("sets", help=_(SUMMARIES["sets"]))
    p.add_argument("--json", action="store_true",
                   help=_("print the sets as one JSON array ([] when there are none)"))
    p.add_argument("--delete", metavar="NAME", help=_("delete the named set"))
    p.add_argument("--forget", nargs=3, metavar=("NAME", "READ", "CODE"),
                   help=_("forget a fix made by mistake: in set NAME, tiles read as READ that "
                          "were made CODE"))
    p.add_argument("--data-dir", default=None,
                   help=_("data folder (default $MAHJONG_LENS_DATA or ~/.mahjong-lens)"))
    p.set_defaults(run=run)


def summary_to_json(summary) -> dict:
    return {"name": summary.name, "examples": summary.examples,
            "tiles": sum(summary.examples.values()), "last_taught": _iso(summary.last_taught),
            "unseen": list(summary.unseen), "corrected": summary.corrected, "error": summary.error}


def _iso(stamp: float | None) -> str | None:
    return None if stamp is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp))


def run(args) -> int:
    from vision.tileset import delete_set, list_sets

    if args.delete is not None:
        delete_set(args.delete, args.data_dir)
        print(_("deleted tile set {name!r}").format(name=args.delete.strip()))
        return 0
    if args.forget is not None:
        return forget(*args.forget, args.data_dir)
    summaries = list_sets(args.data_dir)
    if args.json:
        print(json.dumps([summary_to_json(s) for s in summaries], ensure_ascii=False))
        return 0
    if not summaries:
        print(_("No tile sets yet: teach one with 'mahjong-lens teach', or choose a new set on "
                "the page."))
    for summary in summaries:
        line = summary_to_json(summary)
        if summary.error:
            print(f"{summary.name}: {summary.error}")
        else:
            print(_("{name}: {tiles} examples of {classes} tiles, last taught {when}").format(
                name=summary.name, tiles=line["tiles"], classes=len(summary.examples),
                when=line["last_taught"]) + _unseen(summary.unseen) + _fixes(summary.corrected))
    return 0


def _unseen(codes: tuple[str, ...]) -> str:
    if not codes:
        return ""
    return "; " + _("not seen yet: {tiles}").format(
        tiles=format_tiles(list(codes), honours_as_letters=False))


def _fixes(corrected: dict[str, int]) -> str:
    if not corrected:
        return ""
    pairs = ", ".join(f"{pair} ×{count}" for pair, count in corrected.items())
    return "; " + _("fixes learnt (read as>is): {pairs}").format(pairs=pairs)


def forget(name: str, read: str, code: str, data) -> int:
    """`--forget`: one line saying what was forgotten; ValueError (one line) when the codes
    are not tiles, the set is not there, or it holds no such fix."""
    from scoring.tiles import TILES
    from vision.tileset import check_name, forget_correction, load_set

    for given in (read, code):
        if given not in TILES:
            raise ValueError(_("{code} is not a tile code (e.g. 9s, 5z, 1f)").format(code=given))
    name = check_name(name)
    load_set(name, data)  # a missing or damaged set is its own one line
    removed = forget_correction(name, read, code, data)
    if not removed:
        raise ValueError(_("set {name!r} has learnt no fix of {read} to {code}").format(
            name=name, read=read, code=code))
    print(ngettext("set {name!r} no longer reads {read} as {code} ({count} example forgotten)",
                   "set {name!r} no longer reads {read} as {code} ({count} examples forgotten)",
                   removed).format(name=name, read=read, code=code, count=removed))
    return 0


def add_set_option(parser) -> None:
    """`--set NAME [--data-dir DIR]` for the commands that read a photo."""
    parser.add_argument("--set", dest="set_name", metavar="NAME", default=None,
                        help=_("read with this tile set (mahjong-lens teach)"))
    parser.add_argument("--data-dir", default=None,
                        help=_("data folder of the sets (default $MAHJONG_LENS_DATA or "
                               "~/.mahjong-lens)"))


def set_refiner(args):
    """The refiner that reads with --set (None without: the pipeline's default); a bad,
    missing or damaged set is a one-line error."""
    name = getattr(args, "set_name", None)
    if name is None:
        return None
    from vision.tileset import refiner_for

    return refiner_for(name, getattr(args, "data_dir", None))
