"""Keep the message catalogues: extract, update, compile, check (Babel's API).

    python -m app.i18n.catalog update    # app/locale/messages.pot from the code and the fan
                                         # tables; every <lang>/LC_MESSAGES/messages.po merged
    python -m app.i18n.catalog compile   # every messages.po to messages.mo (committed)
    python -m app.i18n.catalog check     # what is missing, fuzzy or has lost a placeholder,
                                         # and every message no extraction can find

The strings of the code are found by Babel's Python extractor (`_`, `N_`, `ngettext`,
`pgettext`, `npgettext`). Fan names and definitions are not written as calls: they come
from the scorers' tables and `app.i18n.fans`, with the rule family as context, and each
carries its Chinese name and value as a comment for translators; tile names likewise from
`scoring.tiles.NAMES` (context 'tile').
"""
from __future__ import annotations

import ast
import datetime
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract, extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from . import DOMAIN, LANGUAGES, LOCALE_DIR
from .fans import DEFINITIONS

APP_DIR = LOCALE_DIR.parent
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
PROJECT = "mahjong-lens"
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:[!:][^{}]*)?\}|%(?:\([A-Za-z_]+\))?[-+ #0]*\d*(?:\.\d+)?[sdifgr%]")


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


def fan_rows() -> Iterator[tuple[str, str, str, str]]:
    """(family, English name, Chinese name, value) of every fan and item of every rule set."""
    from scoring.rules.classical_items import ITEMS, LIMIT_HANDS
    from scoring.rules.hk_fans import FANS as HK_FANS
    from scoring.rules.mcr.fans import FANS as MCR_FANS
    for fan in MCR_FANS:
        yield "mcr", fan.name, fan.name_zh, f"{fan.points} points"
    for fan in HK_FANS:
        yield "hk", fan.name, fan.name_zh, "limit" if fan.value == "limit" else "fan"
    for item in ITEMS:
        yield "classical", item.name, item.name_zh, item.kind
    for _key, name, name_zh, _test in LIMIT_HANDS:
        yield "classical", name, name_zh, "limit hand"


def template() -> Catalog:
    catalog = Catalog(project=PROJECT, fuzzy=False, header_comment=_HEADER,
                      creation_date=_FIXED_DATE, revision_date=_FIXED_DATE)
    for filename, lineno, message, comments, context in extract_from_dir(
            APP_DIR, keywords=DEFAULT_KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True, directory_filter=lambda d: "__pycache__" not in d):
        catalog.add(message, None, [(f"app/{filename}", lineno)], auto_comments=comments,
                    context=context)
    from scoring.tiles import NAMES
    for code, (name, name_zh) in NAMES.items():
        catalog.add(name, context="tile", auto_comments=[f"tile {code} {name_zh}"])
    for fam, name, name_zh, value in fan_rows():
        catalog.add(name, context=fam, auto_comments=[f"{fam} fan {name_zh} ({value})"])
        definition = DEFINITIONS[fam].get(name)
        if definition:
            catalog.add(definition, context=f"{fam} definition", auto_comments=[f"definition of {name}"])
    return catalog


def _write(path: Path, catalog: Catalog) -> None:
    # the header says what the catalogue is, without placeholder names and addresses
    catalog.version = _version()
    catalog.msgid_bugs_address = ""
    catalog.last_translator = ""
    if catalog.locale is not None:
        catalog.language_team = LANGUAGES.get(str(catalog.locale.language), "")
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, include_lineno=False, ignore_obsolete=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


def update() -> None:
    pot = template()
    _write(TEMPLATE, pot)
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            with path.open("rb") as f:
                catalog = read_po(f, locale=_babel_lang(lang))
        else:
            catalog = Catalog(locale=_babel_lang(lang), project=PROJECT, header_comment=_HEADER,
                              creation_date=_FIXED_DATE)
        catalog.fuzzy = False
        catalog.update(pot, no_fuzzy_matching=True, update_creation_date=False)
        catalog.revision_date = _FIXED_DATE
        _write(path, catalog)


def compiled(lang: str) -> bytes:
    """The .mo bytes of a language's .po as it is now (fuzzy messages left out)."""
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=_babel_lang(lang))
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def compile_all() -> None:
    for lang in LANGUAGES:
        mo_path(lang).write_bytes(compiled(lang))


