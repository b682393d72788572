"""The Hong Kong fan table (docs/rules.md §2.2): one row per fan, one small predicate per fan.

A predicate takes a `Reading` and the options and returns its occurrences: a list of
`(scope, tiles-or-sets)`, empty when the fan does not apply. `value` is the fan of one
occurrence (an int, `LIMIT`, or a function of the options that may return None: "not in
this table"). `family`: "only the highest in a family" (seed 002, both presets) keeps, for
each `family:scope`, only the row worth most; the scope separates the flower group from
the season group so that a Flower Set replaces only the Own Flower of its own group.
`bonus` marks the fans from bonus tiles (option `flowers_count_toward_minimum`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..decompose import Shape
from ..tiles import (DRAGONS, WINDS, bonus_family, bonus_seat, is_honour, is_terminal,
                     is_terminal_or_honour)
from .reading import Reading, flush, label, nine_gates

LIMIT = "limit"
Hits = list[tuple[str, tuple[str, ...]]]


@dataclass(frozen=True)
class Fan:
    key: str
    name: str
    name_zh: str
    value: int | str | Callable
    pred: Callable[[Reading, object], Hits]
    family: str | None = None
    bonus: bool = False          # a fan from bonus tiles
    shapeless: bool = False      # may apply without a complete hand (flower wins)

    def fan(self, options) -> int | str | None:
        return self.value(options) if callable(self.value) else self.value


def _one(ok: bool, sets) -> Hits:
    return [("", tuple(sets))] if ok else []


# --- limit hands ------------------------------------------------------------------------

def thirteen_orphans(r: Reading, o) -> Hits:
    return _one(r.shape is Shape.THIRTEEN_ORPHANS, r.labels)


def nine_gates_(r: Reading, o) -> Hits:
    return _one(nine_gates(r.hand), r.labels)


def great_four_winds(r: Reading, o) -> Hits:
    return _one(len(r.wind_pungs) == 4, map(label, r.wind_pungs))


def little_four_winds(r: Reading, o) -> Hits:
    ok = len(r.wind_pungs) == 3 and r.pair is not None and r.pair.tile in WINDS
    return _one(ok, [*map(label, r.wind_pungs), label(r.pair)] if ok else ())


def great_three_dragons(r: Reading, o) -> Hits:
    return _one(len(r.dragon_pungs) == 3, map(label, r.dragon_pungs))


def all_honours(r: Reading, o) -> Hits:
    return _one(r.all_tiles(is_honour), r.labels)


def all_terminals(r: Reading, o) -> Hits:
    return _one(r.all_tiles(is_terminal), r.labels)


def four_kongs(r: Reading, o) -> Hits:
    kongs = [s for s in r.pungs if len(s.tiles) == 4]
    return _one(len(kongs) == 4, map(label, kongs))


def four_concealed_pungs(r: Reading, o) -> Hits:
    # a pung completed by a discard is exposed (Reading), so a discard win needs the pair
    ok = len(r.pungs) == 4 and all(s.concealed for s in r.pungs)
    ok = ok and (r.ctx.self_drawn or not o.four_concealed_pungs_self_drawn_only)
    return _one(ok, map(label, r.pungs))


def _blessing(kind: str):
    def pred(r: Reading, o) -> Hits:
        return _one(r.ctx.blessing == kind, r.winning_label)
    pred.__name__ = kind
    return pred


def all_eight_flowers(r: Reading, o) -> Hits:
    return _one(len(r.hand.bonus) == 8 and r.ctx.self_drawn, r.hand.bonus)


def seven_robs_one(r: Reading, o) -> Hits:
    # the eighth bonus tile was drawn by another player, who pays as a discarder would
    return _one(len(r.hand.bonus) == 8 and not r.ctx.self_drawn, r.hand.bonus)


# --- fans ---------------------------------------------------------------------------------

def full_flush(r: Reading, o) -> Hits:
    return _one(flush(r.tiles) == "full", r.labels)


def half_flush(r: Reading, o) -> Hits:
    return _one(flush(r.tiles) == "half", r.labels)


def little_three_dragons(r: Reading, o) -> Hits:
    ok = len(r.dragon_pungs) == 2 and r.pair is not None and r.pair.tile in DRAGONS
    return _one(ok, [*map(label, r.dragon_pungs), label(r.pair)] if ok else ())


def seven_pairs(r: Reading, o) -> Hits:
    return _one(r.shape is Shape.SEVEN_PAIRS, r.labels)


def all_pungs(r: Reading, o) -> Hits:
    return _one(r.standard and len(r.pungs) == 4, map(label, r.pungs))


def dragon_pung(r: Reading, o) -> Hits:
    return [("", (label(s),)) for s in r.dragon_pungs]


def seat_wind(r: Reading, o) -> Hits:
    return [("", (label(s),)) for s in r.pungs_of((r.seat_wind,))]


def prevalent_wind(r: Reading, o) -> Hits:
    return [("", (label(s),)) for s in r.pungs_of((r.round_wind,))]


def mixed_terminals(r: Reading, o) -> Hits:
    ok = r.all_tiles(is_terminal_or_honour) and r.has_honours and any(map(is_terminal, r.tiles))
    return _one(ok, r.labels)


def all_chows(r: Reading, o) -> Hits:
    pair = r.pair
    ok = r.standard and len(r.chows) == 4 and pair is not None
    ok = ok and not (o.all_chows_pair_must_be_suited and is_honour(pair.tile))
    return _one(ok, r.labels)


def concealed_hand(r: Reading, o) -> Hits:
    # 門前清: nothing claimed (concealed kongs allowed); a discard win still qualifies
    ok = r.hand.is_concealed and r.shape is not Shape.THIRTEEN_ORPHANS
    ok = ok and (r.shape is not Shape.SEVEN_PAIRS or o.seven_pairs_adds_concealed)
    return _one(ok, r.labels)


def self_drawn(r: Reading, o) -> Hits:
    return _one(r.ctx.self_drawn, r.winning_label)


def last_wall_tile(r: Reading, o) -> Hits:
    return _one(r.ctx.last_wall_tile, r.winning_label)


def last_discard(r: Reading, o) -> Hits:
    return _one(r.ctx.last_discard, r.winning_label)


def kong_replacement(r: Reading, o) -> Hits:
    return _one(r.ctx.replacement, r.winning_label)


def robbing_kong(r: Reading, o) -> Hits:
    return _one(r.ctx.robbing, r.winning_label)


def _own_bonus(r: Reading) -> dict[str, str]:
    return {bonus_family(t): t for t in r.hand.bonus if bonus_seat(t) == r.ctx.seat}


def _full_groups(r: Reading) -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = {}
    for t in r.hand.bonus:
        groups.setdefault(bonus_family(t), []).append(t)
    return {g: tuple(ts) for g, ts in groups.items() if len(ts) == 4}


def flower_set(r: Reading, o) -> Hits:
    return sorted(_full_groups(r).items())


def own_flower(r: Reading, o) -> Hits:
    return [(g, (t,)) for g, t in sorted(_own_bonus(r).items())]


def no_flowers(r: Reading, o) -> Hits:
    return _one(not r.hand.bonus, ())


def _if(flag: str, value):
    """The row's value when option `flag` is on, else the row is not in this table."""
    return lambda o: value if getattr(o, flag) else None


