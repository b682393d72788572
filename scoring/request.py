"""One scoring request as plain data (the command line's flags, a batch line, the page's form)
→ `Hand` + `WinContext` → a JSON-ready result. Shared by `mahjong-lens score` and the page so
that both read a request the same way. A hand already read as a `Hand` (a photo's layout) is
passed as it is, and the request then says only how it was won.

Keys (docs/architecture.md, "Command line"): `hand`, `self_drawn`, `discarder`, `seat`, `round`, `dealer`, `flowers`,
`last_tile`, `kong`, `fourth_tile`, `options`, plus `rules` and `preset` for batch lines that
switch rule sets, and `others` (Classical: the other players' hands).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from .errors import InvalidHandError
from .hand import Hand, WinContext, parse_hand
from .rules import RuleSet, make_options, parse_rules, score
from .rules.classical_table import score_table_request
from .tiles import parse_bonus, parse_wind

KEYS = {"hand", "self_drawn", "discarder", "seat", "round", "dealer", "flowers", "last_tile",
        "kong", "fourth_tile", "options", "rules", "preset", "others", "blessing"}


def _flag(obj: Mapping, key: str) -> bool:
    value = obj.get(key, False)
    if isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no"):
        return value.lower() in ("true", "yes")
    raise InvalidHandError(f"{key} must be true or false, got {value!r}")


def _wind(obj: Mapping, key: str, default: int | None) -> int | None:
    value = obj.get(key)
    return default if value is None or value == "" else parse_wind(value)


def parse_request(obj: Mapping, hand: Hand | None = None) -> tuple[Hand, WinContext]:
    """A request mapping → (Hand, WinContext). With `hand` given, the mapping has no `hand`
    and its `flowers` join the hand's bonus tiles. Raises InvalidHandError naming the problem."""
    unknown = set(obj) - KEYS
    if unknown:
        raise InvalidHandError(f"unknown key(s) {', '.join(sorted(unknown))}; expected some of {', '.join(sorted(KEYS))}")
    if hand is None:
        text = obj.get("hand")
        if not isinstance(text, str):
            raise InvalidHandError("missing 'hand': a hand in notation such as [123m][EEE1]456p789sNN")
        hand = parse_hand(text, bonus=parse_bonus(obj.get("flowers")))
    elif obj.get("hand") is not None:
        raise InvalidHandError("the hand is given twice: as a Hand and as 'hand'")
    elif flowers := parse_bonus(obj.get("flowers")):
        hand = replace(hand, bonus=flowers + hand.bonus)
    return hand, win_context(obj)


def win_context(obj: Mapping) -> WinContext:
    """How the hand was won, from a request mapping's flags and winds."""
    return WinContext(
        self_drawn=_flag(obj, "self_drawn"),
        discarder=_wind(obj, "discarder", None),
        seat=_wind(obj, "seat", 0),
        round=_wind(obj, "round", 0),
        dealer=_wind(obj, "dealer", 0),
        last_tile=_flag(obj, "last_tile"),
        kong=_flag(obj, "kong"),
        fourth_tile=_flag(obj, "fourth_tile"),
        blessing=obj.get("blessing") or None,
    )


def score_request(obj: Mapping, rules: RuleSet | str = RuleSet.MCR, preset: str | None = None,
                  overrides: Mapping | None = None, hand: Hand | None = None) -> dict:
    """Score one request; the result is the score object of docs/architecture.md, "Command line"
    (always with `error`). `hand`: the hand already read, scored as it is (`parse_request`)."""
    rules = parse_rules(obj.get("rules") or rules)
    preset = obj.get("preset") or preset
    if preset is not None and not isinstance(preset, str):
        raise InvalidHandError(f"'preset' must be a preset's name, got {type(preset).__name__}")
    options_in = obj.get("options") or {}
    if not isinstance(options_in, Mapping):
        raise InvalidHandError("'options' must be an object of KEY: VALUE")
    options = make_options(rules, preset, {**(overrides or {}), **options_in})
    hand, ctx = parse_request(obj, hand)
    if obj.get("others") is not None:
        if rules is not RuleSet.CLASSICAL:
            raise InvalidHandError("'others' (the other players' hands) is only scored under --rules classical")
        return score_table_request(hand, ctx, obj["others"], options)
    return score(hand, ctx, rules, options).to_dict()


def error_object(source, message: str) -> dict:
    """The batch-mode line for a request that could not be scored."""
    hand = source.get("hand") if isinstance(source, Mapping) else source
    return {"hand": hand if isinstance(hand, str) else None, "valid": False, "total": 0, "fans": [],
            "payments": None, "error": message}
