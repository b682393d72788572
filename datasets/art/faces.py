"""Procedural tile faces: unlimited new designs for all 42 tiles from CJK fonts and drawing.

One seed = one "physical set": one font, one palette, one layout family, as a real set has.
Faces are drawn at twice the atlas size and downsampled, because PIL shapes are not
anti-aliased. The drawing of suits follows real sets (photos in ../shared/data/camerash):
ringed coins for dots, jointed sticks for bamboo, a bird for 1s, a numeral over 萬 for
characters. Bonus tiles imitate real sets: a plant or season picture, a small character
梅蘭菊竹 / 春夏秋冬 and a number 1-4, in many arrangements (docs/architecture.md, "Recognition").
"""
from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from datasets.classes import TILE_CODES

FACE_H, FACE_W = 256, 192  # atlas face size (aspect 0.75, the middle of real sets)
S = 2                       # supersampling factor

FONT_CANDIDATES = [  # (path, index) of Kai / Song / Hei fonts from Debian packages
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0),
    ("/usr/share/fonts/truetype/cwtex/cwkai.ttf", 0),
    ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf", 0),
    ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf", 0),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 2),      # TC: traditional forms
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 2),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 2),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", 0),
]
LATIN_FONTS = ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
               "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
               "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"]

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
FLOWERS, SEASONS = "梅蘭菊竹", "春夏秋冬"
FLOWER_EN = ["PLUM", "ORCHID", "CHRYS", "BAMBOO"]
SEASON_EN = ["SPR", "SUM", "AUT", "WIN"]

RED, BLUE, GREEN, BLACK = (196, 32, 38), (28, 58, 168), (22, 128, 60), (25, 25, 30)


def available_fonts() -> list[tuple[str, int]]:
    return [(p, i) for p, i in FONT_CANDIDATES if Path(p).exists()]


def missing_fonts() -> list[str]:
    """Candidate fonts not installed: the procedural sets that draw them are drawn in another
    font, so they differ from those the committed models were trained on (all installed)."""
    return [p for p, _ in FONT_CANDIDATES if not Path(p).exists()]


def _set_font(rng: np.random.Generator, installed: list[tuple[str, int]]) -> tuple[str, int]:
    """The set's font, drawn from all candidates: a missing one changes only the sets that
    draw it (they take the next one installed), not every set."""
    k = int(rng.integers(len(FONT_CANDIDATES)))
    return next(f for f in FONT_CANDIDATES[k:] + FONT_CANDIDATES[:k] if f in installed)


@lru_cache(maxsize=64)
def _font(path: str, index: int, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size, index=index)


def _jit(rng, rgb, amount=25):
    return tuple(int(np.clip(c + rng.integers(-amount, amount + 1), 0, 255)) for c in rgb)


def sample_style(seed: int) -> dict:
    """Everything that makes one procedural set look like itself."""
    rng = np.random.default_rng([7001, seed])
    fonts = available_fonts()
    if not fonts:
        raise RuntimeError("no CJK font found; install fonts-arphic-ukai or fonts-noto-cjk")
    bg = [(246, 243, 232), (250, 250, 247), (240, 234, 214), (236, 240, 228), (244, 238, 226)][rng.integers(5)]
    mono = rng.random() < 0.12  # some sets paint everything in one or two colours
    ink = [RED, BLUE, GREEN, BLACK] if not mono else [_jit(rng, [(30, 90, 40), (20, 40, 120), (120, 30, 30)][rng.integers(3)])] * 4
    red, blue, green, black = (_jit(rng, c, 20) for c in ink)
    return {
        "seed": seed, "font": _set_font(rng, fonts), "latin": LATIN_FONTS[rng.integers(len(LATIN_FONTS))],
        "bg": _jit(rng, bg, 6), "red": red, "blue": blue, "green": green, "black": black,
        "num_ink": [blue, black, green][rng.integers(3)], "wind_ink": [blue, black, green][rng.integers(3)],
        "wan": "萬" if rng.random() < 0.8 else "万", "five": "伍" if rng.random() < 0.5 else "五",
        "corner": rng.random() < 0.45, "corner_ink": [red, black, blue][rng.integers(3)],
        "scale": float(rng.uniform(0.8, 1.05)), "stroke": float(rng.uniform(0.8, 1.3)),
        "dot_rings": int(rng.integers(1, 4)), "dot_colors": rng.permutation([blue, green, red]).tolist(),
        "bird": int(rng.integers(3)), "eight_s": int(rng.integers(2)), "white_blank": rng.random() < 0.15,
        "bonus_layout": int(rng.integers(4)), "bonus_english": rng.random() < 0.2,
        "bonus_ink": [red, blue, green, black][rng.integers(4)], "engrave": float(rng.uniform(0.0, 0.6)),
    }


