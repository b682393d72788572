"""The `mahjong-lens` console command: a thin dispatcher over `app.commands.*`.

Bad input never shows a traceback: every command turns `ValueError`/`OSError` into one line
on stderr and exit status 2 (design.md, "Command line"). Output piped to a reader that stops
early (`| head`) ends the command quietly, with status 141 as a Unix tool's would.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

COMMANDS = ("app", "detect", "read", "score")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mahjong-lens", description="Score a finished Chinese mahjong hand from a photo.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"app.commands.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except BrokenPipeError:
        # the reader went away (`... --json | head`): stop quietly, as Unix tools do; stdout
        # goes to devnull so that Python's flush at exit does not complain again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (ValueError, OSError) as exc:
        print(f"mahjong-lens {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
