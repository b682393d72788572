"""The rule that chooses how a set is blended (datasets.eval.tileset.choose)."""
from __future__ import annotations

import pytest

from datasets.eval.tileset import choose


def row(weight, mean_f1, mean_bonus, qualifies=True):
    return {"blend": {"weight": weight, "temperature": 0.05, "threshold": 0.6},
            "qualifies": qualifies, "mean_f1": mean_f1, "mean_bonus": mean_bonus}


@pytest.mark.parametrize("rows, weight", [
    ([row(0.5, 0.80, 0.5), row(0.8, 0.82, 0.5)], 0.8),                   # best mean F1
    ([row(0.5, 0.80, 0.5), row(0.8, 0.83, 0.5, qualifies=False)], 0.5),  # never worse first
    ([row(0.8, 0.820, 0.5), row(1.0, 0.819, 0.7)], 1.0),                 # within TIE: bonus
    ([row(1.0, 0.820, 0.5), row(0.5, 0.8195, 0.5)], 0.5),                # then smaller weight
    ([row(0.5, 0.9, 0.9, qualifies=False)], None),                       # none qualifies
])
def test_the_rule_picks_the_best_blend_that_is_never_worse(rows, weight):
    chosen = choose(rows)
    assert (chosen and chosen["weight"]) == weight
