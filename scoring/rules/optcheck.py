"""The checked base of every rule set's frozen `Options`.

A JSON `options` value arrives as-is (true, 5, "x", [1], 1e308, 1000000000000), so each
option object checks itself on creation, before any arithmetic: first the type of every
field, then its range (`RANGES`: the values a real table could use) or its choices
(`CHOICES`), then any rule tying options together (`check`). A bad value is a one-line
InvalidHandError (a ValueError), never a TypeError, an OverflowError or a minutes-long
`2 ** limit` later.
"""
from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping
from typing import ClassVar

from ..errors import InvalidHandError

_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a word"}


class CheckedOptions:
    """Mixin for a frozen dataclass of rule options: `__post_init__` checks every field.

    `RANGES`: field → (lowest, highest), both allowed; `CHOICES`: field → allowed values.
    A field set to None (where its type allows it) is not range-checked.
    """

    RANGES: ClassVar[Mapping[str, tuple[float, float]]] = {}
    CHOICES: ClassVar[Mapping[str, tuple]] = {}

    def __post_init__(self) -> None:
        check_types(self)
        check_ranges(self)
        self.check()

    def check(self) -> None:
        """Rules between options; none by default."""


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
            raise InvalidHandError(f"option {f.name} takes {want}, got {_short(value)}")


def check_ranges(options) -> None:
    for name, (low, high) in options.RANGES.items():
        value = getattr(options, name)
        if value is None:
            continue
        if isinstance(value, float) and not math.isfinite(value) or not low <= value <= high:
            raise InvalidHandError(f"option {name} must be from {_num(low)} to {_num(high)}, got {_short(value)}")
    for name, allowed in options.CHOICES.items():
        value = getattr(options, name)
        if value not in allowed:
            words = ", ".join(str(a) for a in allowed[:-1]) + f" or {allowed[-1]}" if len(allowed) > 1 else str(allowed[0])
            raise InvalidHandError(f"option {name} must be {words}, got {_short(value)}")


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _short(value) -> str:
    """The offending value for a one-line message: repr, cut, ASCII (no raw surrogates)."""
    text = ascii(value)
    return text if len(text) <= 40 else text[:37] + "..."
