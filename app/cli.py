"""The `mahjong-lens` console command: a thin dispatcher over `app.commands.*`.

Bad input never shows a traceback: every command turns `ValueError`/`OSError` into one line
on stderr and exit status 2 (docs/architecture.md, "Command line"). Output piped to a reader that stops
early (`| head`) ends the command quietly, with status 141 as a Unix tool's would.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from app import i18n
from app.i18n import _
from app.i18n.messages import translate
from scoring.errors import one_line

COMMANDS = ("app", "detect", "read", "score", "teach", "sets", "play")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mahjong-lens", description=_("Score a finished Chinese mahjong hand from a photo."))
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"app.commands.{name}").add_parser(sub)
    for command in sub.choices.values():
        command.add_argument("--lang", metavar="|".join(i18n.LANGUAGES), help=_(
            "language of the text output (default: $LANGUAGE, $LC_ALL, $LANG; else en); "
            "with --json it adds each fan's name_local"))
    return parser


def _lang_flag(argv: list[str]) -> str | None:
    """--lang read before parsing, so that --help and argparse's own lines are translated too."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    with i18n.using(i18n.normalise(_lang_flag(argv)) or i18n.from_environment()):
        return _main(argv)


def _main(argv: list[str]) -> int:
    parser = build_parser()
    if not argv:  # plain `mahjong-lens`: what it can do, not an error
        parser.print_help()
        return 0
    args = parser.parse_args(argv)
    try:
        args.language = i18n.choose(args.lang)
        with i18n.using(args.language):
            return int(args.run(args) or 0)
    except BrokenPipeError:
        # the reader went away (`... --json | head`): stop quietly, as Unix tools do; stdout
        # goes to devnull so that Python's flush at exit does not complain again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (ValueError, OSError) as exc:
        print(f"mahjong-lens {args.command}: {translate(one_line(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
