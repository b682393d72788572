"""Score every reading of a hand and keep the best one (combine.py, principle 4).

A reading is one decomposition (decompose.py) with the winning tile in one set. For each:
fans from the table by scope, account-once combinations of chows and pungs, exclusions;
Chicken Hand when nothing is left. Fans that do not depend on the reading (tile attributes,
how the hand was won, Tile Hog) are computed once per hand.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

from ...decompose import Decomposition, Shape, decompositions
from ...hand import Hand, WinContext
from ...tiles import format_tiles
from . import predicates_tiles as T
from .combine import (
    apply_exclusions,
    chow_combinations,
    pung_combinations,
    rank_key,
    single_pung_fans,
)
from .fan_ids import FanId as F
from .fans import Table, table_for
from .predicates_sets import HONOUR_SUIT
from .view import HandFacts, Reading

_WITH_SETS = (Shape.STANDARD, Shape.KNITTED_STRAIGHT)
_key = itemgetter(0)  # a reading's (key, set) pair's key


@dataclass
class Evaluation:
    reading: Reading
    fans: dict[int, list]  # fan id → the sets (TileSet) or tiles (str) of each occurrence
    total: int             # without flowers


@lru_cache(maxsize=65536)
def _tile_fans(table: Table, kinds: int) -> tuple[int, ...]:
    return tuple(f.id for f in table.scope("tiles") if f.detect(kinds))


def legal_decompositions(hand: Hand, options) -> list[Decomposition]:
    found = decompositions(hand)
    if not options.seven_pairs_allow_four_of_a_kind:
        # four identical tiles are not two pairs under this option
        found = [d for d in found if d.shape is not Shape.SEVEN_PAIRS
                 or len({s.tiles for s in d.sets}) == len(d.sets)]
    return found


def hand_level_fans(facts: HandFacts, table: Table) -> dict[int, list]:
    hits: dict[int, list] = {}
    tile_fans = _tile_fans(table, facts.kinds)
    if tile_fans:  # the text is only for the hits
        kinds_text = (T.kinds_text(facts.kinds),)
        for fid in tile_fans:
            hits[fid] = [kinds_text]
    situational = _situation_fans(table, facts.situation)
    if situational:
        winning = [(facts.hand.winning,)]
        for fid in situational:
            hits[fid] = winning
    for fan in table.scope("hand"):
        found = fan.detect(facts)
        if found:
            hits[fan.id] = found
    return hits


@lru_cache(maxsize=1024)
def _situation_fans(table: Table, situation) -> tuple[int, ...]:
    return tuple(f.id for f in table.scope("situation") if f.detect(situation))


def reading_fans(facts: HandFacts, reading: Reading, table: Table, base: dict[int, list]) -> dict[int, list]:
    hits = dict(base)
    with_sets = reading.shape in _WITH_SETS
    has_kong = bool(reading.melded_kongs or reading.concealed_kongs)
    pungs = reading.pungs  # by key: honours (suit 3) last
    has_honour_pung = bool(pungs) and pungs[-1][0][0] == HONOUR_SUIT
    for fid, detect in _detectors(table, with_sets, bool(pungs), has_kong, has_honour_pung):
        found = detect(facts, reading)
        if found:
            hits[fid] = found
    if not with_sets:
        return hits
    chows = reading.chows
    if len(chows) >= 2:
        pair = reading.pair_key if len(chows) == 4 else None
        _add_combinations(hits, chows, chow_combinations(table, tuple(map(_key, chows)), pair),
                          _pair_fans(table), reading.pair)
    if len(pungs) >= 2:
        _add_combinations(hits, pungs, pung_combinations(table, tuple(map(_key, pungs))))
    for key, s in pungs:
        for fid in single_pung_fans(table, key):
            hits.setdefault(fid, []).append((s,))
    return hits


@lru_cache(maxsize=256)
def _detectors(table: Table, with_sets: bool, has_pung: bool, has_kong: bool, has_honour_pung: bool) -> tuple:
    """(fan id, predicate) of the reading-level fans that can hold for such a reading."""
    scopes = ("reading", "sets") if with_sets else ("reading", "shape")
    held = {"": True, "pung": has_pung, "kong": has_kong, "honour_pung": has_honour_pung}
    return tuple((f.id, f.detect) for scope in scopes for f in table.scope(scope) if held[f.needs])


@lru_cache(maxsize=32)
def _pair_fans(table: Table) -> frozenset[int]:
    return frozenset(f.id for f in table.scope("chows4pair"))


def _add_combinations(hits: dict, sets: list, found, with_pair=frozenset(), pair=None) -> None:
    for fid, idx in found:
        names = tuple(sets[i][1] for i in idx)
        if fid in with_pair:
            names += (pair,)  # the terminal-chows fans are made by four chows and the pair
        hits.setdefault(fid, []).append(names)


def evaluate(hand: Hand, ctx: WinContext, options,
             table: Table | None = None) -> tuple[Evaluation | None, HandFacts | None]:
    """The best reading of a complete hand, or (None, None) when it is not complete.
    `table`: table_for(options), when the caller has it."""
    decs = legal_decompositions(hand, options)
    if not decs:
        return None, None
    table = table or table_for(options)
    facts = HandFacts(hand, ctx, options)
    base = hand_level_fans(facts, table)
    seven_pairs = len(decs) > 1 and any(d.shape is Shape.SEVEN_PAIRS for d in decs)
    best, best_key = None, None
    for d in decs:
        reading = Reading(d, facts)
        fans, total = apply_exclusions(table, reading_fans(facts, reading, table, base))
        if not fans:
            fans = {F.CHICKEN_HAND: [reading.sets or (format_tiles(hand.closed),)]}
            total = table.fans[F.CHICKEN_HAND].points
        if len(decs) == 1:  # nothing to rank
            return Evaluation(reading, fans, total), facts
        key = rank_key(total, d.shape is not Shape.SEVEN_PAIRS, fans, reading,
                       seven_pairs and d.shape is Shape.STANDARD)
        if best_key is None or key > best_key:
            best, best_key = Evaluation(reading, fans, total), key
    return best, facts
