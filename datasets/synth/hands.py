"""Random complete winning hands, written in the hand notation (scoring.hand).

Scenes must show real finished hands (so the layout stage and the scorer see believable
shapes), not random tiles. This sampler draws the legal winning shapes of docs/rules.md §1.1 from
one physical set (four copies of each tile, one of each bonus tile); tests check every hand
with `scoring.decompose`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from datasets.classes import BONUS_CODES, SUIT_CODES
from scoring.tiles import format_tiles, sorted_tiles

TERMINALS_HONOURS = tuple(f"{n}{s}" for s in "mps" for n in (1, 9)) + tuple(f"{n}z" for n in range(1, 8))


@dataclass(frozen=True)
class DrawnMeld:
    """One declared set as laid on the table."""

    kind: str            # chow, pung, kong, concealed_kong
    tiles: tuple[str, ...]
    offer: int = 0       # notation digit: chow 1-3 = claimed tile; pung/kong 1-3 offerer; 5-7 promoted kong

    @property
    def claimed_index(self) -> int | None:
        """Index of the tile that was claimed (turned sideways on the table), None if none."""
        if self.kind == "concealed_kong" or self.offer == 0:
            return None
        if self.kind == "chow":
            return self.offer - 1
        # The claimed tile is turned towards the offerer: left, opposite (middle), right.
        offerer = self.offer if self.offer < 5 else self.offer - 4
        return {1: 0, 2: 1, 3: len(self.tiles) - 1}[offerer]


@dataclass(frozen=True)
class DrawnHand:
    shape: str                       # standard, seven_pairs, thirteen_orphans, honours_knitted, knitted_straight
    melds: tuple[DrawnMeld, ...]
    concealed: tuple[str, ...]       # concealed tiles without the winning tile, in set order
    winning: str
    bonus: tuple[str, ...] = field(default=())

    @property
    def notation(self) -> str:
        melds = "".join(f"[{format_tiles(m.tiles)}{m.offer or ''}]" for m in self.melds)
        return melds + format_tiles(sorted_tiles(self.concealed)) + format_tiles([self.winning])

    def tiles(self) -> list[str]:
        return [t for m in self.melds for t in m.tiles] + list(self.concealed) + [self.winning]


class _Pool:
    """The tiles still available in one physical set."""

    def __init__(self):
        self.count = {c: 4 for c in SUIT_CODES}

    def take(self, codes) -> bool:
        need: dict[str, int] = {}
        for c in codes:
            need[c] = need.get(c, 0) + 1
        if any(self.count[c] < k for c, k in need.items()):
            return False
        for c, k in need.items():
            self.count[c] -= k
        return True


def _random_set(rng: np.random.Generator, pool: _Pool, kind: str, suits: str) -> tuple[str, ...] | None:
    for _ in range(30):
        s = suits[rng.integers(len(suits))]
        if kind == "chow":
            if s == "z":
                continue
            n = int(rng.integers(1, 8))
            tiles = tuple(f"{n + i}{s}" for i in range(3))
        else:
            n = int(rng.integers(1, 8 if s == "z" else 10))
            tiles = (f"{n}{s}",) * (4 if kind in ("kong", "concealed_kong") else 3 if kind == "pung" else 2)
        if pool.take(tiles):
            return tiles
    return None


@dataclass(frozen=True)
class KongRates:
    """How often kongs are drawn: a declared set is a kong when its draw passes
    `declared_from`, and a melded kong (not promoted) is laid as three tiles with the fourth
    on top `stacked` of the time. `MORE_KONGS` (`synth --more-kongs`) is the stack
    classifier's data; the other draws stay the same, so the default scenes do not change."""
    declared_from: float = 0.8
    stacked: float = 0.2


MORE_KONGS = KongRates(declared_from=0.65, stacked=0.6)


