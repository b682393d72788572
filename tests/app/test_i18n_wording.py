"""Wording read by people who read each language: what the page and the command line say
reads right, not only that it is translated (the catalogue check sees only that)."""
from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from app import i18n
from app.i18n import catalog
from game.state import Action, Move

# a word that must not be in a language's catalogue, and why
NOT_SAID = [
    ("pl", "ziarn", "a practice hand's number is its number, not the random generator's seed"),
    ("uk", "зерн", "the same"),
    ("de", "Startwert", "the same"),
    ("zh", "种子", "the same"),
    ("pl", "wyrzucił", "a seat's name is neuter (Południe): a past-tense verb would need its gender"),
    ("pl", "wygrał", "the same"),
    ("pl", "wygrałeś", "a player is not assumed to be a man"),
    ("uk", "кісточ", "a tile is плитка on every other line"),
]


def _strings(lang: str) -> list[str]:
    with catalog.po_path(lang).open("rb") as f:
        out = []
        for m in read_po(f):
            if m.id:
                out += list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
        return out


@pytest.mark.parametrize("lang, word, why", NOT_SAID)
def test_words_the_catalogue_does_not_use(lang, word, why):
    said = [s for s in _strings(lang) if word.casefold() in s.casefold()]
    assert said == [], why


# a practice log line (tile 0 is 1m, 4*27 the first East wind, 4*31 the white dragon)
@pytest.mark.parametrize("lang, seat, tile, line", [
    ("en", 1, 0, "South discards 1 of Characters"),
    ("en", 1, 4 * 31, "South discards White Dragon"),
    ("pl", 1, 0, "Południe wyrzuca Znaki 1"),
    ("de", 2, 4 * 27, "West wirft Ost ab"),
])
def test_the_practice_log_reads_right(lang, seat, tile, line):
    from app.ui.practice import describe
    with i18n.using(lang):
        assert describe(Move(seat, Action.DISCARD, tile), human=0) == line


@pytest.mark.parametrize("lang, msgid, said", [
    ("pl", "{name} discarded", "Zrzutka: Południe"),      # no verb whose gender the seat would need
    ("pl", "{name} won", "Wygrana: Południe"),
    ("uk", "{name} discarded", "Скидання: Південь"),
    ("de", "{name} discarded", "Süd hat abgeworfen"),
    ("zh", "{name} discarded", "南 放炮"),
])
def test_who_discarded_reads_right_with_a_seats_name(lang, msgid, said):
    with i18n.using(lang):
        assert i18n._(msgid).format(name=i18n._("South")) == said