def messages(path: Path) -> dict[tuple[str | None, object], object]:
    """(context, id) → translation of a compiled or source catalogue, header left out."""
    with path.open("rb") as f:
        catalog = read_mo(f) if path.suffix == ".mo" else read_po(f)
    return {(m.context, m.id): m.string for m in catalog if m.id}


def problems(lang: str) -> list[str]:
    """Every way a language's catalogue falls short of the template: missing, untranslated,
    fuzzy, a placeholder lost or added, an obsolete entry kept."""
    with TEMPLATE.open("rb") as f:
        pot = read_po(f)
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=_babel_lang(lang))
    out = []
    for msg in pot:
        if not msg.id:
            continue
        where = f"{lang}: {msg.context + ' | ' if msg.context else ''}{_first(msg.id)!r}"
        have = catalog.get(msg.id, context=msg.context)
        if have is None:
            out.append(f"{where} is missing")
            continue
        strings = have.string if isinstance(have.string, (list, tuple)) else [have.string]
        if not all(strings):
            out.append(f"{where} is not translated")
        elif have.fuzzy:
            out.append(f"{where} is fuzzy")
        else:
            out.extend(f"{where}: {lost}" for lost in _placeholder_changes(msg.id, strings))
    out.extend(f"{lang}: obsolete {_first(m.id)!r}" for m in catalog.obsolete.values())
    return out


def unextractable(root: Path = APP_DIR) -> list[str]:
    """Every call of `_`, `ngettext`, ... whose message the extractor cannot find, so that it
    stays English in every language: one inside an f-string's braces, or built at run time
    (an f-string, `+` or `%`). A message held in a variable is translated where it was marked
    with `N_` and is not reported."""
    out = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_bytes()
        found = set()
        for _line, message, _comments, context in extract(
                "python", io.BytesIO(source), keywords=DEFAULT_KEYWORDS):
            found.update(message if isinstance(message, tuple) else (message,))
        for node in ast.walk(ast.parse(source)):
            for arg in _message_args(node):
                if not (isinstance(arg, ast.Constant) and arg.value in found):
                    out.append(f"{path.relative_to(root.parent).as_posix()}:{arg.lineno}: "
                               f"{ast.unparse(node)[:80]} is never extracted")
    return out


def _message_args(node) -> list:
    """The message arguments of a gettext call written as literal or built strings (a
    context is left out: `pgettext('tile', name)` translates names marked elsewhere)."""
    if not isinstance(node, ast.Call):
        return []
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    if name not in DEFAULT_KEYWORDS:
        return []
    spec = DEFAULT_KEYWORDS[name] or (1,)
    places = [p - 1 for p in spec if not isinstance(p, tuple)]
    args = [node.args[i] for i in places if i < len(node.args)]
    return [a for a in args if (isinstance(a, ast.Constant) and isinstance(a.value, str))
            or isinstance(a, (ast.JoinedStr, ast.BinOp))]


def _placeholder_changes(msgid, strings) -> list[str]:
    ids = msgid if isinstance(msgid, (list, tuple)) else [msgid]
    want = sorted(set(PLACEHOLDER.findall(ids[-1])))
    out = []
    for text in strings:
        got = sorted(set(PLACEHOLDER.findall(text)))
        # a plural form for exactly one thing may leave the count out ("jedna płytka")
        if got != want and not (len(ids) > 1 and set(got) < set(want)):
            out.append(f"placeholders {got} instead of {want} in {text!r}")
    return out


def _first(msgid) -> str:
    return msgid[0] if isinstance(msgid, (list, tuple)) else msgid


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(PROJECT)
    except PackageNotFoundError:
        return ""


def _babel_lang(lang: str) -> str:
    return {"zh": "zh_Hans"}.get(lang, lang)


# fixed header dates: the catalogues change only when a message does
_FIXED_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
_HEADER = "# Messages of mahjong-lens: the page, the command line, fan names and definitions."


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = unextractable() + [p for lang in LANGUAGES for p in problems(lang)]
        print("\n".join(found) or "every catalogue is complete")
        return 1 if found else 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
