"""The page under a hostile player: a rule option no table uses never reaches the scorer
(a Hong Kong limit of 10**12 once made the server compute 2 ** 10**12 for minutes). The
number box is bounded by the rule set's range, and the scorer checks it again."""
from __future__ import annotations

import time

from app_fixtures import texts


def test_a_huge_hong_kong_limit_is_refused_at_once(page):
    page.segmented_control(key="rules").set_value("hk001").run()
    page.segmented_control(key="mode__win").set_value("Manual").run()
    page.text_input(key="notation__win__0").set_value("[CCC1][FFF1][PPP1]234p5p5p").run()
    box = next(n for n in page.number_input if n.key.endswith("__limit"))
    assert box.max == 20
    start = time.perf_counter()
    box.set_value(1_000_000_000_000).run()
    assert time.perf_counter() - start < 10
    assert not page.exception
    limit = next(n for n in page.number_input if n.key.endswith("__limit"))
    assert 1 <= limit.value <= 20
    assert "Total: 13 fan" in texts(page)
