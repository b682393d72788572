"""Type checks for frozen option objects: a JSON `options` value arrives as-is (true, 5,
"x", [1]), and a wrong type must be a one-line InvalidHandError, not a TypeError later."""
from __future__ import annotations

import dataclasses
import typing

from ..errors import InvalidHandError

_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a word"}


def check_types(options) -> None:
    hints = typing.get_type_hints(type(options))
    for f in dataclasses.fields(options):
        value, hint = getattr(options, f.name), hints[f.name]
        allowed = typing.get_args(hint) or (hint,)
        if value is None and type(None) in allowed:
            continue
        ok = any(isinstance(value, t) and not (t in (int, float) and isinstance(value, bool))
                 for t in allowed if t is not type(None))
        if float in allowed and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            want = " or ".join(_WORDS.get(t, "none") if t is not type(None) else "none" for t in allowed)
            raise InvalidHandError(f"option {f.name} takes {want}, got {value!r}")
