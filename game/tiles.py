"""Physical tiles and the wall.

A set has 144 tiles: four copies of each of the 34 playing kinds (ids 0..135, id // 4 is the
kind, in the scorer's order 1m..9m, 1p..9p, 1s..9s, East..Red) and one of each of the eight
bonus tiles (ids 136..143: flowers 1f..4f, seasons 5f..8f). Copies of a kind look alike but
each id is one physical tile, so every tile can be followed from the wall to where it ends.

The wall is the whole shuffled set. Ordinary draws take from its front, replacement draws
(for a bonus tile or a kong) from its end; the tiles between are the wall that is left.
"""
from __future__ import annotations

import random

from scoring.tiles import BONUS, PLAYING

TILE_COUNT = 144
PLAYING_COUNT = 136
KINDS = 34


def code(tile: int) -> str:
    """Tile id → the scorer's code ('5p', '7z', '3f')."""
    return PLAYING[tile >> 2] if tile < PLAYING_COUNT else BONUS[tile - PLAYING_COUNT]


def kind(tile: int) -> int:
    """Tile id → kind index 0..33 (a bonus tile has none: -1)."""
    return tile >> 2 if tile < PLAYING_COUNT else -1


def is_bonus(tile: int) -> bool:
    return tile >= PLAYING_COUNT


def codes(tiles) -> tuple[str, ...]:
    return tuple(code(t) for t in tiles)


def counts(tiles) -> list[int]:
    """Ids of playing tiles → 34 counts by kind."""
    out = [0] * KINDS
    for t in tiles:
        out[t >> 2] += 1
    return out


def sort_ids(tiles) -> tuple[int, ...]:
    """Playing tiles sort by kind then copy, which is simply by id."""
    return tuple(sorted(tiles))


def shuffled_wall(seed: int) -> tuple[int, ...]:
    """The wall for a seed: the same seed always builds the same wall."""
    tiles = list(range(TILE_COUNT))
    random.Random(seed).shuffle(tiles)
    return tuple(tiles)
