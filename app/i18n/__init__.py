"""Messages and formats in the player's language: en (the source), pl, uk, de, zh.

Messages come from gettext catalogues in `app/locale/<lang>/LC_MESSAGES/messages.mo`
(compiled from the `.po` files beside them; `python -m app.i18n.catalog` extracts, updates
and compiles them with Babel). The language is never the process's: a page server renders
each browser's run in its own thread, so one player's Polish must not leak into another's
Chinese. `with using("pl"):` sets it for a block (a context variable); outside one, the
page's browser session answers (`set_fallback`, installed by `app.ui.language`); else
English. `_`, `ngettext`, `pgettext` read it.

Numbers, dates and signed amounts are written with Babel's data for each language's
country (`format_number`, `format_amount`, `format_date`); `csv_format` says which field
delimiter and decimal mark a spreadsheet of that language expects.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import gettext
import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"
SOURCE = "en"
# the name of each language in itself, as a language menu shows it
LANGUAGES: dict[str, str] = {"en": "English", "pl": "Polski", "uk": "Українська",
                             "de": "Deutsch", "zh": "中文"}
# Babel's locale for numbers and dates: the country where the language is mostly played
BABEL_LOCALES = {"en": "en", "pl": "pl_PL", "uk": "uk_UA", "de": "de_DE", "zh": "zh_Hans_CN"}

_current: ContextVar[str | None] = ContextVar("mahjong_lens_language", default=None)
# where the language comes from outside a `using` block: the page's browser session, whose
# button callbacks run before the page body sets anything (None: English)
_fallback: Callable[[], str | None] | None = None


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of `lang`; English text itself when there is none."""
    return gettext.translation(DOMAIN, LOCALE_DIR, [lang], fallback=True)


def current() -> str:
    code = _current.get()
    if code is None and _fallback is not None:
        code = _fallback()
    return code if code in LANGUAGES else SOURCE


def set_fallback(resolver: Callable[[], str | None] | None) -> None:
    """Where `current()` looks outside a `using` block; it must answer for the calling
    thread's own user (the page passes its session's choice)."""
    global _fallback
    _fallback = resolver


@contextlib.contextmanager
def using(lang: str | None) -> Iterator[str]:
    """Speak `lang` (any tag `normalise` understands; English when unknown) inside the block."""
    code = normalise(lang) or SOURCE
    token = _current.set(code)
    try:
        yield code
    finally:
        _current.reset(token)


def _(message: str) -> str:
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return translations(current()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translations(current()).npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined; `_` translates it where shown."""
    return message


# --- which language ----------------------------------------------------------------------

_TAG = re.compile(r"^\s*([A-Za-z]{1,8})(?:[-_]([A-Za-z0-9]{1,8}))*")


def normalise(tag: str | None) -> str | None:
    """The supported language of a locale or language tag ('pl_PL.UTF-8', 'de-AT', 'zh-Hant-HK',
    'uk'), or None when it names none of them (also 'C' and 'POSIX')."""
    if not tag:
        return None
    match = _TAG.match(str(tag))
    lang = match.group(1).lower() if match else ""
    return lang if lang in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The supported language a browser prefers most (HTTP Accept-Language, q-values honoured)."""
    ranked = []
    for i, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = normalise(tag)
        if code and quality > 0:
            ranked.append((-quality, i, code))
    return min(ranked)[2] if ranked else None


def from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The language of a shell, in gettext's order: $LANGUAGE (a list), $LC_ALL,
    $LC_MESSAGES, $LANG; None when none of them names a supported language."""
    env = os.environ if environ is None else environ
    for tag in env.get("LANGUAGE", "").split(":"):
        if normalise(tag):
            return normalise(tag)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(var):
            return normalise(env[var])  # the first one set decides, as for the C library
    return None


def choose(flag: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The command line's language: `--lang` when given (refused in one line when unknown),
    else the environment's, else English."""
    if flag:
        code = normalise(flag)
        if code is None:
            raise ValueError(f"unknown language {flag!r}; choose one of {', '.join(LANGUAGES)}")
        return code
    return from_environment(environ) or SOURCE


# --- numbers, dates, spreadsheets ---------------------------------------------------------

def babel_locale(lang: str | None = None) -> str:
    return BABEL_LOCALES[normalise(lang) or current()]


def format_number(value: float, lang: str | None = None) -> str:
    """A number as the language writes it: up to 2 decimals, its decimal mark and grouping."""
    from babel.numbers import format_decimal
    return format_decimal(round(float(value), 2) + 0.0, format="#,##0.##", locale=babel_locale(lang))


def format_fixed(value: float, places: int = 2, lang: str | None = None) -> str:
    """A number with exactly `places` decimals (an average: 3.00, 3,00)."""
    from babel.numbers import format_decimal
    pattern = "#,##0." + "0" * places if places else "#,##0"
    return format_decimal(float(value), format=pattern, locale=babel_locale(lang))


def format_percent(share: float, lang: str | None = None) -> str:
    """A share as a percentage with one decimal (87.5%, 87,5%)."""
    from babel.numbers import format_percent as babel_percent
    return babel_percent(float(share), format="#,##0.0%", locale=babel_locale(lang))


def format_amount(value: float, lang: str | None = None) -> str:
    """A payment or total with its sign always shown (+12, −3,5); a true minus sign."""
    text = format_number(abs(value), lang)
    rounded = round(float(value), 2)
    return ("+" if rounded > 0 else "−" if rounded < 0 else "") + text


def format_date(value: dt.date | dt.datetime, lang: str | None = None, form: str = "medium") -> str:
    from babel.dates import format_date as babel_date
    return babel_date(value, form, locale=babel_locale(lang))


def format_datetime(value: dt.datetime, lang: str | None = None, form: str = "short") -> str:
    from babel.dates import format_datetime as babel_datetime
    return babel_datetime(value, form, locale=babel_locale(lang))


@dataclass(frozen=True)
class CsvFormat:
    delimiter: str
    decimal: str

    def number(self, value: float) -> str:
        """A plain number for a spreadsheet cell: no grouping, the locale's decimal mark."""
        text = f"{round(float(value), 2):g}" if abs(value) < 1e15 else repr(float(value))
        return text.replace(".", self.decimal)


def csv_format(lang: str | None = None) -> CsvFormat:
    """The delimiter and decimal mark a spreadsheet of this language reads: where the decimal
    mark is a comma (pl, de, uk) fields are separated by ';', as those spreadsheets expect."""
    from babel.numbers import get_decimal_symbol
    decimal = get_decimal_symbol(babel_locale(lang))
    return CsvFormat(";" if decimal == "," else ",", decimal)


def csv_options(lang: str | None = None) -> dict:
    """Keyword arguments of `Ledger.to_csv` for a spreadsheet in this language: its delimiter
    and decimal mark, and the header words in the language."""
    fmt = csv_format(lang)
    with using(lang or current()):
        labels = {"hand": pgettext("csv column", "hand"), "time": pgettext("csv column", "time"),
                  "rules": pgettext("csv column", "rules"),
                  "notation": pgettext("csv column", "notation"),
                  "total": pgettext("csv column", "total"), "winner": pgettext("csv column", "winner"),
                  "discarder": pgettext("csv column", "discarder")}
    return {"delimiter": fmt.delimiter, "decimal": fmt.decimal, "labels": labels}


def format_time(value: dt.datetime, lang: str | None = None) -> str:
    """A time of day as the language writes it (21:05, 9:05 PM)."""
    from babel.dates import format_time as babel_time
    return babel_time(value, "short", locale=babel_locale(lang))
