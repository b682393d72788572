"""KMahjongg SVG tilesets (kdegames-mahjongg-data-kf5), rendered by kmj_qt.py under Debian's python3."""
from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

SETS = {"kmj_default": 4, "kmj_traditional": 4, "kmj_classic": 2, "kmj_jade": 2}  # name -> realism
WINDS = {"WIND_3": "1z", "WIND_2": "2z", "WIND_4": "3z", "WIND_1": "4z"}  # Kajongg's mapping


def element_codes(name: str) -> dict[str, str]:
    m = {**{f"CHARACTER_{n}": f"{n}m" for n in range(1, 10)}, **{f"ROD_{n}": f"{n}p" for n in range(1, 10)},
         **{f"BAMBOO_{n}": f"{n}s" for n in range(1, 10)}, **WINDS,
         "DRAGON_1": "5z", "DRAGON_2": "6z", "DRAGON_3": "7z",
         **{f"FLOWER_{n}": f"{n}f" for n in range(1, 5)}, **{f"SEASON_{n}": f"{n + 4}f" for n in range(1, 5)}}
    if name == "kmj_classic":  # FLOWER_1 is captioned Orchid and FLOWER_2 Plum
        m["FLOWER_1"], m["FLOWER_2"] = "2f", "1f"
    return m


def kmj(root: Path, name: str, face_h: int = 256) -> dict[str, np.ndarray]:
    svg = root / "usr/share/kmahjongglib/tilesets" / f"{name[4:]}.svgz"
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
        subprocess.run(["/usr/bin/python3", str(Path(__file__).with_name("kmj_qt.py")), str(svg), tmp, str(face_h)],
                       check=True, env=env, capture_output=True)
        out = {}
        for el, code in element_codes(name).items():
            p = Path(tmp) / f"{el}.png"
            if p.exists():
                a = np.asarray(Image.open(p).convert("RGBA"))
                out[code] = a[3:-3, 3:-3]  # the body's outline runs along the face's top and left edge
        return out


SOURCES = {n: ((lambda r, n=n: kmj(r, n)), {"realism": q, "licence": "GPL-2+", "package": "kdegames-mahjongg-data-kf5"})
           for n, q in SETS.items()}
