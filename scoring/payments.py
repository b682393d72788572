"""Payments: pure functions returning a zero-sum mapping seat letter → amount (design.md style 5).

Seats are 0..3 = E S W N. A positive amount is received, a negative one paid.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from .hand import WinContext

SEATS = "ESWN"


def _zero_sum(amounts: dict[int, float]) -> dict[str, float]:
    out = {SEATS[s]: amounts.get(s, 0) for s in range(4)}
    assert abs(sum(out.values())) < 1e-9, out  # a broken payment rule must never settle a table
    return out


def mcr(points: int, ctx: WinContext, base: int = 8) -> dict[str, float] | None:
    """MCR (rules.md §1.5): self-drawn, each loser pays B + 8; on a discard the discarder pays
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
    """MCR standings at the end of a session: 4/2/1/0 table points by rank; players tied on
    score split the table points of the places they share (rules.md §1.5, EMA convention)."""
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
