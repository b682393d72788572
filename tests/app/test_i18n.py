"""The language machinery: choosing a language, keeping it per thread, formats of each locale."""
from __future__ import annotations

import csv
import datetime as dt
import io
import threading

import pytest

from app import i18n
from app.i18n import fans
from app.ledger import HandEntry, Ledger


@pytest.mark.parametrize("tag, want", [
    ("pl_PL.UTF-8", "pl"), ("de-AT", "de"), ("zh-Hant-HK", "zh"), ("zh_CN", "zh"), ("uk", "uk"),
    ("EN-us", "en"), ("C", None), ("POSIX", None), ("fr_FR", None), ("", None), (None, None),
])
def test_normalise(tag, want):
    assert i18n.normalise(tag) == want


@pytest.mark.parametrize("header, want", [
    ("pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7", "pl"),
    ("fr-FR,fr;q=0.9,de;q=0.8,en;q=0.5", "de"),
    ("en;q=0.4, uk;q=0.8", "uk"),
    ("zh-TW", "zh"),
    ("fr, es", None),
    ("de;q=0, en", "en"),
    ("", None),
])
def test_from_accept_language(header, want):
    assert i18n.from_accept_language(header) == want


@pytest.mark.parametrize("env, want", [
    ({"LANG": "uk_UA.UTF-8"}, "uk"),
    ({"LANGUAGE": "fr:de", "LANG": "pl_PL.UTF-8"}, "de"),
    ({"LC_ALL": "zh_CN.UTF-8", "LANG": "pl_PL.UTF-8"}, "zh"),
    ({"LC_ALL": "C.UTF-8", "LANG": "pl_PL.UTF-8"}, None),  # the first one set decides
    ({"LC_MESSAGES": "de_DE", "LANG": "en_US"}, "de"),
    ({}, None),
])
def test_from_environment(env, want):
    assert i18n.from_environment(env) == want


def test_choose_flag_wins_and_unknown_is_one_line():
    assert i18n.choose("pl", {"LANG": "de_DE"}) == "pl"
    assert i18n.choose(None, {"LANG": "de_DE"}) == "de"
    assert i18n.choose(None, {}) == "en"
    with pytest.raises(ValueError, match="unknown language 'xx'; choose one of en, pl, uk, de, zh"):
        i18n.choose("xx", {})


def test_language_is_per_thread_and_per_block():
    """Two browsers rendering at once each keep their own language."""
    seen = {}
    barrier = threading.Barrier(2)

    def render(lang):
        with i18n.using(lang):
            barrier.wait()
            seen[lang] = fans.fan_name("mcr", "Seven Pairs")

    threads = [threading.Thread(target=render, args=(lang,)) for lang in ("pl", "de")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"pl": "Siedem Par", "de": "Sieben Paare"}
    assert i18n.current() == "en"
    with i18n.using("uk"):
        with i18n.using("zh"):
            assert i18n.current() == "zh"
        assert i18n.current() == "uk"


@pytest.mark.parametrize("lang, value, number, amount", [
    ("en", -1234.5, "-1,234.5", "−1,234.5"),
    ("pl", -1234.5, "-1\u00a0234,5", "−1\u00a0234,5"),
    ("de", 1234.5, "1.234,5", "+1.234,5"),
    ("uk", 12, "12", "+12"),
    ("zh", 0.004, "0", "0"),
])
def test_numbers_and_amounts(lang, value, number, amount):
    assert i18n.format_number(value, lang) == number
    assert i18n.format_amount(value, lang) == amount


@pytest.mark.parametrize("lang, want", [
    ("en", "Dec 2, 2026"), ("pl", "2 gru 2026"), ("de", "02.12.2026"), ("zh", "2026年12月2日"),
])
def test_dates(lang, want):
    assert i18n.format_date(dt.date(2026, 12, 2), lang) == want


@pytest.mark.parametrize("lang, delimiter, cell", [
    ("en", ",", "-3.5"), ("zh", ",", "-3.5"), ("pl", ";", "-3,5"), ("de", ";", "-3,5"), ("uk", ";", "-3,5"),
])
def test_csv_format(lang, delimiter, cell):
    fmt = i18n.csv_format(lang)
    assert fmt.delimiter == delimiter
    assert fmt.number(-3.5) == cell
    assert fmt.number(8) == "8"


def test_fan_lookup_falls_back_to_english_and_refuses_unknown_rules():
    with i18n.using("pl"):
        assert fans.fan_name("mcr", "A fan nobody has") == "A fan nobody has"
        assert fans.fan_definition("mcr", "A fan nobody has") == ""
        with pytest.raises(ValueError, match="unknown rule set 'riichi'"):
            fans.fan_name("riichi", "Riichi")


HK_HALF = HandEntry("hk001", "[CCC1][FFF1]234p56pPP7p", 4, "N",
                    {"E": -1.5, "S": -6, "W": -1.5, "N": 9}, discarder="S")


