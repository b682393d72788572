"""Payments: pure functions returning a zero-sum mapping seat letter → amount (docs/architecture.md, "Style").

Seats are 0..3 = E S W N. A positive amount is received, a negative one paid.

Money is exact: amounts are summed as the decimals they stand for (`money`), so that a unit
of 512.07 settles to zero to the cent, and given out as int when whole, else as the float
whose shortest form is that decimal (`amount`), for JSON and the ledger.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

from .hand import WinContext
from .tiles import WIND_LETTERS as SEATS


def money(x: float | int | Decimal) -> Decimal:
    """The exact decimal an amount stands for: a float by its shortest form (474071.04, not
    the binary 474071.0399999...)."""
    if isinstance(x, Decimal):
        return x
    return Decimal(x) if isinstance(x, int) else Decimal(repr(float(x)))


def money_sum(values: Iterable[float | int | Decimal]) -> Decimal:
    return sum((money(v) for v in values), Decimal(0))


def amount(x: float | int | Decimal) -> int | float:
    """An exact amount as JSON and SQLite keep it: int when whole, else a float."""
    d = money(x)
    return int(d) if d == d.to_integral_value() else float(d)


def money_text(x: float | int | Decimal) -> str:
    """An amount written in full (474071.04, 1279998.72; never 474071 or 1.28e+06)."""
    d = money(x)
    return str(int(d)) if d == d.to_integral_value() else format(d.normalize(), "f")


def _zero_sum(amounts: dict[int, float | int | Decimal]) -> dict[str, int | float]:
    out = {SEATS[s]: amounts.get(s, 0) for s in range(4)}
    if all(type(v) is int for v in out.values()):  # whole points (MCR): exact as they are, no decimals
        assert sum(out.values()) == 0, out
        return out
    assert money_sum(out.values()) == 0, out  # a broken payment rule must never settle a table
    return {seat: amount(v) for seat, v in out.items()}


def mcr(points: int, ctx: WinContext, base: int = 8) -> dict[str, float] | None:
    """MCR (docs/rules.md §1.5): self-drawn, each loser pays B + 8; on a discard the discarder pays
    B + 8 and the two others 8 each. `points` B includes flower points. None when a discard
    win has no known discarder (the robbed player counts as the discarder)."""
    w = ctx.seat
    losers = [s for s in range(4) if s != w]
    if ctx.self_drawn:
        pay = {s: -(points + base) for s in losers}
    elif ctx.discarder is None:
        return None
    else:
        pay = {s: -(points + base) if s == ctx.discarder else -base for s in losers}
    pay[w] = -sum(pay.values())
    return _zero_sum(pay)


def table_points(totals: Mapping[str, float], by_rank: Sequence[float] = (4, 2, 1, 0)) -> dict[str, float]:
    """MCR standings at the end of a night: 4/2/1/0 table points by rank; players tied on
    score split the table points of the places they share (docs/rules.md §1.5, EMA convention)."""
    order = sorted(totals, key=lambda p: -totals[p])
    out: dict[str, float] = {}
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and totals[order[j + 1]] == totals[order[i]]:
            j += 1
        share = sum(by_rank[k] if k < len(by_rank) else 0 for k in range(i, j + 1)) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return out



def settle_up(totals: Mapping[str, float]) -> list[tuple[str, str, float]]:
    """Who pays whom at the end of a night: (payer, payee, amount) that bring every total to
    0, in exact money. Totals that cancel exactly pay each other first; the rest, the largest
    debt to the largest credit. For four players that is the fewest payments (a group that
    settles among itself is a pair, or three beside an even player), never more than three."""
    owed = {p: money(v) for p, v in totals.items() if money(v) != 0}
    out: list[tuple[str, str, Decimal]] = []
    for debtor in sorted((p for p in owed if owed[p] < 0), key=lambda p: owed[p]):
        creditor = next((c for c in sorted(owed, key=lambda c: -owed[c])
                         if owed[c] + owed[debtor] == 0), None)
        if creditor is not None:
            out.append((debtor, creditor, owed.pop(creditor)))
            del owed[debtor]
    while owed:
        debtor, creditor = min(owed, key=owed.get), max(owed, key=owed.get)
        if owed[creditor] <= 0 or owed[debtor] >= 0:
            break  # totals that do not sum to 0 leave the rest unmatched
        paid = min(owed[creditor], -owed[debtor])
        out.append((debtor, creditor, paid))
        for p, change in ((debtor, paid), (creditor, -paid)):
            owed[p] += change
            if owed[p] == 0:
                del owed[p]
    return [(debtor, creditor, amount(paid)) for debtor, creditor, paid in out]
    return out

# --- Hong Kong (docs/rules.md §2.3) ------------------------------------------------------------
# A "portion" is unit × multiplier(fan). The seed-001 table pays 1 portion per loser on a
# self-draw and 3 from the discarder; the other splits are the common HK tables, in
# portions paid by (the discarder, each of the two others). Checked against
# yawnoc/mahjong-scorer (full = 全銃, half = 半銃) in the settlement tests.

HALF_SPICY = (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384)  # 半辣上, fan 0..13
DISCARD_SPLITS: dict[str, tuple[Decimal, Decimal]] = {
    "seed001": (Decimal(3), Decimal(0)),
    "full_responsibility": (Decimal(2), Decimal(0)),
    "half_responsibility": (Decimal(1), Decimal("0.5")),
    "classic_modifier": (Decimal(2), Decimal(1)),
}
MULTIPLIERS = ("spicy", "half_spicy")


def hk_multiplier(fan: int, multiplier: str = "spicy") -> int:
    """Spicy 辣辣上: 2^fan. Half-spicy 半辣上: doubles up to 4 fan, then each further fan
    alternates ×1.5 and ×4/3 (16, 24, 32, 48 ...), extended past 13 by the same rule."""
    if fan < 0:
        raise ValueError(f"fan must be 0 or more, got {fan}")
    if multiplier == "spicy":
        return 2 ** fan
    if multiplier == "half_spicy":
        if fan < len(HALF_SPICY):
            return HALF_SPICY[fan]
        even = 2 ** (fan // 2 + 2)
        return even if fan % 2 == 0 else even * 3 // 2
    raise ValueError(f"multiplier must be one of {', '.join(MULTIPLIERS)}, got {multiplier!r}")


def hk_portion(fan: int, multiplier: str = "spicy", unit: float = 1, limit: int | None = None) -> int | float:
    return amount(_portion(fan, multiplier, unit, limit))


def _portion(fan: int, multiplier: str, unit: float, limit: int | None = None) -> Decimal:
    if limit is not None:
        fan = min(fan, limit)
    return money(unit) * hk_multiplier(fan, multiplier)


def hk(fan: int, ctx: WinContext, *, multiplier: str = "spicy", discard_split: str = "seed001",
       self_draw_each: int = 1, unit: float = 1, limit: int | None = None,
       guarantor: int | None = None) -> dict[str, float] | None:
    """Hong Kong payments for one win of `fan` (already capped by the scorer, or by `limit`).
    Self-draw: each loser pays `self_draw_each` portions, or the guarantor (包自摸) pays all
    of them. Discard (or robbed kong: the robbed player is the discarder): the split table.
    None when a discard win has no known discarder."""
    if discard_split not in DISCARD_SPLITS:
        raise ValueError(f"discard_split must be one of {', '.join(DISCARD_SPLITS)}, got {discard_split!r}")
    if self_draw_each not in (1, 2):
        raise ValueError(f"self_draw_each must be 1 or 2, got {self_draw_each!r}")
    portion = _portion(fan, multiplier, unit, limit)
    w = ctx.seat
    losers = [s for s in range(4) if s != w]
    if ctx.self_drawn:
        each = self_draw_each * portion
        if guarantor is not None:
            if guarantor not in losers:
                raise ValueError(f"the guarantor must be one of the losers, got seat {guarantor!r}")
            pay = {guarantor: -3 * each}
        else:
            pay = {s: -each for s in losers}
    elif ctx.discarder is None:
        return None
    else:
        by_discarder, by_other = DISCARD_SPLITS[discard_split]
        pay = {s: -(by_discarder if s == ctx.discarder else by_other) * portion for s in losers}
    pay[w] = -sum(pay.values())
    return _zero_sum(pay)


def hk_false_win(offender: int, max_fan: int, *, multiplier: str = "spicy", unit: float = 1,
                 self_draw_each: int = 1) -> dict[str, float]:
    """詐糊: the player at fault pays each other player what a self-drawn win at the maximum
    fan collects (3 portions each, yawnoc/mahjong-scorer)."""
    each = 3 * self_draw_each * _portion(max_fan, multiplier, unit)
    pay = {s: each for s in range(4) if s != offender}
    pay[offender] = -3 * each
    return _zero_sum(pay)


# --- Chinese Classical (docs/rules.md §3.7) ----------------------------------------------------

def classical(scores: Mapping[int, int], winner: int | None, *, east: int = 0,
              east_double: bool = True, losers_settle: bool = True,
              discarder: int | None = None, discarder_pays_all: bool = False,
              ) -> tuple[dict[str, float], list[tuple[str, str, int]]]:
    """Settlement among all four players → (net per seat letter, transfers (payer, payee,
    amount)). `scores`: seat → score after the limit; a seat missing from `scores` (hand not
    given) pays the winner but takes no part in the losers' settlement.
    1. each loser pays the winner S_w × m (m = 2 when East is payer or payee);
       with `discarder_pays_all` a discard win is paid by the discarder alone, for all three;
    2. each pair of scored losers: the lower pays the higher the difference × m;
    3. no winner (wall game): nothing is paid."""
    transfers: list[tuple[str, str, int]] = []
    if winner is None:
        return _zero_sum({}), transfers

    def m(i: int, j: int) -> int:
        return 2 if east_double and east in (i, j) else 1

    w_score = scores.get(winner, 0)
    losers = [s for s in range(4) if s != winner]
    if discarder_pays_all and discarder is not None:
        if discarder not in losers:
            raise ValueError(f"the discarder must be one of the losers, got seat {discarder!r}")
        owed = sum(w_score * m(s, winner) for s in losers)
        transfers.append((SEATS[discarder], SEATS[winner], owed))
    else:
        transfers += [(SEATS[s], SEATS[winner], w_score * m(s, winner)) for s in losers]
    if losers_settle:
        scored = [s for s in losers if s in scores]
        for a, i in enumerate(scored):
            for j in scored[a + 1:]:
                if scores[i] != scores[j]:
                    hi, lo = (i, j) if scores[i] > scores[j] else (j, i)
                    transfers.append((SEATS[lo], SEATS[hi], (scores[hi] - scores[lo]) * m(hi, lo)))
    transfers = [t for t in transfers if t[2]]
    net: dict[int, float] = {}
    for payer, payee, amount in transfers:
        net[SEATS.index(payer)] = net.get(SEATS.index(payer), 0) - amount
        net[SEATS.index(payee)] = net.get(SEATS.index(payee), 0) + amount
    return _zero_sum(net), transfers
