"""The one exception of the scoring package, and how any error is said in one line."""
from __future__ import annotations


class InvalidHandError(ValueError):
    """Malformed input (bad notation, a fifth copy of a tile, a wrong tile count, ...).

    The message is one line that names the problem. "Not a winning hand" is *not* an error:
    it is a normal `ScoreResult` with `valid=False` and a reason.
    """


def one_line(exc: BaseException) -> str:
    """An error as the one line a player reads: its text with line breaks and runs of spaces
    folded, a failed file operation as "PATH: reason" (Python's own text starts with
    "[Errno 20]"), the error's type when it says nothing."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return " ".join(str(exc).split()) or type(exc).__name__
