"""A blessing (heavenly, earthly, human hand) under rules that score none is said in
`ignored_flags`, never dropped silently; where it is scored, a wrong one is one line."""
from __future__ import annotations

import pytest

from scoring.errors import InvalidHandError
from scoring.request import score_request

HAND = "[123m][EEE1]456p789sNN"
EARTHLY = {"hand": HAND, "self_drawn": True, "blessing": "earthly", "seat": "S", "dealer": "E"}


@pytest.mark.parametrize("rules, noted", [
    ("mcr", True), ("hk001", True), ("classical", True),
])
def test_an_unscored_blessing_is_said(rules, noted):
    flags = score_request(EARTHLY, rules)["details"]["ignored_flags"]
    assert ("blessing: these rules score no earthly hand" in flags) is noted, flags


def test_a_blessing_the_rules_score_is_not_noted():
    request = {**EARTHLY, "self_drawn": False, "discarder": "E"}
    result = score_request(request, "classical", None, {"limit_hands": True})
    assert not result["details"]["ignored_flags"]


def test_a_wrong_earthly_hand_reads_as_english():
    with pytest.raises(InvalidHandError, match="^an earthly hand is a non-dealer"):
        score_request(EARTHLY, "hk002")
