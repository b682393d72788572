"""Drawing tiles (and other boxes) into the image: a painter's renderer of textured boxes.

A tile is a box with axes u (face right), v (face up, the top of the characters) and n (out of
the face). Its +n side carries the face texture, its -n side is the back; the four sides show
the two layers of real tiles (ivory face layer, coloured back layer). Every drawn polygon is
also written into an id map, so that the visible part of each labelled surface is counted
exactly, occlusion by other tiles and props included.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from datasets.synth.camera import Camera

SHIFT = 4           # sub-pixel bits for cv2 polygon drawing
ONE = 1 << SHIFT


@dataclass
class Tile:
    code: str                    # tile code of the face (the truth even when face down)
    center: np.ndarray           # box centre, world cm
    u: np.ndarray
    v: np.ndarray
    n: np.ndarray
    size: tuple[float, float, float]   # width (along u), height (along v), thickness (along n)
    group: str = "distractor"
    design: str = ""
    labelled: bool = True        # face-up tiles and face-down tiles of the hand's melds
    face_up: bool = True         # False: the camera-side surface is the back (shown as `back`)
    standing: bool = False
    meta: dict = field(default_factory=dict)

    def corners(self, side: str) -> np.ndarray:
        """Four corners of the +n (face) or -n (back) surface, in texture order TL, TR, BR, BL."""
        w, h, d = self.size
        s = 1.0 if side == "face" else -1.0
        c = self.center + s * self.n * d / 2
        # Seen from outside the back, its texture is the mirror; keep TL..BL in face order.
        return np.array([c - self.u * w / 2 + self.v * h / 2, c + self.u * w / 2 + self.v * h / 2,
                         c + self.u * w / 2 - self.v * h / 2, c - self.u * w / 2 - self.v * h / 2])


@dataclass
class Style:
    """The body of one physical set."""

    face_layer: tuple        # RGB of the ivory layer (sides near the face)
    back_layer: tuple        # RGB of the coloured layer and of the back
    face_frac: float         # share of the thickness that is face layer
    radius: float            # corner radius as a share of the width
    margin: float            # face art inset on the top surface, share of the width
    gloss: float             # 0 matte .. 1 glossy (glare strength)


def _quad_mask(size_wh: tuple[int, int], radius_px: int) -> np.ndarray:
    w, h = size_wh
    m = np.zeros((h, w), np.uint8)
    r = max(1, min(radius_px, w // 3, h // 3))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, lineType=cv2.LINE_AA)
    return m


def face_texture(face: np.ndarray, style: Style, target_h: float, bg: tuple) -> np.ndarray:
    """RGBA texture of the top surface at about the size it will be drawn (a cheap mip level)."""
    h0, w0 = face.shape[:2]
    th = int(np.clip(target_h * 1.3, 12, h0 * (1 + 2 * style.margin)))
    scale = th / (h0 * (1 + 2 * style.margin))
    fw, fh = max(4, int(w0 * scale)), max(4, int(h0 * scale))
    small = cv2.resize(np.ascontiguousarray(face), (fw, fh), interpolation=cv2.INTER_AREA)
    m = int(round(style.margin * fh))
    tex = cv2.copyMakeBorder(small, m, m, m, m, cv2.BORDER_CONSTANT, value=tuple(int(c) for c in bg))
    alpha = _quad_mask((tex.shape[1], tex.shape[0]), int(style.radius * tex.shape[1]))
    # Real faces curve into the sides: darken a thin rim (a cheap bevel) so edges are not cut out.
    soft = cv2.GaussianBlur(alpha, (0, 0), max(0.6, tex.shape[1] * 0.035)).astype(np.float32) / 255
    tex = (tex * (0.72 + 0.28 * np.minimum(soft * 1.6, 1.0))[..., None]).astype(np.uint8)
    return np.dstack([tex, alpha])


def plain_texture(color: tuple, style: Style, wh=(24, 32)) -> np.ndarray:
    tex = np.empty((wh[1], wh[0], 3), np.uint8)
    tex[:] = color
    return np.dstack([tex, _quad_mask(wh, int(style.radius * wh[0]))])


class Canvas:
    """The image being drawn, its id map and the masks the photo effects need."""

    def __init__(self, image: np.ndarray):
        self.image = image
        h, w = image.shape[:2]
        self.ids = np.zeros((h, w), np.int32)
        self.glossy = np.zeros((h, w), np.uint8)

    def fill(self, poly: np.ndarray, color, tid: int, glossy: bool = False):
        p = np.round(poly * ONE).astype(np.int32)
        cv2.fillConvexPoly(self.image, p, tuple(int(c) for c in color), cv2.LINE_AA, SHIFT)
        cv2.fillConvexPoly(self.ids, p, int(tid), cv2.LINE_8, SHIFT)
        if glossy:
            cv2.fillConvexPoly(self.glossy, p, 255, cv2.LINE_8, SHIFT)

    def warp(self, tex: np.ndarray, quad: np.ndarray, tid: int, glossy: bool, shade: float):
        """Composite an RGBA texture onto the image quad (TL, TR, BR, BL)."""
        H, W = self.image.shape[:2]
        x0, y0 = np.floor(quad.min(0)).astype(int)
        x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        if x1 <= x0 or y1 <= y0:
            return
        th, tw = tex.shape[:2]
        src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
        M = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
        out = cv2.warpPerspective(tex, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderValue=0)
        a = out[..., 3:4].astype(np.float32) * (1 / 255)
        roi = self.image[y0:y1, x0:x1]
        roi[:] = (roi * (1 - a) + out[..., :3] * (a * shade)).astype(np.uint8)
        hard = out[..., 3] > 127
        self.ids[y0:y1, x0:x1][hard] = tid
        if glossy:
            self.glossy[y0:y1, x0:x1][hard] = 255


def _sides(t: Tile) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """The four side walls, each split into its face-layer and back-layer part:
    (outward normal, 4 world corners, which layer 0 face / 1 back)."""
    w, h, d = t.size
    out = []
    for axis, half, other, ohalf in ((t.u, w / 2, t.v, h / 2), (t.v, h / 2, t.u, w / 2)):
        for s in (1.0, -1.0):
            base = t.center + s * axis * half
            for layer, (z0, z1) in enumerate(((d / 2, d / 2 - t.meta.get("ff", 0.55) * d),
                                              (d / 2 - t.meta.get("ff", 0.55) * d, -d / 2))):
                out.append((s * axis, np.array([base + other * ohalf + t.n * z0, base - other * ohalf + t.n * z0,
                                                base - other * ohalf + t.n * z1, base + other * ohalf + t.n * z1]), layer))
    return out


def draw_tile(cv: Canvas, cam: Camera, t: Tile, tid: int, style: Style, face_tex_fn, light: np.ndarray,
              back_tex: np.ndarray) -> dict | None:
    """Draw one tile; returns the image quad of its labelled surface (or None if not drawn)."""
    w, h, d = t.size
    allc = np.concatenate([t.corners("face"), t.corners("back")])
    uv, z = cam.project(allc)
    if (z < 1.0).any():
        return None
    H, W = cv.image.shape[:2]
    if uv[:, 0].max() < 0 or uv[:, 1].max() < 0 or uv[:, 0].min() > W or uv[:, 1].min() > H:
        return None
    to_cam = cam.C - t.center
    lam = lambda nrm: 0.55 + 0.45 * max(0.0, float(nrm @ light))  # noqa: E731  ambient + Lambert
    fl, bl = np.array(style.face_layer, float), np.array(style.back_layer, float)
    for nrm, corners, layer in _sides(t):
        if nrm @ (cam.C - corners.mean(0)) > 0:
            col = (fl if layer == 0 else bl) * min(lam(nrm) * (0.92 if layer == 0 else 1.0), 1.0)
            cv.fill(cam.project(corners)[0], col, -1)
    face_quad, back_quad = uv[:4], uv[4:]
    result = None
    if t.n @ to_cam > 0:   # the face side is towards the camera
        target_h = np.linalg.norm(face_quad[0] - face_quad[3])
        tex = face_tex_fn(t, target_h)
        cv.warp(tex, face_quad, tid if t.face_up else -1, glossy=t.n[2] > 0.5, shade=lam(t.n))
        if t.face_up:
            result = face_quad
    elif -t.n @ to_cam > 0:
        cv.warp(back_tex, back_quad[[1, 0, 3, 2]], -1 if t.face_up else tid, glossy=-t.n[2] > 0.5, shade=lam(-t.n))
        if not t.face_up:
            result = back_quad[[1, 0, 3, 2]]
    return None if result is None else {"quad": result}


def shadow_polygons(t: Tile, cam: Camera, light: np.ndarray) -> list[np.ndarray]:
    """Image polygons of the tile's cast shadow on the table (light = direction to the light)."""
    allc = np.concatenate([t.corners("face"), t.corners("back")])
    L = light if light[2] > 0.15 else np.array([light[0], light[1], 0.15])
    flat = allc - L[None, :] * (allc[:, 2:3] / L[2])
    pts = np.concatenate([flat, allc[allc[:, 2] < 0.05]]) if (allc[:, 2] < 0.05).any() else flat
    uv, z = cam.project(pts)
    if (z < 1).any():
        return []
    return [cv2.convexHull(uv.astype(np.float32)).reshape(-1, 2)]


def visible_fraction(cv: Canvas, quad: np.ndarray, tid: int) -> float:
    """Share of the labelled surface (its full projected area, even outside the frame) that is
    inside the image and not covered by anything drawn later."""
    a, b = quad[2] - quad[0], quad[3] - quad[1]
    area = 0.5 * abs(float(a[0] * b[1] - a[1] * b[0]))
    if area < 1:
        return 0.0
    H, W = cv.ids.shape
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 1, [W, H])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    return float(np.count_nonzero(cv.ids[y0:y1, x0:x1] == tid)) / area
