"""Every rule set's options share one checked base: a wrong type or a value no table would
use is a one-line InvalidHandError, raised before any arithmetic (a limit of 10**12 must not
compute 2 ** 10**12, a unit of 1e308 must not pay infinity)."""
from __future__ import annotations

import time

import pytest

from scoring.errors import InvalidHandError
from scoring.hand import WinContext, parse_hand
from scoring.rules import RuleSet, make_options, score
from scoring.rules.optcheck import CheckedOptions

HAND = "[CCC1][FFF1][PPP1]234p5p5p"


@pytest.mark.parametrize("rules, key, value, words", [
    ("mcr", "minimum", [8], "takes a whole number"),
    ("mcr", "minimum", None, "takes a whole number"),
    ("mcr", "minimum", True, "takes a whole number"),
    ("mcr", "minimum", 8.5, "takes a whole number"),
    ("mcr", "minimum", -1, "from 0 to 88"),
    ("mcr", "minimum", 10**12, "from 0 to 88"),
    ("mcr", "mixed_kongs_points", 4, "must be 3, 5 or 6"),
    ("mcr", "waits_count_exhausted_tiles", "yes please", "true or false"),
    ("hk001", "limit", 1024, "from 1 to 20"),
    ("hk001", "limit", 10**12, "from 1 to 20"),
    ("hk001", "limit", "1000000000000", "from 1 to 20"),
    ("hk001", "unit", 1e308, "from 0.01 to 1000000"),
    ("hk001", "unit", "1e308", "from 0.01 to 1000000"),
    ("hk001", "unit", float("nan"), "from 0.01 to 1000000"),
    ("hk001", "unit", "inf", "from 0.01 to 1000000"),
    ("hk001", "unit", 0, "from 0.01 to 1000000"),
    ("hk001", "minimum", 10**9, "from 0 to 20"),
    ("hk002", "seven_pairs_fan", 99, "from 0 to 20"),
    ("hk002", "great_three_dragons_fan", -3, "from 0 to 20"),
    ("hk002", "self_draw_each", 3, "must be 1 or 2"),
    ("hk002", "multiplier", {"a": 1}, "takes a word"),
    ("classical", "limit", 10**15, "from 1 to 100000"),
    ("classical", "limit", 0, "from 1 to 100000"),
    ("classical", "mahjong_points", 10**6, "from 0 to 100"),
    ("classical", "loser_pairs", 50, "from 0 to 7"),
    ("classical", "loser_pairs", 1.5, "takes a whole number"),
])
def test_bad_option_is_one_line_and_quick(rules, key, value, words):
    start = time.perf_counter()
    with pytest.raises(InvalidHandError, match=words) as info:
        make_options(rules, None, {key: value})
    assert time.perf_counter() - start < 0.1
    message = str(info.value)
    assert "\n" not in message and message.isascii() and len(message) < 200


@pytest.mark.parametrize("rules, changes", [
    ("mcr", {"minimum": 0}), ("mcr", {"minimum": 88}),
    ("hk001", {"limit": 20, "minimum": 0, "unit": 0.5}), ("hk001", {"limit": 8, "unit": "2.5"}),
    ("hk002", {"limit": 1, "minimum": 1}),
    ("classical", {"limit": None}), ("classical", {"limit": 500, "mahjong_points": 10}),
])
def test_table_values_pass(rules, changes):
    options = make_options(rules, None, changes)
    result = score(parse_hand(HAND), WinContext(discarder=1), rules, options)
    assert result.total >= 0


@pytest.mark.parametrize("rules", list(RuleSet))
def test_every_rule_set_shares_the_checked_base(rules):
    options = make_options(rules)
    assert isinstance(options, CheckedOptions)
    numeric = {name for name, hint in type(options).__annotations__.items()
               if "int" in str(hint) or "float" in str(hint)}
    assert numeric <= set(options.RANGES) | set(options.CHOICES), "a numeric option has no range"
