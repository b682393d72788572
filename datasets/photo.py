"""What a phone camera does to the scene: light, shadows, glare, blur, noise and JPEG.

Every effect takes the scene's Generator and returns its parameters, which go into the truth
JSON, so that a bad-looking photo can be traced to the setting that made it.
"""
from __future__ import annotations

import cv2
import numpy as np


def kelvin_rgb(k: float) -> np.ndarray:
    """Approximate RGB of black-body light (Tanner Helland's fit), normalised to green = 1."""
    t = k / 100
    r = 255 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * np.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
    b = 255 if t >= 66 else (0 if t <= 19 else 138.52 * np.log(t - 10) - 305.04)
    rgb = np.clip([r, g, b], 1, 255)
    return rgb / rgb[1]


def apply_shadows(img: np.ndarray, mask: np.ndarray, rng, softness_px: float) -> dict:
    """Darken the background under the tiles' cast shadows (mask: 0..255, drawn hard)."""
    strength = float(rng.uniform(0.25, 0.6))
    soft = cv2.GaussianBlur(mask, (0, 0), max(0.8, softness_px))
    f = 1.0 - strength * soft.astype(np.float32) / 255.0
    img[:] = (img * f[..., None]).astype(np.uint8)
    return {"shadow_strength": round(strength, 3), "shadow_soft_px": round(float(softness_px), 1)}


def lighting(img: np.ndarray, rng, glossy: np.ndarray, glare_xy: np.ndarray | None, gloss: float) -> tuple[np.ndarray, dict]:
    """Colour temperature, exposure, uneven light and vignetting, specular glare on glossy faces."""
    H, W = img.shape[:2]
    k = float(rng.choice([rng.uniform(2600, 3600), rng.uniform(3600, 5200), rng.uniform(5200, 7500)], p=[0.4, 0.35, 0.25]))
    wb = 1.0 - float(rng.uniform(0.3, 0.9))  # cameras correct most of the tint, not all
    tint = kelvin_rgb(k) ** wb                # images are RGB until they are written
    exposure = float(np.exp(rng.normal(0, 0.3)))
    small = np.zeros((9, 12), np.float32)
    gx, gy = rng.normal(0, 0.25, 2)
    yy, xx = np.mgrid[0:9, 0:12].astype(np.float32)
    small += 1 + gx * (xx / 11 - 0.5) + gy * (yy / 8 - 0.5)
    vign = float(rng.uniform(0.0, 0.45))
    small *= 1 - vign * (((xx / 11 - 0.5) ** 2 + (yy / 8 - 0.5) ** 2) * 2)
    field = cv2.resize(small, (W, H), interpolation=cv2.INTER_CUBIC) * exposure
    out = img.astype(np.float32) * field[..., None] * tint[None, None, :].astype(np.float32)
    glare = 0.0
    if glare_xy is not None and gloss > 0.05 and rng.random() < 0.7:
        glare = float(gloss * rng.uniform(0.4, 1.0))
        r = float(rng.uniform(0.05, 0.25) * max(W, H))
        d2 = ((np.arange(W, dtype=np.float32)[None, :] - glare_xy[0]) ** 2 + (np.arange(H, dtype=np.float32)[:, None] - glare_xy[1]) ** 2)
        blob = np.exp(-d2 / (2 * r * r)) * (glossy.astype(np.float32) / 255.0)
        # glare washes the engraving out towards white (screen blend)
        out = out + (255.0 - out) * (glare * blob)[..., None]
    params = {"kelvin": round(k), "white_balance_residual": round(wb, 3), "exposure": round(exposure, 3),
              "vignette": round(vign, 3), "glare": round(glare, 3)}
    return np.clip(out, 0, 255).astype(np.uint8), params


def blur_noise(img: np.ndarray, rng, depth_mask: np.ndarray | None = None) -> tuple[np.ndarray, dict]:
    H, W = img.shape[:2]
    p = {}
    r = rng.random()
    if r < 0.35:        # defocus over the whole frame
        s = float(rng.uniform(0.4, 2.2))
        img = cv2.GaussianBlur(img, (0, 0), s)
        p["defocus_sigma"] = round(s, 2)
    elif r < 0.55 and depth_mask is not None:  # shallow depth of field: far parts blurred
        s = float(rng.uniform(1.5, 5))
        far = cv2.GaussianBlur(img, (0, 0), s)
        m = depth_mask[..., None]
        img = (img * (1 - m) + far * m).astype(np.uint8)
        p["depth_of_field_sigma"] = round(s, 2)
    if rng.random() < 0.15:  # hand shake
        L = int(rng.integers(3, 12))
        k = np.zeros((L, L), np.float32)
        k[L // 2, :] = 1 / L
        M = cv2.getRotationMatrix2D((L / 2 - 0.5, L / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        k = cv2.warpAffine(k, M, (L, L))
        img = cv2.filter2D(img, -1, k / max(k.sum(), 1e-6))
        p["motion_px"] = L
    if rng.random() < 0.2:  # phones sharpen: halos around the engraving
        amt = float(rng.uniform(0.3, 1.0))
        img = cv2.addWeighted(img, 1 + amt, cv2.GaussianBlur(img, (0, 0), 1.5), -amt, 0)
        p["sharpen"] = round(amt, 2)
    if rng.random() < 0.2:  # down-then-up scaling (messaging apps, digital zoom)
        f = float(rng.uniform(0.35, 0.7))
        img = cv2.resize(cv2.resize(img, (int(W * f), int(H * f)), interpolation=cv2.INTER_AREA), (W, H))
        p["rescale"] = round(f, 2)
    sigma = float(rng.choice([rng.uniform(0.5, 3), rng.uniform(3, 9)], p=[0.7, 0.3]))
    lum = rng.standard_normal((H, W), dtype=np.float32) * sigma
    chroma = cv2.resize(rng.standard_normal((H // 4, W // 4, 3), dtype=np.float32) * sigma * 0.6, (W, H))
    img = np.clip(img.astype(np.float32) + lum[..., None] + chroma, 0, 255).astype(np.uint8)
    p["noise_sigma"] = round(sigma, 2)
    return img, p


def jpeg_quality(rng) -> int:
    return int(rng.choice([rng.integers(35, 70), rng.integers(70, 96)], p=[0.3, 0.7]))
