"""Fans that look at the whole hand, one reading of it, or the way it was won.

Hand and reading predicates return the occurrences of their fan: a list with one tuple per
occurrence of the sets (TileSet) or tiles (str) that made it; empty = the fan does not
apply. Sets are turned into notation only for the reading that is kept. Signatures:
* situation scope `(Situation) -> bool`      how the hand was won; hit names the winning tile;
* hand scope      `(facts) -> list`          the same for every reading of the hand;
* reading scopes  `(facts, reading) -> list` depends on the sets of one decomposition.
Exclusions between fans are data (fans.py), so a predicate only says whether its own
definition (docs/rules.md §1.4) holds.
"""
from __future__ import annotations

from itertools import compress

from ...decompose import SetKind, Shape
from ...tiles import PLAYING
from .predicates_sets import DRAGON_RANKS, HONOUR_SUIT, WIND_RANKS
from .predicates_tiles import SUITED, kinds_text
from .view import EVEN_PUNG, FIVE, OUTSIDE, HandFacts, Reading, Situation

NONE: list = []


def _all_sets(r: Reading) -> tuple[str, ...]:
    return r.sets


def _tiles_text(facts: HandFacts) -> tuple[str, ...]:
    return (kinds_text(facts.kinds),)


# --- how the hand was won (situation scope: Situation -> bool) ---------------------------------

def last_tile_draw(w: Situation) -> bool:
    return w.self_drawn and w.last_tile


def last_tile_claim(w: Situation) -> bool:
    return not w.self_drawn and w.last_tile


def out_with_replacement_tile(w: Situation) -> bool:
    return w.self_drawn and w.kong


def robbing_the_kong(w: Situation) -> bool:
    return not w.self_drawn and w.kong


def last_tile(w: Situation) -> bool:
    return w.fourth_tile


def self_drawn(w: Situation) -> bool:
    return w.self_drawn


def fully_concealed_hand(w: Situation) -> bool:
    return w.n_melded == 0 and w.self_drawn


def concealed_hand(w: Situation) -> bool:
    return w.n_melded == 0 and not w.self_drawn


def melded_hand(w: Situation) -> bool:
    return w.n_melded == 4 and not w.self_drawn


# --- the whole hand (hand scope) ---------------------------------------------------------------

def tile_hog(facts: HandFacts) -> list:
    """Each tile kind whose four copies are all used, not as a kong."""
    if 4 not in facts.counts:
        return NONE
    kongs = {m.tile for m in facts.hand.melds if m.kind.is_kong}
    return [(t,) for t in compress(PLAYING, map(_FOUR, facts.counts)) if t not in kongs]


_FOUR = (4).__eq__


# --- special shapes (reading scope) -----------------------------------------------------------

def _pairs(r: Reading) -> list:
    return [s.tiles[0] for s in r.sets]


def seven_pairs(facts: HandFacts, r: Reading) -> list:
    return [_all_sets(r)] if r.shape is Shape.SEVEN_PAIRS else NONE


def seven_shifted_pairs(facts: HandFacts, r: Reading) -> list:
    if r.shape is not Shape.SEVEN_PAIRS:
        return NONE
    tiles = _pairs(r)
    suits = {t[1] for t in tiles}
    numbers = sorted(int(t[0]) for t in tiles)
    if len(suits) == 1 and "z" not in suits and numbers == list(range(numbers[0], numbers[0] + 7)):
        return [_all_sets(r)]
    return NONE


def thirteen_orphans(facts: HandFacts, r: Reading) -> list:
    return [_tiles_text(facts)] if r.shape is Shape.THIRTEEN_ORPHANS else NONE


def _honours_in(facts: HandFacts) -> int:
    return (facts.kinds >> 27).bit_count()


def greater_honours_and_knitted_tiles(facts: HandFacts, r: Reading) -> list:
    return [_tiles_text(facts)] if r.shape is Shape.HONOURS_KNITTED and _honours_in(facts) == 7 else NONE


def lesser_honours_and_knitted_tiles(facts: HandFacts, r: Reading) -> list:
    return [_tiles_text(facts)] if r.shape is Shape.HONOURS_KNITTED and _honours_in(facts) < 7 else NONE


