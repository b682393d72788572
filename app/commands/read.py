"""`mahjong-lens read PHOTO --json`: the TableLayout read from a photo."""
from __future__ import annotations

import json

from app.commands.sets import add_set_option, set_refiner
from app.i18n import _
from app.i18n.messages import translate


def add_parser(sub) -> None:
    p = sub.add_parser(
        "read", help=_("read the hand in a photo: its sets, concealed tiles, flowers, winning tile"),
        description=_("Read the hand in a photo: which tiles are declared sets, which are "
                      "concealed, the flowers and seasons, and the winning tile. Prints the hand "
                      "in notation, or the tiles read when they make no complete hand, then "
                      "notes on the reading; --json prints all of it."))
    p.add_argument("photo", help=_("a photo of the hand"))
    p.add_argument("--json", action="store_true", help=_("print the layout as JSON"))
    p.add_argument("--model", help=_("detector ONNX file (default: the committed model)"))
    add_set_option(p)
    p.set_defaults(run=run)


def read_photo(path: str, model: str | None = None, refiner=None):
    from vision.pipeline import read_layout_from_path
    return read_layout_from_path(path, model, refiner)


def tiles_read(layout) -> str:
    """The tiles of the hand as read, for when they make no complete hand: declared sets in
    brackets, the concealed tiles, the winning tile, the flowers, in reading order."""
    parts = ["[" + "".join(t.code for t in m.tiles) + "]" for m in layout.melds]
    parts += [t.code for t in layout.concealed]
    parts += [layout.winning.code] if layout.winning is not None else []
    parts += [t.code for t in layout.bonus]
    return " ".join(parts) or _("none")


def run(args) -> int:
    layout = read_photo(args.photo, args.model, set_refiner(args))
    if args.json:
        print(json.dumps(layout.to_dict(), ensure_ascii=False))
    else:
        print(layout.notation or _("no complete hand; the tiles read: {tiles}").format(
            tiles=tiles_read(layout)))
        for note in layout.notes:
            print("  " + translate(note))
    return 0
