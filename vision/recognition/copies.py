"""One photo shows one set: four copies of each suit and honour tile, one of each flower and
season. The reader reads each tile on its own, so it can see five 5z or two 1f; `limit_copies`
gives back the most probable reading of the whole photo that keeps to the set.

It is a minimum-cost flow: start from every tile's best class, and while a class holds more
tiles than the set has, move one tile out along the cheapest chain of moves (a tile of the full
class to another class, and if that one is full too, one of its tiles on, ...) until a class
with room takes it. A move of tile i from class a to class b costs log p_i(a) - log p_i(b), so
the chain is a shortest path over the 43 classes (Bellman-Ford, few nodes, some edges negative
after earlier moves), and successive shortest paths give the reading of highest total
log-probability. Face-down tiles (`back`) and unknown names have no limit. A tile moved off its
best class keeps its lower probability, so the page shows it doubtful.
"""
from __future__ import annotations

import numpy as np

from scoring.tiles import BONUS, PLAYING

SUIT_AND_HONOUR_COPIES = 4
BONUS_COPIES = 1
FLOOR = 1e-6  # probabilities below this count as this (a move to an impossible class is dear)
UNLIMITED = 1 << 20


def copies_allowed(names) -> np.ndarray:
    """Per class name: how many copies one set has (a large number for `back` and others)."""
    return np.array([BONUS_COPIES if n in BONUS else SUIT_AND_HONOUR_COPIES if n in PLAYING
                     else UNLIMITED for n in names], np.int64)


def limit_copies(probs: np.ndarray, names, among: np.ndarray | None = None) -> np.ndarray:
    """Class ids (N,) for the tiles with class probabilities `probs` (N, C): the argmax where
    the set allows it, otherwise the reading of highest total log-probability that does.
    `among` (N,) bool: the tiles that are shown (the others keep their argmax and count for
    nothing: a box too doubtful to show must not push a shown tile off its class)."""
    probs = np.asarray(probs, np.float64)
    best = probs.argmax(axis=1) if len(probs) else np.zeros(0, np.int64)
    if among is not None:
        shown = np.flatnonzero(among)
        best[shown] = limit_copies(probs[shown], names)
        return best
    cap = copies_allowed(names)
    logp = np.log(np.maximum(probs, FLOOR))
    count = np.bincount(best, minlength=len(cap))
    if (count <= cap).all():
        return best
    limited = cap < UNLIMITED
    if count[limited].sum() > cap[limited].sum():
        return best  # more face-up tiles than one set holds: not one set; leave the reading alone
    while True:
        over = np.flatnonzero(count > cap)
        if not len(over):
            return best
        path = _cheapest_chain(logp, best, count, cap, int(over[0]))
        for tile, target in path:
            count[best[tile]] -= 1
            best[tile] = target
            count[target] += 1


def _cheapest_chain(logp, best, count, cap, source: int) -> list[tuple[int, int]]:
    """Moves (tile, new class) that take one tile out of `source` to a class with room."""
    n_classes = logp.shape[1]
    # edge[a, b]: the cheapest tile now in class a moved to class b, and which tile
    edge = np.full((n_classes, n_classes), np.inf)
    mover = np.zeros((n_classes, n_classes), np.int64)
    for a in np.flatnonzero(count):
        tiles = np.flatnonzero(best == a)
        cost = logp[tiles, a][:, None] - logp[tiles]
        edge[a] = cost.min(axis=0)
        mover[a] = tiles[cost.argmin(axis=0)]
    np.fill_diagonal(edge, np.inf)
    dist = np.full(n_classes, np.inf)
    dist[source] = 0.0
    previous = np.full(n_classes, -1)
    for _ in range(n_classes - 1):
        through = dist[:, None] + edge
        via = through.argmin(axis=0)
        reached = through.min(axis=0)
        shorter = reached < dist - 1e-12
        if not shorter.any():
            break
        dist[shorter] = reached[shorter]
        previous[shorter] = via[shorter]
    room = np.flatnonzero((count < cap) & np.isfinite(dist))
    target = int(room[dist[room].argmin()])
    chain: list[tuple[int, int]] = []
    while target != source and len(chain) < n_classes:
        a = int(previous[target])
        chain.append((int(mover[a, target]), target))
        target = a
    return chain[::-1]
