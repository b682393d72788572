"""Tile art from PyPI packages: FluffyStuff faces (mahjong-learner, CC0) and mahjax (Apache-2.0)."""
from __future__ import annotations

import io
import subprocess
from pathlib import Path

import numpy as np
from PIL import Image

FLUFFY = {**{f"Man{n}": f"{n}m" for n in range(1, 10)}, **{f"Pin{n}": f"{n}p" for n in range(1, 10)},
          **{f"Sou{n}": f"{n}s" for n in range(1, 10)}, "Ton": "1z", "Nan": "2z", "Shaa": "3z", "Pei": "4z",
          "Haku": "5z", "Hatsu": "6z", "Chun": "7z"}
MAHJAX = {**{f"{n}{s}": f"{n}{s}" for s in "mps" for n in range(1, 10)}, "east": "1z", "south": "2z",
          "west": "3z", "north": "4z", "white": "5z", "gd": "6z", "rd": "7z"}


def fluffy(pypi: Path) -> dict[str, np.ndarray]:
    d = pypi / "mahjong_learner/tiles_img"
    out = {}
    for name, code in FLUFFY.items():
        im = Image.open(d / f"{name}.png").convert("RGBA")
        bbox = (0, 0) + im.size
        out[code] = np.asarray(im.crop(bbox))
    return out


def _svg(path: Path, height: int = 320) -> np.ndarray:
    png = subprocess.run(["rsvg-convert", "-h", str(height), str(path)], capture_output=True, check=True).stdout
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def mahjax(pypi: Path, lang: str) -> dict[str, np.ndarray]:
    d = pypi / "mahjax/_src/assets/tiles" / lang
    out = {}
    for name, code in MAHJAX.items():
        if (d / f"{name}.svg").exists():
            a = _svg(d / f"{name}.svg")
            m = int(round(a.shape[1] * 2.2 / 29))  # crop the drawn outline (viewBox 29 wide, stroke 1.5)
            out[code] = a[m:-m, m:-m]
    return out


SOURCES = {
    "fluffy_regular": (fluffy, {"realism": 4, "licence": "CC0 (FluffyStuff)", "package": "pip mahjong-learner"}),
    "mahjax_ja": (lambda p: mahjax(p, "ja"), {"realism": 2, "licence": "Apache-2.0", "package": "pip mahjax", "mono": True}),
    "mahjax_en": (lambda p: mahjax(p, "en"), {"realism": 1, "licence": "Apache-2.0", "package": "pip mahjax", "mono": True}),
}
