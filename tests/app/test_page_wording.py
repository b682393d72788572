"""What the page says matches what is on it: the hand's caption names a winning tile only
when there is one, and Manual's hint does not ask for Manual."""
from __future__ import annotations

import pytest

from app_fixtures import click, tap_palette, texts, tile_key

HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]
GOLD = "then the winning tile in gold"


def _manual(page, codes=()):
    page.segmented_control(key="mode__win").set_value("Manual").run()
    for code in codes:
        tap_palette(page, code)
    return page


def _captions(page) -> str:
    return "\n".join(c.value for c in page.caption)


@pytest.mark.parametrize("remove, caption, absent", [
    ((), "Concealed tiles: 13, " + GOLD, None),
    (("win",), "Concealed tiles: 13.", GOLD),          # the winning tile removed: none is set
    (("hand",), "Concealed tiles: 12, " + GOLD, None),
])
def test_the_caption_names_a_winning_tile_only_when_there_is_one(page, remove, caption, absent):
    _manual(page, HAND)
    for ref in remove:
        click(page, tile_key(page, "win", ref, 0))
        click(page, "act__win__remove")
    said = _captions(page)
    assert caption in said and (absent is None or absent not in said), said


@pytest.mark.parametrize("mode, said, not_said", [
    ("Upload", "or choose Manual", None),
    ("Manual", "type the hand, or tap its tiles", "choose Manual"),
])
def test_the_empty_hand_hint_fits_the_mode(page, mode, said, not_said):
    page.segmented_control(key="mode__win").set_value(mode).run()
    text = texts(page)
    assert said in text and (not_said is None or not_said not in text), text


@pytest.mark.parametrize("lang, names", [
    ("en", {"4z": "North wind", "1m": "1 of Characters", "5z": "White Dragon", "1f": "Plum"}),
    ("pl", {"4z": "Wiatr północny", "5p": "Kółka 5"}),
    ("uk", {"2z": "Південний вітер"}),
    ("de", {"1z": "Ostwind", "9s": "Bambus 9"}),
    ("zh", {"3z": "西风", "1m": "一万"}),
])
def test_tiles_are_named_for_screen_readers_in_the_pages_language(data_dir, lang, names):
    """A tile button's label (what a screen reader says) is the tile's name, not its code."""
    from streamlit.testing.v1 import AppTest
    from app_fixtures import PAGE
    page = AppTest.from_file(PAGE, default_timeout=30)
    page.query_params["lang"] = lang
    page.run()
    _manual(page, ["4z", "1m"])
    labels = {b.key: b.label for b in page.button}
    for code, name in names.items():
        assert labels[f"pal__{code}__win"] == name
    hand = [label for key, label in labels.items() if key.startswith("tile__win__hand__")]
    assert hand == [names.get(c) or labels[f"pal__{c}__win"] for c in ("4z", "1m")]


@pytest.mark.parametrize("lang, label, help_word", [
    ("en", "Photo of the hand, up to 50 MB", "camera"),
    ("pl", "Zdjęcie ręki, do 50 MB", "aparatu"),
    ("uk", "Фото руки, до 50 МБ", "камерою"),
    ("de", "Foto der Hand, bis 50 MB", "Kamera"),
    ("zh", "手牌照片，最大 50 MB", "相机"),
])
def test_the_uploaders_label_and_help_are_in_the_pages_language(data_dir, lang, label, help_word):
    """Streamlit's own line of sizes and formats under the button is English (hidden by the
    page's CSS): the label and help, the page's own, say it instead."""
    from streamlit.testing.v1 import AppTest
    from app_fixtures import PAGE
    page = AppTest.from_file(PAGE, default_timeout=30)
    page.query_params["lang"] = lang
    page.run()
    uploader = page.get("file_uploader")[0]
    assert uploader.proto.label == label and help_word in uploader.proto.help
    assert "HEIC" in uploader.proto.help and "50" in uploader.proto.label
