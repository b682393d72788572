"""The page in each language (AppTest): it renders and scores a hand without an exception,
fan names and labels in that language; the browser's language is picked; a choice in the
menu is kept in the address and remembered with the players' names for the next visit."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app import i18n
from app_fixtures import PAGE, tap_palette, texts

pytestmark = pytest.mark.slow
HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]
# what the page says for this hand (MCR: Mixed Straight) in each language
SAID = {"en": ("Mixed Straight 花龙", "Score", "a valid hand"),
        "pl": ("Zmiksowany Strit 花龙", "Wynik", "ręka ważna"),
        "uk": ("Змішаний стріт 花龙", "Рахунок", "рука дійсна"),
        "de": ("Gemischte Straße 花龙", "Wertung", "gültige Hand"),
        "zh": ("花龙", "计分", "有效和牌")}


def _start(**context) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.context.update(context)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _score(at: AppTest) -> str:
    at.segmented_control(key="mode__win").set_value("Manual").run()
    for code in HAND:
        tap_palette(at, code)
    assert not at.exception, [e.value for e in at.exception]
    return texts(at) + "\n" + "\n".join(s.value for s in at.subheader)


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_the_page_scores_a_hand_in_each_language(data_dir, lang):
    at = _start(locale={"zh": "zh-CN", "en": "en-US"}.get(lang, lang))
    assert at.session_state["lang"] == lang
    said = _score(at)
    fan, heading, valid = SAID[lang]
    assert fan in said and heading in said and valid in said
    if lang != "en":
        assert "Mixed Straight" not in said and "a valid hand" not in said
    helps = [m.help for m in at.markdown if fan in m.value]
    assert helps == [DEFINITION[lang]]  # the fan's one-line definition, by its name


DEFINITION = {"en": "123, 456 and 789, each in a different suit.",
              "pl": "123, 456 i 789, każde w innej rodzinie.",
              "uk": "123, 456 і 789, кожне в іншій масті.",
              "de": "123, 456 und 789, jede in einer anderen Farbe.",
              "zh": "三种花色分别组成123、456、789。"}


def test_an_unsupported_browser_language_gets_english_or_the_servers(data_dir, monkeypatch):
    assert _start(locale="fr-FR").session_state["lang"] == "en"
    monkeypatch.setenv("MAHJONG_LENS_LANG", "de")   # mahjong-lens app --lang de
    assert _start(locale="fr-FR").session_state["lang"] == "de"


def test_the_choice_is_kept_and_remembered_with_the_names(data_dir):
    at = _start(locale="de-DE")
    at.selectbox(key="language_menu").set_value("uk").run()
    assert not at.exception and at.session_state["lang"] == "uk"
    assert at.query_params["lang"] == "uk"
    assert "Змішаний стріт" in _score(at)
    # the next visit, from a German browser, opens in the table's language
    assert _start(locale="de-DE").session_state["lang"] == "uk"


def test_messages_from_buttons_are_in_the_language(data_dir):
    """Button callbacks run before the page body: their messages still use the session's
    language."""
    at = _start(locale="pl-PL")
    at.segmented_control(key="mode__win").set_value("Manual").run()
    at.text_input(key="notation__win__0").set_value("[12m]nonsense").run()
    said = texts(at)
    assert "Nie udało się odczytać [12m]nonsense:" in said and "Could not read" not in said


PRACTICE = "from app.ui import language, practice\nlanguage.install()\npractice.render()"


@pytest.mark.parametrize("lang, turn, discard", [
    ("pl", "Twój ruch", "Wyrzuć"), ("uk", "Ваш хід", "Скинути"), ("de", "Du bist dran", "abwerfen"),
    ("zh", "轮到你", "打出"), ("en", "Your turn", "Discard"),
])
def test_the_practice_page_in_each_language(lang, turn, discard):
    at = AppTest.from_string(PRACTICE, default_timeout=30)
    at.session_state["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert turn in at.markdown[0].value
    tiles = [b for b in at.button if b.key.startswith("ptile__") and not b.disabled]
    tiles[0].click().run()
    assert discard in at.button(key="pdiscard").label
    at.button(key="pdiscard").click().run()
    assert not at.exception, [e.value for e in at.exception]


TEACH = "from app.ui import language, teach\nlanguage.install()\nteach.render()"


@pytest.mark.parametrize("lang, heading", [
    ("pl", "Naucz czytnik zestawu kamieni stołu"), ("uk", "Навчити розпізнавач набору плиток столу"),
    ("de", "Dem Leser den Steinsatz des Tisches beibringen"), ("zh", "教识别器认这桌的牌"),
])
def test_the_tile_set_page_in_each_language(data_dir, lang, heading):
    at = AppTest.from_string(TEACH, default_timeout=60)
    at.session_state["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [s.value for s in at.subheader][:1] == [heading]
