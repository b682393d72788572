"""How far a hand is from a win: the shanten count (-1 complete, 0 one tile away, ...).

Three shapes win: four sets and a pair, seven pairs, thirteen orphans. For four sets and a
pair the hand is split suit by suit; each suit's splits into sets, partial sets (two tiles a
set could grow from) and a pair are computed once per pattern of nine counts and cached, and
the distance is 8 - 2·sets - partials - pair, with at most four sets and partials together
(declared sets count as sets). Seven pairs and thirteen orphans need a concealed hand.

Counts are lists of 34 ints in the scorer's order (1m..9m, 1p..9p, 1s..9s, 1z..7z).
"""
from __future__ import annotations

import threading
from functools import lru_cache

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _prune(items) -> tuple[tuple[int, int, int], ...]:
    """Keep the (sets, partials, pair) splits that no other split beats in every part."""
    items = set(items)
    return tuple(sorted(a for a in items
                        if not any(b != a and b[0] >= a[0] and b[1] >= a[1] and b[2] >= a[2] for b in items)))


@lru_cache(maxsize=None)
def _suit(c: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """Every useful split of one suit's nine counts into (sets, partials, pair 0/1)."""
    i = next((k for k, n in enumerate(c) if n), None)
    if i is None:
        return ((0, 0, 0),)
    out = []

    def take(removed, add) -> None:
        rest = list(c)
        for k in removed:
            rest[k] -= 1
        for m, t, p in _suit(tuple(rest)):
            if p + add[2] <= 1:
                out.append((m + add[0], t + add[1], p + add[2]))

    if c[i] >= 3:
        take((i, i, i), (1, 0, 0))
    if i <= 6 and c[i + 1] and c[i + 2]:
        take((i, i + 1, i + 2), (1, 0, 0))
    if c[i] >= 2:
        take((i, i), (0, 0, 1))
        take((i, i), (0, 1, 0))
    if i <= 7 and c[i + 1]:
        take((i, i + 1), (0, 1, 0))
    if i <= 6 and c[i + 2]:
        take((i, i + 2), (0, 1, 0))
    take((i,), (0, 0, 0))
    return _prune(out)


@lru_cache(maxsize=None)
def _honours(c: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    m = sum(1 for n in c if n >= 3)
    twos = sum(1 for n in c if n == 2)
    if not twos:
        return ((m, 0, 0),)
    return ((m, twos, 0), (m, twos - 1, 1))


# Split tables are few: each gets a small number, so that merging two tables and reading
# the best of one are cached on pairs of ints (hashing nested tuples on every call is slow).
_TABLES: list[tuple] = []
_NUMBERS: dict[tuple, int] = {}


_LOCK = threading.Lock()


def _number(table: tuple) -> int:
    with _LOCK:  # each open page runs in its own thread: one number per table, always
        n = _NUMBERS.get(table)
        if n is None:
            n = _NUMBERS[table] = len(_TABLES)
            _TABLES.append(table)
        return n


@lru_cache(maxsize=None)
def _suit_n(c: tuple[int, ...]) -> int:
    return _number(_suit(c))


@lru_cache(maxsize=None)
def _honours_n(c: tuple[int, ...]) -> int:
    return _number(_honours(c))


@lru_cache(maxsize=None)
def _merge(a: int, b: int) -> int:
    """The splits of two groups together (at most one pair)."""
    return _number(_prune((m1 + m2, t1 + t2, p1 + p2) for m1, t1, p1 in _TABLES[a]
                          for m2, t2, p2 in _TABLES[b] if p1 + p2 <= 1))


@lru_cache(maxsize=None)
def _best(table: int, melds: int) -> int:
    best = 8
    for m, t, p in _TABLES[table]:
        m += melds
        value = 8 - 2 * m - (min(t, 4 - m) if m < 4 else 0) - p
        if value < best:
            best = value
    return best


def standard(counts, melds: int = 0) -> int:
    """Distance to four sets and a pair, with `melds` sets already declared."""
    c = tuple(counts)
    return _best(_merge(_merge(_suit_n(c[0:9]), _suit_n(c[9:18])),
                        _merge(_suit_n(c[18:27]), _honours_n(c[27:34]))), melds)


def seven_pairs(counts) -> int:
    pairs = kinds = 0
    for n in counts:
        if n:
            kinds += 1
            if n >= 2:
                pairs += 1
    return 6 - pairs + max(0, 7 - kinds)


def thirteen_orphans(counts) -> int:
    kinds = sum(1 for i in ORPHANS if counts[i])
    pair = any(counts[i] >= 2 for i in ORPHANS)
    return 13 - kinds - pair


def shanten(counts, melds: int = 0) -> int:
    """The least distance over the three winning shapes."""
    value = standard(counts, melds)
    if melds == 0 and value > -1:
        value = min(value, seven_pairs(counts), thirteen_orphans(counts))
    return value


def is_complete(counts, melds: int = 0) -> bool:
    """A winning shape (14 tiles counting declared sets as three)."""
    if melds == 0 and (sum(1 for n in counts if n == 2) == 7 or thirteen_orphans(counts) == -1):
        return True
    return standard(counts, melds) == -1


def waits(counts, melds: int = 0) -> tuple[int, ...]:
    """Kinds that complete a 13-tile hand (a kind the hand already holds four of never does)."""
    out = []
    for k in range(34):
        if counts[k] < 4:
            counts[k] += 1
            if is_complete(counts, melds):
                out.append(k)
            counts[k] -= 1
    return tuple(out)


@lru_cache(maxsize=None)
def _changed(part: tuple[int, ...], i: int, delta: int, honours: bool) -> int:
    """The split table of one group after adding (+1) or removing (-1) a tile at `i`."""
    changed = list(part)
    changed[i] += delta
    return _honours_n(tuple(changed)) if honours else _suit_n(tuple(changed))


def after_each(counts, melds: int, kinds, delta: int = 1) -> dict[int, int]:
    """The distance after adding (`delta` +1) or removing (-1) one tile of each of `kinds`,
    the hand itself unchanged. One tile changes one suit only, so the other three suits are
    merged once for all the kinds."""
    c = tuple(counts)
    parts = (c[0:9], c[9:18], c[18:27], c[27:34])
    groups = [_suit_n(parts[0]), _suit_n(parts[1]), _suit_n(parts[2]), _honours_n(parts[3])]
    rests = [_merge(_merge(groups[1], groups[2]), groups[3]),
             _merge(_merge(groups[0], groups[2]), groups[3]),
             _merge(_merge(groups[0], groups[1]), groups[3]),
             _merge(_merge(groups[0], groups[1]), groups[2])]
    concealed = melds == 0
    if concealed:
        pairs = sum(1 for n in c if n >= 2)
        held = sum(1 for n in c if n)
        o_kinds = sum(1 for i in ORPHANS if c[i])
        o_pairs = sum(1 for i in ORPHANS if c[i] >= 2)
    out = {}
    for w in kinds:
        g = w // 9 if w < 27 else 3
        value = _best(_merge(rests[g], _changed(parts[g], w - 9 * g, delta, g == 3)), melds)
        if concealed:
            had = c[w]
            new = had + delta
            p = pairs + (new >= 2) - (had >= 2)
            k = held + (new >= 1) - (had >= 1)
            value = min(value, 6 - p + max(0, 7 - k))
            if w in ORPHANS:
                ok = o_kinds + (new >= 1) - (had >= 1)
                op = o_pairs + (new >= 2) - (had >= 2)
            else:
                ok, op = o_kinds, o_pairs
            value = min(value, 13 - ok - (op > 0))
        out[w] = value
    return out


def after_discards(counts, melds: int = 0) -> dict[int, int]:
    """The distance after discarding one tile of each kind held."""
    return after_each(counts, melds, [k for k in range(34) if counts[k]], -1)
