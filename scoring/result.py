"""What every scorer returns: `FanHit` (one fan or item, and the sets that made it) and
`ScoreResult`. Plain frozen data, JSON-ready through `to_dict`."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class FanHit:
    """One fan (MCR, HK) or scoring item (Classical points/doubles) of a result.

    `points` is the value of one occurrence, `count` how often it scored; `sets` names the
    sets or tiles that made it in the hand notation (e.g. ("[123m]", "456m")).
    `kind` distinguishes Classical 'points' from 'doubles'; MCR and HK use 'fan'.
    """
    name: str
    name_zh: str
    points: int
    count: int = 1
    sets: tuple[str, ...] = ()
    kind: str = "fan"

    @property
    def value(self) -> int:
        return self.points * self.count


@dataclass(frozen=True)
class ScoreResult:
    """`total`: the rule set's value of the hand, bonus tiles included (MCR points, HK fan
    after the limit, Classical score). `valid`: complete and meets the minimum; otherwise
    `reason` says why. `payments`: seat letter → amount, zero-sum, or None when it cannot be
    settled (a discard win whose discarder is unknown). `details`: rule-set specifics
    (e.g. HK base points, Classical basic points and doubles, the decomposition used)."""
    rules: str
    hand: str
    valid: bool
    total: int
    fans: tuple[FanHit, ...] = ()
    reason: str | None = None
    payments: dict[str, float] | None = None
    details: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["fans"] = [dict(asdict(f), sets=list(f.sets)) for f in self.fans]
        d["error"] = None
        return d
