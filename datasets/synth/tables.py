"""Table surfaces drawn procedurally in world coordinates, then seen through the camera.

Felt, wood, glass, cloth, stone and automatic-table tops. Each texture is generated over the
part of the table the camera sees, at about the image's resolution there, so that grain and
weave keep their physical size at any zoom; the table plane is warped with one homography.
Beyond the table edge: a blurred room.
"""
from __future__ import annotations

import cv2
import numpy as np

from datasets.synth.camera import Camera

KINDS = ["felt", "wood", "glass", "cloth", "stone", "automatic"]
KIND_P = [0.3, 0.24, 0.08, 0.1, 0.08, 0.2]
FELT = [(30, 110, 60), (25, 80, 50), (30, 70, 140), (40, 50, 110), (130, 30, 35), (90, 90, 95), (35, 35, 40), (70, 40, 100), (20, 100, 110)]


def _noise(rng, shape, cells, stretch: float = 1.0) -> np.ndarray:
    """Smooth value noise in [-1, 1] with about `cells` features across the larger side;
    `stretch` > 1 elongates features along x (wood grain)."""
    h, w = shape
    gh = max(2, int(cells * h / max(h, w)) + 2)
    gw = max(2, int(cells * w / max(h, w) / stretch) + 2)
    g = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


def _jit(rng, rgb, a=20):
    return np.clip(np.array(rgb, np.float32) + rng.uniform(-a, a, 3), 0, 255)


def texture(rng, kind: str, wh: tuple[int, int], cm_per_px: float) -> tuple[np.ndarray, dict]:
    """An RGB float32 texture of `kind` covering wh pixels of cm_per_px each."""
    info = {"kind": kind}
    if kind in ("felt", "automatic"):
        t, info["color"] = _felt(rng, wh, cm_per_px)
    elif kind == "wood":
        t, info["color"] = _wood(rng, wh, cm_per_px)
    elif kind == "glass":
        t = _glass(rng, wh, cm_per_px)
    elif kind == "cloth":
        t = _cloth(rng, wh, cm_per_px)
    else:  # stone / marble
        t = _stone(rng, wh, cm_per_px)
    return t.astype(np.float32), info


def _extent(wh: tuple[int, int], cm_per_px: float) -> float:
    """The texture's larger side in cm: features are sized in cm."""
    return max(wh) * cm_per_px


def _felt(rng, wh, cm_per_px) -> tuple[np.ndarray, list]:
    """Felt (and automatic tables' tops): a cloth colour, smooth shading and fibres; and the colour."""
    w, h = wh
    base = _jit(rng, FELT[rng.integers(len(FELT))], 15)
    t = base * (1 + 0.06 * _noise(rng, (h, w), _extent(wh, cm_per_px) / 15))[..., None]
    t = t + (rng.standard_normal((h, w), dtype=np.float32) * rng.uniform(3, 9))[..., None]  # fibres
    return t, base.round().tolist()


def _wood(rng, wh, cm_per_px) -> tuple[np.ndarray, list]:
    """Fine grain lines along x, slowly wandering, in planks; and the wood's colour."""
    w, h = wh
    ext = _extent(wh, cm_per_px)
    base = _jit(rng, [(150, 100, 60), (110, 70, 40), (190, 150, 105), (80, 50, 30), (170, 120, 80)][rng.integers(5)], 15)
    yy = np.arange(h, dtype=np.float32)[:, None] * cm_per_px
    warp = _noise(rng, (h, w), ext / 30, stretch=6) * rng.uniform(0.5, 3) + _noise(rng, (h, w), ext / 4, stretch=8) * 0.3
    freq = rng.uniform(4, 12)
    ring = 0.5 + 0.5 * np.sin((yy + warp) * freq)
    ring = ring ** rng.uniform(2, 6)  # thin dark late-wood lines on a lighter ground
    t = base * (1.08 - 0.3 * ring)[..., None] * (1 + 0.1 * _noise(rng, (h, w), ext / 20, stretch=5))[..., None]
    plank = rng.uniform(9, 30)
    seams = (np.abs((yy[:, 0] % plank) - plank / 2) > plank / 2 - cm_per_px * 1.2)
    t[seams] *= 0.55
    return t, base.round().tolist()


def _glass(rng, wh, cm_per_px) -> np.ndarray:
    """A tinted glass top over wood, cloth or felt, with reflections of windows and lamps."""
    w, h = wh
    under = texture(rng, ["wood", "cloth", "felt"][rng.integers(3)], wh, cm_per_px)[0]
    tint = _jit(rng, (60, 90, 80), 30)
    t = under * 0.35 + tint * 0.45
    for _ in range(int(rng.integers(1, 4))):  # reflections
        m = np.zeros((h, w), np.float32)
        c = rng.uniform(0, 1, 2) * [w, h]
        ax = (int(rng.uniform(0.05, 0.3) * w), int(rng.uniform(0.02, 0.15) * h))
        cv2.ellipse(m, (int(c[0]), int(c[1])), ax, rng.uniform(0, 180), 0, 360, 1.0, -1)
        t += cv2.GaussianBlur(m, (0, 0), max(2, ax[1] * 0.5))[..., None] * rng.uniform(40, 120)
    return t


