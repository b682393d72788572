"""The Chinese Classical scoring table (docs/rules.md §3, seed 003): one row per item.

Items are 'points' (added) or 'doubles' (each doubles the sum); `who` says whether losers
score the row too ('all') or only the winner ('winner'). A predicate takes a `View` (the
sets a player shows once read, bonus tiles, winds, and for the winner the Reading of the
win) and the options, and returns one tuple of set labels per occurrence. `family`: only
the row worth most in the family scores (Half/Full Flush; majors in every set / only
majors), because the larger one is the same pattern taken further.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..decompose import SetKind, Shape, TileSet
from ..tiles import (DRAGONS, WINDS, bonus_family, bonus_seat, is_terminal_or_honour,
                     wind_code)
from .reading import Reading, flush, label, nine_gates

Hits = list[tuple[str, ...]]


@dataclass(frozen=True)
class View:
    sets: tuple[TileSet, ...]
    bonus: tuple[str, ...]
    seat: int
    round: int
    win: Reading | None = None   # the winner only
    unique_wait: bool = False    # the winner's 13 tiles waited on one tile kind only

    @property
    def pungs(self) -> tuple[TileSet, ...]:
        return tuple(s for s in self.sets if s.is_pung_like)

    @property
    def pairs(self) -> tuple[TileSet, ...]:
        return tuple(s for s in self.sets if s.kind is SetKind.PAIR)

    def pungs_of(self, tiles) -> tuple[TileSet, ...]:
        return tuple(s for s in self.pungs if s.tile in tiles)


@dataclass(frozen=True)
class Item:
    key: str
    name: str
    name_zh: str
    kind: str                          # 'points' | 'doubles'
    value: int | Callable              # per occurrence; a function of the options may return None (off)
    pred: Callable[[View, object], Hits]
    who: str = "all"                   # 'all' | 'winner'
    family: str | None = None

    def amount(self, options) -> int | None:
        return self.value(options) if callable(self.value) else self.value


def _one(ok: bool, sets=()) -> Hits:
    return [tuple(sets)] if ok else []


# --- points for sets, pairs and bonus tiles (everyone) -----------------------------------

def _set_rows() -> tuple[Item, ...]:
    rows = []
    for kong in (False, True):
        for major in (False, True):
            for concealed in (False, True):
                points = (2 if not major else 4) * (4 if kong else 1) * (2 if concealed else 1)
                what = "Kong" if kong else "Pung"
                name = f"{'Concealed' if concealed else 'Exposed'} {what} of {'Majors' if major else 'Simples'}"
                zh = f"{'暗' if concealed else '明'}{'槓' if kong else '刻'}（{'么九' if major else '中張'}）"

                def pred(v: View, o, kong=kong, major=major, concealed=concealed) -> Hits:
                    return [(label(s),) for s in v.pungs if (len(s.tiles) == 4) == kong
                            and is_terminal_or_honour(s.tile) == major and s.concealed == concealed]
                rows.append(Item(f"{'concealed' if concealed else 'exposed'}_{what.lower()}_"
                                 f"{'majors' if major else 'simples'}", name, zh, "points", points, pred))
    return tuple(rows)


def pair_points(tile: str, seat: int, round_: int) -> int:
    return 2 * ((tile in DRAGONS) + (tile == wind_code(seat)) + (tile == wind_code(round_)))


def _pairs(test) -> Callable:
    return lambda v, o: [(label(p),) for p in v.pairs if test(p.tile, v)]


def _bonus(family: str) -> Callable:
    return lambda v, o: [(t,) for t in v.bonus if bonus_family(t) == family]


# --- doubles for everyone ----------------------------------------------------------------

def _pungs_of(which: Callable) -> Callable:
    return lambda v, o: [(label(s),) for s in v.pungs_of(which(v))]


def _full_group(family: str) -> Callable:
    def pred(v: View, o) -> Hits:
        group = [t for t in v.bonus if bonus_family(t) == family]
        return _one(len(group) == 4, group)
    return pred


def own_flower_and_season(v: View, o) -> Hits:
    own = [t for t in v.bonus if bonus_seat(t) == v.seat]
    return _one(len(own) == 2, own)


def three_concealed_pungs(v: View, o) -> Hits:
    hidden = [label(s) for s in v.pungs if s.concealed]
    return _one(len(hidden) >= 3, hidden)  # four count once too (seed example 4)


def _little(honours: tuple[str, ...], n: int) -> Callable:
    def pred(v: View, o) -> Hits:
        sets, pairs = v.pungs_of(honours), [p for p in v.pairs if p.tile in honours]
        return _one(len(sets) == n - 1 and len(pairs) >= 1, [*map(label, sets), label(pairs[0])] if pairs else ())
    return pred


def _big(honours: tuple[str, ...]) -> Callable:
    return lambda v, o: _one(len(v.pungs_of(honours)) == len(honours), map(label, v.pungs_of(honours)))


# --- winner only --------------------------------------------------------------------------

def _ctx(test) -> Callable:
    return lambda v, o: _one(test(v.win.ctx), v.win.winning_label)


def only_possible_tile(v: View, o) -> Hits:
    return _one(v.win.ctx.fourth_tile or v.unique_wait, v.win.winning_label)


def all_chows(v: View, o) -> Hits:
    r = v.win
    ok = r.standard and len(r.chows) == 4 and pair_points(r.pair.tile, v.seat, v.round) == 0
    return _one(ok, r.labels)


def no_chows(v: View, o) -> Hits:
    return _one(v.win.standard and not v.win.chows, v.win.labels)


def _flush(kind: str) -> Callable:
    return lambda v, o: _one(flush(v.win.tiles) == kind, v.win.labels)


def majors_in_every_set(v: View, o) -> Hits:
    r = v.win
    return _one(r.standard and all(any(map(is_terminal_or_honour, s.tiles)) for s in r.sets), r.labels)


def only_majors(v: View, o) -> Hits:
    return _one(v.win.all_tiles(is_terminal_or_honour), v.win.labels)


def pure_straight(v: View, o) -> Hits:
    starts = {(c.tile[1], c.tile[0]) for c in v.win.chows}
    suits = [s for s in "mps" if {(s, "1"), (s, "4"), (s, "7")} <= starts]
    return _one(bool(suits), [label(c) for c in v.win.chows if c.tile[1] in suits[:1]])


def concealed_hand(v: View, o) -> Hits:
    return _one(v.win.hand.is_concealed, v.win.labels)


def _on(flag: str, value) -> Callable:
    return lambda o: value if getattr(o, flag) else None


ITEMS: tuple[Item, ...] = (
    Item("mahjong", "Mahjong", "和牌", "points", lambda o: o.mahjong_points, lambda v, o: [()], "winner"),
    *_set_rows(),
    Item("pair_dragons", "Pair of Dragons", "箭牌對", "points", 2, _pairs(lambda t, v: t in DRAGONS)),
    Item("pair_own_wind", "Pair of Own Wind", "門風對", "points", 2, _pairs(lambda t, v: t == wind_code(v.seat))),
    Item("pair_round_wind", "Pair of Round Wind", "圈風對", "points", 2, _pairs(lambda t, v: t == wind_code(v.round))),
    Item("flower", "Flower", "花", "points", 4, _bonus("flower")),
    Item("season", "Season", "季", "points", 4, _bonus("season")),
    Item("only_possible_tile", "Only Possible Tile", "獨聽", "points", _on("only_possible_tile", 2),
         only_possible_tile, "winner"),
    Item("from_the_wall", "Winning Tile from the Wall", "自摸", "points", 2,
         _ctx(lambda c: c.self_drawn), "winner"),
    # doubles for everyone
    Item("dragon_pung", "Pung of Dragons", "箭刻", "doubles", 1, _pungs_of(lambda v: DRAGONS)),
    Item("round_wind_pung", "Pung of Round Wind", "圈風刻", "doubles", 1, _pungs_of(lambda v: (wind_code(v.round),))),
    Item("own_wind_pung", "Pung of Own Wind", "門風刻", "doubles", 1, _pungs_of(lambda v: (wind_code(v.seat),))),
    Item("all_flowers", "All Four Flowers", "四花", "doubles", 1, _full_group("flower")),
    Item("all_seasons", "All Four Seasons", "四季", "doubles", 1, _full_group("season")),
    Item("own_flower_and_season", "Own Flower and Own Season", "正花正季", "doubles", 1, own_flower_and_season),
    Item("three_concealed_pungs", "Three Concealed Pungs", "三暗刻", "doubles", 1, three_concealed_pungs),
    Item("little_three_dragons", "Little Three Dragons", "小三元", "doubles", 1, _little(DRAGONS, 3)),
    Item("little_four_winds", "Little Four Winds", "小四喜", "doubles", 1, _little(WINDS, 4)),
    Item("big_three_dragons", "Big Three Dragons", "大三元", "doubles", 2, _big(DRAGONS)),
    Item("big_four_winds", "Big Four Winds", "大四喜", "doubles", 2, _big(WINDS)),
    # doubles for the winner
    Item("last_wall_tile", "Last Tile of the Wall", "海底撈月", "doubles", 1,
         _ctx(lambda c: c.last_wall_tile and not c.kong), "winner"),
    Item("last_discard", "Last Discard", "河底撈魚", "doubles", 1, _ctx(lambda c: c.last_discard), "winner"),
    Item("loose_tile", "Win with a Loose Tile", "槓上開花", "doubles", 1, _ctx(lambda c: c.replacement), "winner"),
    Item("loose_after_last_tile", "Loose Tile after the Last Wall Tile", "海底開花", "doubles", 1,
         _ctx(lambda c: c.replacement and c.last_tile), "winner"),
    Item("robbing_kong", "Robbing the Kong", "搶槓", "doubles", 1, _ctx(lambda c: c.robbing), "winner"),
    Item("all_chows", "All Chows and a Non-scoring Pair", "平和", "doubles", 1, all_chows, "winner"),
    Item("no_chows", "No Chows", "對對和", "doubles", 1, no_chows, "winner"),
    Item("half_flush", "Half Flush", "混一色", "doubles", 1, _flush("half"), "winner", family="flush"),
    Item("full_flush", "Full Flush", "清一色", "doubles", 3, _flush("full"), "winner", family="flush"),
    Item("majors_in_every_set", "Majors in Every Set", "全帶么", "doubles", 1, majors_in_every_set, "winner",
         family="majors"),
    Item("only_majors", "Only Major Tiles", "么九", "doubles", 2, only_majors, "winner", family="majors"),
    Item("pure_straight", "Pure Straight", "一條龍", "doubles", _on("pure_straight_double", 1), pure_straight, "winner"),
    Item("concealed_hand", "Concealed Hand", "門前清", "doubles", _on("concealed_double", 1), concealed_hand, "winner"),
)


# --- limit hands (option `limit_hands`, default off: not in the seed) --------------------

LIMIT_HANDS: tuple[tuple[str, str, str, Callable[[Reading], bool]], ...] = (
    ("thirteen_orphans", "Thirteen Orphans", "十三么", lambda r: r.shape is Shape.THIRTEEN_ORPHANS),
    ("nine_gates", "Nine Gates", "九蓮寶燈", lambda r: nine_gates(r.hand)),
    ("all_honours", "All Honours", "字一色", lambda r: r.all_tiles(lambda t: t[1] == "z")),
    ("all_terminals", "All Terminals", "清么九", lambda r: r.all_tiles(lambda t: t[1] != "z" and t[0] in "19")),
    ("four_kongs", "Four Kongs", "十八羅漢", lambda r: sum(len(s.tiles) == 4 for s in r.sets) == 4),
    ("heavenly_hand", "Heavenly Hand", "天和", lambda r: r.ctx.blessing == "heavenly"),
    ("earthly_hand", "Earthly Hand", "地和", lambda r: r.ctx.blessing == "earthly"),
    ("human_hand", "Human Hand", "人和", lambda r: r.ctx.blessing == "human"),
)
