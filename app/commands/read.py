"""`mahjong-lens read PHOTO --json`: the TableLayout read from a photo."""
from __future__ import annotations

import argparse
import json
import os

from app.commands import SUMMARIES
from app.commands.sets import add_set_option, set_refiner
from app.i18n import _
from app.i18n.messages import translate


def add_parser(sub) -> None:
    p = sub.add_parser(
        "read", help=_(SUMMARIES["read"]),
        description=_("Read the hand in a photo: which tiles are declared sets, which are "
                      "concealed, the flowers and seasons, and the winning tile. Prints the hand "
                      "in notation, or the tiles read when they make no complete hand, then "
                      "notes on the reading; --json prints all of it."))
    p.add_argument("photo", help=_("a photo of the hand"))
    p.add_argument("--json", action="store_true", help=_("print the layout as JSON"))
    p.add_argument("--model", help=_("detector ONNX file (default: the committed model)"))
    add_winning_option(p)
    add_set_option(p)
    p.set_defaults(run=run)


def add_winning_option(parser) -> None:
    """`--winning TILE` for the commands that read a hand from a photo."""
    parser.add_argument("--winning", metavar="TILE", type=winning_tile, default=None,
                        help=_("the winning tile, one of the concealed tiles read (e.g. 5p, "
                               "F), when the photo does not set it apart"))


def winning_tile(text: str) -> str:
    """One tile in notation ('5p', 'F', '6z') → its code; argparse says what was wrong."""
    from scoring.errors import InvalidHandError
    from scoring.tiles import parse_tiles
    try:
        codes = parse_tiles(text.strip())
    except InvalidHandError:
        codes = []
    if len(codes) != 1:
        raise argparse.ArgumentTypeError(
            _("expected one tile, e.g. 5p or F, got {text}").format(text=repr(text)))
    return codes[0]


def check_photo(path: str) -> None:
    """A missing photo said first, before any model or tile set is loaded (in the words the
    photo reader uses for it)."""
    if not os.path.exists(path):
        raise ValueError(f"{path}: cannot read file (No such file or directory)")


def read_photo(path: str, model: str | None = None, refiner=None, winning: str | None = None):
    """The layout read from the photo at `path`, won on `winning` when given."""
    from vision.pipeline import read_layout_from_path
    check_photo(path)
    layout = read_layout_from_path(path, model, refiner)
    return layout.won_on(winning) if winning else layout


def tiles_read(layout) -> str:
    """The tiles of the hand as read, for when they make no complete hand: declared sets in
    brackets, the concealed tiles, the winning tile, the flowers, in reading order."""
    parts = ["[" + "".join(t.code for t in m.tiles) + "]" for m in layout.melds]
    parts += [t.code for t in layout.concealed]
    parts += [layout.winning.code] if layout.winning is not None else []
    parts += [t.code for t in layout.bonus]
    return " ".join(parts) or _("none")


def run(args) -> int:
    check_photo(args.photo)
    layout = read_photo(args.photo, args.model, set_refiner(args), args.winning)
    if args.json:
        print(json.dumps(layout.to_dict(), ensure_ascii=False))
    else:
        print(layout.notation or _("no complete hand; the tiles read: {tiles}").format(
            tiles=tiles_read(layout)))
        for note in layout.notes:
            print("  " + translate(note))
    return 0
