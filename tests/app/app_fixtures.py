"""Test material for the page: a real JPEG of a hand drawn with the page's own tile art, a
stub ONNX "detector" that reports exactly those tiles, and AppTest helpers.

The stub runs through the real `vision.pipeline.TileReader` (onnxruntime, letterbox, NMS),
so the page's photo path is exercised end to end without a trained model.
"""
from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

from app.tiles_art import tile_png
from scoring.tiles import VISION_CLASSES

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))
from vision_onnx_stub import write_stub_model  # noqa: E402

PAGE = str(Path(__file__).resolve().parents[2] / "app" / "page.py")
HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]
PHOTO_SIZE = (1280, 720)
IMGSZ = 640
TILE = (70, 93)


def tile_boxes(n: int) -> list[tuple[int, int, int, int]]:
    """Where `table_photo` puts n tiles: a row, the last one set apart (the winning tile)."""
    x, y, out = 90, 300, []
    for i in range(n):
        if i == n - 1:
            x += 30
        out.append((x, y, x + TILE[0], y + TILE[1]))
        x += TILE[0] + 4
    return out


def table_photo(codes=HAND, quality: int = 88) -> bytes:
    """A JPEG of the tiles on a green cloth, slightly blurred, with noise: a real JPEG."""
    rng = np.random.default_rng(7)
    cloth = np.clip(rng.normal((30, 100, 60), 12, (PHOTO_SIZE[1], PHOTO_SIZE[0], 3)), 0, 255)
    image = Image.fromarray(cloth.astype(np.uint8)).filter(ImageFilter.GaussianBlur(1.5))
    for code, box in zip(codes, tile_boxes(len(codes))):
        tile = Image.open(io.BytesIO(tile_png(code))).resize(TILE, Image.LANCZOS)
        image.paste(tile, box[:2], tile)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=quality)
    return out.getvalue()


def stub_output(codes, confidences) -> np.ndarray:
    """End-to-end rows (x1, y1, x2, y2, score, class) in the 640 letterboxed input."""
    scale = IMGSZ / max(PHOTO_SIZE)
    pad_y = round((IMGSZ - PHOTO_SIZE[1] * scale) / 2 - 0.1)
    rows = []
    for code, conf, (x1, y1, x2, y2) in zip(codes, confidences, tile_boxes(len(codes))):
        rows.append([x1 * scale, y1 * scale + pad_y, x2 * scale, y2 * scale + pad_y, conf,
                     VISION_CLASSES.index(code)])
    if not rows:
        rows = [[0, 0, 1, 1, 0.01, 0]]  # below any threshold: no tiles
    return np.array([rows], np.float32)


def write_model(path: Path, codes=HAND, confidences=None) -> Path:
    confidences = confidences or [0.9] * len(codes)
    return write_stub_model(path, stub_output(codes, confidences), imgsz=(IMGSZ, IMGSZ),
                            names=list(VISION_CLASSES))


def write_misread_model(path: Path) -> Path:
    """A stub reading `table_photo()` with the 6th tile (6p) as 9p at low confidence, as a
    real misread would be."""
    codes, confidences = list(HAND), [0.92] * len(HAND)
    codes[5], confidences[5] = "9p", 0.31
    return write_model(path, codes, confidences)


# --- AppTest helpers ----------------------------------------------------------------------

def keys(at, prefix: str) -> list[str]:
    return [b.key for b in at.button if b.key and b.key.startswith(prefix)]


def tile_key(at, who: str, ref: str, index: int) -> str:
    found = keys(at, f"tile__{who}__{ref}__{index}__")
    assert len(found) == 1, (ref, index, keys(at, "tile__"))
    return found[0]


def click(at, key: str):
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def tap_palette(at, code: str, who: str = "win"):
    return click(at, f"pal__{code}__{who}")


def texts(at) -> str:
    """Everything the page says, as one string (markdown, captions, alerts)."""
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    for kind in (at.success, at.info, at.warning, at.error):
        parts += [e.value for e in kind]
    return "\n".join(str(p) for p in parts)
