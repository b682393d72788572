"""Tile pictures for the page: simple, clean faces drawn with Pillow, cached per tile.

Characters show a Chinese numeral over 萬, dots and bamboo show their pips, honours and
bonus tiles their character (bonus tiles with their number 1-4 in a corner, as real sets
do). With no CJK font on the machine the faces fall back to the tile code as text, so the
page never depends on a font being installed.
"""
from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from scoring.tiles import BACK, TILES

WIDTH, HEIGHT = 96, 128  # drawn at twice the displayed size, so they stay crisp on phones
FACE = (251, 248, 239)
EDGE = (120, 120, 110)
BACK_RGB = (24, 110, 90)
INK = (20, 40, 90)
RED = (200, 30, 30)
GREEN = (20, 130, 60)
BLUE = (30, 70, 170)
CJK_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "C:/Windows/Fonts/msyh.ttc",
)
NUMERALS = "一二三四五六七八九"
HONOUR_GLYPHS = {"1z": ("東", INK), "2z": ("南", INK), "3z": ("西", INK), "4z": ("北", INK),
                 "6z": ("發", GREEN), "7z": ("中", RED)}
BONUS_GLYPHS = "梅蘭菊竹春夏秋冬"

# Pip positions in the face (x, y in 0..1) and their colours, as on common sets.
DOTS = {
    1: [(0.5, 0.5)], 2: [(0.5, 0.27), (0.5, 0.73)], 3: [(0.25, 0.2), (0.5, 0.5), (0.75, 0.8)],
    4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)],
    5: [(0.28, 0.24), (0.72, 0.24), (0.5, 0.5), (0.28, 0.76), (0.72, 0.76)],
    6: [(0.3, 0.18), (0.7, 0.18), (0.3, 0.52), (0.7, 0.52), (0.3, 0.82), (0.7, 0.82)],
    7: [(0.22, 0.13), (0.5, 0.25), (0.78, 0.37), (0.3, 0.6), (0.7, 0.6), (0.3, 0.85), (0.7, 0.85)],
    8: [(x, y) for y in (0.14, 0.38, 0.62, 0.86) for x in (0.3, 0.7)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.22, 0.5, 0.78)],
}
STICKS = {
    2: [(0.5, 0.28), (0.5, 0.72)], 3: [(0.5, 0.28), (0.3, 0.72), (0.7, 0.72)],
    4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)],
    5: [(0.25, 0.28), (0.75, 0.28), (0.5, 0.5), (0.25, 0.72), (0.75, 0.72)],
    6: [(x, y) for y in (0.28, 0.72) for x in (0.22, 0.5, 0.78)],
    7: [(0.5, 0.17)] + [(x, y) for y in (0.5, 0.83) for x in (0.22, 0.5, 0.78)],
    8: [(x, y) for y in (0.28, 0.72) for x in (0.16, 0.39, 0.61, 0.84)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.22, 0.5, 0.78)],
}


@lru_cache(maxsize=1)
def cjk_font_path() -> str | None:
    return next((p for p in CJK_FONTS if Path(p).is_file()), None)


@lru_cache(maxsize=32)
def _font(size: int, cjk: bool = True):
    path = cjk_font_path() if cjk else None
    if path:
        return ImageFont.truetype(path, size)
    try:
        return ImageFont.load_default(size)
    except TypeError:  # Pillow < 10.1 has no sized default font
        return ImageFont.load_default()


def _centred_text(draw: ImageDraw.ImageDraw, box, text: str, size: int, fill) -> None:
    font = _font(size)
    x1, y1, x2, y2 = box
    draw.text(((x1 + x2) / 2, (y1 + y2) / 2), text, font=font, fill=fill, anchor="mm")


RED_STICKS = {5: {2}, 7: {0}, 9: {1, 4, 7}}  # which sticks are red, by tile number


