"""`mahjong-lens teach PHOTO... --tiles CODES --set NAME`: teach the reader a table's own set.

The photos show the set's tiles laid in rows; CODES lists them in reading order (rows top to
bottom, each row left to right, photos in the order given) in the notation's tile-list
syntax plus `f` for bonus tiles, e.g. `123456789m123456789p123456789s1234567z12345678f`
(honour letters E S W N P F C allowed; a space or `/` between rows makes the rows part of
what must match). A sheet shot from across the table or from the side is read the way it
lies. The tiles are stored in the set (vision.tileset), created when new, in
the data folder beside the ledger. When the photos cannot be matched to CODES, one line says
what was found and nothing is stored (exit 2).
"""
from __future__ import annotations

import sys

from app.i18n import _


def add_parser(sub) -> None:
    p = sub.add_parser("teach", help=_("teach the reader a table's own tile set from photos of it"))
    p.add_argument("photos", nargs="+", metavar="PHOTO", help=_("photos of the tiles laid in rows"))
    p.add_argument("--tiles", required=True, metavar="CODES",
                   help=_("the tiles in reading order, e.g. 123456789m123456789p123456789s"
                          "1234567z12345678f"))
    p.add_argument("--set", required=True, dest="set_name", metavar="NAME",
                   help=_("the set's name (a new name creates it)"))
    p.add_argument("--data-dir", default=None,
                   help=_("data folder (default $MAHJONG_LENS_DATA or ~/.mahjong-lens)"))
    p.set_defaults(run=run)


def run(args) -> int:
    from vision.image import ImageError
    from vision.tileset import check_name, read_sheet, save_sheet

    name = check_name(args.set_name)  # a bad name is refused before any photo is read
    try:
        sheet = read_sheet(args.photos, args.tiles)
    except ImageError as exc:
        raise ValueError(str(exc)) from None
    tileset = save_sheet(sheet, name, args.data_dir)
    if sheet.order_doubtful:
        doubt = _("only {agreed} of {n} tiles look like their codes: check that CODES follows "
                  "the tiles as they lie (rows top to bottom, each left to right); "
                  "`mahjong-lens sets --delete {name}` starts the set again").format(
            agreed=sheet.agreed, n=len(sheet.tiles), name=name)
        moved = sheet.in_row_order()
        if moved is not None:
            doubt += _("; the rows as they lie seem to be {codes}").format(codes=moved.rows_text)
        print(_("note: {note}").format(note=doubt), file=sys.stderr)
    print(_("taught {n} tiles to set {name!r} in {seconds:.2f} s ({agreed} read right before); "
            "it holds {total} examples of {classes} tiles").format(
        n=len(sheet.tiles), name=name, seconds=sheet.seconds, agreed=sheet.agreed,
        total=len(tileset), classes=len(tileset.per_class())))
    return 0
