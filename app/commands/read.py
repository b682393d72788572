"""`mahjong-lens read PHOTO --json`: the TableLayout read from a photo."""
from __future__ import annotations

import dataclasses
import json

from app.commands.sets import add_set_option, set_refiner
from app.i18n import _


def add_parser(sub) -> None:
    p = sub.add_parser("read", help=_("read a photo into a hand layout (concealed, melds, bonus, winning)"))
    p.add_argument("photo", help=_("a photo of the hand"))
    p.add_argument("--json", action="store_true", help=_("print the layout as JSON"))
    p.add_argument("--model", help=_("detector ONNX file (default: the committed model)"))
    add_set_option(p)
    p.set_defaults(run=run)


def read_photo(path: str, model: str | None = None, refiner=None):
    from vision.pipeline import read_layout_from_path
    return read_layout_from_path(path, model, refiner)


def run(args) -> int:
    layout = read_photo(args.photo, args.model, set_refiner(args))
    out = dataclasses.asdict(layout)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(layout.notation or _("(no complete hand read)"))
        for note in layout.notes:
            print("  " + note)
    return 0
