"""scoring.request with a hand already read (a photo's layout): the request mapping says only
how it was won, and the result is the one of the same hand written in notation."""
from __future__ import annotations

import pytest

from scoring.errors import InvalidHandError
from scoring.hand import parse_hand
from scoring.request import score_request

# (rules, the hand read, its bonus tiles, how it was won)
SAME_AS_NOTATION = [
    ("mcr", "[123m1][EEEE]456p789sNN", (), {"discarder": "S"}),
    ("mcr", "[123m1][EEEE]456p789sNN", ("3f",), {"discarder": "S", "flowers": "2f,1f"}),
    ("hk001", "[111p2][NNN2][222s2][333m2]CC", (), {"self_drawn": True, "flowers": "5f"}),
    ("hk002", "1133m5577p99sEECC", (), {"self_drawn": True, "seat": "S"}),
    ("classical", "[123m1][EEEE]456p789sNN", ("4f",), {"self_drawn": True, "kong": True}),
    ("classical", "123m456p789sEEENN", (), {"discarder": "W", "fourth_tile": True}),  # flag ruled out
]


@pytest.mark.parametrize("rules, notation, bonus, won", SAME_AS_NOTATION)
def test_a_hand_given_scores_as_its_notation(rules, notation, bonus, won):
    read = parse_hand(notation, bonus=bonus)
    written = {**won, "hand": notation + "".join(bonus)}  # bonus tiles may be written in the hand
    assert score_request(won, rules, hand=read) == score_request(written, rules)


# (request with a hand given, the words of the error)
REFUSED = [
    ({"hand": "123m456p789sEEENN"}, "given twice"),
    ({"flowers": "3f"}, "appears twice"),   # the hand's own bonus tile again
    ({"discarder": "X"}, "wind"),
    ({"seat_wind": "E"}, "unknown key"),
]


@pytest.mark.parametrize("request_, words", REFUSED)
def test_a_request_with_a_hand_given_is_still_checked(request_, words):
    with pytest.raises(InvalidHandError, match=words):
        score_request(request_, "mcr", hand=parse_hand("[123m1][EEEE]456p789sNN", bonus="3f"))
