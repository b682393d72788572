"""Hypothesis strategies for hands: complete hands of every shape and arbitrary 13-tile hands."""
from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from scoring.hand import Hand, Meld, MeldKind
from scoring.tiles import BONUS, HONOURS, PLAYING, SUIT_TILES, is_terminal_or_honour

CHOW_STARTS = [t for t in SUIT_TILES if int(t[0]) <= 7]


def _chow(start: str) -> tuple[str, ...]:
    n, s = int(start[0]), start[1]
    return tuple(f"{n + k}{s}" for k in range(3))


@st.composite
def standard_hands(draw, max_melds: int = 4) -> Hand:
    """4 sets + a pair; some sets declared (chows, pungs, all kinds of kong)."""
    counts: Counter = Counter()
    groups: list[tuple[str, tuple[str, ...]]] = []

    def fits(tiles) -> bool:
        need = Counter(tiles)
        return all(counts[t] + n <= 4 for t, n in need.items())

    while len(groups) < 4:
        kind = draw(st.sampled_from(["chow", "chow", "pung", "kong"]))
        tiles = _chow(draw(st.sampled_from(CHOW_STARTS))) if kind == "chow" else (draw(st.sampled_from(PLAYING)),) * (3 if kind == "pung" else 4)
        if fits(tiles):
            counts.update(tiles)
            groups.append((kind, tiles))
    while True:
        pair = (draw(st.sampled_from(PLAYING)),) * 2
        if fits(pair):
            counts.update(pair)
            break
    n_melds = draw(st.integers(0, max_melds))
    melds, concealed = [], []
    for i, (kind, tiles) in enumerate(groups):
        declared = i < n_melds or kind == "kong"
        if not declared:
            concealed.extend(tiles)
        elif kind == "chow":
            melds.append(Meld(MeldKind.CHOW, tiles, draw(st.sampled_from([None, 1, 2, 3]))))
        elif kind == "pung":
            melds.append(Meld(MeldKind.PUNG, tiles, draw(st.sampled_from([None, 1, 2, 3]))))
        else:
            mk = draw(st.sampled_from([MeldKind.KONG, MeldKind.PROMOTED_KONG, MeldKind.CONCEALED_KONG]))
            melds.append(Meld(mk, tiles, None if mk is MeldKind.CONCEALED_KONG else draw(st.integers(1, 3))))
    concealed.extend(pair)
    concealed = draw(st.permutations(concealed))
    bonus = draw(st.lists(st.sampled_from(BONUS), unique=True, max_size=8))
    return Hand(tuple(concealed[:-1]), tuple(melds), concealed[-1], tuple(bonus))


@st.composite
def seven_pairs_hands(draw) -> Hand:
    kinds = draw(st.lists(st.sampled_from(PLAYING), min_size=6, max_size=7, unique=True))
    tiles = [t for k in kinds for t in (k, k)]
    if len(kinds) == 6:  # one kind used as two pairs (four of a kind)
        tiles += [kinds[0]] * 2
    tiles = draw(st.permutations(tiles))
    return Hand(tuple(tiles[:-1]), (), tiles[-1])


@st.composite
def thirteen_orphans_hands(draw) -> Hand:
    orphans = [t for t in PLAYING if is_terminal_or_honour(t)]
    tiles = draw(st.permutations(orphans + [draw(st.sampled_from(orphans))]))
    return Hand(tuple(tiles[:-1]), (), tiles[-1])


@st.composite
def knitted_hands(draw) -> Hand:
    """Honours-and-knitted (14 singles) or knitted straight + set + pair."""
    perm = draw(st.permutations("mps"))
    knitted = [f"{n}{s}" for s, start in zip(perm, (1, 2, 3)) for n in (start, start + 3, start + 6)]
    if draw(st.booleans()):
        honours = draw(st.lists(st.sampled_from(HONOURS), min_size=5, max_size=7, unique=True))
        suits = draw(st.lists(st.sampled_from(knitted), min_size=14 - len(honours), max_size=14 - len(honours), unique=True))
        tiles = draw(st.permutations(honours + suits))
        return Hand(tuple(tiles[:-1]), (), tiles[-1])
    extra = draw(standard_hands(max_melds=1))
    # keep one set and the pair of a standard hand; drop the rest
    rest = list(extra.closed)
    pair = next(t for t, n in Counter(rest).items() if n >= 2)
    tiles = knitted + [pair, pair]
    start = draw(st.sampled_from(CHOW_STARTS))
    tiles += list(_chow(start))
    if any(n > 4 for n in Counter(tiles).values()):
        tiles = knitted + ["1z", "1z", "2z", "2z", "2z"]
    tiles = draw(st.permutations(tiles))
    return Hand(tuple(tiles[:-1]), (), tiles[-1])


complete_hands = st.one_of(standard_hands(), seven_pairs_hands(), thirteen_orphans_hands(), knitted_hands())


@st.composite
def thirteen_tile_hands(draw) -> Hand:
    """Any legal 13-tile hand (mostly near-complete, so that waits are not always empty)."""
    if draw(st.booleans()):
        full = draw(complete_hands)
        return full.without_winning()
    pool = [t for t in PLAYING for _ in range(4)]
    tiles = draw(st.lists(st.sampled_from(range(len(pool))), min_size=13, max_size=13, unique=True))
    return Hand(tuple(pool[i] for i in tiles))
