"""The tile vocabulary and the hand notation's tile-level pieces.

Codes (docs/architecture.md, "Tile vocabulary"): `1m..9m` characters, `1p..9p` dots, `1s..9s` bamboo, `1z..7z` =
East South West North White Green Red, `1f..4f` flowers, `5f..8f` seasons; `back` is a
face-down tile (a vision class only, never part of a scored hand).

Internally a playing tile is an index 0..33 (m 0-8, p 9-17, s 18-26, honours 27-33): counts
are lists of 34 ints, which keeps the decomposition search cheap.
"""
from __future__ import annotations

from itertools import groupby
from operator import itemgetter

from .errors import InvalidHandError

SUITS = "mps"
SUIT_TILES: tuple[str, ...] = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10))
HONOURS: tuple[str, ...] = tuple(f"{n}z" for n in range(1, 8))
PLAYING: tuple[str, ...] = SUIT_TILES + HONOURS  # the 34 tile kinds of a hand
BONUS: tuple[str, ...] = tuple(f"{n}f" for n in range(1, 9))
TILES: tuple[str, ...] = PLAYING + BONUS  # the 42 faces
BACK = "back"
VISION_CLASSES: tuple[str, ...] = TILES + (BACK,)

INDEX: dict[str, int] = {code: i for i, code in enumerate(PLAYING)}
WINDS: tuple[str, ...] = HONOURS[:4]
DRAGONS: tuple[str, ...] = HONOURS[4:]
HONOUR_LETTERS = "ESWNPFC"  # 1z..7z
LETTER_TO_CODE = {ch: f"{i + 1}z" for i, ch in enumerate(HONOUR_LETTERS)}
CODE_TO_LETTER = {v: k for k, v in LETTER_TO_CODE.items()}
WIND_LETTERS = "ESWN"  # also the seats, East first: the one spelling of the four

NAMES: dict[str, tuple[str, str]] = {
    **{f"{n}m": (f"{n} Characters", f"{'一二三四五六七八九'[n - 1]}万") for n in range(1, 10)},
    **{f"{n}p": (f"{n} Dots", f"{'一二三四五六七八九'[n - 1]}筒") for n in range(1, 10)},
    **{f"{n}s": (f"{n} Bamboo", f"{'一二三四五六七八九'[n - 1]}条") for n in range(1, 10)},
    "1z": ("East", "东"), "2z": ("South", "南"), "3z": ("West", "西"), "4z": ("North", "北"),
    "5z": ("White Dragon", "白"), "6z": ("Green Dragon", "发"), "7z": ("Red Dragon", "中"),
    "1f": ("Plum", "梅"), "2f": ("Orchid", "兰"), "3f": ("Chrysanthemum", "菊"), "4f": ("Bamboo", "竹"),
    "5f": ("Spring", "春"), "6f": ("Summer", "夏"), "7f": ("Autumn", "秋"), "8f": ("Winter", "冬"),
}


def suit(code: str) -> str:
    """'m', 'p', 's', 'z' or 'f'."""
    return code[1]


def number(code: str) -> int:
    return int(code[0])


def is_honour(code: str) -> bool:
    return code[1] == "z"


def is_terminal(code: str) -> bool:
    return code[1] in SUITS and code[0] in "19"


def is_terminal_or_honour(code: str) -> bool:
    return is_honour(code) or is_terminal(code)


def is_bonus(code: str) -> bool:
    return code[1] == "f"


def bonus_seat(code: str) -> int:
    """Seat (0 = East .. 3 = North) that owns a flower or season: `nf` and `(n+4)f` → n-1."""
    return (number(code) - 1) % 4


def bonus_family(code: str) -> str:
    return "flower" if number(code) <= 4 else "season"


def wind_code(seat: int) -> str:
    """Seat or round 0..3 (E S W N) → its wind tile."""
    return WINDS[seat]


def parse_wind(text: str | int) -> int:
    """'E'/'S'/'W'/'N', 'east'... or 0..3 → 0..3."""
    if isinstance(text, int) and not isinstance(text, bool):
        if 0 <= text <= 3:
            return text
        raise InvalidHandError(f"wind must be 0..3 or E/S/W/N, got {text!r}")
    key = str(text).strip().upper()[:1]
    if key and key in WIND_LETTERS and str(text).strip().upper() in (key, "EAST", "SOUTH", "WEST", "NORTH"):
        return WIND_LETTERS.index(key)
    raise InvalidHandError(f"wind must be one of E, S, W, N, got {text!r}")


def check_code(code: str, *, allow_bonus: bool = False) -> str:
    """Normalise and validate one tile code ('E' and '1z' both → '1z')."""
    code = LETTER_TO_CODE.get(code, code)
    if code in INDEX or (allow_bonus and code in BONUS):
        return code
    kinds = "a tile (1m..9m, 1p..9p, 1s..9s, 1z..7z or E S W N P F C)"
    if allow_bonus:
        kinds = "a tile or bonus tile (1f..8f)"
    raise InvalidHandError(f"{code!r} is not {kinds}")


def sort_key(code: str) -> tuple[int, int]:
    order = "mpszf"
    return order.index(code[1]), int(code[0])


def sorted_tiles(codes) -> tuple[str, ...]:
    return tuple(sorted(codes, key=sort_key))


def parse_tiles(text: str, *, allow_bonus: bool = False) -> list[str]:
    """`123m45pEE` or `1z2z` → codes in written order. Digits wait for their suit letter."""
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            if ch == "0":
                raise InvalidHandError(f"'0' is not a tile number in {text!r} (numbers are 1..9)")
            digits += ch
        elif ch in "mpsz" or (allow_bonus and ch == "f"):
            if not digits:
                raise InvalidHandError(f"suit letter {ch!r} without numbers in {text!r}")
            out.extend(check_code(d + ch, allow_bonus=allow_bonus) for d in digits)
            digits = ""
        elif ch in LETTER_TO_CODE:
            if digits:
                raise InvalidHandError(f"numbers {digits!r} have no suit letter (m, p, s) in {text!r}")
            out.append(LETTER_TO_CODE[ch])
        else:
            raise InvalidHandError(f"unexpected character {ch!r} in {text!r}")
    if digits:
        raise InvalidHandError(f"numbers {digits!r} have no suit letter (m, p, s) in {text!r}")
    return out


def format_tiles(codes, *, honours_as_letters: bool = True) -> str:
    """Codes → compact text, keeping the given order: ['1m','2m','5p','1z'] → '12m5pE'."""
    out: list[str] = []
    for suit_letter, run in groupby(codes, itemgetter(1)):  # each run of one suit
        if suit_letter == "z" and honours_as_letters:
            out.extend(map(CODE_TO_LETTER.__getitem__, run))
        else:
            out.append("".join(map(itemgetter(0), run)) + suit_letter)
    return "".join(out)


def parse_bonus(text: str | list | tuple | None) -> tuple[str, ...]:
    """'1f,6f' / '1f6f' / ['1f','6f'] → ('1f', '6f'); each bonus tile exists once."""
    if not text:
        return ()
    items = text if isinstance(text, (list, tuple)) else [t for t in str(text).replace(" ", ",").split(",") if t]
    codes: list[str] = []
    for item in items:
        parsed = parse_tiles(str(item), allow_bonus=True)
        for code in parsed:
            if not is_bonus(code):
                raise InvalidHandError(f"{code!r} is not a bonus tile (flowers 1f..4f, seasons 5f..8f)")
        codes.extend(parsed)
    if len(set(codes)) != len(codes):
        raise InvalidHandError(f"a bonus tile appears twice in {text!r} (there is one of each)")
    return sorted_tiles(codes)