def _pip_colour(n: int, i: int, bamboo: bool):
    if bamboo:
        return RED if i in RED_STICKS.get(n, ()) else GREEN
    if n == 1:
        return RED
    return (BLUE, GREEN, RED)[i % 3] if n in (3, 9) else (GREEN if i < n // 2 else BLUE)


def _draw_face(draw: ImageDraw.ImageDraw, code: str, box) -> None:
    """The face of tile `code` in `box` (x1, y1, x2, y2); its code as text where a face
    needs a CJK font and none is installed."""
    suit, n = code[1], int(code[0]) if code[0].isdigit() else 0
    height = box[3] - box[1]
    if not cjk_font_path() and suit in "mzf":
        _centred_text(draw, box, code, int(height * 0.35), INK)
    elif suit == "m":
        _draw_characters(draw, n, box)
    elif suit == "p":
        _draw_dots(draw, n, box)
    elif suit == "s":
        _draw_bamboo(draw, n, box)
    elif code == "5z":
        _draw_white_dragon(draw, box)
    elif suit == "z":
        glyph, colour = HONOUR_GLYPHS[code]
        _centred_text(draw, box, glyph, int(height * 0.62), colour)
    elif suit == "f":
        _draw_bonus(draw, n, box)


def _draw_characters(draw: ImageDraw.ImageDraw, n: int, box) -> None:
    """A Chinese numeral over a red 萬."""
    x1, y1, x2, y2 = box
    h = y2 - y1
    _centred_text(draw, (x1, y1, x2, y1 + h * 0.45), NUMERALS[n - 1], int(h * 0.38), INK)
    _centred_text(draw, (x1, y1 + h * 0.45, x2, y2), "萬", int(h * 0.45), RED)


def _draw_dots(draw: ImageDraw.ImageDraw, n: int, box) -> None:
    """n rings, each round a disc."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    r = {1: 0.36, 2: 0.2, 3: 0.16}.get(n, 0.14 if n <= 6 else 0.12) * w
    for i, (fx, fy) in enumerate(DOTS[n]):
        cx, cy = x1 + fx * w, y1 + fy * h
        colour = _pip_colour(n, i, False)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=max(2, int(r / 3)))
        draw.ellipse((cx - r / 3, cy - r / 3, cx + r / 3, cy + r / 3), fill=colour)


def _draw_bamboo(draw: ImageDraw.ImageDraw, n: int, box) -> None:
    """n sticks, each with a joint in the middle."""
    if n == 1:
        _draw_one_bamboo(draw, box)
        return
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    sw, sh = w * (0.1 if n == 8 else 0.12), h * (0.17 if n in (7, 9) else 0.22)
    for i, (fx, fy) in enumerate(STICKS[n]):
        cx, cy = x1 + fx * w, y1 + fy * h
        colour = _pip_colour(n, i, True)
        draw.rounded_rectangle((cx - sw / 2, cy - sh, cx + sw / 2, cy + sh),
                               radius=int(sw / 2), fill=colour)
        draw.line((cx - sw / 2, cy, cx + sw / 2, cy), fill=FACE, width=2)


def _draw_one_bamboo(draw: ImageDraw.ImageDraw, box) -> None:
    """Most sets show a bird; a tall ornamented stick reads just as clearly."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx = x1 + w / 2
    draw.rounded_rectangle((cx - w * 0.12, y1 + h * 0.08, cx + w * 0.12, y2 - h * 0.08),
                           radius=int(w * 0.1), fill=GREEN)
    draw.ellipse((cx - w * 0.2, y1 + h * 0.38, cx + w * 0.2, y1 + h * 0.62), fill=RED)


def _draw_white_dragon(draw: ImageDraw.ImageDraw, box) -> None:
    """An empty blue frame."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    draw.rectangle((x1 + w * 0.12, y1 + h * 0.1, x2 - w * 0.12, y2 - h * 0.1),
                   outline=BLUE, width=max(3, int(w * 0.06)))


def _draw_bonus(draw: ImageDraw.ImageDraw, n: int, box) -> None:
    """The flower or season character, green or red, and its number 1-4 in a corner."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    colour = GREEN if n <= 4 else RED
    _centred_text(draw, (x1, y1 + h * 0.12, x2, y2), BONUS_GLYPHS[n - 1], int(h * 0.55), colour)
    draw.text((x1 + w * 0.06, y1 + h * 0.02), str((n - 1) % 4 + 1), font=_font(int(h * 0.26)),
              fill=BLUE if n <= 4 else INK)


@lru_cache(maxsize=64)
def tile_png(code: str, selected: bool = False) -> bytes:
    """A PNG picture of one tile (`back` = face down). Unknown codes draw as their text."""
    image = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    outer = (1, 1, WIDTH - 2, HEIGHT - 2)
    if code == BACK:
        draw.rounded_rectangle(outer, radius=12, fill=BACK_RGB, outline=EDGE, width=2)
    else:
        draw.rounded_rectangle(outer, radius=12, fill=BACK_RGB)
        draw.rounded_rectangle((1, 1, WIDTH - 2, HEIGHT - 9), radius=12, fill=FACE, outline=EDGE,
                               width=2)
        face = (8, 10, WIDTH - 9, HEIGHT - 16)
        if code in TILES:
            _draw_face(draw, code, face)
        else:
            _centred_text(draw, face, code, 28, INK)
    if selected:
        draw.rounded_rectangle(outer, radius=12, outline=(255, 140, 0), width=6)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def strip_png(codes: tuple, height: int = 48, gap: int = 3) -> bytes:
    """Tiles side by side in one PNG. `codes` is a tuple of codes, or a tuple of groups
    (tuples of codes, e.g. the sets of a fan) drawn with a wider gap between groups."""
    groups = [tuple(g) for g in codes] if codes and not isinstance(codes[0], str) else [tuple(codes)]
    width = round(height * WIDTH / HEIGHT)
    space = max(gap, height // 3)
    total = sum(len(g) * (width + gap) - gap for g in groups if g) + space * (len([g for g in groups if g]) - 1)
    image = Image.new("RGBA", (max(1, total), height), (0, 0, 0, 0))
    x = 0
    for group in (g for g in groups if g):
        for code in group:
            tile = Image.open(io.BytesIO(tile_png(code))).resize((width, height), Image.LANCZOS)
            image.paste(tile, (x, 0), tile)
            x += width + gap
        x += space - gap
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def write_static(folder: str | Path) -> list[Path]:
    """Write every tile picture as `<code>.png` (the page serves them as static files)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for code in TILES + (BACK,):
        path = folder / f"{code}.png"
        path.write_bytes(tile_png(code))
        out.append(path)
    return out


if __name__ == "__main__":  # python -m app.tiles_art [FOLDER]: refresh the committed pictures
    import sys
    target = sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "static"
    print(f"wrote {len(write_static(target))} tile pictures to {target}")
