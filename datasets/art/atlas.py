"""The per-design face atlas in the art cache, and how scenes find it."""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image

from datasets.art.faces import FACE_H, FACE_W
from datasets.classes import TILE_CODES
from vision.runtime import REPO_ROOT


def art_dir() -> Path:
    return Path(os.environ.get("MAHJONG_ART_DIR", REPO_ROOT / "cache" / "art"))


def fit_face(img: np.ndarray | Image.Image, bg=None) -> np.ndarray:
    """Any face image (RGB or RGBA) to the atlas size; transparent parts get the colour `bg`."""
    im = img if isinstance(img, Image.Image) else Image.fromarray(img)
    if im.mode in ("RGBA", "LA", "P", "PA"):
        im = im.convert("RGBA")
        base = Image.new("RGBA", im.size, tuple(bg or (245, 242, 232)) + (255,))
        base.alpha_composite(im)
        im = base
    im = im.convert("RGB").resize((FACE_W, FACE_H), Image.LANCZOS)
    return np.asarray(im)


def face_bg(faces: dict[str, np.ndarray]) -> list[int]:
    """Colour of the face itself: the median of the border pixels of all faces."""
    border = np.concatenate([np.concatenate([f[2:6].reshape(-1, 3), f[-6:-2].reshape(-1, 3),
                                             f[:, 2:6].reshape(-1, 3), f[:, -6:-2].reshape(-1, 3)]) for f in faces.values()])
    return [int(v) for v in np.median(border, axis=0)]


def save_design(out: Path, name: str, faces: dict[str, np.ndarray], meta: dict) -> Path:
    """Write one design; `faces` maps codes to images of any size (missing codes = class absent)."""
    d = out / name
    d.mkdir(parents=True, exist_ok=True)
    fitted = {c: fit_face(f, meta.get("face_bg")) for c, f in faces.items()}
    arr = np.zeros((len(TILE_CODES), FACE_H, FACE_W, 3), np.uint8)
    for i, c in enumerate(TILE_CODES):
        if c in fitted:
            arr[i] = fitted[c]
    np.save(d / "faces.npy", arr)
    meta = {"name": name, **meta, "present": [c for c in TILE_CODES if c in fitted]}
    meta.setdefault("face_bg", face_bg(fitted))
    (d / "meta.json").write_text(json.dumps(meta, indent=1))
    _preview(arr, d / "preview.jpg")
    return d


def _preview(arr: np.ndarray, path: Path, cols: int = 14):
    """A labelled-by-position montage (classes.yaml order) to check mappings by eye."""
    n, h, w = arr.shape[:3]
    rows = (n + cols - 1) // cols
    m = np.full((rows * (h // 2 + 2), cols * (w // 2 + 2), 3), 60, np.uint8)
    for i in range(n):
        r, c = divmod(i, cols)
        m[r * (h // 2 + 2):r * (h // 2 + 2) + h // 2, c * (w // 2 + 2):c * (w // 2 + 2) + w // 2] = arr[i, ::2, ::2]
    Image.fromarray(m).save(path, quality=85)


def list_designs(root: Path | None = None) -> list[str]:
    root = Path(root) if root else art_dir()
    return sorted(p.parent.name for p in root.glob("*/meta.json")) if root.exists() else []


@lru_cache(maxsize=None)
def load_meta(name: str, root: str | None = None) -> dict:
    return json.loads((Path(root or art_dir()) / name / "meta.json").read_text())


@lru_cache(maxsize=None)
def load_faces(name: str, root: str | None = None) -> np.ndarray:
    """Memory-mapped: a scene touches only the faces it draws, so opening a design is free."""
    return np.load(Path(root or art_dir()) / name / "faces.npy", mmap_mode="r")
