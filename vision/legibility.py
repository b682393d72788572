"""Whether a photo shows the hand large enough and sharp enough to read, and a hint if not.

The reader reads each tile from the full-resolution photo, so what matters is how many photo
pixels a tile spans, not the photo's size. On the development scenes (training designs,
seed 9; `python -m datasets.eval.size`, with the reader of that time) the hand's face-up tiles under 36 pixels across
that were found were read right 85 % of the time (368 of 434) and larger ones 97 % (1,501 of
1,544), and a hand whose median tile was under 36 px was read wholly right in 3 of 29 photos
against 80 of 120 above: such a photo is worth taking again closer rather than correcting
tile by tile.

A blurred photo (vision.sharpness) loses tiles the page then does not show at all, so it
is worth taking again too.
"""
from __future__ import annotations

import numpy as np

from vision.boxes import short_sides
from vision.layout import LaidTile, TableLayout, hand_tiles
from vision.sharpness import BLURRED, photo_sharpness

SMALL_TILE_PX = 36  # median short side of the hand's tiles under which reading falls off


def _faces(layout: TableLayout) -> list[LaidTile]:
    """The hand's face-up tiles, bonus tiles included (face-down kong tiles carry no face)."""
    return [t for t in hand_tiles(layout) + list(layout.bonus) if t.code != "back"]


def tile_size(layout: TableLayout) -> float | None:
    """Median short side of the hand's face-up tiles, bonus tiles included, in photo pixels;
    None without tiles."""
    tiles = _faces(layout)
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


def sharpness(rgb: np.ndarray, layout: TableLayout, scale: tuple[float, float] = (1.0, 1.0)
              ) -> float | None:
    """vision.sharpness.photo_sharpness of the hand's face-up tiles in `rgb` (decoded
    pixels; the layout's boxes are in full-resolution pixels, `scale` =
    vision.image.Photo.scale)."""
    to_decoded = np.array([scale[0], scale[1]] * 2, np.float64)
    boxes = np.array([t.box for t in _faces(layout)], np.float64).reshape(-1, 4)
    return photo_sharpness(rgb, boxes / to_decoded)


def steady_hint(rgb: np.ndarray, layout: TableLayout, scale: tuple[float, float] = (1.0, 1.0)
                ) -> str | None:
    """One line asking for a sharper photo when the hand's tiles look blurred, else None."""
    value = sharpness(rgb, layout, scale)
    if value is None or value >= BLURRED:
        return None
    return ("The photo looks blurred, so some tiles may be missing or misread: check every "
            "tile, or take it again holding the phone still (more light helps).")


# a pixel whose channels differ by no more than this (of 255) carries no colour; a black and
# white photo saved as RGB (or JPEG's chroma noise on one) stays under it almost everywhere
GREY_SPREAD = 4


def is_greyscale(rgb: np.ndarray) -> bool:
    """No colour anywhere in the photo (measured on a grid of at most 256 x 256 pixels)."""
    step_y, step_x = max(1, rgb.shape[0] // 256), max(1, rgb.shape[1] // 256)
    sample = rgb[::step_y, ::step_x].astype(np.int16)
    spread = sample.max(axis=2) - sample.min(axis=2)
    return bool(spread.size) and float(np.percentile(spread, 99)) <= GREY_SPREAD


def colour_hint(rgb: np.ndarray) -> str | None:
    """The reader learnt from colour photos; a black and white one can read as another valid
    hand (a tile's colour tells bamboo, characters and dots apart), so the player is told."""
    if not is_greyscale(rgb):
        return None
    return ("Colour photos read better: this one is black and white, and the reader tells "
            "some tiles apart by their colours. Check every tile, or take it in colour.")


def photo_hint(rgb: np.ndarray, layout: TableLayout, scale: tuple[float, float] = (1.0, 1.0)
               ) -> str | None:
    """The hint a photo needs, if any: closer first, since a closer photo of small tiles is
    also the cure for their blur (and tiles under vision.sharpness.SHARP_SIDE are not
    measured); a black and white photo is said after it."""
    hints = [closer_hint(layout) or steady_hint(rgb, layout, scale), colour_hint(rgb)]
    return " ".join(h for h in hints if h) or None