# ---------------------------------------------------------------- drawing primitives (2x canvas)
def _text(d: ImageDraw.ImageDraw, xy, s: str, font, fill, anchor="mm", stroke=0):
    d.text(xy, s, font=font, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=fill)


def _coin(d, cx, cy, r, color, rings, accent):
    """A dot: coloured disc with concentric rings, like the engraved coins of real sets."""
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=color)
    for k in range(rings):
        rr = r * (0.78 - 0.22 * k)
        d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], outline=(255, 255, 255), width=max(2, int(r * 0.09)))
    rr = r * 0.22
    d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=accent)


def _stick(d, x, y0, y1, w, color, angle=0.0):
    """A bamboo stick: a rod with a joint in the middle and bulged ends."""
    cx, cy = x, (y0 + y1) / 2
    half = (y1 - y0) / 2
    dx, dy = math.sin(angle) * half, math.cos(angle) * half
    a, b = (cx - dx, cy - dy), (cx + dx, cy + dy)
    d.line([a, b], fill=color, width=int(w))
    for p in (a, (cx, cy), b):
        d.ellipse([p[0] - w * 0.85, p[1] - w * 0.35, p[0] + w * 0.85, p[1] + w * 0.35], fill=color)
    d.line([(cx - dx * 0.9 + w * 0.15, cy - dy * 0.9), (cx + dx * 0.9 + w * 0.15, cy + dy * 0.9)], fill=(255, 255, 255), width=max(1, int(w * 0.18)))


def _stick_plain(d, x, y0, y1, w, color, angle=0.0):
    """A stick as a plain rounded bar with a light joint (flat, printed sets)."""
    d.rounded_rectangle([x - w * 0.6, y0, x + w * 0.6, y1], radius=w * 0.5, fill=color)
    d.line([(x - w * 0.6, (y0 + y1) / 2), (x + w * 0.6, (y0 + y1) / 2)], fill=(255, 255, 255),
           width=max(1, int(w * 0.2)))


def _stick_double(d, x, y0, y1, w, color, angle=0.0):
    """A stick as two thin rods joined at the ends and the middle (line-drawn sets)."""
    for dx in (-w * 0.45, w * 0.45):
        d.line([(x + dx, y0), (x + dx, y1)], fill=color, width=max(2, int(w * 0.35)))
    for yy in (y0, (y0 + y1) / 2, y1):
        d.line([(x - w * 0.7, yy), (x + w * 0.7, yy)], fill=color, width=max(2, int(w * 0.3)))


_STICKS = {"jointed": _stick, "plain": _stick_plain, "double": _stick_double}


def _flower(d, cx, cy, r, petals, color, center):
    for k in range(petals):
        a = 2 * math.pi * k / petals
        px, py = cx + math.cos(a) * r * 0.6, cy + math.sin(a) * r * 0.6
        d.ellipse([px - r * 0.45, py - r * 0.45, px + r * 0.45, py + r * 0.45], fill=color)
    d.ellipse([cx - r * 0.3, cy - r * 0.3, cx + r * 0.3, cy + r * 0.3], fill=center)


def _leaf(d, x0, y0, x1, y1, color, width):
    mx, my = (x0 + x1) / 2 + (y1 - y0) * 0.15, (y0 + y1) / 2 - (x1 - x0) * 0.15
    d.line([(x0, y0), (mx, my), (x1, y1)], fill=color, width=int(width), joint="curve")


