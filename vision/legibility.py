"""Whether a photo shows the hand large enough to read, and a hint to come closer if not.

The reader reads each tile from the full-resolution photo, so what matters is how many photo
pixels a tile spans, not the photo's size. On the development scenes (training designs,
seed 9; `python -m datasets.evaluate_size`, session 14's reader) the hand's face-up tiles under 36 pixels across
that were found were read right 85 % of the time (368 of 434) and larger ones 97 % (1,501 of
1,544), and a hand whose median tile was under 36 px was read wholly right in 3 of 29 photos
against 80 of 120 above: such a photo is worth taking again closer rather than correcting
tile by tile.
"""
from __future__ import annotations

import numpy as np

from vision.geometry import short_sides
from vision.layout import TableLayout, hand_tiles

SMALL_TILE_PX = 36  # median short side of the hand's tiles under which reading falls off


def tile_size(layout: TableLayout) -> float | None:
    """Median short side of the hand's face-up tiles, bonus tiles included, in photo pixels
    (face-down kong tiles carry no face to read); None without tiles."""
    tiles = [t for t in hand_tiles(layout) + list(layout.bonus) if t.code != "back"]
    if not tiles:
        return None
    return float(np.median(short_sides([t.box for t in tiles])))


def closer_hint(layout: TableLayout) -> str | None:
    """One line asking for a closer photo when the hand's tiles are small, else None."""
    size = tile_size(layout)
    if size is None or size >= SMALL_TILE_PX:
        return None
    return (f"The tiles are small in this photo (about {size:.0f} pixels across; "
            f"{SMALL_TILE_PX} or more read best): check every tile, or take the photo closer.")
