"""Settling up at the end of a night (scoring.payments.settle_up): who pays whom, in the
fewest payments for four players."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.payments import settle_up


@pytest.mark.parametrize("totals,payments", [
    ({"A": 0, "B": 0, "C": 0, "D": 0}, []),
    ({"A": 10, "B": -10, "C": 0, "D": 0}, [("B", "A", 10)]),
    # two pairs that cancel pay each other, not across
    ({"A": 5, "B": 3, "C": -3, "D": -5}, [("D", "A", 5), ("C", "B", 3)]),
    ({"A": 7.5, "B": -2.5, "C": -2.5, "D": -2.5}, [("B", "A", 2.5), ("C", "A", 2.5), ("D", "A", 2.5)]),
    ({"A": 6, "B": 4, "C": -5, "D": -5}, [("C", "A", 5), ("D", "B", 4), ("D", "A", 1)]),
    ({"A": 0.1 + 0.2, "B": -0.3, "C": 0, "D": 0}, [("B", "A", 0.3)]),  # sums of tenths are even
])
def test_who_pays_whom(totals, payments):
    got = settle_up(totals)
    assert [(a, b) for a, b, _ in got] == [(a, b) for a, b, _ in payments]
    assert [x for _, _, x in got] == pytest.approx([x for _, _, x in payments])


def _fewest(totals: dict[str, int]) -> int:
    """Players less the most groups the nonzero totals split into that each sum to 0."""
    players = [p for p, v in totals.items() if v]
    best = 0
    for k in range(1, len(players) + 1):  # a partition into groups: try every labelling
        for labels in itertools.product(range(k), repeat=len(players)):
            groups = [[totals[p] for p, g in zip(players, labels) if g == i] for i in range(k)]
            if all(g and sum(g) == 0 for g in groups):
                best = max(best, k)
    return len(players) - best


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-300, 300), min_size=3, max_size=3))
def test_four_totals_are_settled_in_the_fewest_payments(first_three):
    totals = dict(zip("ESWN", [*first_three, -sum(first_three)]))
    payments = settle_up(totals)
    left = dict(totals)
    for payer, payee, amount in payments:
        assert amount > 0 and totals[payer] < 0 < totals[payee]
        left[payer] += amount
        left[payee] -= amount
    assert all(abs(v) < 1e-9 for v in left.values())
    assert len(payments) == _fewest(totals) <= 3