def knitted_straight(facts: HandFacts, r: Reading) -> list:
    if r.knitted is not None:
        return [(r.knitted,)]
    # the 9 suit tiles of a lesser honours-and-knitted hand may form the whole knitted straight
    if (r.shape is Shape.HONOURS_KNITTED and _honours_in(facts) == 5
            and facts.options.lesser_honors_with_knitted_straight):
        return [(kinds_text(facts.kinds & SUITED),)]
    return NONE


# --- pair-based fans ---------------------------------------------------------------------------

def _honour_pungs(r: Reading, ranks) -> list:
    return [s for k, s in r.pungs if k[0] == HONOUR_SUIT and k[1] in ranks]


def _little(r: Reading, ranks, pungs: int) -> list:
    """Pungs of all but one of a family of honours, and a pair of the last."""
    key = r.pair_key
    found = _honour_pungs(r, ranks)
    if key and key[0] == HONOUR_SUIT and key[1] in ranks and len(found) == pungs:
        return [tuple(found) + (r.pair,)]
    return NONE


def little_four_winds(facts: HandFacts, r: Reading) -> list:
    return _little(r, WIND_RANKS, 3)


def little_three_dragons(facts: HandFacts, r: Reading) -> list:
    return _little(r, DRAGON_RANKS, 2)


def all_chows(facts: HandFacts, r: Reading) -> list:
    # a knitted straight stands for three chows (docs/rules.md §1.4, 35 combines with All Chows)
    if r.pair is None or r.pungs or r.pair_key[0] == HONOUR_SUIT:
        return NONE
    if len(r.chows) == 4 or (r.knitted is not None and len(r.chows) == 1):
        return [_all_sets(r)]
    return NONE


# --- set traits (standard shape only: they need four sets and a pair) -------------------------

def _every_set(r: Reading, trait: int) -> list:
    return [_all_sets(r)] if r.shape is Shape.STANDARD and r.traits & trait else NONE


def outside_hand(facts: HandFacts, r: Reading) -> list:
    return _every_set(r, OUTSIDE)


def all_fives(facts: HandFacts, r: Reading) -> list:
    return _every_set(r, FIVE)


def all_even_pungs(facts: HandFacts, r: Reading) -> list:
    return _every_set(r, EVEN_PUNG)


def all_pungs(facts: HandFacts, r: Reading) -> list:
    return [tuple(s for _, s in r.pungs) + (r.pair,)] if len(r.pungs) == 4 else NONE


# --- wind pungs (per set) ------------------------------------------------------------------

def _wind_pungs(r: Reading, wind_rank: int) -> list:
    return [(s,) for k, s in r.pungs if k == (HONOUR_SUIT, wind_rank)]


def prevalent_wind(facts: HandFacts, r: Reading) -> list:
    return _wind_pungs(r, facts.ctx.round + 1)


def seat_wind(facts: HandFacts, r: Reading) -> list:
    return _wind_pungs(r, facts.ctx.seat + 1)


# --- kongs and concealed pungs ---------------------------------------------------------------

def _kongs(r: Reading, concealed: bool | None = None) -> list:
    return [s for _, s in r.pungs if s.kind is SetKind.KONG and (concealed is None or s.concealed == concealed)]


def _kong_hit(r: Reading, concealed: bool | None = None) -> list:
    return [tuple(_kongs(r, concealed))]


def four_kongs(facts: HandFacts, r: Reading) -> list:
    return _kong_hit(r) if r.melded_kongs + r.concealed_kongs == 4 else NONE


def three_kongs(facts: HandFacts, r: Reading) -> list:
    return _kong_hit(r) if r.melded_kongs + r.concealed_kongs == 3 else NONE


def two_concealed_kongs(facts: HandFacts, r: Reading) -> list:
    return _kong_hit(r) if (r.melded_kongs, r.concealed_kongs) == (0, 2) else NONE


def two_melded_kongs(facts: HandFacts, r: Reading) -> list:
    return _kong_hit(r) if (r.melded_kongs, r.concealed_kongs) == (2, 0) else NONE


def concealed_kong_and_melded_kong(facts: HandFacts, r: Reading) -> list:
    """One melded and one concealed kong, scored as one fan of `mixed_kongs_points` (6 seed,
    5 PyMahjongGB); with 3 it is Melded Kong + Concealed Kong instead."""
    mixed = (r.melded_kongs, r.concealed_kongs) == (1, 1)
    return _kong_hit(r) if mixed and facts.options.mixed_kongs_points != 3 else NONE