# Display order: limit hands first, then by value. The table is the only place a fan lives.
FANS: tuple[Fan, ...] = (
    Fan("thirteen_orphans", "Thirteen Orphans", "十三么", LIMIT, thirteen_orphans),
    Fan("nine_gates", "Nine Gates", "九子連環", LIMIT, nine_gates_),
    Fan("great_four_winds", "Great Four Winds", "大四喜", LIMIT, great_four_winds),
    Fan("little_four_winds", "Little Four Winds", "小四喜", _if("little_four_winds_limit", LIMIT), little_four_winds),
    Fan("great_three_dragons", "Great Three Dragons", "大三元",
        lambda o: LIMIT if o.great_three_dragons_limit else o.great_three_dragons_fan,
        great_three_dragons, family="dragons"),
    Fan("all_honours", "All Honours", "字一色", LIMIT, all_honours, family="flush"),
    Fan("all_terminals", "All Terminals", "清么九", LIMIT, all_terminals),
    Fan("four_kongs", "Four Kongs", "十八羅漢", LIMIT, four_kongs),
    Fan("four_concealed_pungs", "Four Concealed Pungs", "坎坎糊", LIMIT, four_concealed_pungs),
    Fan("heavenly_hand", "Heavenly Hand", "天糊", _if("blessings_limit", LIMIT), _blessing("heavenly")),
    Fan("earthly_hand", "Earthly Hand", "地糊", _if("blessings_limit", LIMIT), _blessing("earthly")),
    Fan("human_hand", "Human Hand", "人糊", _if("blessings_limit", LIMIT), _blessing("human")),
    Fan("all_eight_flowers", "All Eight Flowers", "八仙過海", _if("flower_hands_limit", LIMIT),
        all_eight_flowers, bonus=True, shapeless=True),
    Fan("seven_robs_one", "Seven Flowers Rob One", "七搶一", _if("flower_hands_limit", LIMIT),
        seven_robs_one, bonus=True, shapeless=True),
    Fan("full_flush", "Full Flush", "清一色", 7, full_flush, family="flush"),
    Fan("little_three_dragons", "Little Three Dragons", "小三元", 5, little_three_dragons, family="dragons"),
    Fan("seven_pairs", "Seven Pairs", "七對子", lambda o: o.seven_pairs_fan if o.allow_seven_pairs else None,
        seven_pairs),
    Fan("all_pungs", "All Pungs", "對對糊", 3, all_pungs),
    Fan("half_flush", "Half Flush", "混一色", 3, half_flush, family="flush"),
    Fan("dragon_pung", "Dragon Pung", "三元牌", 1, dragon_pung, family="dragons"),
    Fan("seat_wind", "Seat Wind", "門風", 1, seat_wind),
    Fan("prevalent_wind", "Prevalent Wind", "圈風", 1, prevalent_wind),
    Fan("mixed_terminals", "Mixed Terminals", "混么九", _if("mixed_terminals", 1), mixed_terminals),
    Fan("all_chows", "All Chows", "平糊", 1, all_chows),
    Fan("concealed_hand", "Concealed Hand", "門前清", 1, concealed_hand),
    Fan("self_drawn", "Self-Drawn", "自摸", 1, self_drawn),
    Fan("last_wall_tile", "Win on Last Wall Tile", "海底撈月", 1, last_wall_tile),
    Fan("last_discard", "Win on Last Discard", "河底撈魚", _if("last_discard_fan", 1), last_discard),
    Fan("kong_replacement", "Win on Kong Replacement", "槓上開花", 1, kong_replacement),
    Fan("robbing_kong", "Robbing the Kong", "搶槓", 1, robbing_kong),
    Fan("flower_set", "Flower Set", "一台花", 2, flower_set, family="bonus", bonus=True),
    Fan("own_flower", "Own Flower", "正花", 1, own_flower, family="bonus", bonus=True),
    Fan("no_flowers", "No Flowers", "無花", 1, no_flowers, bonus=True),
)
