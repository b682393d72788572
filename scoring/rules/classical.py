"""Chinese Classical (docs/rules.md §3, seed 003): points × 2^doubles for every player, a limit,
and settlement among all four players. The item table is in `classical_items`; losers'
hands (any number of loose tiles) are in `classical_table`, with the table settlement.

Every player: `score = min(limit, basic points × 2^doubles)`; the Mahjong bonus, the
winner's points and the winner-only doubles go to the winner alone (§3.1).

Ranking of the winner's readings (docs/architecture.md, "Style"), over every decomposition and every
placement of the winning tile: (1) the higher score after the limit, (2) the higher score
before it, (3) the engine's first decomposition. Legal shapes: 4 sets + pair, and Thirteen
Orphans when the optional limit hands are on.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..decompose import Shape
from ..errors import InvalidHandError
from ..hand import Hand, WinContext, format_hand
from ..payments import classical as settle
from ..result import FanHit, ScoreResult
from .classical_items import ITEMS, LIMIT_HANDS, View
from .flags import possible_context, unscored_blessing
from .optcheck import CheckedOptions
from .reading import Reading, legal_waits, readings

DEFAULT_LIMIT = 1000  # the value of a limit hand when the table plays without a limit


@dataclass(frozen=True)
class Options(CheckedOptions):
    mahjong_points: int = 20                 # seed: "most sources 20, sometimes 10"
    limit: int | None = 1000                 # None: no limit [choice, seed silent]
    only_possible_tile: bool = True          # +2: unique wait or the last live copy
    east_pays_receives_double: bool = True
    discarder_pays_all: bool = False         # a discard win paid by the discarder alone
    losers_settle: bool = True               # losers pay each other the differences
    loser_pairs: int = 1                     # how many pairs in a loser's hand may score [choice]
    limit_hands: bool = False                # Thirteen Orphans, Nine Gates, ... (not in the seed)
    pure_straight_double: bool = False       # not in the seed
    concealed_double: bool = False           # not in the seed

    # what a real table could use (the seed: 10 or 20 mahjong points, a limit of 1000)
    RANGES = {"mahjong_points": (0, 100), "limit": (1, 100_000), "loser_pairs": (0, 7)}

    @property
    def limit_value(self) -> int:
        return self.limit or DEFAULT_LIMIT


PRESETS: dict[str, Options] = {"seed003": Options()}


@dataclass(frozen=True)
class Scored:
    view: View
    items: tuple[FanHit, ...]
    basic: int
    doubles: int
    raw: int
    total: int
    limit_hand: str | None = None

    @property
    def rank(self) -> tuple[int, int]:
        return (self.total, self.raw)

    def details(self, options: Options) -> dict:
        return {"basic": self.basic, "doubles": self.doubles, "raw": self.raw, "limit": options.limit,
                "limit_hand": self.limit_hand}


def evaluate(view: View, options: Options, winner: bool) -> Scored:
    """Score one reading of one player's hand."""
    found = []
    for item in ITEMS:
        if item.who == "winner" and not winner:
            continue
        value = item.amount(options)
        if value is None:
            continue
        occurrences = item.pred(view, options)
        if occurrences:
            found.append((item, value, occurrences))
    best: dict[str, tuple[int, object]] = {}
    for item, value, occ in found:
        if item.family and (item.family not in best or value * len(occ) > best[item.family][0]):
            best[item.family] = (value * len(occ), item)
    hits = tuple(FanHit(item.name, item.name_zh, value, len(occ), tuple(s for o in occ for s in o), item.kind)
                 for item, value, occ in found if not item.family or best[item.family][1] is item)
    basic = sum(h.value for h in hits if h.kind == "points")
    doubles = sum(h.value for h in hits if h.kind == "doubles")
    raw = basic * 2 ** doubles
    total = raw if options.limit is None else min(raw, options.limit)
    return Scored(view, hits, basic, doubles, raw, total)


def _winner_view(r: Reading, unique_wait: bool) -> View:
    return View(r.sets, r.hand.bonus, r.ctx.seat, r.ctx.round, r, unique_wait)


def _limit_hand(r: Reading, view: View, options: Options) -> Scored | None:
    if not options.limit_hands:
        return None
    for key, name, name_zh, test in LIMIT_HANDS:
        if test(r):
            v = options.limit_value
            return Scored(view, (FanHit(name, name_zh, v, 1, r.labels, "points"),), v, 0, v, v, key)
    return None


def shapes(options: Options) -> frozenset[Shape]:
    return frozenset({Shape.STANDARD} | ({Shape.THIRTEEN_ORPHANS} if options.limit_hands else set()))


def best_winner(hand: Hand, ctx: WinContext, options: Options) -> Scored | None:
    legal = shapes(options)
    candidates = readings(hand, ctx, legal)
    if not candidates:
        return None
    unique = len(legal_waits(hand, legal)) == 1
    best = None
    for r in candidates:
        view = _winner_view(r, unique)
        scored = _limit_hand(r, view, options) or evaluate(view, options, winner=True)
        if best is None or scored.rank > best.rank:
            best = scored
    return best


def winner_payments(total: int, ctx: WinContext, options: Options, scores: dict[int, int] | None = None):
    """Net per seat and transfers; `scores` holds the losers whose hands were scored."""
    if options.discarder_pays_all and not ctx.self_drawn and ctx.discarder is None:
        return None, []
    return settle({**(scores or {}), ctx.seat: total}, ctx.seat, east=ctx.dealer,
                  east_double=options.east_pays_receives_double, losers_settle=options.losers_settle,
                  discarder=None if ctx.self_drawn else ctx.discarder,
                  discarder_pays_all=options.discarder_pays_all)


def not_winning_reason(hand: Hand, options: Options) -> str:
    waits = legal_waits(hand, shapes(options))
    if waits:
        return f"not a complete hand; waits on {', '.join(waits)}"
    return "not a complete hand; no tile completes it"


def score(hand: Hand, ctx: WinContext, options: Options | None = None) -> ScoreResult:
    """The winner's score. Payments assume the losers' hands are unknown: each loser pays the
    winner and nothing is settled among them (use `score_table` with their hands)."""
    options = options or Options()
    ctx, ignored = possible_context(hand, ctx)  # flags the tiles rule out score nothing
    ignored += unscored_blessing(ctx, options.limit_hands)
    text = format_hand(hand)
    best = best_winner(hand, ctx, options)
    if best is None:
        return ScoreResult("classical", text, False, 0, reason=not_winning_reason(hand, options),
                           details={"role": "winner", "basic": 0, "doubles": 0, "raw": 0, "limit": options.limit})
    net, _ = winner_payments(best.total, ctx, options)
    r = best.view.win
    details = {"role": "winner", **best.details(options), "shape": r.shape.value,
               "decomposition": list(r.labels), "ignored_flags": list(ignored)}
    return ScoreResult("classical", text, True, best.total, best.items, None, net, details)


# The table (the losers' hands and the settlement among all four) is scoring.rules.classical_table.
__all__ = ["Options", "PRESETS", "score", "evaluate"]
