"""Unicode Mahjong Tiles glyphs (U+1F000-1F02B) from Debian fonts: line-art designs."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

ORDER = (["1z", "2z", "3z", "4z", "7z", "6z", "5z"] + [f"{n}m" for n in range(1, 10)]
         + [f"{n}s" for n in range(1, 10)] + [f"{n}p" for n in range(1, 10)]
         + ["1f", "2f", "4f", "3f", "5f", "6f", "7f", "8f"])  # Unicode: bamboo before chrysanthemum
FONTS = {"font_symbola": "usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
         "font_notosymbols2": "usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"}


def glyph_faces(root: Path, name: str, px: int = 420) -> dict[str, np.ndarray]:
    path = root / FONTS[name]
    if not path.exists():
        path = Path("/") / FONTS[name]
    font = ImageFont.truetype(str(path), px)
    out = {}
    for i, code in enumerate(ORDER):
        img = Image.new("L", (px * 2, px * 2), 0)
        ImageDraw.Draw(img).text((px // 2, px // 2), chr(0x1F000 + i), font=font, fill=255)
        a = np.asarray(img)
        ys, xs = np.nonzero(a > 40)
        if len(xs) == 0:
            continue
        a = a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        # The glyph's own frame is the tile outline: keep what is inside it (ink on ivory).
        m = max(2, int(a.shape[1] * 0.04))
        a = a[m:-m, m:-m]
        rgba = np.zeros(a.shape + (4,), np.uint8)
        rgba[..., :3] = (20, 20, 20)
        rgba[..., 3] = a
        out[code] = rgba
    return out


SOURCES = {
    "font_symbola": (lambda r: glyph_faces(r, "font_symbola"), {"realism": 1, "licence": "free for any use", "package": "fonts-symbola", "mono": True}),
    "font_notosymbols2": (lambda r: glyph_faces(r, "font_notosymbols2"), {"realism": 1, "licence": "OFL-1.1", "package": "fonts-noto-core", "mono": True}),
}
