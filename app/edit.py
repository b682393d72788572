"""The hand being corrected, as plain data, and every edit as a pure function.

A `Draft` holds groups of tile codes the way the layout read them: the concealed tiles, each
declared meld (with its kind), the bonus tiles and the winning tile. Each tile keeps the
detector's confidence until the player touches it (None = entered or confirmed by hand), so
the page can keep doubtful tiles marked. Groups are addressed by a `ref` string: `hand`,
`win`, `bonus`, `meld0` .. `meld3`. Edits that make no sense raise `EditError` (a
ValueError) with one line for the player; `to_hand` turns a draft into a scorable `Hand`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from app.i18n import N_
from scoring.errors import InvalidHandError
from scoring.hand import Hand, Meld, MeldKind
from scoring.tiles import BACK, BONUS, INDEX, format_tiles, is_bonus, sorted_tiles

HAND, WIN, BONUS_GROUP = "hand", "win", "bonus"
NEW_MELD = "new_meld"
MAX_MELDS = 4
# The kinds a meld can be given on the page; "concealed" chows and pungs are not declared
# sets, so choosing one moves the tiles back among the concealed tiles.
MELD_KINDS = ("chow", "pung", "kong", "concealed_kong", "promoted_kong")
# English; the page shows them through the catalogue (N_ marks them for it)
KIND_LABELS = {"chow": N_("Chow, exposed"), "pung": N_("Pung, exposed"), "kong": N_("Kong, exposed"),
               "concealed_kong": N_("Kong, concealed"), "promoted_kong": N_("Kong, added to a pung"),
               "loose": N_("Concealed: back among the hand's tiles")}
MELD_SIZE = {"chow": 3, "pung": 3, "kong": 4, "concealed_kong": 4, "promoted_kong": 4}


class EditError(ValueError):
    """An edit the draft cannot take; the message is one line for the player."""


@dataclass(frozen=True)
class Slot:
    code: str
    confidence: float | None = None  # from the photo; None once entered or confirmed by hand
    # where the photo shows this tile (full-resolution pixels), kept through fixes so the
    # table's tile set can learn the tile under its final code; None: entered by hand
    box: tuple[float, ...] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class MeldDraft:
    kind: str
    tiles: tuple[Slot, ...] = ()


@dataclass(frozen=True)
class Draft:
    hand: tuple[Slot, ...] = ()
    melds: tuple[MeldDraft, ...] = ()
    bonus: tuple[Slot, ...] = ()
    winning: Slot | None = None
    guessed: bool = False            # the photo set no tile apart: the winning tile is a guess
    aside: tuple[Slot, ...] = ()     # tiles of the photo read as not part of the hand

    @property
    def size(self) -> int:
        """Tiles counted as a hand counts them: a kong as 3, bonus tiles not at all."""
        return len(self.hand) + sum(min(3, len(m.tiles)) for m in self.melds) + (self.winning is not None)

    def codes(self) -> list[str]:
        return [s.code for s in self.hand] + [s.code for m in self.melds for s in m.tiles] + \
            ([self.winning.code] if self.winning else [])


def group_refs(draft: Draft) -> list[str]:
    return [HAND] + [f"meld{i}" for i in range(len(draft.melds))] + [BONUS_GROUP, WIN]


def group_slots(draft: Draft, ref: str) -> tuple[Slot, ...]:
    if ref == HAND:
        return draft.hand
    if ref == BONUS_GROUP:
        return draft.bonus
    if ref == WIN:
        return (draft.winning,) if draft.winning else ()
    return draft.melds[_meld_index(draft, ref)].tiles


def _meld_index(draft: Draft, ref: str) -> int:
    if not ref.startswith("meld") or not ref[4:].isdigit() or int(ref[4:]) >= len(draft.melds):
        raise EditError(f"there is no group {ref!r}")
    return int(ref[4:])


def _with_slots(draft: Draft, ref: str, slots: tuple[Slot, ...]) -> Draft:
    if ref == HAND:
        return replace(draft, hand=slots)
    if ref == BONUS_GROUP:
        return replace(draft, bonus=slots)
    if ref == WIN:
        if len(slots) > 1:
            raise EditError("there is one winning tile")
        return replace(draft, winning=slots[0] if slots else None, guessed=False)
    i = _meld_index(draft, ref)
    melds = list(draft.melds)
    melds[i] = MeldDraft(fit_kind(melds[i].kind, [s.code for s in slots]), slots)
    return replace(draft, melds=tuple(melds))


def fit_kind(kind: str, codes: list[str]) -> str:
    """The kind a set's tiles say it is, when they contradict the kind it has: four alike make
    a pung a kong, three in a row make a pung a chow, and so on; otherwise `kind` stays."""
    known = [c for c in codes if c != BACK]
    alike = len(set(known)) <= 1
    if len(codes) == 4 and alike and MELD_SIZE.get(kind) != 4:
        return "kong"
    if len(codes) == 3 and alike and known and kind != "pung":
        return "pung"
    if len(codes) == 3 and not alike and kind != "chow" and _is_run(known):
        return "chow"
    return kind


def _is_run(codes: list[str]) -> bool:
    if len(codes) != 3 or any(c[1] not in "mps" for c in codes) or len({c[1] for c in codes}) != 1:
        return False
    numbers = sorted(int(c[0]) for c in codes)
    return numbers == list(range(numbers[0], numbers[0] + 3))


def _check_fits(draft: Draft, ref: str, code: str, adding: int) -> None:
    if ref == BONUS_GROUP and code not in BONUS:
        raise EditError(f"{code} is not a flower or season; bonus tiles are 1f..8f")
    if ref != BONUS_GROUP and is_bonus(code):
        raise EditError(f"{code} is a bonus tile: it goes with the bonus tiles")
    if ref == BONUS_GROUP and adding and code in [s.code for s in draft.bonus]:
        raise EditError(f"{code} is already among the bonus tiles (there is one of each)")
    if ref.startswith("meld") and adding:
        meld = draft.melds[_meld_index(draft, ref)]
        if len(meld.tiles) + adding > 4:
            raise EditError("a set holds at most 4 tiles")


# --- edits -----------------------------------------------------------------------------

def replace_tile(draft: Draft, ref: str, index: int, code: str) -> Draft:
    """Put `code` in place of the tile at (ref, index); it counts as confirmed."""
    slots = list(group_slots(draft, ref))
    if not 0 <= index < len(slots):
        raise EditError(f"no tile {index + 1} in that group")
    _check_fits(draft, ref, code, 0)
    if ref == BONUS_GROUP and code in [s.code for i, s in enumerate(slots) if i != index]:
        raise EditError(f"{code} is already among the bonus tiles (there is one of each)")
    slots[index] = Slot(code, None, slots[index].box)
    return _with_slots(draft, ref, tuple(slots))


def add_tile(draft: Draft, ref: str, code: str) -> Draft:
    """Add `code` to a group (bonus tiles always go to the bonus group; a winning tile
    already there is replaced)."""
    if is_bonus(code):
        ref = BONUS_GROUP
    if ref == NEW_MELD:
        draft, ref = new_meld(draft)
    if ref == WIN:
        return _with_slots(draft, WIN, (Slot(code),))
    _check_fits(draft, ref, code, 1)
    return _with_slots(draft, ref, group_slots(draft, ref) + (Slot(code),))


def add_next(draft: Draft, target: str, code: str, *, need_winning: bool = True) -> Draft:
    """A palette tap: add `code` to `target`, except that the tile after 13 goes to the
    winning tile (a hand built tile by tile ends with the tile it won on)."""
    if (target == HAND and need_winning and draft.winning is None and draft.size >= 13
            and not is_bonus(code)):
        target = WIN
    return add_tile(draft, target, code)


def remove_tile(draft: Draft, ref: str, index: int) -> Draft:
    slots = list(group_slots(draft, ref))
    if not 0 <= index < len(slots):
        raise EditError(f"no tile {index + 1} in that group")
    del slots[index]
    return _with_slots(draft, ref, tuple(slots))


def move_tile(draft: Draft, ref: str, index: int, dest: str) -> Draft:
    """Move a tile to another group (`new_meld` starts a set). Moving a tile to the winning
    tile sends the previous winning tile back among the concealed tiles."""
    slots = group_slots(draft, ref)
    if not 0 <= index < len(slots):
        raise EditError(f"no tile {index + 1} in that group")
    if dest == ref:
        return draft
    slot = slots[index]
    if dest == NEW_MELD:
        draft, dest = new_meld(draft)
    _check_fits(draft, dest, slot.code, 0 if dest == WIN else 1)
    old_winning = draft.winning if dest == WIN else None
    draft = remove_tile(draft, ref, index)
    if dest == WIN:
        draft = replace(draft, winning=slot, guessed=False)
        if old_winning is not None:
            draft = replace(draft, hand=draft.hand + (old_winning,))
        return draft
    return _with_slots(draft, dest, group_slots(draft, dest) + (slot,))


def new_meld(draft: Draft, kind: str = "pung") -> tuple[Draft, str]:
    if len(draft.melds) >= MAX_MELDS:
        raise EditError(f"a hand has at most {MAX_MELDS} declared sets")
    return replace(draft, melds=draft.melds + (MeldDraft(kind),)), f"meld{len(draft.melds)}"


def set_meld_kind(draft: Draft, ref: str, kind: str) -> Draft:
    """Change a meld's kind; `loose` dissolves it into the concealed tiles (a concealed chow
    or pung is not a declared set: the scorer finds it among the concealed tiles)."""
    i = _meld_index(draft, ref)
    melds = list(draft.melds)
    if kind == "loose":
        tiles = [s for s in melds.pop(i).tiles if s.code != BACK]
        return replace(draft, melds=tuple(melds), hand=draft.hand + tuple(tiles))
    if kind not in MELD_KINDS:
        raise EditError(f"a set is one of {', '.join(MELD_KINDS)}, not {kind!r}")
    melds[i] = replace(melds[i], kind=kind)
    return replace(draft, melds=tuple(melds))


def set_winning(draft: Draft, ref: str, index: int) -> Draft:
    return move_tile(draft, ref, index, WIN)


def bring_back(draft: Draft, index: int | None = None) -> Draft:
    """Put a tile the layout set aside (all of them when `index` is None) back among the
    concealed tiles, or among the bonus tiles for a flower or season."""
    picked = set(range(len(draft.aside))) if index is None else {index}
    if not all(0 <= i < len(draft.aside) for i in picked):
        raise EditError("that tile is no longer set aside")
    back = [s for i, s in enumerate(draft.aside) if i in picked]
    draft = replace(draft, aside=tuple(s for i, s in enumerate(draft.aside) if i not in picked))
    for slot in back:
        if not is_bonus(slot.code):
            draft = replace(draft, hand=draft.hand + (slot,))
        elif slot.code not in [b.code for b in draft.bonus]:
            draft = replace(draft, bonus=draft.bonus + (slot,))
    return draft


def confirm_all(draft: Draft) -> Draft:
    """Every tile as the player sees it now counts as checked."""
    def ok(slots):
        return tuple(Slot(s.code, None, s.box) for s in slots)
    return replace(draft, hand=ok(draft.hand),
                   melds=tuple(MeldDraft(m.kind, ok(m.tiles)) for m in draft.melds),
                   bonus=ok(draft.bonus), winning=ok((draft.winning,))[0] if draft.winning else None)


def doubtful(draft: Draft, threshold: float) -> int:
    """How many tiles were read with a confidence below `threshold` and not yet touched."""
    slots = list(draft.hand) + [s for m in draft.melds for s in m.tiles] + list(draft.bonus) + \
        ([draft.winning] if draft.winning else [])
    return sum(1 for s in slots if s.confidence is not None and s.confidence < threshold)


# --- conversions -----------------------------------------------------------------------

def from_hand(hand: Hand) -> Draft:
    melds = tuple(MeldDraft(m.kind.value, tuple(Slot(t) for t in m.tiles)) for m in hand.melds)
    return Draft(tuple(Slot(t) for t in hand.concealed), melds, tuple(Slot(t) for t in hand.bonus),
                 Slot(hand.winning) if hand.winning else None)


def from_layout(layout, sure: float = 0.5) -> Draft:
    """A `vision.layout.TableLayout` → Draft, keeping each tile's confidence. Face-down
    tiles of a concealed kong take the code of its face-up tiles when it shows any; tiles
    the layout left out are kept aside (those read at `sure` or more), to be brought back."""
    def slot(t):
        return Slot(t.code, float(t.confidence), tuple(float(v) for v in t.box))
    melds = []
    for m in layout.melds[:MAX_MELDS]:
        faces = [t.code for t in m.tiles if t.code != BACK]
        tiles = tuple(Slot(faces[0], 0.0) if t.code == BACK and faces else slot(t) for t in m.tiles)
        melds.append(MeldDraft(m.kind, tiles))
    hand = tuple(slot(t) for t in layout.concealed if t.code != BACK)
    # set aside and shown: face-up tiles the finder is sure of (not a table edge it doubts),
    # left to right; face-down ones could not be brought back as anything
    aside = sorted((t for t in layout.ignored if t.code != BACK and t.confidence >= sure),
                   key=lambda t: t.box[0] + t.box[2])
    return Draft(hand, tuple(melds), tuple(slot(t) for t in layout.bonus),
                 slot(layout.winning) if layout.winning is not None else None,
                 guessed=bool(layout.winning_guessed) and layout.winning is not None,
                 aside=tuple(slot(t) for t in aside))


def to_meld(m: MeldDraft, n: int) -> Meld:
    """Set `n` (1..4) of a draft as a scorable `Meld`; raises InvalidHandError."""
    codes = [s.code for s in m.tiles]
    name = KIND_LABELS.get(m.kind, m.kind).lower()
    if BACK in codes:
        raise InvalidHandError(f"set {n} ({name}) has face-down tiles: tap one and choose what it is")
    if len(codes) != MELD_SIZE[m.kind]:
        raise InvalidHandError(f"set {n} ({name}) needs {MELD_SIZE[m.kind]} tiles but holds "
                               f"{len(codes)} ({format_tiles(sorted_tiles(codes)) or 'none'})")
    offer = None if m.kind in ("chow", "pung", "concealed_kong") else 1
    return Meld(MeldKind(m.kind), tuple(codes), offer)


def to_hand(draft: Draft, *, need_winning: bool = True) -> Hand:
    """The draft as a `Hand`. Raises `InvalidHandError` with one line for the player: the
    tile count, a missing winning tile, a meld that is not its kind, a fifth copy."""
    melds = tuple(to_meld(m, i + 1) for i, m in enumerate(draft.melds))
    winning = draft.winning.code if draft.winning else None
    size = draft.size
    if winning is None and need_winning:
        if size == 14:
            raise InvalidHandError("choose the winning tile: tap it, then 'Winning tile'")
        if size == 13:
            raise InvalidHandError("13 tiles: add the winning tile")
    target = 14 if winning or need_winning else 13
    if size != target:
        raise InvalidHandError(hand_size_message(size, target))
    return Hand(tuple(s.code for s in draft.hand), melds, winning, tuple(s.code for s in draft.bonus))


def hand_size_message(size: int, target: int) -> str:
    """Why a draft of `size` tiles is not a hand of `target`, as one sentence (no "1 tiles")."""
    counts = {"n": abs(target - size), "target": target, "size": size}
    if size < target:
        text = ("add 1 tile: a hand has {target}, counting a kong as 3, and this one has {size}"
                if counts["n"] == 1 else
                "add {n} tiles: a hand has {target}, counting a kong as 3, and this one has {size}")
    else:
        text = ("remove 1 tile: a hand has {target}, counting a kong as 3, and this one has {size}"
                if counts["n"] == 1 else
                "remove {n} tiles: a hand has {target}, counting a kong as 3, and this one has {size}")
    return text.format(**counts)


def tile_counts(draft: Draft) -> dict[str, int]:
    out: dict[str, int] = {}
    for code in draft.codes():
        if code in INDEX:
            out[code] = out.get(code, 0) + 1
    return out
