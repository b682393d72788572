"""Whether a photo shows the hand large enough and sharp enough to read, and a hint if not.

The reader reads each tile from the full-resolution photo, so what matters is how many photo
pixels a tile spans, not the photo's size. On the development scenes (training designs,
seed 9; `python -m datasets.evaluate_size`, session 14's reader) the hand's face-up tiles under 36 pixels across
that were found were read right 85 % of the time (368 of 434) and larger ones 97 % (1,501 of
1,544), and a hand whose median tile was under 36 px was read wholly right in 3 of 29 photos
against 80 of 120 above: such a photo is worth taking again closer rather than correcting
tile by tile.

Blur is measured in tile units too: a Gaussian blur of 0.06 of a tile's short side (a shaking
hand in dim light) left the finder's tile score under the operating point on 10 of 297
real training tiles and 43 of 236 held-out ones, and at 0.08 on 65 and 93
(`datasets.evaluate --blur`; models/README.md, session 22). Missed tiles are not shown at all,
so such a photo is worth taking again too.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import short_sides
from vision.layout import LaidTile, TableLayout, hand_tiles

SMALL_TILE_PX = 36  # median short side of the hand's tiles under which reading falls off
SHARP_SIDE = 48     # tiles are compared shrunk to this short side; smaller ones are not measured
SHARP_MIN_TILES = 3
BLURRED = 0.10      # median tile sharpness under which the photo is called blurred (chosen on
                    # development photos, models/README.md session 22)


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


def tile_sharpness(grey: np.ndarray, box) -> float | None:
    """How sharp one tile looks, whatever its size: the mean |Laplacian| of the tile shrunk
    to SHARP_SIDE pixels on its short side, over its contrast (std + 5, so that a plain
    white dragon is not called blurred for having no ink). None for a tile under SHARP_SIDE
    pixels, which would have to be enlarged, and so blurred, to be compared."""
    height, width = grey.shape
    x1, y1 = max(0, int(round(box[0]))), max(0, int(round(box[1])))
    x2, y2 = min(width, int(round(box[2]))), min(height, int(round(box[3])))
    if min(x2 - x1, y2 - y1) < SHARP_SIDE:
        return None
    factor = SHARP_SIDE / min(x2 - x1, y2 - y1)
    tile = cv2.resize(grey[y1:y2, x1:x2], (max(SHARP_SIDE, round((x2 - x1) * factor)),
                                           max(SHARP_SIDE, round((y2 - y1) * factor))),
                      interpolation=cv2.INTER_AREA).astype(np.float32)
    return float(np.abs(cv2.Laplacian(tile, cv2.CV_32F)).mean() / (tile.std() + 5.0))


def sharpness(rgb: np.ndarray, layout: TableLayout, scale: tuple[float, float] = (1.0, 1.0)
              ) -> float | None:
    """Median `tile_sharpness` of the hand's face-up tiles in `rgb` (decoded pixels; the
    layout's boxes are in full-resolution pixels, `scale` = vision.image.Photo.scale);
    None when fewer than SHARP_MIN_TILES are large enough to measure."""
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    to_decoded = np.array([scale[0], scale[1]] * 2, np.float64)
    values = [v for t in _faces(layout)
              if (v := tile_sharpness(grey, np.asarray(t.box, np.float64) / to_decoded)) is not None]
    return float(np.median(values)) if len(values) >= SHARP_MIN_TILES else None


def steady_hint(rgb: np.ndarray, layout: TableLayout, scale: tuple[float, float] = (1.0, 1.0)
                ) -> str | None:
    """One line asking for a sharper photo when the hand's tiles look blurred, else None."""
    value = sharpness(rgb, layout, scale)
    if value is None or value >= BLURRED:
        return None
    return ("The photo looks blurred, so some tiles may be missing or misread: check every "
            "tile, or take it again holding the phone still (more light helps).")


def photo_hint(rgb: np.ndarray, layout: TableLayout, scale: tuple[float, float] = (1.0, 1.0)
               ) -> str | None:
    """The hint a photo needs, if any: closer first, since a closer photo of small tiles is
    also the cure for their blur (and tiles under SHARP_SIDE are not measured)."""
    return closer_hint(layout) or steady_hint(rgb, layout, scale)
