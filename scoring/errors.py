"""The one exception of the scoring package."""
from __future__ import annotations


class InvalidHandError(ValueError):
    """Malformed input (bad notation, a fifth copy of a tile, a wrong tile count, ...).

    The message is one line that names the problem. "Not a winning hand" is *not* an error:
    it is a normal `ScoreResult` with `valid=False` and a reason.
    """
