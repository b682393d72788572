"""The MCR fan table: one row per fan, the only place a fan is registered.

Columns: green-book number, English name (rules.md §1.4), Chinese name, points, `excludes`
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
(NEEDS_PUNG, NEEDS_KONG) lets the scorer skip predicates that cannot hold for a reading
without pungs or kongs; it is a speed hint, never a rule.

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


@dataclass(frozen=True)
class Fan:
    id: int
    name: str
    name_zh: str
    points: int
    scope: str
    detect: Callable | None
    excludes: frozenset[int] = frozenset()
    absorbs: tuple[tuple[int, int | None], ...] = ()
    pmgb_name: str = ""  # PyMahjongGB's English spelling, when it differs
    needs: str = ""      # "pung" / "kong": the reading must hold one, else the predicate is skipped


NEEDS_PUNG = {9, 10, 12, 21, 33, 49, 60, 61, 66}
NEEDS_KONG = {5, 17, 48, 57, 67, 74, 82}


def _row(id_, name, zh, points, scope, detect, excludes=(), absorbs=(), pmgb=""):
    needs = "pung" if id_ in NEEDS_PUNG else "kong" if id_ in NEEDS_KONG else ""
    return Fan(id_, name, zh, points, scope, detect, frozenset(excludes), tuple(absorbs), pmgb or name, needs)


PUNG_OF_TERMINALS = 73
CHICKEN_HAND = 43
FLOWER_TILES = 81
MIXED_KONGS = 82  # not a green-book number: one melded + one concealed kong, `mixed_kongs_points`
#                   (6: the seed's reading of 57; 5: PyMahjongGB's 明暗杠; 3: scored as 74 + 67)
SPECIAL_SHAPES = (4, 6, 7, 12, 19, 20, 34)  # §1.6 fully_concealed_with_special_hands

FANS: tuple[Fan, ...] = (
    _row(1, "Big Four Winds", "大四喜", 88, "pungs4", S.big_four_winds, (9, 38, 49, 60, 61, 73)),
    _row(2, "Big Three Dragons", "大三元", 88, "pungs3", S.big_three_dragons, (10, 54, 59)),
    _row(3, "All Green", "绿一色", 88, "tiles", T.all_green, (50, 75)),
    _row(4, "Nine Gates", "九莲宝灯", 88, "sets", H.nine_gates, (22, 62, 75, 76, 79), ((73, 1),)),
    _row(5, "Four Kongs", "四杠", 88, "sets", H.four_kongs, (17, 48, 49, 57, 67, 74, 79, MIXED_KONGS)),
    _row(6, "Seven Shifted Pairs", "连七对", 88, "shape", H.seven_shifted_pairs, (19, 22, 62, 75, 76, 79)),
    _row(7, "Thirteen Orphans", "十三幺", 88, "shape", H.thirteen_orphans, (18, 52, 62, 79)),
    _row(8, "All Terminals", "清幺九", 64, "tiles", T.all_terminals, (18, 49, 55, 73, 76)),
    _row(9, "Little Four Winds", "小四喜", 64, "sets", H.little_four_winds, (38,), ((73, None),)),
    _row(10, "Little Three Dragons", "小三元", 64, "sets", H.little_three_dragons, (54, 59)),
    _row(11, "All Honors", "字一色", 64, "tiles", T.all_honours, (18, 49, 55, 73, 75)),
    _row(12, "Four Concealed Pungs", "四暗刻", 64, "sets", H.four_concealed_pungs, (33, 49, 62, 66)),
    _row(13, "Pure Terminal Chows", "一色双龙会", 64, "chows4pair", S.pure_terminal_chows,
         (19, 22, 63, 69, 72, 75, 76)),
    _row(14, "Quadruple Chow", "一色四同顺", 48, "chows4", S.quadruple_chow, (23, 64, 69)),
    _row(15, "Four Pure Shifted Pungs", "一色四节高", 48, "pungs4", S.four_pure_shifted_pungs, (24, 49, 65)),
    _row(16, "Four Pure Shifted Chows", "一色四步高", 32, "chows4", S.four_pure_shifted_chows, (30, 69, 70, 71, 72)),
    _row(17, "Three Kongs", "三杠", 32, "sets", H.three_kongs, (48, 57, 67, 74, MIXED_KONGS)),
    _row(18, "All Terminals and Honors", "混幺九", 32, "tiles", T.all_terminals_and_honours, (49, 55, 73)),
    _row(19, "Seven Pairs", "七对", 24, "shape", H.seven_pairs, (62, 79)),
    _row(20, "Greater Honors and Knitted Tiles", "七星不靠", 24, "shape", H.greater_honours_and_knitted_tiles,
         (34, 52, 62, 79)),
    _row(21, "All Even Pungs", "全双刻", 24, "sets", H.all_even_pungs, (49, 68, 76)),
    _row(22, "Full Flush", "清一色", 24, "tiles", T.full_flush, (75, 76)),
    _row(23, "Pure Triple Chow", "一色三同顺", 24, "chows3", S.pure_triple_chow, (69,)),
    _row(24, "Pure Shifted Pungs", "一色三节高", 24, "pungs3", S.pure_shifted_pungs),
    _row(25, "Upper Tiles", "全大", 24, "tiles", T.upper_tiles, (36, 76)),
    _row(26, "Middle Tiles", "全中", 24, "tiles", T.middle_tiles, (68, 76)),
    _row(27, "Lower Tiles", "全小", 24, "tiles", T.lower_tiles, (37, 76)),
    _row(28, "Pure Straight", "清龙", 16, "chows3", S.pure_straight),
    _row(29, "Three-Suited Terminal Chows", "三色双龙会", 16, "chows4pair", S.three_suited_terminal_chows,
         (63, 70, 72, 76)),
    _row(30, "Pure Shifted Chows", "一色三步高", 16, "chows3", S.pure_shifted_chows),
    _row(31, "All Fives", "全带五", 16, "sets", H.all_fives, (68, 76), pmgb="All Five"),
    _row(32, "Triple Pung", "三同刻", 16, "pungs3", S.triple_pung),
    _row(33, "Three Concealed Pungs", "三暗刻", 16, "sets", H.three_concealed_pungs, (66,)),
    _row(34, "Lesser Honors and Knitted Tiles", "全不靠", 12, "shape", H.lesser_honours_and_knitted_tiles,
         (52, 62, 79)),
    _row(35, "Knitted Straight", "组合龙", 12, "reading", H.knitted_straight),
    _row(36, "Upper Four", "大于五", 12, "tiles", T.upper_four, (76,)),
    _row(37, "Lower Four", "小于五", 12, "tiles", T.lower_four, (76,)),
    _row(38, "Big Three Winds", "三风刻", 12, "pungs3", S.big_three_winds, (), ((73, None),)),
    _row(39, "Mixed Straight", "花龙", 8, "chows3", S.mixed_straight),
    _row(40, "Reversible Tiles", "推不倒", 8, "tiles", T.reversible_tiles, (75,)),
    _row(41, "Mixed Triple Chow", "三色三同顺", 8, "chows3", S.mixed_triple_chow),
    _row(42, "Mixed Shifted Pungs", "三色三节高", 8, "pungs3", S.mixed_shifted_pungs),
    _row(43, "Chicken Hand", "无番和", 8, "post", None),
    _row(44, "Last Tile Draw", "妙手回春", 8, "situation", H.last_tile_draw, (80,)),
    _row(45, "Last Tile Claim", "海底捞月", 8, "situation", H.last_tile_claim),
    _row(46, "Out with Replacement Tile", "杠上开花", 8, "situation", H.out_with_replacement_tile, (80,)),
    _row(47, "Robbing the Kong", "抢杠和", 8, "situation", H.robbing_the_kong, (58,), pmgb="Robbing The Kong"),
    _row(48, "Two Concealed Kongs", "双暗杠", 8, "sets", H.two_concealed_kongs, (66, 67)),
    _row(49, "All Pungs", "碰碰和", 6, "sets", H.all_pungs),
    _row(50, "Half Flush", "混一色", 6, "tiles", T.half_flush, (75,)),
    _row(51, "Mixed Shifted Chows", "三色三步高", 6, "chows3", S.mixed_shifted_chows),
    _row(52, "All Types", "五门齐", 6, "tiles", T.all_types),
    _row(53, "Melded Hand", "全求人", 6, "situation", H.melded_hand, (79,)),
    _row(54, "Two Dragon Pungs", "双箭刻", 6, "pungs2", S.two_dragon_pungs, (59,), pmgb="Two Dragons Pungs"),
    _row(55, "Outside Hand", "全带幺", 4, "sets", H.outside_hand),
    _row(56, "Fully Concealed Hand", "不求人", 4, "situation", H.fully_concealed_hand, (62, 80)),
    _row(57, "Two Melded Kongs", "双明杠", 4, "sets", H.two_melded_kongs, (67, 74)),
    _row(58, "Last Tile", "和绝张", 4, "situation", H.last_tile),
    _row(59, "Dragon Pung", "箭刻", 2, "pung", S.dragon_pung),
    _row(60, "Prevalent Wind", "圈风刻", 2, "sets", H.prevalent_wind, (), ((73, None),)),
    _row(61, "Seat Wind", "门风刻", 2, "sets", H.seat_wind, (), ((73, None),)),
    _row(62, "Concealed Hand", "门前清", 2, "situation", H.concealed_hand),
    _row(63, "All Chows", "平和", 2, "sets", H.all_chows, (76,)),
    _row(64, "Tile Hog", "四归一", 2, "hand", H.tile_hog),
    _row(65, "Double Pung", "双同刻", 2, "pungs2", S.double_pung),
    _row(66, "Two Concealed Pungs", "双暗刻", 2, "sets", H.two_concealed_pungs),
    _row(67, "Concealed Kong", "暗杠", 2, "sets", H.concealed_kong),
    _row(68, "All Simples", "断幺", 2, "tiles", T.all_simples, (76,)),
    _row(69, "Pure Double Chow", "一般高", 1, "chows2", S.pure_double_chow),
    _row(70, "Mixed Double Chow", "喜相逢", 1, "chows2", S.mixed_double_chow),
    _row(71, "Short Straight", "连六", 1, "chows2", S.short_straight),
    _row(72, "Two Terminal Chows", "老少副", 1, "chows2", S.two_terminal_chows),
    _row(73, "Pung of Terminals or Honors", "幺九刻", 1, "pung", S.pung_of_terminals_or_honours),
    _row(74, "Melded Kong", "明杠", 1, "sets", H.melded_kong),
    _row(75, "One Voided Suit", "缺一门", 1, "tiles", T.one_voided_suit),
    _row(76, "No Honors", "无字", 1, "tiles", T.no_honours),
    _row(77, "Edge Wait", "边张", 1, "sets", H.edge_wait, (78, 79)),
    _row(78, "Closed Wait", "坎张", 1, "sets", H.closed_wait, (77, 79)),
    _row(79, "Single Wait", "单钓将", 1, "sets", H.single_wait, (77, 78)),
    _row(80, "Self-Drawn", "自摸", 1, "situation", H.self_drawn),
    _row(81, "Flower Tiles", "花牌", 1, "post", None),
    _row(MIXED_KONGS, "Concealed Kong and Melded Kong", "明暗杠", 5, "sets", H.concealed_kong_and_melded_kong,
         (67, 74)),
)

BY_ID: dict[int, Fan] = {f.id: f for f in FANS}
BY_NAME: dict[str, Fan] = {f.name: f for f in FANS}
BY_PMGB_NAME: dict[str, Fan] = {f.pmgb_name: f for f in FANS}
# PyMahjongGB names the wait fans "Edge Wait" etc. in its Python binding, as we do.


@dataclass(frozen=True, eq=False)  # hashed by identity: one Table per options object (table_for)
class Table:
    """The fan table as one set of options sees it."""
    fans: dict[int, Fan]
    rank: dict[int, int]                   # exclusion order: points desc, then number
    scopes: dict[str, tuple[Fan, ...]]     # fans by scope, in table order

    def scope(self, name: str) -> tuple[Fan, ...]:
        return self.scopes.get(name, ())


@lru_cache(maxsize=32)
def table_for(options) -> Table:
    fans = dict(BY_ID)
    fans[48] = replace(fans[48], points=options.two_concealed_kongs_points)
    if options.mixed_kongs_points != 3:
        fans[MIXED_KONGS] = replace(fans[MIXED_KONGS], points=options.mixed_kongs_points)
    if not options.fully_concealed_with_special_hands:
        for fid in SPECIAL_SHAPES:
            fans[fid] = replace(fans[fid], excludes=fans[fid].excludes | {56})
    if options.nine_gates_excludes_terminal_pungs:
        fans[4] = replace(fans[4], excludes=fans[4].excludes | {PUNG_OF_TERMINALS}, absorbs=())
    if options.all_terminals_excludes_double_pung:
        fans[8] = replace(fans[8], excludes=fans[8].excludes | {65})
    order = sorted(fans.values(), key=lambda f: (-f.points, f.id))
    scopes: dict[str, tuple[Fan, ...]] = {}
    for f in fans.values():
        scopes[f.scope] = scopes.get(f.scope, ()) + (f,)
    return Table(fans, {f.id: i for i, f in enumerate(order)}, scopes)
