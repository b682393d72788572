"""What every scorer returns: `FanHit` (one fan or item, and the sets that made it) and
`ScoreResult`. Plain frozen data, JSON-ready through `to_dict`."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass


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

    def to_dict(self) -> dict:
        return {"name": self.name, "name_zh": self.name_zh, "points": self.points, "count": self.count,
                "sets": list(self.sets), "kind": self.kind}


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
        # built field by field: dataclasses.asdict deep-copies every fan twice, the most
        # of a batch line's time; the dict is the same and shares nothing with the result
        return {"rules": self.rules, "hand": self.hand, "valid": self.valid, "total": self.total,
                "fans": [f.to_dict() for f in self.fans], "reason": self.reason,
                "payments": None if self.payments is None else dict(self.payments),
                "details": _plain(self.details), "error": None}


_ATOMS = (str, int, float, bool, type(None))


def _plain(value):
    """A copy of `value` made of plain containers, as `dataclasses.asdict` makes it."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _plain(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return kind([v if type(v) in _ATOMS else _plain(v) for v in value])
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return value
