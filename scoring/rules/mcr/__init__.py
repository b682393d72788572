"""Chinese Official / MCR scoring (docs/rules.md §1): 81 green-book fans, 8-point minimum.

Modules: `fans` (the declarative table), `predicates_tiles` / `predicates_sets` /
`predicates_hand` (one predicate per fan), `view` (what predicates read), `waiting` (the
waits of §1.2, suit by suit), `combine` (the five combination principles and the ranking
of readings, documented there), `evaluate` (every reading, best kept).

Presets: `wmo` = the seed / WMO reading (docs/rules.md §1.6 defaults); `china` = the choices of
PyMahjongGB 1.4.0 (Chinese common practice), with which this scorer agrees exactly
(scripts/diff_pymahjonggb.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...decompose import is_complete, waits
from ...hand import Hand, WinContext, format_hand
from ...payments import mcr as mcr_payments
from ...result import FanHit, ScoreResult
from ...tiles import format_tiles
from ..optcheck import CheckedOptions
from .evaluate import evaluate
from .fan_ids import FanId
from .fans import BY_ID, table_for


@dataclass(frozen=True)
class Options(CheckedOptions):
    """docs/rules.md §1.6; defaults are the seed / WMO reading."""
    two_concealed_kongs_points: int = 8           # 6: 1998 rules, PyMahjongGB
    mixed_kongs_points: int = 6                   # one melded + one concealed kong: 6 seed, 5 PyMahjongGB, 3 = 74+67
    fully_concealed_with_special_hands: bool = True   # 4 6 7 12 19 20 34 self-drawn: 56 (true) or 80 (false)
    all_terminals_excludes_double_pung: bool = False
    lesser_honors_with_knitted_straight: bool = True
    knitted_straight_wait_fans: bool = True
    seven_pairs_allow_four_of_a_kind: bool = True
    last_tile_auto_from_melds: bool = True
    # not in §1.6: §1.2 says a tile whose four copies the hand holds is not a wait, while
    # §4.3 and Appendix A (PyMahjongGB) count it, e.g. [123m][123m]1122334m4m has no Single Wait
    waits_count_exhausted_tiles: bool = False
    # not in §1.6: the seed excludes Pung of Terminals or Honors (73) from Nine Gates; PyMahjongGB
    # lets one of the frame's two terminal pungs score when the winning tile is 2, 5 or 8
    nine_gates_excludes_terminal_pungs: bool = True
    minimum: int = 8

    # 88 is the highest single fan; a minimum above it would refuse nearly every hand
    RANGES = {"minimum": (0, 88)}
    CHOICES = {"mixed_kongs_points": (3, 5, 6), "two_concealed_kongs_points": (6, 8)}


PRESETS: dict[str, Options] = {
    "wmo": Options(),
    "china": Options(two_concealed_kongs_points=6, mixed_kongs_points=5,
                     fully_concealed_with_special_hands=False, all_terminals_excludes_double_pung=True,
                     waits_count_exhausted_tiles=True, nine_gates_excludes_terminal_pungs=False),
}


def score(hand: Hand, ctx: WinContext, options: Options | None = None) -> ScoreResult:
    """Score one hand. An incomplete hand or one below the minimum is a normal result."""
    options = options or Options()
    flowers = len(hand.bonus)
    text = format_hand(hand)
    if hand.winning is None:
        return _incomplete(hand, text, flowers)
    table = table_for(options)  # once a hand: an options object hashes all its fields
    best, facts = evaluate(hand, ctx, options, table)
    if best is None:
        if is_complete(hand):  # only as seven pairs with four identical tiles, which the options refuse
            return ScoreResult(rules="mcr", hand=text, valid=False, total=0, fans=(), payments=None,
                               reason="not a complete hand: four identical tiles are not two pairs "
                                      "(option seven_pairs_allow_four_of_a_kind=false)",
                               details={"flowers": flowers})
        return _incomplete(hand, text, flowers)
    reading = best.reading
    names = {id(s): _name(s) for s in reading.sets}  # each set of the reading by identity
    # best.fans is in table rank order (points, then number: combine.apply_exclusions); flowers last
    by_id = table.fans
    fans = [FanHit(fan.name, fan.name_zh, fan.points, len(occ), _flatten(occ, names))
            for fan, occ in ((by_id[fid], occ) for fid, occ in best.fans.items())]
    if flowers:
        fan = BY_ID[FanId.FLOWER_TILES]
        fans.append(FanHit(fan.name, fan.name_zh, fan.points, flowers, hand.bonus))
    total = best.total + flowers
    valid = best.total >= options.minimum
    details = {
        "shape": reading.shape.value,
        "sets": list(names.values()) if len(names) == len(reading.sets) else [names[id(s)] for s in reading.sets],
        "winning_set": names[id(reading.win_tileset)] if reading.win_tileset is not None else None,
        "points_without_flowers": best.total,
        "flowers": flowers,
        "ignored_flags": list(facts.ignored_flags),
    }
    return ScoreResult(
        rules="mcr", hand=text, valid=valid, total=total, fans=tuple(fans),
        reason=None if valid else f"{best.total} points without flowers, below the {options.minimum}-point minimum",
        payments=mcr_payments(total, ctx) if valid else None, details=details)


def _flatten(occurrences: list, names: dict[int, str]) -> tuple[str, ...]:
    """The notation of every set (TileSet, named by `names`) or tile (str) of a fan's
    occurrences; a set reused by a repeated fan is named once, two equal sets twice."""
    if len(occurrences) == 1:
        return tuple([item if item.__class__ is str else names[id(item)] for item in occurrences[0]])
    seen: set = set()
    out: list[str] = []
    for occ in occurrences:
        for item in occ:
            key = item if item.__class__ is str else id(item)
            if key not in seen:
                seen.add(key)
                out.append(item if item.__class__ is str else names[id(item)])
    return tuple(out)


_NAMES: dict = {}


def _name(s) -> str:
    """A set in the hand notation: declared sets in brackets ("[123m]", a concealed kong
    "[1111s]" as in the notation), sets of the concealed tiles without ("456m"). Cached."""
    key = (s.tiles, s.meld is not None)
    name = _NAMES.get(key)
    if name is None:
        body = format_tiles(s.tiles)
        name = _NAMES[key] = f"[{body}]" if s.meld is not None else body
    return name


def _incomplete(hand: Hand, text: str, flowers: int) -> ScoreResult:
    base = hand.without_winning() if hand.winning else hand
    ready = waits(base)
    if ready:
        reason = f"not a complete hand; waits on {format_tiles(ready)}"
    else:
        reason = "not a complete hand; no tile completes it"
    return ScoreResult(rules="mcr", hand=text, valid=False, total=0, fans=(), reason=reason,
                       payments=None, details={"waits": list(ready), "flowers": flowers})