def _standard(rng: np.random.Generator, kongs: KongRates = KongRates()) -> DrawnHand:
    while True:
        pool = _Pool()
        # A theme makes flushes and honour-heavy hands as common as they are at real tables.
        theme = rng.choice(["mixed", "flush", "half_flush", "honours"], p=[0.6, 0.12, 0.18, 0.1])
        suit = "mps"[rng.integers(3)]
        suits = {"mixed": "mpsz" + "mps", "flush": suit, "half_flush": suit * 3 + "z",
                 "honours": "mpszzz"}[theme]
        n_declared = int(rng.choice(5, p=[0.22, 0.26, 0.24, 0.16, 0.12]))
        melds, concealed, ok = [], [], True
        for i in range(4):
            declared = i < n_declared
            r = rng.random()
            kind = "chow" if r < 0.5 else "pung"
            if declared and r > kongs.declared_from:
                kind = "concealed_kong" if rng.random() < 0.35 else "kong"
            tiles = _random_set(rng, pool, kind, suits)
            if tiles is None and kind == "chow":
                kind, tiles = "pung", _random_set(rng, pool, "pung", suits)
            if tiles is None:
                ok = False
                break
            if declared:
                offer = 0 if kind == "concealed_kong" else int(rng.integers(1, 4))
                if kind == "kong" and rng.random() < 0.3:
                    offer += 4  # promoted kong: a tile added to an exposed pung
                melds.append(DrawnMeld(kind, tiles, offer))
            else:
                concealed.extend(tiles)
        pair = _random_set(rng, pool, "pair", suits) if ok else None
        if pair is None:
            continue
        concealed.extend(pair)
        winning = concealed.pop(int(rng.integers(len(concealed))))
        return DrawnHand("standard", tuple(melds), tuple(concealed), winning)


def _seven_pairs(rng: np.random.Generator) -> DrawnHand:
    pool = _Pool()
    tiles: list[str] = []
    while len(tiles) < 14:
        c = SUIT_CODES[rng.integers(34)]
        if pool.take((c, c)):
            tiles += [c, c]
    winning = tiles.pop(int(rng.integers(14)))
    return DrawnHand("seven_pairs", (), tuple(tiles), winning)


def _thirteen_orphans(rng: np.random.Generator) -> DrawnHand:
    tiles = list(TERMINALS_HONOURS) + [TERMINALS_HONOURS[rng.integers(13)]]
    winning = tiles.pop(int(rng.integers(14)))
    return DrawnHand("thirteen_orphans", (), tuple(tiles), winning)


def _knitted(rng: np.random.Generator) -> list[str]:
    suits = list(rng.permutation(list("mps")))
    return [f"{n}{s}" for start, s in zip((1, 2, 3), suits) for n in (start, start + 3, start + 6)]


def _honours_knitted(rng: np.random.Generator) -> DrawnHand:
    knitted, honours = _knitted(rng), [f"{n}z" for n in range(1, 8)]
    n_hon = int(rng.integers(5, 8))
    tiles = list(rng.choice(honours, n_hon, replace=False)) + list(rng.choice(knitted, 14 - n_hon, replace=False))
    tiles = [str(t) for t in tiles]
    winning = tiles.pop(int(rng.integers(14)))
    return DrawnHand("honours_knitted", (), tuple(tiles), winning)


def _knitted_straight(rng: np.random.Generator) -> DrawnHand:
    while True:
        pool = _Pool()
        tiles = _knitted(rng)
        pool.take(tiles)
        kind = "chow" if rng.random() < 0.5 else "pung"
        s = _random_set(rng, pool, kind, "mpsz")
        pair = _random_set(rng, pool, "pair", "mpsz")
        if s is None or pair is None:
            continue
        melds: tuple[DrawnMeld, ...] = ()
        if rng.random() < 0.4:
            melds = (DrawnMeld(kind, s, int(rng.integers(1, 4))),)
        else:
            tiles += list(s)
        tiles += list(pair)
        winning = tiles.pop(int(rng.integers(len(tiles))))
        return DrawnHand("knitted_straight", melds, tuple(tiles), winning)


SHAPES = {"standard": _standard, "seven_pairs": _seven_pairs, "thirteen_orphans": _thirteen_orphans,
          "honours_knitted": _honours_knitted, "knitted_straight": _knitted_straight}
SHAPE_WEIGHTS = {"standard": 0.86, "seven_pairs": 0.08, "thirteen_orphans": 0.02,
                 "honours_knitted": 0.02, "knitted_straight": 0.02}


def sample_hand(rng: np.random.Generator, *, bonus_rate: float = 1.0,
                kongs: KongRates = KongRates()) -> DrawnHand:
    """A complete hand plus 0-8 bonus tiles (bonus tiles are oversampled: they are the weak class)."""
    shape = str(rng.choice(list(SHAPE_WEIGHTS), p=list(SHAPE_WEIGHTS.values())))
    hand = _standard(rng, kongs) if shape == "standard" else SHAPES[shape](rng)
    n_bonus = int(rng.choice(9, p=[0.22, 0.2, 0.18, 0.14, 0.1, 0.06, 0.05, 0.03, 0.02])) if rng.random() < bonus_rate else 0
    bonus = tuple(sorted_tiles(str(c) for c in rng.choice(BONUS_CODES, n_bonus, replace=False)))
    return DrawnHand(hand.shape, hand.melds, hand.concealed, hand.winning, bonus)