def _cloth(rng, wh, cm_per_px) -> np.ndarray:
    """A tablecloth: two colours in checks, stripes or dots, over a fine weave."""
    w, h = wh
    base = _jit(rng, FELT[rng.integers(len(FELT))], 40)
    other = base * rng.uniform(0.3, 0.8) + _jit(rng, (220, 215, 200), 30) * rng.uniform(0.1, 0.6)
    xx = np.arange(w, dtype=np.float32)[None, :] * cm_per_px
    yy = np.arange(h, dtype=np.float32)[:, None] * cm_per_px
    p = rng.uniform(1.5, 6)
    m = _cloth_pattern(int(rng.integers(3)), xx, yy, p)
    weave = 0.05 * np.sin(xx * 2 * np.pi / 0.15) * np.sin(yy * 2 * np.pi / 0.15)
    shade = 1 + weave + 0.05 * _noise(rng, (h, w), _extent(wh, cm_per_px) / 10)
    return (base * (1 - m[..., None]) + other * m[..., None]) * shade[..., None]


def _cloth_pattern(style: int, xx: np.ndarray, yy: np.ndarray, period: float) -> np.ndarray:
    """Where the cloth shows its second colour (0..1), in a pattern of `period` cm."""
    if style == 0:  # checks / plaid
        return ((np.sin(xx * 2 * np.pi / period) > 0.3).astype(np.float32) * 0.5
                + (np.sin(yy * 2 * np.pi / period) > 0.3) * 0.5)
    if style == 1:  # stripes
        return (np.sin(xx * 2 * np.pi / period) > 0).astype(np.float32) * np.ones_like(yy)
    # scattered dots (a printed tablecloth)
    return (np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period) > 0.7).astype(np.float32)


def _stone(rng, wh, cm_per_px) -> np.ndarray:
    """Stone or marble: light or dark, with soft veins."""
    w, h = wh
    ext = _extent(wh, cm_per_px)
    base = _jit(rng, [(210, 205, 200), (60, 60, 65), (180, 170, 150)][rng.integers(3)], 15)
    v = np.abs(_noise(rng, (h, w), ext / 20) + 0.5 * _noise(rng, (h, w), ext / 6))
    return base * (0.85 + 0.15 * np.clip(v, 0, 1))[..., None] - (v < 0.05)[..., None] * 60


def draw_table(rng, cam: Camera, centre: np.ndarray, side: float) -> tuple[np.ndarray, dict]:
    """The background image (uint8) seen by `cam`: room, table top and its edge."""
    W, H = cam.width, cam.height
    room = _jit(rng, [(120, 110, 100), (60, 55, 50), (180, 175, 165), (90, 80, 70)][rng.integers(4)], 30)
    img = room * (0.7 + 0.5 * _noise(rng, (H // 8, W // 8), 4)[..., None])
    img = cv2.resize(np.clip(img, 0, 255).astype(np.uint8), (W, H))
    kind = str(rng.choice(KINDS, p=KIND_P))
    # The visible part of the table: cast a grid of rays, keep the hits inside the table square.
    g = np.stack(np.meshgrid(np.linspace(0, W, 9), np.linspace(0, H, 9)), -1).reshape(-1, 2)
    pts, ok = cam.ray_to_plane(g)
    lo, hi = centre[:2] - side / 2, centre[:2] + side / 2
    if ok.any():
        p = np.clip(pts[ok][:, :2], lo, hi)
        a, b = p.min(0) - 2, p.max(0) + 2
    else:
        a, b = lo, hi
    a, b = np.maximum(a, lo), np.minimum(b, hi)
    ext = b - a
    # Resolution: as fine as the image samples the nearest part, capped for speed.
    near = cam.project(np.array([[*(a + b) / 2, 0.0]]))[1][0]
    cm_px = max(float(near / cam.K[0, 0]) * 1.5, float(ext.max()) / 900, 0.01)
    tw, th = max(8, int(ext[0] / cm_px)), max(8, int(ext[1] / cm_px))
    tex, info = texture(rng, kind, (tw, th), cm_px)
    if kind == "automatic":
        _automatic_panel(rng, tex, a, cm_px, centre)
    info["side_cm"] = round(float(side), 1)
    # texture pixel -> world -> image
    T = np.array([[cm_px, 0, a[0]], [0, cm_px, a[1]], [0, 0, 1.0]])
    Hm = cam.plane_homography() @ T
    warped = cv2.warpPerspective(np.clip(tex, 0, 255).astype(np.uint8), Hm, (W, H), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((th, tw), 255, np.uint8), Hm, (W, H), flags=cv2.INTER_NEAREST)
    # Points behind the camera can fold onto the image: keep only rays that really hit the plane.
    yy, xx = np.mgrid[0:H:8, 0:W:8]
    _, front = cam.ray_to_plane(np.column_stack([xx.ravel(), yy.ravel()]).astype(float))
    front = cv2.resize(front.reshape(yy.shape).astype(np.uint8) * 255, (W, H), interpolation=cv2.INTER_NEAREST)
    np.copyto(img, warped, where=((mask > 0) & (front > 0))[..., None])
    return img, info


def _automatic_panel(rng, tex, a, cm_px, centre):
    """Automatic tables: a square centre panel with the dice dome, and a plastic rim."""
    h, w = tex.shape[:2]
    c = ((centre[:2] - a) / cm_px).astype(int)
    s = int(rng.uniform(9, 14) / cm_px)
    col = _jit(rng, [(40, 40, 45), (200, 200, 205), (150, 120, 60)][rng.integers(3)], 15).tolist()
    cv2.rectangle(tex, tuple(c - s), tuple(c + s), col, -1)
    cv2.rectangle(tex, tuple(c - s), tuple(c + s), [v * 0.6 for v in col], max(1, int(0.5 / cm_px)))
    cv2.circle(tex, tuple(c), int(s * 0.45), (110, 120, 130), -1)
    cv2.circle(tex, tuple(c), int(s * 0.45), (230, 230, 235), max(1, int(0.3 / cm_px)))
