"""Hong Kong old style (docs/rules.md §2): one engine, presets `hk001` (seed 001) and `hk002`
(seed 002). Every point where the two seeds disagree is an option; the fan table is in
`hk_fans`.

Scoring one reading: evaluate every row of the table; if a limit hand applies the hand is
worth exactly the limit and no other fan is listed (both seeds); otherwise "only the highest
in a family" drops the lesser rows of each family and the fans are summed and capped.

Ranking of readings (docs/architecture.md, "Style"), over every decomposition and every placement of the
winning tile: (1) the higher fan after the limit, (2) a limit hand before a capped one,
(3) the higher fan before the limit, (4) the engine's first decomposition. Only legal
shapes are read: 4 sets + pair, Thirteen Orphans, and Seven Pairs when allowed.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..decompose import Shape, decompositions
from ..errors import InvalidHandError
from ..hand import Hand, WinContext, format_hand
from ..payments import DISCARD_SPLITS, MULTIPLIERS, hk as hk_payments, hk_portion, money
from ..result import FanHit, ScoreResult
from .hk_fans import FANS, LIMIT, Fan
from .flags import possible_context, unscored_blessing
from .optcheck import CheckedOptions
from .reading import Reading, legal_waits, readings


@dataclass(frozen=True)
class Options(CheckedOptions):
    """Defaults = preset hk001 (seed 001); `PRESETS['hk002']` flips what seed 002 says."""
    limit: int = 13
    minimum: int = 3
    flowers_count_toward_minimum: bool = True   # seeds silent; Wikipedia's old HK says no
    allow_seven_pairs: bool = True
    seven_pairs_fan: int = 4
    seven_pairs_adds_concealed: bool = False
    great_three_dragons_limit: bool = True
    great_three_dragons_fan: int = 8             # used when not a limit hand (seed 002)
    little_four_winds_limit: bool = False
    four_concealed_pungs_self_drawn_only: bool = True
    mixed_terminals: bool = False
    last_discard_fan: bool = True
    all_chows_pair_must_be_suited: bool = True
    blessings_limit: bool = False                # heavenly / earthly / human hand
    flower_hands_limit: bool = False             # all eight flowers / seven flowers rob one
    # payout (§2.3)
    multiplier: str = "spicy"                    # spicy 2^fan | half_spicy
    discard_split: str = "seed001"               # seed001 | full_responsibility | half_responsibility | classic_modifier
    self_draw_each: int = 1                      # portions each loser pays on a self-draw
    unit: float = 1

    # tables play 3 to 13 fan; 20 keeps 2 ** fan portions small whatever the payout
    RANGES = {"limit": (1, 20), "minimum": (0, 20), "seven_pairs_fan": (0, 20),
              "great_three_dragons_fan": (0, 20), "unit": (0.01, 1_000_000)}
    CHOICES = {"multiplier": tuple(MULTIPLIERS), "discard_split": tuple(DISCARD_SPLITS),
               "self_draw_each": (1, 2)}

    def check(self) -> None:
        # money to the cent: every amount (half a portion at most) then stays exact
        if money(self.unit) % 1 * 100 % 1:
            raise InvalidHandError(f"option unit must be in whole hundredths (0.01, 512.07), "
                                   f"got {self.unit!r}")


PRESETS: dict[str, Options] = {
    "hk001": Options(),
    "hk002": Options(
        limit=10, allow_seven_pairs=False, great_three_dragons_limit=False,
        little_four_winds_limit=True, four_concealed_pungs_self_drawn_only=False,
        mixed_terminals=True, last_discard_fan=False, all_chows_pair_must_be_suited=False,
        blessings_limit=True, flower_hands_limit=True),
}

LEGAL = frozenset({Shape.STANDARD, Shape.THIRTEEN_ORPHANS})


def legal_shapes(options: Options) -> frozenset[Shape]:
    return LEGAL | ({Shape.SEVEN_PAIRS} if options.allow_seven_pairs else set())


@dataclass(frozen=True)
class Scored:
    reading: Reading
    fans: tuple[FanHit, ...]
    raw: int                 # fan before the limit (a limit hand: the limit)
    total: int               # fan after the limit
    limit_hands: tuple[str, ...]
    bonus_fan: int           # fan from bonus tiles (for flowers_count_toward_minimum)

    @property
    def rank(self) -> tuple:
        return (self.total, bool(self.limit_hands), self.raw)


def evaluate(r: Reading, options: Options, rows=FANS) -> Scored:
    found: list[tuple[Fan, int | str, list]] = []
    for row in rows:
        value = row.fan(options)
        if value is None:
            continue
        occurrences = row.pred(r, options)
        if occurrences:
            found.append((row, value, occurrences))
    limits = [(row, occ) for row, value, occ in found if value == LIMIT]
    if limits:
        row, occ = limits[0]  # the first in table order explains the hand; the rest are details
        hit = FanHit(row.name, row.name_zh, options.limit, 1, tuple(s for _, g in occ for s in g))
        return Scored(r, (hit,), options.limit, options.limit, tuple(row.key for row, _ in limits), 0)
    # only the highest in a family: per family:scope keep the row with the largest sum
    best: dict[str, tuple[int, Fan]] = {}
    for row, value, occ in found:
        if row.family:
            for scope in {s for s, _ in occ}:
                worth = value * sum(1 for s, _ in occ if s == scope)
                key = f"{row.family}:{scope}"
                if key not in best or worth > best[key][0]:
                    best[key] = (worth, row)
    hits, raw, bonus = [], 0, 0
    for row, value, occ in found:
        if row.family:
            occ = [(s, g) for s, g in occ if best[f"{row.family}:{s}"][1] is row]
        if not occ:
            continue
        hit = FanHit(row.name, row.name_zh, value, len(occ), tuple(s for _, g in occ for s in g))
        hits.append(hit)
        raw += hit.value
        bonus += hit.value if row.bonus else 0
    return Scored(r, tuple(hits), raw, min(raw, options.limit), (), bonus)


def best_reading(hand: Hand, ctx: WinContext, options: Options) -> Scored | None:
    """The best reading by the ranking above; None when the hand is not a legal win."""
    candidates = [evaluate(r, options) for r in readings(hand, ctx, legal_shapes(options))]
    shapeless = tuple(row for row in FANS if row.shapeless)
    if len(hand.bonus) == 8:  # a flower win needs no complete hand (HK002)
        flower = evaluate(Reading(hand, ctx, None), options, shapeless)
        if flower.limit_hands:
            candidates.append(flower)
    best = None
    for c in candidates:  # max() would also do; the loop keeps the first of equals explicit
        if best is None or c.rank > best.rank:
            best = c
    return best


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _check_blessing(ctx: WinContext, options: Options) -> None:
    if not (ctx.blessing and options.blessings_limit):
        return
    dealer = ctx.seat == ctx.dealer
    ok = {"heavenly": dealer and ctx.self_drawn,
          "earthly": not dealer and not ctx.self_drawn and ctx.discarder in (None, ctx.dealer),
          "human": not dealer and ctx.self_drawn}[ctx.blessing]
    if not ok:
        need = {"heavenly": "the dealer winning on the dealt tiles (self-drawn)",
                "earthly": "a non-dealer winning on the dealer's first discard",
                "human": "a non-dealer winning on the first own draw (self-drawn)"}[ctx.blessing]
        raise InvalidHandError(f"{_article(ctx.blessing)} {ctx.blessing} hand is {need}")


def not_winning_reason(hand: Hand, options: Options) -> str:
    if hand.winning and not options.allow_seven_pairs and \
            any(d.shape is Shape.SEVEN_PAIRS for d in decompositions(hand)):
        return "seven pairs is not a winning hand under these rules (allow_seven_pairs is off)"
    waits = legal_waits(hand, legal_shapes(options))
    if waits:
        return f"not a complete hand; waits on {', '.join(waits)}"
    return "not a complete hand; no tile completes it"


def score(hand: Hand, ctx: WinContext, options: Options | None = None) -> ScoreResult:
    options = options or Options()
    _check_blessing(ctx, options)
    ctx, ignored = possible_context(hand, ctx)  # a kong flag without a kong scores nothing
    ignored += unscored_blessing(ctx, options.blessings_limit)
    text = format_hand(hand)
    best = best_reading(hand, ctx, options)
    if best is None:
        return ScoreResult("hk", text, False, 0, reason=not_winning_reason(hand, options),
                           details={"fan": 0, "limit": options.limit, "minimum": options.minimum, "base": 0})
    counted = best.total if options.flowers_count_toward_minimum or best.limit_hands \
        else best.raw - best.bonus_fan
    valid = counted >= options.minimum
    reason = None
    if not valid:
        without = "" if options.flowers_count_toward_minimum else " not counting bonus-tile fans"
        reason = f"{counted} fan{without} is below the minimum of {options.minimum}"
    base = hk_portion(best.total, options.multiplier, options.unit)
    payments = hk_payments(best.total, ctx, multiplier=options.multiplier, discard_split=options.discard_split,
                           self_draw_each=options.self_draw_each, unit=options.unit) if valid else None
    r = best.reading
    details = {
        "fan": best.raw, "limit": options.limit, "minimum": options.minimum,
        "limit_hand": best.limit_hands[0] if best.limit_hands else None,
        "limit_hands": list(best.limit_hands), "base": base,
        "shape": r.shape.value if r.shape else "flowers", "decomposition": list(r.labels) if r.shape else [],
        "ignored_flags": list(ignored),
    }
    return ScoreResult("hk", text, valid, best.total, best.fans, reason, payments, details)
