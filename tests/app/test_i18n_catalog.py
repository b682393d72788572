"""The message catalogues: complete in every language, compiled copies current, every fan
named and defined, the names taken from the rule documents as written there."""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from app import i18n
from app.i18n import catalog, fans

LANGS = list(i18n.LANGUAGES)
SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"


def _entries(path: Path, reader) -> dict:
    with path.open("rb") as f:
        return {(m.context, _key(m.id)): _key(m.string) for m in reader(f) if m.id}


def _key(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalogue_is_complete(lang):
    """No message missing, untranslated or fuzzy; every placeholder kept."""
    assert catalog.problems(lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_compiled_catalogue_is_the_po_compiled(lang):
    """The committed .mo holds exactly what compiling the .po gives
    (python -m app.i18n.catalog compile)."""
    import io
    fresh = {(m.context, _key(m.id)): _key(m.string)
             for m in read_mo(io.BytesIO(catalog.compiled(lang))) if m.id}
    assert _entries(catalog.mo_path(lang), read_mo) == fresh


def test_the_template_holds_the_messages_of_the_code_and_the_fan_tables():
    """A new message in the code or a new fan is in the catalogues
    (python -m app.i18n.catalog update)."""
    want = {(m.context, m.id) for m in catalog.template() if m.id}
    assert set(_entries(catalog.TEMPLATE, read_po)) == want


@pytest.mark.parametrize("family", ["mcr", "hk", "classical"])
def test_every_fan_has_a_definition(family):
    names = {name for fam, name, _zh, _v in catalog.fan_rows() if fam == family}
    assert set(fans.DEFINITIONS[family]) == names


@pytest.mark.parametrize("lang, rules, name, want", [
    ("pl", "mcr", "Chicken Hand", "Bezwartościowa Ręka"),
    ("pl", "mcr", "Nine Gates", "Dziewięć Bram"),
    ("pl", "classical", "Exposed Pung of Simples", "Odkryty Pung Małych Kamieni"),
    ("pl", "classical", "Half Flush", "Pół Kolor"),
    ("uk", "hk001", "Half Flush", "Півфлеш"),
    ("uk", "hk002", "No Flowers", "Без квітів"),
    ("de", "hk001", "Mixed Terminals", "Endsteine & Ehren"),
    ("de", "hk002", "Four Concealed Pungs", "Vier verdeckte Pungs"),
    ("de", "mcr", "Seat Wind", "Platzwind"),            # one English name, two German ones
    ("de", "hk001", "Seat Wind", "Pung des Platzwinds"),
    ("zh", "mcr", "All Green", "绿一色"),
    ("zh", "hk001", "Four Kongs", "十八羅漢"),          # Hong Kong names in traditional script
    ("en", "mcr", "All Green", "All Green"),
])
def test_fan_names(lang, rules, name, want):
    with i18n.using(lang):
        assert fans.fan_name(rules, name) == want
        assert fans.fan_definition(rules, name)


def test_zh_fan_names_are_the_tables_chinese_names():
    with i18n.using("zh"):
        for family, name, name_zh, _v in catalog.fan_rows():
            assert fans.fan_name(family, name) == name_zh


def _fold(text: str) -> str:
    """Letters only, lower case: the documents wrap lines and vary capitals and signs."""
    text = unicodedata.normalize("NFC", text).casefold().translate({ord(c): None for c in "¹²³"})
    return re.sub(r"[\W_]+", "", text)


SEED_MARK = re.compile(r'^seed (\d{3}): "(.*)"')


def _seed_marks() -> list[tuple[str, str, str, str]]:
    out = []
    for lang in LANGS:
        with catalog.po_path(lang).open("rb") as f:
            for m in read_po(f):
                for comment in m.user_comments:
                    found = SEED_MARK.match(comment)
                    if found:
                        out.append((lang, found.group(1), found.group(2), m.string))
    return out


def test_seed_names_are_marked_for_each_document():
    counts = {}
    for lang, seed, _words, _string in _seed_marks():
        counts[lang, seed] = counts.get((lang, seed), 0) + 1
    assert counts[("pl", "000")] == 81   # every green-book fan of the Polish MCR table
    assert counts[("uk", "001")] >= 20
    assert counts[("de", "002")] >= 30
    assert counts[("pl", "003")] >= 30


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is not beside the project")
def test_seed_marks_quote_their_document():
    """Each name marked as a rule document's quotes words found in that document."""
    texts = {p.name[:3]: _fold(p.read_text(encoding="utf-8")) for p in SEEDS.glob("*.txt")}
    for lang, seed, words, _string in _seed_marks():
        quoted = re.sub(r"\s*\([^)]*\)$", "", words) if seed == "002" else words
        for part in re.split(r"[/,]", quoted):
            assert _fold(part) in texts[seed], (lang, seed, part)


def test_every_message_of_the_code_can_be_extracted():
    """A `_()` inside an f-string's braces, or one given a built string, never reaches the
    catalogues and stays English in every language."""
    assert catalog.unextractable() == []


@pytest.mark.parametrize("source, flagged", [
    ('x = f"| {_(\'Total\')} |"', True),              # inside an f-string: never extracted
    ('x = _(f"{n} hands")', True),                     # a message built at run time
    ('x = _("a " + word)', True),
    ('x = ngettext("one", f"{n} many", n)', True),
    ('x = _("Total")', False),
    ('x = "| " + _("Total") + " |"', False),
    ('x = pgettext("tile", name)', False),             # names marked elsewhere with N_
    ('x = _(name)', False),
    ('x = ngettext("{n} tile", "{n} tiles", n).format(n=n)', False),
])
def test_the_check_finds_messages_no_extraction_can_find(tmp_path, source, flagged):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "part.py").write_text(source + "\n", encoding="utf-8")
    found = catalog.unextractable(tmp_path / "app")
    assert bool(found) == flagged, found
    assert all(line.startswith("app/part.py:1: ") for line in found)