def _split_mixed(facts: HandFacts, r: Reading) -> bool:
    # option mixed_kongs_points=3 scores a melded + concealed kong as Melded Kong + Concealed Kong
    return (r.melded_kongs, r.concealed_kongs) == (1, 1) and facts.options.mixed_kongs_points == 3


def melded_kong(facts: HandFacts, r: Reading) -> list:
    single = (r.melded_kongs, r.concealed_kongs) == (1, 0)
    return _kong_hit(r, False) if single or _split_mixed(facts, r) else NONE


def concealed_kong(facts: HandFacts, r: Reading) -> list:
    single = (r.melded_kongs, r.concealed_kongs) == (0, 1)
    return _kong_hit(r, True) if single or _split_mixed(facts, r) else NONE


def _n_concealed(r: Reading) -> int:
    return r.concealed_pungs + r.concealed_kongs


def _concealed_hit(facts: HandFacts, r: Reading) -> list:
    names = [s for _, s in r.pungs
             if (s.kind is SetKind.KONG and s.concealed) or
             (s.kind is SetKind.PUNG and s.meld is None and
              (facts.self_drawn or s is not r.win_tileset))]
    return [tuple(names)]


def four_concealed_pungs(facts: HandFacts, r: Reading) -> list:
    return _concealed_hit(facts, r) if _n_concealed(r) == 4 else NONE


def three_concealed_pungs(facts: HandFacts, r: Reading) -> list:
    return _concealed_hit(facts, r) if _n_concealed(r) == 3 else NONE


def two_concealed_pungs(facts: HandFacts, r: Reading) -> list:
    return _concealed_hit(facts, r) if _n_concealed(r) == 2 else NONE


# --- waits (docs/rules.md §1.2): only when the hand waited on exactly one tile kind ------------------

def _wait_position(facts: HandFacts, r: Reading) -> str | None:
    """'edge', 'closed' or 'single' for where the winning tile sits when the hand waited on
    that one tile kind only, else None. Memoised on the reading (three fans ask)."""
    if r.wait is not False:
        return r.wait
    r.wait = None
    s = r.win_tileset
    if s is None or s.meld is not None or r.shape not in (Shape.STANDARD, Shape.KNITTED_STRAIGHT):
        return None
    win = facts.hand.winning
    if r.knitted is not None and not facts.options.knitted_straight_wait_fans and win in r.knitted.tiles:
        return None
    position = None
    if s.kind is SetKind.PAIR:
        position = "single"
    elif s.kind is SetKind.CHOW:
        at = s.tiles.index(win)
        start = s.tiles[0][0]
        if at == 1:
            position = "closed"
        elif (start == "1" and at == 2) or (start == "7" and at == 0):
            position = "edge"
    if position is not None and facts.unique_wait:  # waits are costly: asked last
        r.wait = position
    return r.wait


def edge_wait(facts: HandFacts, r: Reading) -> list:
    return [(r.win_tileset, facts.hand.winning)] if _wait_position(facts, r) == "edge" else NONE


def closed_wait(facts: HandFacts, r: Reading) -> list:
    return [(r.win_tileset, facts.hand.winning)] if _wait_position(facts, r) == "closed" else NONE


def single_wait(facts: HandFacts, r: Reading) -> list:
    return [(r.win_tileset, facts.hand.winning)] if _wait_position(facts, r) == "single" else NONE


# --- Nine Gates ------------------------------------------------------------------------------

_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)  # 1112345678999 before the winning tile


def nine_gates(facts: HandFacts, r: Reading) -> list:
    """Concealed 1112345678999 of one suit plus any tile of that suit. The hit names the
    first terminal pung of the reading: with `nine_gates_excludes_terminal_pungs=false`
    (preset china) Nine Gates absorbs only that Pung of Terminals and the other one still
    scores (PyMahjongGB); by default it excludes them all (seed)."""
    win = facts.win
    if facts.hand.melds or r.shape is not Shape.STANDARD or win >= 27:
        return NONE
    base = win - win % 9
    if facts.kinds != 511 << base:  # every kind of the one suit, and nothing else
        return NONE
    counts = list(facts.counts[base:base + 9])
    counts[win - base] -= 1
    if tuple(counts) != _GATES:
        return NONE
    terminal_pungs = [s for k, s in r.pungs if k[1] in (1, 9)]
    return [tuple(terminal_pungs[:1]) or _tiles_text(facts)]
