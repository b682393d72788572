"""`mahjong-lens teach PHOTO... --tiles CODES --set NAME`: teach the reader a table's own set.

The photos show the set's tiles laid in rows; CODES lists them in reading order (rows top to
bottom, each row left to right, photos in the order given) in the notation's tile-list
syntax plus `f` for bonus tiles, e.g. `123456789m123456789p123456789s1234567z12345678f`
(honour letters E S W N P F C allowed; a space or `/` between rows makes the rows part of
what must match). A sheet shot from across the table or from the side is read the way it
lies. The codes go to the tiles by alignment (vision/tileset/teaching.py): a code with no
tile found, a box that is no tile, a tile the alignment cannot place surely are each named in
a `note:` line and not taught; the sure tiles are stored in the set (vision.tileset), created
when new, in the data folder beside the ledger. When a photo does not fit the codes (or fits
them two ways round almost equally), one line says so and nothing from any photo is stored
(exit 2).
"""
from __future__ import annotations

import sys

from app.commands import SUMMARIES
from app.i18n import _


def add_parser(sub) -> None:
    p = sub.add_parser("teach", help=_(SUMMARIES["teach"]))
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
    for note in sheet_notes(sheet):
        print(_("note: {note}").format(note=note), file=sys.stderr)
    tileset = save_sheet(sheet, name, args.data_dir)
    print(_("taught {n} tiles to set {name!r} in {seconds:.2f} s ({agreed} read right before); "
            "it holds {total} examples of {classes} tiles").format(
        n=len(sheet.taught), name=name, seconds=sheet.seconds,
        agreed=sum(sheet.tiles[i].code == sheet.tiles[i].read_as for i in sheet.taught),
        total=len(tileset), classes=len(tileset.per_class())))
    return 0


def sheet_notes(sheet) -> list[str]:
    """One line for each thing of the photos not taught as typed: codes with no tile found,
    boxes that are no tile, tiles the alignment is not sure of, and rows found in another
    order than typed."""
    where = _("photo {photo}, row {row}")
    notes = []
    if sheet.moved:
        notes.append(_("the rows lie as {codes}: taught as they lie").format(codes=sheet.moved))
    for gap in sheet.gaps:
        notes.append(_("{where}: {code} not found, not taught").format(
            where=where.format(photo=gap.photo + 1, row=gap.row + 1), code=gap.code))
    for extra in sheet.extras:
        at = where.format(photo=extra.photo + 1, row=extra.row + 1)
        if extra.after and extra.before:
            text = _("{where}: an extra box between {after} and {before}, left out")
        elif extra.after or extra.before:
            text = _("{where}: an extra box next to {code}, left out")
        else:
            text = _("{where}: an extra box, left out")
        notes.append(text.format(where=at, after=extra.after, before=extra.before,
                                 code=extra.after or extra.before))
    for tile in sheet.tiles:
        if tile.sure:
            continue
        text = {"part": _("{where}: {code} found only in part, not taught"),
                "far": _("{where}: {code} looks unlike its copy in another photo, not taught")
                }.get(tile.doubt, _("{where}: {code} could not be placed surely, not taught"))
        notes.append(text.format(where=where.format(photo=tile.photo + 1, row=tile.row + 1),
                                 code=tile.code))
    if sheet.order_doubtful:
        notes.append(_("only {agreed} of {n} tiles look like their codes: check that CODES "
                       "follows the tiles as they lie (rows top to bottom, each left to right)"
                       ).format(agreed=sheet.agreed, n=len(sheet.tiles)))
    return notes
