"""Photos of a tile set the reader never learnt, for the tile set tests: the page's own tile
pictures (app/static/*.png, flat drawings the crop reader misreads: flowers as honours, the
1 of bamboo as dots) laid in rows on a coloured table, with a little noise."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from scoring.tiles import parse_tiles

STATIC = Path(__file__).resolve().parents[2] / "app" / "static"
SHEET_ROWS = ("123456789m", "123456789p", "123456789s", "1234567z", "12345678f")
TILE_WH = (96, 128)


def lay_out(rows, scale: float = 0.8, table=(150, 120, 90), seed: int = 0, gap: int = 10
            ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(RGB photo, boxes (N, 4) in reading order, codes): each row of codes a row of tiles."""
    w, h = round(TILE_WH[0] * scale), round(TILE_WH[1] * scale)
    codes_by_row = [parse_tiles(r, allow_bonus=True) for r in rows]
    width = max(len(r) for r in codes_by_row) * (w + gap) + 4 * gap
    canvas = Image.new("RGB", (width, len(rows) * (h + 3 * gap) + 4 * gap), table)
    boxes, codes = [], []
    for r, row in enumerate(codes_by_row):
        for c, code in enumerate(row):
            face = Image.open(STATIC / f"{code}.png").convert("RGBA").resize((w, h))
            x, y = 2 * gap + c * (w + gap), 2 * gap + r * (h + 3 * gap)
            canvas.paste(face, (x, y), face)
            boxes.append([x, y, x + w, y + h])
            codes.append(code)
    pixels = np.asarray(canvas, np.float32)
    pixels += np.random.default_rng(seed).normal(0.0, 4.0, pixels.shape)
    return (np.clip(pixels, 0, 255).astype(np.uint8), np.array(boxes, np.float32), codes)