@pytest.mark.parametrize("lang, delimiter, header, amounts, total", [
    ("en", ",", ["hand", "time", "rules"], ["-1.5", "-6", "-1.5", "9"], "total"),
    ("pl", ";", ["ręka", "czas", "zasady"], ["-1,5", "-6", "-1,5", "9"], "suma"),
    ("de", ";", ["Hand", "Zeit", "Regeln"], ["-1,5", "-6", "-1,5", "9"], "Summe"),
    ("uk", ";", ["рука", "час", "правила"], ["-1,5", "-6", "-1,5", "9"], "разом"),
    ("zh", ",", ["手牌", "时间", "规则"], ["-1.5", "-6", "-1.5", "9"], "合计"),
])
def test_ledger_csv_for_each_language(tmp_path, lang, delimiter, header, amounts, total):
    """A Polish or German spreadsheet reads ';' between fields and a decimal comma."""
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    ledger.set_names(night, ["Ola", "Żaneta", "Jürgen", "Петро"])
    ledger.add_hand(night, HK_HALF, "t1")
    text = ledger.to_csv(night, **i18n.csv_options(lang))
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    assert rows[0][:3] == header and rows[0][7:] == ["Ola", "Żaneta", "Jürgen", "Петро"]
    assert rows[1][7:] == amounts and rows[1][3] == HK_HALF.notation
    assert rows[-1][0] == total and rows[-1][7:] == amounts
    assert all(len(r) == 11 for r in rows)


def _raised(fn) -> str:
    try:
        fn()
    except ValueError as exc:
        return str(exc)
    raise AssertionError("no message")


def _page_messages():
    import dataclasses

    from app import edit, evaluate
    from scoring.hand import parse_hand
    full = edit.from_hand(parse_hand("123m456p789s123pEE"))
    return [
        evaluate.score_draft(edit.Draft(), evaluate.Situation(), "mcr").message,
        _raised(lambda: edit.to_hand(dataclasses.replace(full, winning=None))),
        _raised(lambda: edit.to_hand(dataclasses.replace(full, hand=full.hand[:-3]))),
        _raised(lambda: edit.add_tile(full, "bonus", "9f")),
        _raised(lambda: edit.add_tile(edit.add_tile(full, "bonus", "1f"), "bonus", "1f")),
        edit.hand_size_message(13, 14), edit.hand_size_message(16, 14),
    ]


def test_the_page_editors_messages_are_recognised_and_translated():
    """The English templates of app.i18n.messages match what the editor really says."""
    from app.i18n import messages
    for text in _page_messages():
        assert messages.match(text) is not None, text
        with i18n.using("uk"):
            assert messages.translate(text) != text


def test_a_blocks_language_comes_first_then_the_fallback_then_english(monkeypatch):
    monkeypatch.setattr(i18n, "_fallback", None)
    assert i18n.current() == "en"
    i18n.set_fallback(lambda: "de")
    assert i18n.current() == "de" and i18n._("Score") == "Wertung"
    with i18n.using("pl"):
        assert i18n.current() == "pl"
    i18n.set_fallback(lambda: "xx")  # an unknown answer is English, not an error
    assert i18n.current() == "en"


@pytest.mark.parametrize("said, lang, want", [
    ("9p as 6p, 1m as 7m", "de", "9p als 6p, 1m als 7m"),
    ("9p as 6p", "zh", "9p 读作 6p"),
    ("9p as 6p", "en", "9p as 6p"),
    ("something else", "pl", "something else"),
])
def test_what_another_reading_changes_is_said_in_the_language(said, lang, want):
    from app.ui.photo import reread_words
    with i18n.using(lang):
        assert reread_words(said) == want


@pytest.mark.parametrize("note", [
    "reading 9p as 6p (the reader's next guess) makes a complete hand: 123m456p789s123pEE",
    "2 doubtful tiles left out to make a complete hand",
    "no complete hand in the tiles read: 12 tiles, counting a kong as 3, in 1 declared sets; "
    "check the 2 marked doubtful",
    "3 tiles read as not part of the hand",
])
def test_the_layouts_notes_are_translated(note):
    from app.i18n import messages
    with i18n.using("pl"):
        assert messages.translate(note) != note


def _tile_set_messages(tmp_path) -> list[str]:
    """What vision.tileset really says to a player, raised by its own code."""
    from tests.vision.test_sheet_alignment import Names, photo_of, row_boxes, sheet_of
    from vision.tileset import store
    from vision.tileset.placing import decide
    from vision.tileset.sheet import parse_codes
    from vision.tileset.teaching import save_sheet

    four = photo_of(row_boxes(4), [None] * 4)
    both_ways = photo_of(row_boxes(3), ["1m", "2m", "3m"], turned=["3m", "2m", "1m"])
    return [_raised(lambda: decide([four], "123456789m 123456789m", Names)),
            _raised(lambda: decide([four, four], "1234m 123456789m", Names)),
            _raised(lambda: decide([both_ways], "123m", Names)),
            _raised(lambda: save_sheet(sheet_of(["1m"], ["1m"], ["unsure"]), "x", tmp_path)),
            _raised(lambda: parse_codes(" ")),
            _raised(lambda: store.check_name("")),
            _raised(lambda: store.check_name("x" * 70)),
            _raised(lambda: store.check_name("\U00020000" * 64)),
            _raised(lambda: store.check_name("../x")),
            _raised(lambda: store.load_set("Jade", tmp_path))]


def test_the_tile_set_messages_are_recognised_and_translated(tmp_path):
    from app.i18n import messages
    for text in _tile_set_messages(tmp_path):
        assert messages.match(text) is not None, text
        for lang in ("pl", "uk", "de", "zh"):
            with i18n.using(lang):
                assert messages.translate(text) != text, (lang, text)
