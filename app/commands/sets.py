"""`mahjong-lens sets [--json]`: the tile sets taught (name, examples per class, when last
taught; in JSON also the examples the player corrected, as "read as>is": count);
`mahjong-lens sets --delete NAME` removes one. A damaged set is listed with its one-line
reason."""
from __future__ import annotations

import json
import time

from app.i18n import _


def add_parser(sub) -> None:
    p = sub.add_parser("sets", help=_("list the tile sets taught, or delete one"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object per set"))
    p.add_argument("--delete", metavar="NAME", help=_("delete the named set"))
    p.add_argument("--data-dir", default=None,
                   help=_("data folder (default $MAHJONG_LENS_DATA or ~/.mahjong-lens)"))
    p.set_defaults(run=run)


def summary_to_json(summary) -> dict:
    return {"name": summary.name, "examples": summary.examples,
            "tiles": sum(summary.examples.values()), "last_taught": _iso(summary.last_taught),
            "corrected": summary.corrected, "error": summary.error}


def _iso(stamp: float | None) -> str | None:
    return None if stamp is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp))


def run(args) -> int:
    from vision.tileset import delete_set, list_sets

    if args.delete is not None:
        delete_set(args.delete, args.data_dir)
        print(_("deleted tile set {name!r}").format(name=args.delete.strip()))
        return 0
    summaries = list_sets(args.data_dir)
    if not summaries and not args.json:
        print(_("No tile sets yet: teach one with 'mahjong-lens teach', or choose a new set on "
                "the page."))
    for summary in summaries:
        line = summary_to_json(summary)
        if args.json:
            print(json.dumps(line, ensure_ascii=False))
        elif summary.error:
            print(f"{summary.name}: {summary.error}")
        else:
            print(_("{name}: {tiles} examples of {classes} tiles, last taught {when}").format(
                name=summary.name, tiles=line["tiles"], classes=len(summary.examples),
                when=line["last_taught"]))
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