def _picture(d, rng, kind: int, box, st):
    """Plant pictures of bonus tiles: 0 plum, 1 orchid, 2 chrysanthemum, 3 bamboo, 4 scene."""
    leaf = _jit(rng, (40, 130, 50), 30)  # drawn for every kind, leafy or not: the later draws follow it
    if kind == 0:
        _plum(d, rng, box)
    elif kind == 1:
        _orchid(d, rng, box, leaf)
    elif kind == 2:
        _chrysanthemum(d, rng, box, leaf)
    elif kind == 3:
        _bamboo_plant(d, rng, box, leaf)
    else:
        _season_scene(d, rng, box, st)


def _plum(d, rng, box):
    """A dark branch with round five-petal blossoms."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    pts = [(x0 + w * 0.2, y1), (x0 + w * 0.45, y0 + h * 0.55), (x0 + w * 0.35, y0 + h * 0.25), (x0 + w * 0.75, y0 + h * 0.1)]
    d.line(pts, fill=(90, 55, 35), width=int(w * 0.06), joint="curve")
    col = _jit(rng, [(220, 60, 90), (200, 40, 40), (235, 130, 160)][rng.integers(3)], 15)
    for k in range(int(rng.integers(3, 6))):
        px, py = pts[rng.integers(1, 4)]
        _flower(d, px + rng.uniform(-w * .15, w * .15), py + rng.uniform(-h * .1, h * .1), w * rng.uniform(0.1, 0.16), 5, col, (250, 220, 80))


def _orchid(d, rng, box, leaf):
    """Long arched leaves and small purple flowers."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    for k in range(int(rng.integers(4, 7))):
        _leaf(d, cx + rng.uniform(-w * .1, w * .1), y1, x0 + rng.uniform(0, w), y0 + rng.uniform(0, h * .6), leaf, w * 0.035)
    col = _jit(rng, [(150, 70, 170), (210, 90, 150), (90, 60, 160)][rng.integers(3)], 15)
    for k in range(int(rng.integers(2, 4))):
        _flower(d, x0 + rng.uniform(w * .2, w * .8), y0 + rng.uniform(h * .1, h * .5), w * 0.12, 3, col, (240, 220, 90))


def _chrysanthemum(d, rng, box, leaf):
    """Many-petal heads over leaves."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    d.line([(cx, y1), (cx, y0 + h * 0.4)], fill=leaf, width=int(w * 0.04))
    for k in range(3):
        _leaf(d, cx, y1 - h * (0.15 + 0.15 * k), cx + (-1) ** k * w * 0.35, y1 - h * (0.3 + 0.15 * k), leaf, w * 0.07)
    col = _jit(rng, [(235, 170, 30), (220, 70, 40), (200, 40, 120)][rng.integers(3)], 15)
    for k in range(int(rng.integers(1, 3))):
        _flower(d, cx + rng.uniform(-w * .2, w * .2), y0 + h * rng.uniform(0.2, 0.4), w * 0.22, 12, col, (150, 60, 20))


def _bamboo_plant(d, rng, box, leaf):
    """Jointed stalks with pointed leaves."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    for k in range(int(rng.integers(1, 4))):
        x = x0 + w * rng.uniform(0.25, 0.75)
        for j in range(4):
            ya, yb = y1 - h * j / 4, y1 - h * (j + 1) / 4 + h * 0.02
            d.line([(x, ya), (x, yb)], fill=leaf, width=int(w * 0.07))
        for j in range(3):
            _leaf(d, x, y1 - h * (0.3 + 0.2 * j), x + rng.choice([-1, 1]) * w * 0.35, y1 - h * (0.45 + 0.2 * j), _jit(rng, leaf, 20), w * 0.05)


