"""argparse's own words ('usage:', 'options', 'show this help message and exit', its error
lines) in the player's language.

argparse asks `gettext` for them through the names `_` and `ngettext` of its own module,
looked up each time it writes; `speaking()` points those names at the program's catalogues
for a block, so the help and the errors of the command line follow `--lang`. The words are
listed here so that the catalogues' extraction finds them; they must match argparse's
word for word (a test checks them against argparse itself).
"""
from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator

from . import N_, _, ngettext

WORDS: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
)


def expected_arguments(count: int) -> str:
    """argparse's one plural (an option of N values given fewer), as it asks for it."""
    return ngettext("expected %s argument", "expected %s arguments", count)


@contextlib.contextmanager
def speaking() -> Iterator[None]:
    """argparse's words in the current language (`app.i18n.using`) inside the block."""
    saved = argparse._, argparse.ngettext
    argparse._, argparse.ngettext = _, ngettext
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved
