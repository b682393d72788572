"""Notation: parse/format round trip, and one-line errors for malformed input."""
import pytest
from hypothesis import HealthCheck, given, settings

from scoring.errors import InvalidHandError
from scoring.hand import MeldKind, format_hand, parse_hand

from .strategies import complete_hands, thirteen_tile_hands


@given(complete_hands)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
def test_format_then_parse_is_identity(hand):
    text = format_hand(hand)
    again = parse_hand(text, bonus=hand.bonus)
    assert again == hand
    assert format_hand(again) == text


@given(thirteen_tile_hands())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
def test_thirteen_tile_hands_round_trip(hand):
    assert parse_hand(format_hand(hand), bonus=hand.bonus) == hand


@pytest.mark.parametrize("text, canonical, winning", [
    ("[123m][EEE1]456p789sNN", "[123m][EEE1]456p789sNN", "4z"),
    ("[1z1z1z1]456p789s4z4z123m", "[EEE1]12m456p789sNN3m", "3m"),
    ("1112345678999m9m", "1112345678999m9m", "9m"),
    ("[1111s][9999p1]123m456m7m7m", "[1111s][9999p1]1234567m7m", "7m"),
    ("[2222m5]456p678p888s6m6m", "[2222m5]6m456678p888s6m", "6m"),
    ("19m19s19pESWNCFPN", "19m19p19sESWNPFCN", "4z"),
    ("123m456p789s111zE", "123m456p789sEEEE", None),
])
def test_canonical_form(text, canonical, winning):
    hand = parse_hand(text)
    assert format_hand(hand) == canonical
    assert hand.winning == winning


@pytest.mark.parametrize("text, kind", [
    ("[1111s]123m456m789m7m7m", MeldKind.CONCEALED_KONG),
    ("[1111s2]123m456m789m7m7m", MeldKind.KONG),
    ("[1111s6]123m456m789m7m7m", MeldKind.PROMOTED_KONG),
    ("[234s3]123m456m789m7m7m", MeldKind.CHOW),
    ("[222s]123m456m789m7m7m", MeldKind.PUNG),
])
def test_meld_kinds(text, kind):
    assert parse_hand(text).melds[0].kind is kind


@pytest.mark.parametrize("text, message", [
    ("[123m", "bracket"),
    ("11111m234p678sEE5m", "5 copies of 1m"),
    ("123m456p789s112z", "got 12"),
    ("123m456p789s111zEE9p", "got 15"),
    ("0x", "'0' is not a tile number"),
    ("[ESW]123m456p789s1p1p", "not a chow"),
    ("[1112m]123m456p789s1p", "not a kong"),
    ("[12m]123m456p789s1p1p", "3 or 4 tiles"),
    ("123x", "unexpected character"),
    ("m123", "without numbers"),
    ("", "empty"),
    ("123m456p789sEE[111m]", "must come before"),
    ("[1111m4]123m456p789s1p1p", "offer digit 4"),
])
def test_malformed_notation_is_a_one_line_error(text, message):
    with pytest.raises(InvalidHandError) as info:
        parse_hand(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)
