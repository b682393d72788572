"""Tile sets cut from the sprites of Debian's games: GNOME Mahjongg, xmahjongg, mah-jong, xshisen.

Every slot-to-class mapping below is the one checked by eye in artwork.md §2 (file slot orders
and names are often wrong, so do not "fix" them from file names).
"""
from __future__ import annotations

import io
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

SUITS_MPS = {"m": "m", "p": "p", "s": "s"}

# GNOME-1 slot order (GNOME Mahjongg sprite columns and xmahjongg 21-wide sheets)
GNOME_SLOTS = {**{i: f"{i + 1}p" for i in range(9)}, 9: "4z", 10: "3z", 11: "2z", 12: "1z", 13: "7z", 14: "6z",
               **{15 + i: f"{i + 1}m" for i in range(9)}, **{24 + i: f"{i + 1}s" for i in range(9)}, 37: "5z"}
BONUS = {
    "gnome_smooth": {33: "2f", 34: "3f", 35: "1f", 36: "4f", 38: "5f", 39: "6f", 40: "7f", 41: "8f"},
    "xmj_dorothys": {33: "5f", 34: "6f", 35: "7f", 36: "8f", 38: "4f", 39: "2f", 40: "1f", 41: "3f"},
    "xmj_dorwhite": {33: "5f", 34: "6f", 35: "7f", 36: "8f", 38: "4f", 39: "2f", 40: "1f", 41: "3f"},
    "xmj_gnome": {35: "1f", 36: "4f"},
    "xmj_gnome2": {},
}
REAL_SLOTS = {**{i: f"{i + 1}p" for i in range(9)}, **{9 + i: f"{i + 1}s" for i in range(9)},
              **{18 + i: f"{i + 1}m" for i in range(9)}, 27: "5f", 28: "6f", 29: "7f", 30: "8f",
              31: "4z", 32: "2z", 33: "1z", 34: "3z", 36: "1f", 37: "2f", 38: "3f", 39: "4f",
              40: "6z", 41: "5z", 42: "7z"}


