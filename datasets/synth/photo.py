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
    """Darken the background under the tiles' cast shadows (mask: 0..255, drawn hard).
    Shadows are soft, so the blur runs at a quarter of the resolution (it is the slow part)."""
    strength = float(rng.uniform(0.25, 0.6))
    H, W = mask.shape
    small = cv2.resize(mask, (W // 4, H // 4), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), max(0.5, softness_px / 4))
    f = cv2.resize(255 - (small.astype(np.float32) * strength).astype(np.uint8), (W, H), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(img, cv2.merge([f, f, f]), dst=img, scale=1 / 255)
    return {"shadow_strength": round(strength, 3), "shadow_soft_px": round(float(softness_px), 1)}


def lighting(img: np.ndarray, rng, glossy: np.ndarray, glare_xy: np.ndarray | None, gloss: float) -> tuple[np.ndarray, dict]:
    """Colour temperature, exposure, uneven light and vignetting, specular glare on glossy faces.
    The smooth fields are built on a coarse grid and resized: full-frame float work is the cost."""
    H, W = img.shape[:2]
    k = float(rng.choice([rng.uniform(2600, 3600), rng.uniform(3600, 5200), rng.uniform(5200, 7500)], p=[0.4, 0.35, 0.25]))
    wb = 1.0 - float(rng.uniform(0.3, 0.9))  # cameras correct most of the tint, not all
    tint = (kelvin_rgb(k) ** wb).astype(np.float32)   # images are RGB until they are written
    exposure = float(np.exp(rng.normal(0, 0.3)))
    gh, gw = 24, 32
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    xx, yy = xx / (gw - 1) - 0.5, yy / (gh - 1) - 0.5
    gx, gy = rng.normal(0, 0.25, 2)
    vign = float(rng.uniform(0.0, 0.45))
    field = (1 + gx * xx + gy * yy) * (1 - vign * (xx ** 2 + yy ** 2) * 2) * exposure
    glare, blob = 0.0, None
    if glare_xy is not None and gloss > 0.05 and rng.random() < 0.7:
        glare = float(gloss * rng.uniform(0.4, 1.0))
        r = float(rng.uniform(0.05, 0.25) * max(W, H))
        d2 = ((xx + 0.5) * W - glare_xy[0]) ** 2 + ((yy + 0.5) * H - glare_xy[1]) ** 2
        blob = cv2.resize((glare * np.exp(-d2 / (2 * r * r))).astype(np.float32), (W, H), interpolation=cv2.INTER_CUBIC)
    gain = cv2.resize((field[..., None] * tint[None, None, :]).astype(np.float32), (W, H), interpolation=cv2.INTER_CUBIC)
    out = img.astype(np.float32)
    cv2.multiply(out, gain, dst=out)
    if blob is not None:  # glare washes the engraving out towards white (screen blend)
        b = cv2.multiply(blob, glossy.astype(np.float32), scale=1 / 255)
        out += (255.0 - out) * cv2.merge([b, b, b])
    params = {"kelvin": round(k), "white_balance_residual": round(wb, 3), "exposure": round(exposure, 3),
              "vignette": round(vign, 3), "glare": round(glare, 3)}
    return cv2.convertScaleAbs(out), params


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
        img = cv2.blendLinear(img, far, 1 - depth_mask, depth_mask)
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
    # Phone noise is demosaiced and denoised, hence spatially correlated: half-resolution
    # luminance grain and quarter-resolution chroma blotches, upsampled (and 4x cheaper).
    lum = cv2.resize(rng.standard_normal((H // 2, W // 2), dtype=np.float32) * sigma, (W, H))
    chroma = cv2.resize(rng.standard_normal((H // 4, W // 4, 3), dtype=np.float32) * (sigma * 0.6), (W, H))
    noise = chroma + cv2.merge([lum, lum, lum])
    img = cv2.add(img, noise, dtype=cv2.CV_8U)  # saturating
    p["noise_sigma"] = round(sigma, 2)
    return img, p


def jpeg_quality(rng) -> int:
    return int(rng.choice([rng.integers(35, 70), rng.integers(70, 96)], p=[0.3, 0.7]))
