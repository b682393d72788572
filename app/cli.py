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
from app.commands import SUMMARIES
from app.i18n import N_, _
from app.i18n.parser_words import speaking

COMMANDS = tuple(SUMMARIES)
LANG_METAVAR = "|".join(i18n.LANGUAGES)
# what --lang does differs by command: only score's JSON has fans, app sets the page's language
LANG_HELP = {
    "score": N_("language of the text output (default: $LANGUAGE, $LC_ALL, $LANG; else en); "
                "with --json it adds each fan's name_local"),
    "app": N_("the page's language for a browser that asks for none of en, pl, uk, de, zh "
              "(default: $LANGUAGE, $LC_ALL, $LANG; else English)"),
}
PLAIN_LANG_HELP = N_("language of the text output (default: $LANGUAGE, $LC_ALL, $LANG; else en)")


def build_parser(chosen: tuple[str, ...] = COMMANDS) -> argparse.ArgumentParser:
    """The parser with the arguments of the `chosen` commands; the others are only named,
    with their line of help, so that their modules (and what they import) are not loaded."""
    parser = argparse.ArgumentParser(
        prog="mahjong-lens", description=_("Score a finished Chinese mahjong hand from a photo."))
    parser.add_argument("--lang", metavar=LANG_METAVAR, help=_(
        "language of the text output and of the help, before or after the command "
        "(default: $LANGUAGE, $LC_ALL, $LANG; else en)"))
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        if name in chosen:
            importlib.import_module(f"app.commands.{name}").add_parser(sub)
        else:
            sub.add_parser(name, help=_(SUMMARIES[name]))
    for name, command in sub.choices.items():
        # SUPPRESS: a sub-command's own default must not undo a --lang given before it
        command.add_argument("--lang", metavar=LANG_METAVAR, default=argparse.SUPPRESS,
                             help=_(LANG_HELP.get(name, PLAIN_LANG_HELP)))
    return parser


def chosen_command(argv: list[str]) -> tuple[str, ...]:
    """The sub-command argv names (its first word that is not an option or --lang's value),
    as `build_parser` takes it; none when it names none yet."""
    words = iter(argv)
    for arg in words:
        if arg == "--lang":
            next(words, None)
        elif not arg.startswith("-"):
            return (arg,) if arg in COMMANDS else ()
    return ()


def _lang_flag(argv: list[str]) -> str | None:
    """--lang read before parsing, so that --help and argparse's own lines are translated too."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


# numpy's OpenBLAS starts a thread per core when numpy is imported, which cost a one-photo
# `detect` about 70 ms of its 530 ms of CPU; no command needs BLAS threads (the models run
# in onnxruntime's own; the page that `app` starts inherits it). Set before numpy loads (no
# command imports it before `run`); a value the user set is kept.
QUIET_BLAS = {"OPENBLAS_NUM_THREADS": "1"}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    for key, value in QUIET_BLAS.items():
        os.environ.setdefault(key, value)
    with i18n.using(i18n.normalise(_lang_flag(argv)) or i18n.from_environment()), speaking():
        return _main(argv)


def _main(argv: list[str]) -> int:
    parser = build_parser(chosen_command(argv))
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
        from app.i18n.messages import translate
        from scoring.errors import one_line
        print(f"mahjong-lens {args.command}: {translate(one_line(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
