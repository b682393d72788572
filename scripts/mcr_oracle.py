"""PyMahjongGB as an MCR oracle: the adapter to its API (docs/rules.md §5.1) and a generator of
random valid winning hands of every shape. Used by tests/scoring/test_mcr_differential.py
and scripts/diff_pymahjonggb.py.

The generator biases tiles towards fan patterns (one suit, honours, terminals, shifted and
identical chows, straights, knitted tiles) so that rare fans appear in a few thousand hands.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from scoring.hand import Hand, Meld, MeldKind, WinContext
from scoring.rules.mcr.fans import BY_NAME
from scoring.tiles import BONUS, HONOURS, PLAYING

_PMGB_SUIT = {"m": "W", "s": "T", "p": "B"}
_PMGB_HONOUR = {"1z": "F1", "2z": "F2", "3z": "F3", "4z": "F4", "7z": "J1", "6z": "J2", "5z": "J3"}


def pmgb_tile(code: str) -> str:
    return _PMGB_HONOUR[code] if code[1] == "z" else _PMGB_SUIT[code[1]] + code[0]


def pmgb_pack(meld: Meld) -> tuple[str, str, int]:
    if meld.kind is MeldKind.CHOW:
        return "CHI", pmgb_tile(meld.tiles[1]), meld.offer or 1  # CHI names the middle tile
    if meld.kind is MeldKind.PUNG:
        return "PENG", pmgb_tile(meld.tile), meld.offer or 1
    if meld.kind is MeldKind.CONCEALED_KONG:
        return "GANG", pmgb_tile(meld.tile), 0  # offer 0 = concealed kong
    return "GANG", pmgb_tile(meld.tile), meld.offer or 1


def pmgb_score(hand: Hand, ctx: WinContext) -> tuple[int, Counter]:
    """(total with flowers, Counter of our fan names) as PyMahjongGB scores the hand.
    Raises TypeError as PyMahjongGB does for hands it rejects."""
    from MahjongGB import MahjongFanCalculator
    result = MahjongFanCalculator(
        pack=tuple(pmgb_pack(m) for m in hand.melds),
        hand=tuple(pmgb_tile(t) for t in hand.concealed),
        winTile=pmgb_tile(hand.winning), flowerCount=len(hand.bonus),
        isSelfDrawn=ctx.self_drawn, is4thTile=ctx.fourth_tile, isAboutKong=ctx.kong,
        isWallLast=ctx.last_tile, seatWind=ctx.seat, prevalentWind=ctx.round, verbose=True)
    total = 0
    fans: Counter = Counter()
    for value, count, _zh, english in result:
        total += value * count
        fans[PMGB_TO_NAME[english]] += count
    return total, fans


PMGB_TO_NAME = {f.pmgb_name: f.name for f in BY_NAME.values()}


def our_fans(result) -> Counter:
    return Counter({f.name: f.count for f in result.fans})


# --- random winning hands -----------------------------------------------------------------

SUITS = "mps"
KNITS = ((1, 4, 7), (2, 5, 8), (3, 6, 9))


@dataclass
class Generated:
    hand: Hand
    ctx: WinContext
    kind: str


def _palette(rng: random.Random) -> list[str]:
    """A tile palette that makes some fan likely."""
    choice = rng.random()
    suits = rng.sample(SUITS, rng.choice((1, 1, 2, 3, 3)))
    numbers = list(range(1, 10))
    if choice < 0.08:
        numbers = [1, 9]
    elif choice < 0.16:
        numbers = rng.choice(([1, 2, 3], [1, 2, 3, 4], [7, 8, 9], [6, 7, 8, 9], [4, 5, 6], [2, 4, 6, 8], [2, 3, 4, 5, 6, 7, 8]))
    tiles = [f"{n}{s}" for s in suits for n in numbers]
    if choice > 0.6:
        tiles += rng.sample(HONOURS, rng.randint(1, 7))
    if choice > 0.97:
        tiles = ["2s", "3s", "4s", "6s", "8s", "6z"]
    if choice > 0.985:
        tiles = ["1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "5z"]
    return tiles


def _chow_of(start: str) -> tuple[str, ...]:
    n, s = int(start[0]), start[1]
    return tuple(f"{n + k}{s}" for k in range(3))


def _pattern_sets(rng: random.Random) -> list[tuple[str, tuple[str, ...]]]:
    """Two to four sets forming a combination fan (or nothing)."""
    s, t, u = rng.sample(SUITS, 3)
    n = rng.randint(1, 7)
    k = rng.choice((1, 2))
    options = [
        [("chow", _chow_of(f"{n}{s}"))] * rng.randint(2, 4),                              # identical chows
        [("chow", _chow_of(f"{n}{x}")) for x in (s, t, u)],                               # mixed triple
        [("chow", _chow_of(f"{r}{s}")) for r in (1, 4, 7)],                               # pure straight
        [("chow", _chow_of(f"{r}{x}")) for r, x in zip((1, 4, 7), (s, t, u))],            # mixed straight
        [("chow", _chow_of(f"{min(n, 7 - 2 * k) + i * k}{s}")) for i in range(rng.randint(3, 4)) if min(n, 7 - 2 * k) + i * k <= 7],
        [("chow", _chow_of(f"{min(n, 5) + i}{x}")) for i, x in enumerate((s, t, u))],     # mixed shifted
        [("chow", _chow_of(f"1{s}")), ("chow", _chow_of(f"7{s}"))] * rng.randint(1, 2),   # terminal chows
        [("chow", _chow_of(f"1{s}")), ("chow", _chow_of(f"7{s}")), ("chow", _chow_of(f"1{t}")), ("chow", _chow_of(f"7{t}"))],
        [("chow", _chow_of(f"{n}{s}")), ("chow", _chow_of(f"{n + 3 if n <= 4 else n - 3}{s}"))],
        [("pung", (f"{min(n, 6) + i}{s}",) * 3) for i in range(rng.randint(3, 4))],       # shifted pungs
        [("pung", (f"{n}{x}",) * 3) for x in rng.sample((s, t, u), rng.randint(2, 3))],   # double / triple
        [("pung", (f"{min(n, 7) + i}{x}",) * 3) for i, x in enumerate((s, t, u))],        # mixed shifted
        [("pung", (w,) * 3) for w in rng.sample(HONOURS[:4], rng.randint(2, 4))],         # winds
        [("pung", (d,) * 3) for d in rng.sample(HONOURS[4:], rng.randint(2, 3))],         # dragons
        [],
    ]
    return rng.choice(options)


def _standard(rng: random.Random) -> tuple[list, tuple[str, ...]] | None:
    palette = _palette(rng)
    counts: Counter = Counter()
    groups: list[tuple[str, tuple[str, ...]]] = []

    def fits(tiles) -> bool:
        need = Counter(tiles)
        return all(counts[x] + c <= 4 for x, c in need.items())

    if rng.random() < 0.45:
        for kind, tiles in _pattern_sets(rng)[:4]:
            if fits(tiles):
                counts.update(tiles)
                groups.append((kind, tiles))
    tries = 0
    while len(groups) < 4:
        tries += 1
        if tries > 200:
            return None
        tile = rng.choice(palette)
        kind = rng.choice(("chow", "chow", "chow", "pung", "pung", "kong"))
        if kind == "chow":
            if tile[1] == "z" or int(tile[0]) > 7:
                continue
            tiles = _chow_of(tile)
        else:
            tiles = (tile,) * (3 if kind == "pung" else 4)
        if fits(tiles):
            counts.update(tiles)
            groups.append((kind, tiles))
    honour_pungs = [t[0] for _, t in groups if t[0][1] == "z"]
    if len(honour_pungs) >= 2 and rng.random() < 0.5:
        palette = [h for h in HONOURS if h not in honour_pungs]  # a little four winds / three dragons
    for _ in range(50):
        tile = rng.choice(palette)
        if counts[tile] + 2 <= 4:
            return groups, (tile, tile)
    return None


def _declare(rng: random.Random, groups, pair) -> Hand:
    n_melds = rng.choice((0, 0, 1, 2, 3, 4))
    rng.shuffle(groups)
    melds, concealed = [], []
    for i, (kind, tiles) in enumerate(groups):
        declared = i < n_melds or len(tiles) == 4
        if not declared:
            concealed.extend(tiles)
        elif kind == "chow":
            melds.append(Meld(MeldKind.CHOW, tiles, rng.randint(1, 3)))
        elif len(tiles) == 3:
            melds.append(Meld(MeldKind.PUNG, tiles, rng.randint(1, 3)))
        else:
            mk = rng.choice((MeldKind.KONG, MeldKind.PROMOTED_KONG, MeldKind.CONCEALED_KONG))
            melds.append(Meld(mk, tiles, None if mk is MeldKind.CONCEALED_KONG else rng.randint(1, 3)))
    concealed.extend(pair)
    rng.shuffle(concealed)
    win = concealed.pop()
    return Hand(tuple(concealed), tuple(melds), win)


def _seven_pairs(rng: random.Random) -> Hand:
    if rng.random() < 0.15:
        s, start = rng.choice(SUITS), rng.randint(1, 3)
        kinds = [f"{start + i}{s}" for i in range(7)]
    else:
        palette = sorted(set(_palette(rng)))
        if len(palette) < 7:
            palette = list(PLAYING)
        kinds = rng.sample(palette, 7)
        if rng.random() < 0.3:
            kinds[-1] = kinds[0]  # four of a kind used as two pairs
    tiles = [k for k in kinds for _ in range(2)]
    rng.shuffle(tiles)
    win = tiles.pop()
    return Hand(tuple(tiles), (), win)


def _thirteen_orphans(rng: random.Random) -> Hand:
    orphans = [t for t in PLAYING if t[1] == "z" or t[0] in "19"]
    tiles = orphans + [rng.choice(orphans)]
    rng.shuffle(tiles)
    win = tiles.pop()
    return Hand(tuple(tiles), (), win)


def _knitted_tiles(rng: random.Random) -> list[str]:
    order = rng.sample(SUITS, 3)
    return [f"{n}{s}" for s, knit in zip(order, KNITS) for n in knit]


def _honours_knitted(rng: random.Random) -> Hand:
    knitted = _knitted_tiles(rng)
    n_honours = rng.choice((5, 6, 7))
    tiles = rng.sample(HONOURS, n_honours) + rng.sample(knitted, 14 - n_honours)
    rng.shuffle(tiles)
    win = tiles.pop()
    return Hand(tuple(tiles), (), win)


def _knitted_straight(rng: random.Random) -> Hand | None:
    knitted = _knitted_tiles(rng)
    counts = Counter(knitted)
    tile = rng.choice(PLAYING)
    kind = rng.choice(("chow", "pung", "kong"))
    if kind == "chow":
        if tile[1] == "z" or int(tile[0]) > 7:
            return None
        group = _chow_of(tile)
    else:
        group = (tile,) * (3 if kind == "pung" else 4)
    pair_tile = rng.choice(PLAYING)
    counts.update(group)
    counts.update((pair_tile, pair_tile))
    if max(counts.values()) > 4:
        return None
    melds: list[Meld] = []
    closed = knitted + [pair_tile, pair_tile]
    if kind == "kong" or rng.random() < 0.35:
        if kind == "chow":
            melds.append(Meld(MeldKind.CHOW, group, rng.randint(1, 3)))
        elif kind == "pung":
            melds.append(Meld(MeldKind.PUNG, group, rng.randint(1, 3)))
        else:
            mk = rng.choice((MeldKind.KONG, MeldKind.PROMOTED_KONG, MeldKind.CONCEALED_KONG))
            melds.append(Meld(mk, group, None if mk is MeldKind.CONCEALED_KONG else rng.randint(1, 3)))
    else:
        closed += list(group)
    rng.shuffle(closed)
    win = closed.pop()
    return Hand(tuple(closed), tuple(melds), win)


def _nine_gates(rng: random.Random) -> Hand:
    s = rng.choice(SUITS)
    tiles = [f"{n}{s}" for n in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    return Hand(tuple(tiles), (), f"{rng.randint(1, 9)}{s}")


SHAPES = (("standard", 0.72), ("seven_pairs", 0.1), ("thirteen_orphans", 0.03),
          ("honours_knitted", 0.05), ("knitted_straight", 0.08), ("nine_gates", 0.02))


def random_hand(rng: random.Random) -> Generated:
    while True:
        kind = rng.choices([k for k, _ in SHAPES], [w for _, w in SHAPES])[0]
        if kind == "standard":
            made = _standard(rng)
            hand = _declare(rng, *made) if made else None
        else:
            hand = {"seven_pairs": _seven_pairs, "thirteen_orphans": _thirteen_orphans,
                    "honours_knitted": _honours_knitted, "knitted_straight": _knitted_straight,
                    "nine_gates": _nine_gates}[kind](rng)
        if hand is not None:
            break
    bonus = tuple(rng.sample(BONUS, rng.choice((0, 0, 0, 1, 2, 3, rng.randint(0, 8)))))
    hand = Hand(hand.concealed, hand.melds, hand.winning, bonus)
    seat = rng.randint(0, 3)
    if rng.random() < 0.15:  # a plain discard win without flags: where Chicken Hand lives
        return Generated(hand, WinContext(discarder=(seat + 1) % 4, seat=seat, round=rng.randint(0, 3)), kind)
    self_drawn = rng.random() < 0.5
    ctx = WinContext(self_drawn=self_drawn, discarder=None if self_drawn else (seat + rng.randint(1, 3)) % 4,
                     seat=seat, round=rng.randint(0, 3), last_tile=rng.random() < 0.12,
                     kong=rng.random() < 0.15, fourth_tile=rng.random() < 0.15)
    return Generated(hand, ctx, kind)
