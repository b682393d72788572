"""Hand editing as pure functions on a `Draft` (app/edit.py): a table of edits and what they
give, the conversion to `Hand` with its messages, and the layout → draft conversion."""
from __future__ import annotations

import pytest

from app import edit
from app.edit import Draft, EditError, MeldDraft, Slot
from scoring.errors import InvalidHandError
from scoring.hand import format_hand, parse_hand
from vision.layout import LaidMeld, LaidTile, TableLayout


def draft(text: str) -> Draft:
    return edit.from_hand(parse_hand(text))


def notation(d: Draft) -> str:
    return format_hand(edit.to_hand(d))


HAND = "123m456p789sEEESS"
EDITS = [  # (start, edit, args, expected notation)
    (HAND, edit.replace_tile, ("hand", 0, "4m"), "234m456p789sEEESS"),
    (HAND, edit.set_winning, ("hand", 0), "23m456p789sEEESS1m"),
    ("[123m]456p789sEEESS", edit.set_meld_kind, ("meld0", "loose"), "123m456p789sEEESS"),
    (HAND, edit.move_tile, ("win", 0, "hand"), None),  # 14 tiles, no winning tile
]


@pytest.mark.parametrize("start, fn, args, expected", EDITS)
def test_edits(start, fn, args, expected):
    out = fn(draft(start), *args)
    if expected is None:
        with pytest.raises(InvalidHandError, match="choose the winning tile"):
            edit.to_hand(out)
    else:
        assert notation(out) == format_hand(parse_hand(expected))


def test_building_a_meld_by_moving_tiles_infers_its_kind():
    d = draft(HAND)
    d, ref = edit.new_meld(d)
    for _ in range(3):
        d = edit.move_tile(d, "hand", 0, ref)  # 1m 2m 3m → a chow
    assert d.melds[0].kind == "chow" and notation(d) == "[123m]456p789sEEESS"
    d = edit.move_tile(d, "hand", [s.code for s in d.hand].index("1z"), "new_meld")
    for _ in range(2):
        d = edit.move_tile(d, "hand", [s.code for s in d.hand].index("1z"), "meld1")
    assert d.melds[1].kind == "pung" and notation(d) == "[123m][EEE]456p789sSS"
    d = edit.set_meld_kind(d, "meld1", "concealed_kong")
    with pytest.raises(InvalidHandError, match=r"set 2 \(kong, concealed\) needs 4 tiles but holds 3"):
        edit.to_hand(d)
    d = edit.add_tile(d, "meld1", "1z")
    assert d.melds[1].kind == "concealed_kong" and edit.to_hand(d).melds[1].concealed


def test_four_alike_make_a_pung_a_kong_and_removing_one_a_pung_again():
    d = draft("[EEE]123m456p789sSS")
    d = edit.add_tile(d, "meld0", "1z")
    assert d.melds[0].kind == "kong"
    assert edit.remove_tile(d, "meld0", 0).melds[0].kind == "pung"


@pytest.mark.parametrize("fn, args, message", [
    (edit.add_tile, ("bonus", "5p"), "not a flower"),
    (edit.replace_tile, ("hand", 0, "3f"), "bonus tile"),
    (edit.replace_tile, ("hand", 40, "3m"), "no tile 41"),
    (edit.set_meld_kind, ("meld3", "pung"), "no group"),
    (edit.set_meld_kind, ("hand", "pung"), "no group"),
])
def test_refused_edits_say_why(fn, args, message):
    with pytest.raises(EditError, match=message):
        fn(draft(HAND), *args)


def test_bonus_tiles_go_to_the_bonus_group_once_each():
    d = edit.add_tile(draft(HAND), "hand", "5f")
    assert [s.code for s in d.bonus] == ["5f"] and edit.to_hand(d).bonus == ("5f",)
    with pytest.raises(EditError, match="already"):
        edit.add_tile(d, "bonus", "5f")


def test_palette_taps_build_a_hand_and_the_fourteenth_tile_is_the_winning_tile():
    d = Draft()
    for code in ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z"]:
        d = edit.add_next(d, "hand", code)
    assert d.winning is None and d.size == 13
    d = edit.add_next(d, "hand", "2z")
    assert d.winning == Slot("2z") and notation(d) == "123m456p789sEEESS"
    loser = edit.add_next(Draft(hand=d.hand), "hand", "2z", need_winning=False)
    assert loser.winning is None and len(loser.hand) == 14


@pytest.mark.parametrize("tiles, message", [
    ("123m456p789sEEES", "13 tiles: add the winning tile"),
    ("123m456p789sEES", "^add 2 tiles: .*this one has 12$"),
    ("123m456p789sEEESSS", "^remove 1 tile: .*this one has 15$"),
])
def test_tile_count_messages(tiles, message):
    from scoring.tiles import parse_tiles
    d = Draft(hand=tuple(Slot(c) for c in parse_tiles(tiles)))
    with pytest.raises(InvalidHandError, match=message):
        edit.to_hand(d)


def test_a_fifth_copy_is_named():
    d = draft(HAND)
    d = edit.replace_tile(d, "hand", 0, "1z")
    d = edit.replace_tile(d, "hand", 1, "1z")
    with pytest.raises(InvalidHandError, match="copies of 1z"):
        edit.to_hand(d)


def test_from_layout_keeps_confidence_groups_and_fills_face_down_kong_tiles():
    def t(code, c=0.9):
        return LaidTile(code, (0, 0, 1, 1), c)
    layout = TableLayout(
        concealed=tuple(t(c) for c in ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "9s", "1z"]) + (t("8s", 0.2),),
        melds=(LaidMeld("concealed_kong", (t("back"), t("9p"), t("9p"), t("back")), 0.8),),
        bonus=(t("6f"),), winning=t("1z"))
    d = edit.from_layout(layout)
    assert [s.code for s in d.melds[0].tiles] == ["9p"] * 4
    assert edit.doubtful(d, 0.5) == 3  # 8s and the two guessed face-down tiles
    assert edit.to_hand(d) == parse_hand("[9999p]123m456p789sEE", bonus="6f")
    assert edit.doubtful(edit.confirm_all(d), 0.5) == 0


def test_unknown_face_down_tiles_must_be_set():
    d = Draft(hand=tuple(Slot(c) for c in "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z".split()),
              melds=(MeldDraft("concealed_kong", tuple(Slot("back") for _ in range(4))),),
              winning=Slot("1z"))
    with pytest.raises(InvalidHandError, match="face-down"):
        edit.to_hand(d)
