"""One module per `mahjong-lens` sub-command; each exposes `add_parser(subparsers)` and `run(args) -> int`.

`SUMMARIES` holds each command's line in the top-level help: `app.cli` imports a command's
module only when that command is chosen, so the list of commands is known without them.
"""
from app.i18n import N_

SUMMARIES: dict[str, str] = {
    "app": N_("start the page (open the printed address on a phone or here)"),
    "detect": N_("find and read the tiles in photos"),
    "read": N_("read the hand in a photo: its sets, concealed tiles, flowers, winning tile"),
    "score": N_("score a hand (notation, photo, or '-' for JSON lines on stdin)"),
    "teach": N_("teach the reader a table's own tile set from photos of it"),
    "sets": N_("list the tile sets taught, or delete one"),
    "play": N_("play Hong Kong practice hands (hk001) between computer players"),
}
