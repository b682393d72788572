"""Rule sets, selected by an Enum and configured by frozen option objects (docs/architecture.md, "Style").

Each rule module (`mcr`, `hk`, `classical`) exposes:
  `Options`   a frozen dataclass of every rule choice, defaults = the spec's defaults;
  `PRESETS`   name → Options;
  `score(hand, ctx, options) -> ScoreResult`.
"""
from __future__ import annotations

import dataclasses
import importlib
import types
import typing
from enum import Enum

from ..errors import InvalidHandError
from ..hand import Hand, WinContext
from ..result import ScoreResult
from .optcheck import _short


class RuleSet(str, Enum):
    MCR = "mcr"
    HK001 = "hk001"
    HK002 = "hk002"
    CLASSICAL = "classical"

    @property
    def module(self) -> types.ModuleType:
        name = {"mcr": "mcr", "hk001": "hk", "hk002": "hk", "classical": "classical"}[self.value]
        return importlib.import_module(f"{__name__}.{name}")

    @property
    def default_preset(self) -> str:
        return {"mcr": "wmo", "hk001": "hk001", "hk002": "hk002", "classical": "seed003"}[self.value]


def parse_rules(value: str | RuleSet) -> RuleSet:
    try:
        return RuleSet(str(getattr(value, "value", value)).lower())
    except ValueError:
        raise InvalidHandError(f"unknown rule set {value!r}; choose one of "
                               f"{', '.join(r.value for r in RuleSet)}") from None


def _coerce(text, annotation, key: str):
    """'true' → True, '6' → 6, 'none' → None ... by the option field's annotation."""
    if not isinstance(text, str):
        return text
    raw = text.strip()
    hint = str(annotation)
    if raw.lower() in ("none", "null") and "None" in hint:
        return None
    if "bool" in hint:
        if raw.lower() in ("1", "true", "yes", "on"):
            return True
        if raw.lower() in ("0", "false", "no", "off"):
            return False
        raise InvalidHandError(f"option {key} takes true or false, got {_short(text)}")
    if "int" in hint and "float" not in hint:
        try:
            return int(raw)
        except ValueError:
            raise InvalidHandError(f"option {key} takes a whole number, got {_short(text)}") from None
    if "float" in hint:
        try:
            return float(raw)
        except ValueError:
            raise InvalidHandError(f"option {key} takes a number, got {_short(text)}") from None
    return raw


def make_options(rules: RuleSet | str, preset: str | None = None, overrides: dict | None = None):
    """The options object for a rule set: a preset, then KEY=VALUE overrides on top."""
    rules = parse_rules(rules)
    module = rules.module
    name = (preset or rules.default_preset).lower()
    if name not in module.PRESETS:
        raise InvalidHandError(f"unknown preset {preset!r} for {rules.value}; choose one of "
                               f"{', '.join(module.PRESETS)}")
    options = module.PRESETS[name]
    if overrides:
        hints = typing.get_type_hints(type(options))
        fields = {f.name for f in dataclasses.fields(options)}
        changes = {}
        for key, value in overrides.items():
            if key not in fields:
                raise InvalidHandError(f"unknown option {key!r} for {rules.value}; options: {', '.join(sorted(fields))}")
            changes[key] = _coerce(value, hints[key], key)
        options = dataclasses.replace(options, **changes)
    return options


def score(hand: Hand, ctx: WinContext, rules: RuleSet | str = RuleSet.MCR, options=None) -> ScoreResult:
    """Score one winning hand under a rule set (default options when `options` is None)."""
    rules = parse_rules(rules)
    if options is None:
        options = make_options(rules)
    # one module may serve several rule sets (hk001/hk002): the result names the one asked for
    return dataclasses.replace(rules.module.score(hand, ctx, options), rules=rules.value)