def _season_scene(d, rng, box, st):
    """A small scene: sun or moon, hills, a figure-like blob (season tiles of many sets)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    sky = _jit(rng, [(230, 90, 40), (240, 190, 40), (120, 150, 220)][rng.integers(3)], 20)
    r = w * 0.15
    d.ellipse([x1 - w * .35 - r, y0 + h * .2 - r, x1 - w * .35 + r, y0 + h * .2 + r], fill=sky)
    d.polygon([(x0, y1), (x0 + w * .35, y0 + h * .45), (x0 + w * .6, y1)], fill=_jit(rng, (60, 120, 80), 30))
    d.polygon([(x0 + w * .4, y1), (x0 + w * .75, y0 + h * .55), (x1, y1)], fill=_jit(rng, (40, 90, 140), 30))
    d.ellipse([cx - w * .08, y0 + h * .5, cx + w * .08, y0 + h * .62], fill=st["black"])


# ---------------------------------------------------------------- faces
def _suit_layout(n: int) -> list[tuple[float, float]]:
    """Relative centres (x, y in 0..1) of dots/sticks, the usual arrangement on real tiles."""
    L = {1: [(.5, .5)], 2: [(.5, .27), (.5, .73)], 3: [(.25, .22), (.5, .5), (.75, .78)],
         4: [(.3, .3), (.7, .3), (.3, .7), (.7, .7)], 5: [(.28, .25), (.72, .25), (.5, .5), (.28, .75), (.72, .75)],
         6: [(.3, .2), (.7, .2), (.3, .55), (.7, .55), (.3, .82), (.7, .82)],
         7: [(.22, .14), (.5, .26), (.78, .38), (.3, .6), (.7, .6), (.3, .84), (.7, .84)],
         8: [(.3, .14), (.7, .14), (.3, .38), (.7, .38), (.3, .62), (.7, .62), (.3, .86), (.7, .86)],
         9: [(x, y) for y in (.18, .5, .82) for x in (.2, .5, .8)]}
    return L[n]


def _grid(xs, ys) -> list[tuple[float, float]]:
    return [(x, y) for y in ys for x in xs]


# Other arrangements of the same count, drawn per set by `sample_variants` (real sets differ
# here, and a reader that learned one arrangement per count miscounts another). Only sets
# made with variants=True use them: the default sets, the art cache and the held-out
# procedural designs are drawn as before.
BAMBOO_VARIANTS = {
    2: [[(.33, .5), (.67, .5)]],
    3: [_grid((.25, .5, .75), (.5,)), [(.3, .27), (.7, .27), (.5, .73)]],
    4: [_grid((.2, .4, .6, .8), (.5,))],
    5: [[(.25, .27), (.5, .27), (.75, .27), (.33, .73), (.67, .73)]],
    6: [_grid((.33, .67), (.18, .5, .82))],
    7: [[(.25, .18), (.5, .18), (.75, .18), (.5, .5), (.25, .82), (.5, .82), (.75, .82)]],
    8: [_grid((.2, .4, .6, .8), (.28, .72)), _grid((.33, .67), (.14, .38, .62, .86))],
}
DOT_VARIANTS = {
    3: [_grid((.5,), (.2, .5, .8))],
    4: [[(.5, .2), (.25, .5), (.75, .5), (.5, .8)]],
    6: [_grid((.3, .7), (.2, .5, .8))],
    7: [[(.5, .14)] + _grid((.3, .7), (.38, .62, .86))],
    8: [[(.2, .18), (.5, .18), (.8, .18), (.3, .5), (.7, .5), (.2, .82), (.5, .82), (.8, .82)]],
}
STICK_STYLES = ("jointed", "plain", "double")
DOT_STYLES = ("coin", "flat", "ring")


def sample_variants(seed: int) -> dict:
    """One set's arrangements (an index per count: 0 the usual one), stick and dot style, and
    a fixed small offset of every element, from a stream of its own (sample_style's draws
    are untouched)."""
    rng = np.random.default_rng([7003, seed])
    return {"bamboo": {n: int(rng.integers(len(v) + 1)) for n, v in BAMBOO_VARIANTS.items()},
            "dots": {n: int(rng.integers(len(v) + 1)) for n, v in DOT_VARIANTS.items()},
            "stick": STICK_STYLES[rng.integers(len(STICK_STYLES))],
            "dot": DOT_STYLES[rng.integers(len(DOT_STYLES))],
            "offsets": np.clip(rng.normal(0, 0.018, (10, 2)), -0.03, 0.03).tolist()}


def _arranged(st: dict, suit: str, n: int, usual: list[tuple[float, float]]):
    """The set's arrangement of n elements of `suit` ("bamboo" or "dots"), offsets included
    (a quarter of them for dots, which nearly touch in the usual 4 and 9)."""
    v = st.get("variants")
    if not v:
        return usual
    table = BAMBOO_VARIANTS if suit == "bamboo" else DOT_VARIANTS
    k = v[suit].get(n, 0)
    pos = usual if k == 0 else table[n][k - 1]
    f = 1.0 if suit == "bamboo" else 0.25
    return [(x + f * v["offsets"][i][0], y + f * v["offsets"][i][1]) for i, (x, y) in enumerate(pos)]


def _dots(d, st, n, box):
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    blue, green, red = (tuple(c) for c in st["dot_colors"])
    if n == 1:
        cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, w * 0.44
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=green)
        _flower(d, cx, cy, r * 0.75, 8, blue, red)
        d.ellipse([cx - r * .25, cy - r * .25, cx + r * .25, cy + r * .25], fill=red, outline=(255, 255, 255), width=3)
        return
    r = {2: .2, 3: .17, 4: .17, 5: .15, 6: .14, 7: .12, 8: .12, 9: .12}[n] * w * st["scale"] * 1.1
    style = st.get("variants", {}).get("dot", "coin")
    for k, (fx, fy) in enumerate(_arranged(st, "dots", n, _suit_layout(n))):
        col = {2: [green, blue], 3: [blue, red, green], 4: [blue, green, green, blue], 5: [blue, green, red, green, blue],
               6: [green] * 2 + [red] * 4, 7: [green] * 3 + [red] * 4, 8: [blue] * 8,
               9: [blue] * 3 + [red] * 3 + [green] * 3}[n][k]
        cx, cy = x0 + fx * w, y0 + fy * h
        if style == "coin":
            _coin(d, cx, cy, r, col, st["dot_rings"], red if col != red else blue)
        elif style == "flat":
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=col)
        else:  # a ring around a small disc
            d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=col, width=max(2, int(r / 3)))
            d.ellipse([cx - r / 3, cy - r / 3, cx + r / 3, cy + r / 3], fill=col)


def _bamboo(d, st, n, box, rng):
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    green, red, blue = st["green"], st["red"], st["blue"]
    sw = w * 0.075 * st["stroke"]
    if n == 1:
        if st["bird"] == 2:  # a single large stick (some sets)
            _stick(d, (x0 + x1) / 2, y0 + h * .1, y1 - h * .1, sw * 1.8, green)
            return
        _bird(d, box, st, rng)
        return
    variant = st.get("variants")
    if n == 8 and not (variant and variant["bamboo"][8]):  # the "M over W" of real sets: tilted sticks
        for row, yc in enumerate((.28, .72)):
            for k in range(4):
                ang = (0.35 if (k % 2 == 0) ^ (row == st["eight_s"]) else -0.35)
                _stick(d, x0 + w * (0.2 + 0.2 * k), y0 + h * (yc - .2), y0 + h * (yc + .2), sw, green, ang)
        return
    pos = {2: [(.5, .27), (.5, .73)], 3: [(.5, .27), (.3, .73), (.7, .73)]}.get(n, _suit_layout(n))
    if n == 7:
        pos = [(.5, .18)] + [(x, y) for y in (.5, .82) for x in (.25, .5, .75)]
    if n in (6,):
        pos = [(x, y) for y in (.28, .72) for x in (.25, .5, .75)]
    pos = _arranged(st, "bamboo", n, pos)
    rows = len({round(y, 1) for _, y in pos}) if variant else 3 if n in (7, 9) else 2
    half = h * (0.42 / rows) * (1.0 if n > 2 else 1.1)
    draw = _STICKS[variant["stick"] if variant else "jointed"]
    for k, (fx, fy) in enumerate(pos):
        col = green
        if (n == 5 and k == 2) or (n == 7 and k == 0) or (n == 9 and k % 3 == 1):
            col = red
        if n in (4, 6, 8) and rng.random() < 0.0:
            col = blue
        draw(d, x0 + fx * w, y0 + fy * h - half, y0 + fy * h + half, sw, col)


def _bird(d, box, st, rng):
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    body = _jit(rng, [(40, 110, 60), (30, 70, 160), (180, 50, 40)][st["bird"] % 3], 30)
    tail = _jit(rng, (200, 60, 50), 30)
    cx, cy = x0 + w * .5, y0 + h * .5
    for k in range(6):  # tail feathers fan out below
        a = math.pi / 2 + (k - 2.5) * 0.22
        d.line([(cx, cy), (cx + math.cos(a) * w * .45, cy + math.sin(a) * h * .42)], fill=tail if k % 2 else body, width=int(w * .05))
    d.ellipse([cx - w * .2, cy - h * .18, cx + w * .2, cy + h * .12], fill=body)
    d.ellipse([cx - w * .02, cy - h * .36, cx + w * .2, cy - h * .18], fill=body)
    d.polygon([(cx + w * .2, cy - h * .3), (cx + w * .34, cy - h * .26), (cx + w * .2, cy - h * .24)], fill=(230, 160, 30))
    d.ellipse([cx + w * .09, cy - h * .31, cx + w * .13, cy - h * .28], fill=(255, 255, 255))
    _leaf(d, cx - w * .15, cy - h * .05, cx - w * .42, cy - h * .35, _jit(rng, (60, 150, 70), 30), w * .06)


def draw_face(code: str, st: dict, rng: np.random.Generator | None = None) -> np.ndarray:
    """One face as an RGB uint8 array of FACE_H x FACE_W."""
    rng = rng if rng is not None else np.random.default_rng([7002, st["seed"], TILE_CODES.index(code)])
    img, ink, d = face_canvas(st)
    W, H = img.size
    path, idx = st["font"]
    n, s = int(code[0]), code[1]
    m = 0.1 * W
    box = (m, m * 1.1, W - m, H - m * 1.1)
    corner = st["corner"] and s in "mpsz" and not (s == "z" and n > 4)
    if corner:
        box = (m * 1.25, m * 1.6, W - m * 0.9, H - m * 0.9)
    if s == "m":
        f = _font(path, idx, int(H * 0.34 * st["scale"]))
        num = NUMERALS[n - 1] if n != 5 else st["five"]
        _text(d, (W / 2, H * 0.3), num, f, st["num_ink"])
        _text(d, (W / 2, H * 0.7), st["wan"], _font(path, idx, int(H * 0.4 * st["scale"])), st["red"])
    elif s == "p":
        _dots(d, st, n, box)
    elif s == "s":
        _bamboo(d, st, n, box, rng)
    elif s == "z" and n <= 4:
        _text(d, (W / 2, H / 2), WINDS[n - 1], _font(path, idx, int(H * 0.55 * st["scale"])), st["wind_ink"])
    elif code == "5z":
        if not st["white_blank"]:
            bw = int(W * 0.05)
            d.rectangle([W * .16, H * .14, W * .84, H * .86], outline=st["blue"], width=bw)
            d.rectangle([W * .26, H * .23, W * .74, H * .77], outline=st["blue"], width=max(2, bw // 2))
    elif s == "z":
        ch = "發" if n == 6 else "中"  # 6z green 發, 7z red 中
        _text(d, (W / 2, H / 2), ch, _font(path, idx, int(H * 0.6 * st["scale"])), st["red"] if n == 7 else st["green"])
    else:
        _bonus(d, st, n, rng, W, H)
    if corner:  # Arabic digit or wind letter in the top-left corner
        label = str(n) if s in "mps" else "ESWN"[n - 1]
        _text(d, (W * 0.1, H * 0.08), label, _font(st["latin"], 0, int(H * 0.12)), st["corner_ink"], anchor="lt")
    return finish_face(img, ink, st)


def face_canvas(st: dict) -> tuple[Image.Image, Image.Image, ImageDraw.ImageDraw]:
    """A blank face of style `st` at S times its size, its ink layer, and a pen on the ink
    (every face, ours and crop_render's extra ones, is drawn this way)."""
    img = Image.new("RGB", (FACE_W * S, FACE_H * S), st["bg"])
    ink = Image.new("RGBA", img.size, (0, 0, 0, 0))
    return img, ink, ImageDraw.Draw(ink)


def finish_face(img: Image.Image, ink: Image.Image, st: dict) -> np.ndarray:
    """The ink engraved into the face, shrunk to FACE_H x FACE_W RGB uint8."""
    _engrave(img, ink, st["engrave"])
    return np.asarray(img.resize((FACE_W, FACE_H), Image.LANCZOS))


def _bonus(d, st, n, rng, W, H):
    flower = n <= 4
    k = (n - 1) % 4
    ch = (FLOWERS if flower else SEASONS)[k]
    pic = k if flower else int(rng.choice([0, 1, 2, 3, 4]))
    layout = st["bonus_layout"]
    fcn = _font(*st["font"], int(H * 0.16))
    fnum = _font(st["latin"], 0, int(H * 0.14))
    ink = st["bonus_ink"]
    if layout == 0:    # number top-left, character top-right, picture below
        _text(d, (W * .2, H * .13), str(k + 1), fnum, st["red"])
        _text(d, (W * .78, H * .14), ch, fcn, ink)
        box = (W * .12, H * .28, W * .88, H * .9)
    elif layout == 1:  # character top-left, number top-right
        _text(d, (W * .22, H * .14), ch, fcn, ink)
        _text(d, (W * .8, H * .13), str(k + 1), fnum, st["blue"])
        box = (W * .12, H * .28, W * .88, H * .9)
    elif layout == 2:  # picture on top, character and number at the bottom
        box = (W * .12, H * .08, W * .88, H * .7)
        _text(d, (W * .35, H * .85), ch, fcn, ink)
        _text(d, (W * .7, H * .85), str(k + 1), fnum, st["red"])
    else:              # vertical caption on the right side, number top-left (as in some HK sets)
        _text(d, (W * .16, H * .12), str(k + 1), fnum, st["red"])
        _text(d, (W * .84, H * .5), ch, fcn, ink)
        box = (W * .1, H * .22, W * .72, H * .9)
    if st["bonus_english"]:
        word = (FLOWER_EN if flower else SEASON_EN)[k]
        _text(d, (W * .55, H * .22 if layout != 2 else H * .74), word, _font(st["latin"], 0, int(H * .07)), st["black"])
    _picture(d, rng, pic, box, st)


def _engrave(img: Image.Image, ink: Image.Image, depth: float):
    """Paste the ink with a faint offset shadow: engraved symbols have a dark upper-left rim."""
    if depth > 0.05:
        a = ink.getchannel("A").filter(ImageFilter.GaussianBlur(2 * S))
        shadow = Image.new("RGBA", img.size, (0, 0, 0, 0))
        shadow.putalpha(a.point(lambda v: int(v * depth * 0.5)))
        img.paste(shadow, (-S, -S), shadow)
    img.paste(ink, (0, 0), ink)


def render_design(seed: int, variants: bool = False) -> tuple[np.ndarray, dict]:
    """All 42 faces of procedural set `seed`: (42, FACE_H, FACE_W, 3) uint8 and its meta.
    `variants`: with the set's own arrangements and styles of dots and sticks
    (sample_variants; named procv_s...)."""
    st = sample_style(seed)
    if variants:
        st["variants"] = sample_variants(seed)
    faces = np.stack([draw_face(c, st) for c in TILE_CODES])
    meta = {"name": f"proc{'v' if variants else ''}_s{seed:03d}", "source": "procedural",
            "seed": seed, "realism": 3,
            "font": Path(st["font"][0]).name, "white_blank": bool(st["white_blank"]),
            "face_bg": list(st["bg"]), "licence": "fonts: Arphic PL / GPL-2 / OFL"}
    return faces, meta