def _rgb(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


def gnome_smooth(root: Path) -> dict[str, np.ndarray]:
    sheet = _rgb(root / "usr/share/gnome-mahjongg/themes/smooth.png")
    slots = {**GNOME_SLOTS, **BONUS["gnome_smooth"]}
    # 96x132 cells with the rim on the left and bottom; the flat face is about 82x114.
    return {code: sheet[3:113, 13 + c * 96:92 + c * 96] for c, code in slots.items()}


def xmj_gnome1(root: Path, name: str) -> dict[str, np.ndarray]:
    """dorothys / dorwhite (64x80 cells, rim right+bottom) and gnome / gnome2 (40x56, rim left+bottom)."""
    file = {"xmj_dorothys": "dorothys", "xmj_dorwhite": "dorwhite", "xmj_gnome": "gnome", "xmj_gnome2": "gnome2"}[name]
    sheet = _rgb(root / f"usr/share/games/xmahjongg/tiles/{file}.gif")
    big = name in ("xmj_dorothys", "xmj_dorwhite")
    cw, ch = (64, 80) if big else (40, 56)
    x0, x1, y1 = (1, 53, 69) if big else (5, 39, 51)
    slots = {**GNOME_SLOTS, **BONUS[name]}
    if name == "xmj_gnome2":  # dots and bamboo slots are swapped in this sheet
        slots = {k: (v[0] + {"p": "s", "s": "p"}.get(v[1], v[1])) for k, v in slots.items()}
    out = {}
    for p, code in slots.items():
        x, y = (p % 21) * cw, (p // 21) * ch
        out[code] = sheet[y + 1:y + y1, x + x0:x + x1]
    return out


def xmj_real(root: Path) -> dict[str, np.ndarray]:
    sheet = _rgb(root / "usr/share/games/xmahjongg/tiles/real.gif")
    # 59x79 cells; trim 1 px per side against slivers of the neighbour (artwork.md §5).
    return {code: sheet[(p // 9) * 79 + 1:(p // 9) * 79 + 78, (p % 9) * 59 + 1:(p % 9) * 59 + 58]
            for p, code in REAL_SLOTS.items()}


def _xpm(path: Path) -> np.ndarray:
    """PIL cannot read every XPM here; ImageMagick can."""
    png = subprocess.run(["convert", str(path), "png:-"], capture_output=True, check=True).stdout
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def mahjong_v1(root: Path) -> dict[str, np.ndarray]:
    d = root / "usr/share/mah-jong/tiles-v1"
    names = {**{f"{n}C": f"{n}m" for n in range(1, 10)}, **{f"{n}D": f"{n}p" for n in range(1, 10)},
             **{f"{n}B": f"{n}s" for n in range(1, 10)}, "EW": "1z", "SW": "2z", "WW": "3z", "NW": "4z",
             "WD": "5z", "GD": "6z", "RD": "7z", **{f"{n}F": f"{n}f" for n in range(1, 5)},
             **{f"{n}S": f"{n + 4}f" for n in range(1, 5)}}
    return {code: _xpm(d / f"{n}.xpm") for n, code in names.items() if (d / f"{n}.xpm").exists()}


def xshisen(root: Path, name: str) -> dict[str, np.ndarray]:
    sub = name[-2:]
    d = root / "usr/share/games/xshisen" / sub
    names = {**{f"m{n}": f"{n}m" for n in range(1, 10)}, **{f"p{n}": f"{n}p" for n in range(1, 10)},
             **{f"s{n}": f"{n}s" for n in range(1, 10)}, "haku": "5z", "hatsu": "6z", "chun": "7z"}
    if sub == "s1":
        names.update({"ton": "1z", "nan": "2z", "sha": "3z", "pei": "4z"})
    else:  # s2: file names do not match the compass arrows drawn on them
        names.update({"ton": "4z", "nan": "2z", "sha": "1z", "pei": "3z", "hana": "1f", "hishi": "4f"})
    out = {}
    for n, code in names.items():
        img = _xpm(d / f"{n}.xpm")
        if sub == "s2":  # measured rim: 4 px left, 5 px bottom
            img = img[:-5, 4:]
        out[code] = img
    return out


# GNOME postmodern.svg: 43 cells of 64 x 88 units, rim at the left (12 units) and bottom (10).
# Slot 37 is the GNOME foot, not a white dragon; its flowers and seasons share one picture
# each and differ only by the numeral, as some real sets do.
POSTMODERN_BONUS = {33: "5f", 34: "6f", 35: "7f", 36: "8f", 38: "1f", 39: "2f", 40: "3f", 41: "4f"}


def gnome_postmodern(root: Path) -> dict[str, np.ndarray]:
    svg = root / "usr/share/gnome-mahjongg/themes/postmodern.svg"
    png = subprocess.run(["rsvg-convert", "-z", "4", str(svg)], capture_output=True, check=True).stdout
    sheet = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    slots = {**{k: v for k, v in GNOME_SLOTS.items() if v != "5z"}, **POSTMODERN_BONUS}
    return {code: sheet[4:312, c * 256 + 48:c * 256 + 252] for c, code in slots.items()}


# xmahjongg's named-frame GIFs (artwork.md §2; the dragons and flowers as drawn, not as the
# comments in tileset.cc say). small's flowers are the seasons 春夏秋冬, its seasons figures of
# no flower or season (dropped), and its white dragon is blank (dropped).
HOLM_NAMES = {**{f"{kind}-{n}": f"{n}{s}" for kind, s in (("dot", "p"), ("bamboo", "s"), ("character", "m"))
                 for n in range(1, 10)},
              "wind-1": "4z", "wind-2": "2z", "wind-3": "1z", "wind-4": "3z",
              "dragon-1": "6z", "dragon-2": "7z", "dragon-3": "5z",
              "flower-1": "4f", "flower-2": "2f", "flower-3": "1f", "flower-4": "3f",
              **{f"season-{n}": f"{n + 4}f" for n in range(1, 5)}}
SMALL_NAMES = {**{k: v for k, v in HOLM_NAMES.items() if not k.startswith(("season", "flower", "dragon-3"))},
               **{f"flower-{n}": f"{n + 4}f" for n in range(1, 5)}}


def _gif_frames(path: Path) -> dict[str, Image.Image]:
    """The named frames, each at its own size. PIL's frame seeking paints each frame over the
    one before, so the raw frames come from gifsicle."""
    info = subprocess.run(["gifsicle", "--info", str(path)], capture_output=True, text=True, check=True).stdout
    frames = re.findall(r"image #(\d+) #(\S+) (\d+)x(\d+)", info)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["gifsicle", "--explode", str(path), "-o", f"{tmp}/f"], check=True)
        return {name: Image.open(f"{tmp}/f.{int(i):03d}").convert("RGBA").crop((0, 0, int(w), int(h)))
                for i, name, w, h in frames}


def xmj_holm(root: Path, name: str) -> dict[str, np.ndarray]:
    """thick.gif / small.gif: transparent faces over a tile body of their kind, whose face
    colour (the body's centre) fills the transparent parts."""
    file, names = {"xmj_thick": ("thick", HOLM_NAMES), "xmj_small": ("small", SMALL_NAMES)}[name]
    frames = _gif_frames(root / f"usr/share/games/xmahjongg/tiles/{file}.gif")
    out = {}
    for frame, code in names.items():
        body = frames.get(f"base-{frame.split('-')[0]}", frames.get("base"))
        w, h = body.size
        colour = body.getpixel((w // 2, h // 2))[:3]
        face = Image.new("RGBA", frames[frame].size, colour + (255,))
        face.alpha_composite(frames[frame])
        out[code] = np.asarray(face.convert("RGB"))
    return out


SOURCES = {
    "gnome_smooth": (gnome_smooth, {"realism": 4, "licence": "GPL-2+", "package": "gnome-mahjongg"}),
    "xmj_real": (xmj_real, {"realism": 5, "licence": "GPL-2+ (scan (c) 1999 Mark Sanctuary)", "package": "xmahjongg"}),
    "xmj_dorothys": (lambda r: xmj_gnome1(r, "xmj_dorothys"), {"realism": 3, "licence": "GPL-2+", "package": "xmahjongg"}),
    "xmj_dorwhite": (lambda r: xmj_gnome1(r, "xmj_dorwhite"), {"realism": 2, "licence": "GPL-2+", "package": "xmahjongg"}),
    "xmj_gnome": (lambda r: xmj_gnome1(r, "xmj_gnome"), {"realism": 2, "licence": "GPL-2+", "package": "xmahjongg", "tiny_only": True}),
    "xmj_gnome2": (lambda r: xmj_gnome1(r, "xmj_gnome2"), {"realism": 2, "licence": "GPL-2+", "package": "xmahjongg"}),
    "mahjong_v1": (mahjong_v1, {"realism": 1, "licence": "GPL-2+", "package": "mah-jong", "tiny_only": True}),
    "xshisen_s1": (lambda r: xshisen(r, "xshisen_s1"), {"realism": 2, "licence": "BSD-2", "package": "xshisen", "tiny_only": True}),
    "xshisen_s2": (lambda r: xshisen(r, "xshisen_s2"), {"realism": 2, "licence": "GPL-2", "package": "xshisen"}),
    "gnome_postmodern": (gnome_postmodern, {"realism": 2, "licence": "GPL-2+", "package": "gnome-mahjongg"}),
    "xmj_thick": (lambda r: xmj_holm(r, "xmj_thick"),
                  {"realism": 2, "licence": "GPL-2+ (M. A. Holm's 1988 tiles, coloured by Kohler)", "package": "xmahjongg"}),
    "xmj_small": (lambda r: xmj_holm(r, "xmj_small"),
                  {"realism": 2, "licence": "GPL-2+ (after M. A. Holm's 1988 tiles)", "package": "xmahjongg", "tiny_only": True}),
}
