"""The MCR fan table: one row per fan, the only place a fan is registered.

Columns: green-book number, English name (docs/rules.md §1.4), Chinese name, points, `excludes`
(the fans not scored when this one is: principle 1, Non-Repeat, as data), `absorbs` (the
per-set form of Non-Repeat: this fan's sets do not also score the listed generic per-set
fan; a number limits how many occurrences it absorbs), `scope` (what the predicate reads,
see below) and the predicate.

Scopes: `tiles` (mask of the kinds present → bool), `situation` (how it was won → bool),
`hand` (HandFacts → occurrences), and
(HandFacts, Reading → occurrences) for `sets` (readings with sets: standard, knitted
straight), `shape` (seven pairs, thirteen orphans, honours-and-knitted) or `reading` (any);
`chows2/3/4`, `chows4pair`, `pungs2/3/4`, `pung` (set keys → bool, combined by combine.py
under principles 3 and 5); `post` (Chicken Hand and Flower Tiles, added last). `needs`
(NEEDS_PUNG, NEEDS_KONG, NEEDS_HONOUR_PUNG: a pung or kong of winds or dragons) lets the
scorer skip predicates that cannot hold for a reading without such a set; it is a speed
hint, never a rule.

Exclusions are applied in table rank order (points, then number), and only by fans that
survive, so "A excludes B, B excludes C" does not remove C unless A lists it too: every
derived exclusion is written out. Two options change rows: `two_concealed_kongs_points`
and `mixed_kongs_points` change points, `fully_concealed_with_special_hands=false`,
`all_terminals_excludes_double_pung=true` and `nine_gates_excludes_terminal_pungs` change
exclusions (see `table_for`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from . import predicates_hand as H
from . import predicates_sets as S
from . import predicates_tiles as T
from .fan_ids import FanId as F


@dataclass(frozen=True)
class Fan:
    id: F
    name: str
    name_zh: str
    points: int
    scope: str
    detect: Callable | None
    excludes: frozenset[F] = frozenset()
    absorbs: tuple[tuple[F, int | None], ...] = ()
    pmgb_name: str = ""  # PyMahjongGB's English spelling, when it differs
    needs: str = ""      # "pung" / "kong" / "honour_pung": the reading must hold one, else
                         # the predicate is skipped


NEEDS_PUNG = {F.FOUR_CONCEALED_PUNGS, F.ALL_EVEN_PUNGS, F.THREE_CONCEALED_PUNGS, F.ALL_PUNGS,
              F.TWO_CONCEALED_PUNGS}
NEEDS_HONOUR_PUNG = {F.LITTLE_FOUR_WINDS, F.LITTLE_THREE_DRAGONS, F.PREVALENT_WIND, F.SEAT_WIND}
NEEDS_KONG = {F.FOUR_KONGS, F.THREE_KONGS, F.TWO_CONCEALED_KONGS, F.TWO_MELDED_KONGS, F.CONCEALED_KONG,
              F.MELDED_KONG, F.MIXED_KONGS}


def _row(id_, name, zh, points, scope, detect, excludes=(), absorbs=(), pmgb=""):
    needs = ("pung" if id_ in NEEDS_PUNG else "kong" if id_ in NEEDS_KONG
             else "honour_pung" if id_ in NEEDS_HONOUR_PUNG else "")
    return Fan(id_, name, zh, points, scope, detect, frozenset(excludes), tuple(absorbs), pmgb or name, needs)


# MIXED_KONGS is worth `mixed_kongs_points`: 6, the seed's reading of Two Melded Kongs; 5,
# PyMahjongGB's 明暗杠; 3, scored as Melded Kong + Concealed Kong.
SPECIAL_SHAPES = (F.NINE_GATES, F.SEVEN_SHIFTED_PAIRS, F.THIRTEEN_ORPHANS, F.FOUR_CONCEALED_PUNGS,
                  F.SEVEN_PAIRS, F.GREATER_HONORS_AND_KNITTED_TILES,
                  F.LESSER_HONORS_AND_KNITTED_TILES)  # fully_concealed_with_special_hands

FANS: tuple[Fan, ...] = (
    _row(F.BIG_FOUR_WINDS, "Big Four Winds", "大四喜", 88, "pungs4", S.big_four_winds, (F.LITTLE_FOUR_WINDS,
         F.BIG_THREE_WINDS, F.ALL_PUNGS, F.PREVALENT_WIND, F.SEAT_WIND, F.PUNG_OF_TERMINALS_OR_HONORS)),
    _row(F.BIG_THREE_DRAGONS, "Big Three Dragons", "大三元", 88, "pungs3", S.big_three_dragons,
         (F.LITTLE_THREE_DRAGONS, F.TWO_DRAGON_PUNGS, F.DRAGON_PUNG)),
    _row(F.ALL_GREEN, "All Green", "绿一色", 88, "tiles", T.all_green, (F.HALF_FLUSH, F.ONE_VOIDED_SUIT)),
    _row(F.NINE_GATES, "Nine Gates", "九莲宝灯", 88, "sets", H.nine_gates, (F.FULL_FLUSH, F.CONCEALED_HAND,
         F.ONE_VOIDED_SUIT, F.NO_HONORS, F.SINGLE_WAIT), ((F.PUNG_OF_TERMINALS_OR_HONORS, 1),)),
    _row(F.FOUR_KONGS, "Four Kongs", "四杠", 88, "sets", H.four_kongs, (F.THREE_KONGS,
         F.TWO_CONCEALED_KONGS, F.ALL_PUNGS, F.TWO_MELDED_KONGS, F.CONCEALED_KONG, F.MELDED_KONG,
         F.SINGLE_WAIT, F.MIXED_KONGS)),
    _row(F.SEVEN_SHIFTED_PAIRS, "Seven Shifted Pairs", "连七对", 88, "shape", H.seven_shifted_pairs,
         (F.SEVEN_PAIRS, F.FULL_FLUSH, F.CONCEALED_HAND, F.ONE_VOIDED_SUIT, F.NO_HONORS, F.SINGLE_WAIT)),
    _row(F.THIRTEEN_ORPHANS, "Thirteen Orphans", "十三幺", 88, "shape", H.thirteen_orphans,
         (F.ALL_TERMINALS_AND_HONORS, F.ALL_TYPES, F.CONCEALED_HAND, F.SINGLE_WAIT)),
    _row(F.ALL_TERMINALS, "All Terminals", "清幺九", 64, "tiles", T.all_terminals,
         (F.ALL_TERMINALS_AND_HONORS, F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS,
         F.NO_HONORS)),
    _row(F.LITTLE_FOUR_WINDS, "Little Four Winds", "小四喜", 64, "sets", H.little_four_winds,
         (F.BIG_THREE_WINDS,), ((F.PUNG_OF_TERMINALS_OR_HONORS, None),)),
    _row(F.LITTLE_THREE_DRAGONS, "Little Three Dragons", "小三元", 64, "sets", H.little_three_dragons,
         (F.TWO_DRAGON_PUNGS, F.DRAGON_PUNG)),
    _row(F.ALL_HONORS, "All Honors", "字一色", 64, "tiles", T.all_honours, (F.ALL_TERMINALS_AND_HONORS,
         F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS, F.ONE_VOIDED_SUIT)),
    _row(F.FOUR_CONCEALED_PUNGS, "Four Concealed Pungs", "四暗刻", 64, "sets", H.four_concealed_pungs,
         (F.THREE_CONCEALED_PUNGS, F.ALL_PUNGS, F.CONCEALED_HAND, F.TWO_CONCEALED_PUNGS)),
    _row(F.PURE_TERMINAL_CHOWS, "Pure Terminal Chows", "一色双龙会", 64, "chows4pair", S.pure_terminal_chows,
         (F.SEVEN_PAIRS, F.FULL_FLUSH, F.ALL_CHOWS, F.PURE_DOUBLE_CHOW, F.TWO_TERMINAL_CHOWS,
         F.ONE_VOIDED_SUIT, F.NO_HONORS)),
    _row(F.QUADRUPLE_CHOW, "Quadruple Chow", "一色四同顺", 48, "chows4", S.quadruple_chow, (F.PURE_TRIPLE_CHOW,
         F.TILE_HOG, F.PURE_DOUBLE_CHOW)),
    _row(F.FOUR_PURE_SHIFTED_PUNGS, "Four Pure Shifted Pungs", "一色四节高", 48, "pungs4",
         S.four_pure_shifted_pungs, (F.PURE_SHIFTED_PUNGS, F.ALL_PUNGS, F.DOUBLE_PUNG)),
    _row(F.FOUR_PURE_SHIFTED_CHOWS, "Four Pure Shifted Chows", "一色四步高", 32, "chows4",
         S.four_pure_shifted_chows, (F.PURE_SHIFTED_CHOWS, F.PURE_DOUBLE_CHOW, F.MIXED_DOUBLE_CHOW,
         F.SHORT_STRAIGHT, F.TWO_TERMINAL_CHOWS)),
    _row(F.THREE_KONGS, "Three Kongs", "三杠", 32, "sets", H.three_kongs, (F.TWO_CONCEALED_KONGS,
         F.TWO_MELDED_KONGS, F.CONCEALED_KONG, F.MELDED_KONG, F.MIXED_KONGS)),
    _row(F.ALL_TERMINALS_AND_HONORS, "All Terminals and Honors", "混幺九", 32, "tiles",
         T.all_terminals_and_honours, (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS)),
    _row(F.SEVEN_PAIRS, "Seven Pairs", "七对", 24, "shape", H.seven_pairs, (F.CONCEALED_HAND,
         F.SINGLE_WAIT)),
    _row(F.GREATER_HONORS_AND_KNITTED_TILES, "Greater Honors and Knitted Tiles", "七星不靠", 24, "shape",
         H.greater_honours_and_knitted_tiles, (F.LESSER_HONORS_AND_KNITTED_TILES, F.ALL_TYPES,
         F.CONCEALED_HAND, F.SINGLE_WAIT)),
    _row(F.ALL_EVEN_PUNGS, "All Even Pungs", "全双刻", 24, "sets", H.all_even_pungs, (F.ALL_PUNGS,
         F.ALL_SIMPLES, F.NO_HONORS)),
    _row(F.FULL_FLUSH, "Full Flush", "清一色", 24, "tiles", T.full_flush, (F.ONE_VOIDED_SUIT, F.NO_HONORS)),
    _row(F.PURE_TRIPLE_CHOW, "Pure Triple Chow", "一色三同顺", 24, "chows3", S.pure_triple_chow,
         (F.PURE_DOUBLE_CHOW,)),
    _row(F.PURE_SHIFTED_PUNGS, "Pure Shifted Pungs", "一色三节高", 24, "pungs3", S.pure_shifted_pungs),
    _row(F.UPPER_TILES, "Upper Tiles", "全大", 24, "tiles", T.upper_tiles, (F.UPPER_FOUR, F.NO_HONORS)),
    _row(F.MIDDLE_TILES, "Middle Tiles", "全中", 24, "tiles", T.middle_tiles, (F.ALL_SIMPLES, F.NO_HONORS)),
    _row(F.LOWER_TILES, "Lower Tiles", "全小", 24, "tiles", T.lower_tiles, (F.LOWER_FOUR, F.NO_HONORS)),
    _row(F.PURE_STRAIGHT, "Pure Straight", "清龙", 16, "chows3", S.pure_straight),
    _row(F.THREE_SUITED_TERMINAL_CHOWS, "Three-Suited Terminal Chows", "三色双龙会", 16, "chows4pair",
         S.three_suited_terminal_chows, (F.ALL_CHOWS, F.MIXED_DOUBLE_CHOW, F.TWO_TERMINAL_CHOWS,
         F.NO_HONORS)),
    _row(F.PURE_SHIFTED_CHOWS, "Pure Shifted Chows", "一色三步高", 16, "chows3", S.pure_shifted_chows),
    _row(F.ALL_FIVES, "All Fives", "全带五", 16, "sets", H.all_fives, (F.ALL_SIMPLES, F.NO_HONORS),
         pmgb="All Five"),
    _row(F.TRIPLE_PUNG, "Triple Pung", "三同刻", 16, "pungs3", S.triple_pung),
    _row(F.THREE_CONCEALED_PUNGS, "Three Concealed Pungs", "三暗刻", 16, "sets", H.three_concealed_pungs,
         (F.TWO_CONCEALED_PUNGS,)),
    _row(F.LESSER_HONORS_AND_KNITTED_TILES, "Lesser Honors and Knitted Tiles", "全不靠", 12, "shape",
         H.lesser_honours_and_knitted_tiles, (F.ALL_TYPES, F.CONCEALED_HAND, F.SINGLE_WAIT)),
    _row(F.KNITTED_STRAIGHT, "Knitted Straight", "组合龙", 12, "reading", H.knitted_straight),
    _row(F.UPPER_FOUR, "Upper Four", "大于五", 12, "tiles", T.upper_four, (F.NO_HONORS,)),
    _row(F.LOWER_FOUR, "Lower Four", "小于五", 12, "tiles", T.lower_four, (F.NO_HONORS,)),
    _row(F.BIG_THREE_WINDS, "Big Three Winds", "三风刻", 12, "pungs3", S.big_three_winds, (),
         ((F.PUNG_OF_TERMINALS_OR_HONORS, None),)),
    _row(F.MIXED_STRAIGHT, "Mixed Straight", "花龙", 8, "chows3", S.mixed_straight),
    _row(F.REVERSIBLE_TILES, "Reversible Tiles", "推不倒", 8, "tiles", T.reversible_tiles,
         (F.ONE_VOIDED_SUIT,)),
    _row(F.MIXED_TRIPLE_CHOW, "Mixed Triple Chow", "三色三同顺", 8, "chows3", S.mixed_triple_chow),
    _row(F.MIXED_SHIFTED_PUNGS, "Mixed Shifted Pungs", "三色三节高", 8, "pungs3", S.mixed_shifted_pungs),
    _row(F.CHICKEN_HAND, "Chicken Hand", "无番和", 8, "post", None),
    _row(F.LAST_TILE_DRAW, "Last Tile Draw", "妙手回春", 8, "situation", H.last_tile_draw, (F.SELF_DRAWN,)),
    _row(F.LAST_TILE_CLAIM, "Last Tile Claim", "海底捞月", 8, "situation", H.last_tile_claim),
    _row(F.OUT_WITH_REPLACEMENT_TILE, "Out with Replacement Tile", "杠上开花", 8, "situation",
         H.out_with_replacement_tile, (F.SELF_DRAWN,)),
    _row(F.ROBBING_THE_KONG, "Robbing the Kong", "抢杠和", 8, "situation", H.robbing_the_kong,
         (F.LAST_TILE,), pmgb="Robbing The Kong"),
    _row(F.TWO_CONCEALED_KONGS, "Two Concealed Kongs", "双暗杠", 8, "sets", H.two_concealed_kongs,
         (F.TWO_CONCEALED_PUNGS, F.CONCEALED_KONG)),
    _row(F.ALL_PUNGS, "All Pungs", "碰碰和", 6, "sets", H.all_pungs),
    _row(F.HALF_FLUSH, "Half Flush", "混一色", 6, "tiles", T.half_flush, (F.ONE_VOIDED_SUIT,)),
    _row(F.MIXED_SHIFTED_CHOWS, "Mixed Shifted Chows", "三色三步高", 6, "chows3", S.mixed_shifted_chows),
    _row(F.ALL_TYPES, "All Types", "五门齐", 6, "tiles", T.all_types),
    _row(F.MELDED_HAND, "Melded Hand", "全求人", 6, "situation", H.melded_hand, (F.SINGLE_WAIT,)),
    _row(F.TWO_DRAGON_PUNGS, "Two Dragon Pungs", "双箭刻", 6, "pungs2", S.two_dragon_pungs, (F.DRAGON_PUNG,),
         pmgb="Two Dragons Pungs"),
    _row(F.OUTSIDE_HAND, "Outside Hand", "全带幺", 4, "sets", H.outside_hand),
    _row(F.FULLY_CONCEALED_HAND, "Fully Concealed Hand", "不求人", 4, "situation", H.fully_concealed_hand,
         (F.CONCEALED_HAND, F.SELF_DRAWN)),
    _row(F.TWO_MELDED_KONGS, "Two Melded Kongs", "双明杠", 4, "sets", H.two_melded_kongs, (F.CONCEALED_KONG,
         F.MELDED_KONG)),
    _row(F.LAST_TILE, "Last Tile", "和绝张", 4, "situation", H.last_tile),
    _row(F.DRAGON_PUNG, "Dragon Pung", "箭刻", 2, "pung", S.dragon_pung),
    _row(F.PREVALENT_WIND, "Prevalent Wind", "圈风刻", 2, "sets", H.prevalent_wind, (),
         ((F.PUNG_OF_TERMINALS_OR_HONORS, None),)),
    _row(F.SEAT_WIND, "Seat Wind", "门风刻", 2, "sets", H.seat_wind, (), ((F.PUNG_OF_TERMINALS_OR_HONORS,
         None),)),
    _row(F.CONCEALED_HAND, "Concealed Hand", "门前清", 2, "situation", H.concealed_hand),
    _row(F.ALL_CHOWS, "All Chows", "平和", 2, "sets", H.all_chows, (F.NO_HONORS,)),
    _row(F.TILE_HOG, "Tile Hog", "四归一", 2, "hand", H.tile_hog),
    _row(F.DOUBLE_PUNG, "Double Pung", "双同刻", 2, "pungs2", S.double_pung),
    _row(F.TWO_CONCEALED_PUNGS, "Two Concealed Pungs", "双暗刻", 2, "sets", H.two_concealed_pungs),
    _row(F.CONCEALED_KONG, "Concealed Kong", "暗杠", 2, "sets", H.concealed_kong),
    _row(F.ALL_SIMPLES, "All Simples", "断幺", 2, "tiles", T.all_simples, (F.NO_HONORS,)),
    _row(F.PURE_DOUBLE_CHOW, "Pure Double Chow", "一般高", 1, "chows2", S.pure_double_chow),
    _row(F.MIXED_DOUBLE_CHOW, "Mixed Double Chow", "喜相逢", 1, "chows2", S.mixed_double_chow),
    _row(F.SHORT_STRAIGHT, "Short Straight", "连六", 1, "chows2", S.short_straight),
    _row(F.TWO_TERMINAL_CHOWS, "Two Terminal Chows", "老少副", 1, "chows2", S.two_terminal_chows),
    _row(F.PUNG_OF_TERMINALS_OR_HONORS, "Pung of Terminals or Honors", "幺九刻", 1, "pung",
         S.pung_of_terminals_or_honours),
    _row(F.MELDED_KONG, "Melded Kong", "明杠", 1, "sets", H.melded_kong),
    _row(F.ONE_VOIDED_SUIT, "One Voided Suit", "缺一门", 1, "tiles", T.one_voided_suit),
    _row(F.NO_HONORS, "No Honors", "无字", 1, "tiles", T.no_honours),
    _row(F.EDGE_WAIT, "Edge Wait", "边张", 1, "sets", H.edge_wait, (F.CLOSED_WAIT, F.SINGLE_WAIT)),
    _row(F.CLOSED_WAIT, "Closed Wait", "坎张", 1, "sets", H.closed_wait, (F.EDGE_WAIT, F.SINGLE_WAIT)),
    _row(F.SINGLE_WAIT, "Single Wait", "单钓将", 1, "sets", H.single_wait, (F.EDGE_WAIT, F.CLOSED_WAIT)),
    _row(F.SELF_DRAWN, "Self-Drawn", "自摸", 1, "situation", H.self_drawn),
    _row(F.FLOWER_TILES, "Flower Tiles", "花牌", 1, "post", None),
    _row(F.MIXED_KONGS, "Concealed Kong and Melded Kong", "明暗杠", 5, "sets",
         H.concealed_kong_and_melded_kong, (F.CONCEALED_KONG, F.MELDED_KONG)),
)

BY_ID: dict[F, Fan] = {f.id: f for f in FANS}
BY_NAME: dict[str, Fan] = {f.name: f for f in FANS}
BY_PMGB_NAME: dict[str, Fan] = {f.pmgb_name: f for f in FANS}
# PyMahjongGB names the wait fans "Edge Wait" etc. in its Python binding, as we do.


@dataclass(frozen=True, eq=False)  # hashed by identity: one Table per options object (table_for)
class Table:
    """The fan table as one set of options sees it."""
    fans: dict[F, Fan]
    rank: dict[F, int]                   # exclusion order: points desc, then number
    scopes: dict[str, tuple[Fan, ...]]     # fans by scope, in table order

    def scope(self, name: str) -> tuple[Fan, ...]:
        return self.scopes.get(name, ())


@lru_cache(maxsize=32)
def table_for(options) -> Table:
    fans = dict(BY_ID)
    fans[F.TWO_CONCEALED_KONGS] = replace(fans[F.TWO_CONCEALED_KONGS],
                                          points=options.two_concealed_kongs_points)
    if options.mixed_kongs_points != 3:
        fans[F.MIXED_KONGS] = replace(fans[F.MIXED_KONGS], points=options.mixed_kongs_points)
    if not options.fully_concealed_with_special_hands:
        for fid in SPECIAL_SHAPES:
            fans[fid] = _excluding(fans[fid], F.FULLY_CONCEALED_HAND)
    if options.nine_gates_excludes_terminal_pungs:
        fans[F.NINE_GATES] = replace(_excluding(fans[F.NINE_GATES], F.PUNG_OF_TERMINALS_OR_HONORS),
                                     absorbs=())
    if options.all_terminals_excludes_double_pung:
        fans[F.ALL_TERMINALS] = _excluding(fans[F.ALL_TERMINALS], F.DOUBLE_PUNG)
    order = sorted(fans.values(), key=lambda f: (-f.points, f.id))
    scopes: dict[str, tuple[Fan, ...]] = {}
    for f in fans.values():
        scopes[f.scope] = scopes.get(f.scope, ()) + (f,)
    return Table(fans, {f.id: i for i, f in enumerate(order)}, scopes)


def _excluding(fan: Fan, other: F) -> Fan:
    return replace(fan, excludes=fan.excludes | {other})
