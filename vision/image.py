"""Photo decoding: bytes or a path in, an upright RGB uint8 array out.

Everything that can go wrong with a user's file (not an image, truncated, too large, an odd
pixel format) raises `ImageError`, a `ValueError`, with a one-line message; nothing else
escapes. The pixel-count limit is checked from the header, before any pixel is decoded, so
a small file that claims 100 megapixels (a decompression bomb) costs nothing.

Formats: whatever Pillow opens (JPEG, PNG, WebP, TIFF, BMP, AVIF, ...) and HEIC/HEIF, the
default of iPhone cameras, through pillow-heif, which also turns the picture upright itself
(it resets the EXIF orientation, so nothing is turned twice). HEVC has no reduced-scale
decode: a 12 MP HEIC laid out in 512-pixel tiles, as phones write it, decodes in about
0.25 s on 2 cores (a JPEG at half scale: 0.02 s), so the whole reading takes about 0.42 s
against 0.18 s (`cache/timing_12mp.jpg` saved both ways).

`load_photo(..., min_side=640)` lets a JPEG decode at 1/2, 1/4 or 1/8 scale in the DCT
(Pillow's `draft`), which is ten times faster than a full 12-megapixel decode and loses
nothing for a 640-pixel detector; `Photo` keeps the full upright size so boxes map back.
"""
from __future__ import annotations

import io
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

try:  # a plugin: Image.open reads HEIC/HEIF once it is registered
    from pillow_heif import register_heif_opener
except ImportError:  # an install without it reads every other format; HEIC is "unknown"
    HEIF = False
else:
    register_heif_opener()
    HEIF = True

# 12-64 MP pass: phones shoot 12 MP by default and 48-50 MP in their high-resolution modes
# (a JPEG then decodes at 1/4 scale in about the time of a 12 MP one); a 100 MP claim is refused.
DEFAULT_MAX_PIXELS = 64_000_000
DEFAULT_MAX_BYTES = 200 * 1024 * 1024  # ten times a 48 MP phone JPEG; more is not a photo.
ALPHA_BACKGROUND = (255, 255, 255)  # transparent art (tile renders) lies on white.


class ImageError(ValueError):
    """The input is not a usable image; the message is one line for the user."""


@dataclass(frozen=True)
class Photo:
    """Upright RGB pixels, possibly decoded at reduced scale, and the full upright size."""

    rgb: np.ndarray  # (h, w, 3) uint8
    width: int  # full-resolution upright width in pixels
    height: int

    def __post_init__(self) -> None:
        rgb = self.rgb
        if not (isinstance(rgb, np.ndarray) and rgb.dtype == np.uint8 and rgb.ndim == 3
                and rgb.shape[2] == 3):
            raise ValueError(f"Photo.rgb: expected a (h, w, 3) uint8 array, got "
                             f"{getattr(rgb, 'dtype', type(rgb).__name__)} "
                             f"{getattr(rgb, 'shape', '')}")
        if self.width < rgb.shape[1] or self.height < rgb.shape[0]:
            raise ValueError(f"Photo: full size {self.width}x{self.height} is smaller than "
                             f"the decoded pixels {rgb.shape[1]}x{rgb.shape[0]}")

    @property
    def scale(self) -> tuple[float, float]:
        """Factors (x, y) from decoded pixels to full-resolution pixels."""
        return self.width / self.rgb.shape[1], self.height / self.rgb.shape[0]


def _read_bytes(source: bytes | str | os.PathLike, max_bytes: int) -> tuple[bytes, str]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = "image bytes"
    else:
        path = Path(source)
        name = str(path)
        try:
            size = path.stat().st_size
            if size > max_bytes:
                raise ImageError(f"{name}: file is {size / 2**20:.0f} MiB, over the "
                                 f"{max_bytes / 2**20:.0f} MiB limit")
            if path.is_dir():
                raise ImageError(f"{name}: is a directory, not an image")
            data = path.read_bytes()
        except ImageError:
            raise
        except OSError as exc:
            raise ImageError(f"{name}: cannot read file ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise ImageError(f"{name}: {len(data) / 2**20:.0f} MiB, over the "
                         f"{max_bytes / 2**20:.0f} MiB limit")
    if not data:
        raise ImageError(f"{name}: empty file, not an image")
    return data, name


def _open_checked(data: bytes, name: str, max_pixels: int) -> Image.Image:
    """Open lazily (header only) and refuse oversized images before decoding."""
    with warnings.catch_warnings():
        # Pillow's own bomb guard warns or raises at ~90/180 MP; our limit is the one
        # that counts, so its warning is noise and its error becomes ours.
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data))
        except Image.DecompressionBombError:
            raise ImageError(f"{name}: image is larger than {max_pixels / 1e6:.0f} "
                             f"megapixels, the limit") from None
        except UnidentifiedImageError:
            if data[4:8] == b"ftyp":  # an ISO media file (HEIC, HEIF, AVIF) that did not open
                raise ImageError(f"{name}: truncated or corrupt image (a HEIC/HEIF/AVIF file "
                                 f"that cannot be opened)") from None
            raise ImageError(f"{name}: not an image (unknown format)") from None
        except (OSError, ValueError, SyntaxError) as exc:  # broken headers
            raise ImageError(f"{name}: not a readable image ({_one_line(exc)})") from None
    width, height = image.size
    if width <= 0 or height <= 0:
        raise ImageError(f"{name}: image has no pixels ({width}x{height})")
    if width * height > max_pixels:
        raise ImageError(f"{name}: image is {width}x{height} = {width * height / 1e6:.0f} "
                         f"megapixels, over the {max_pixels / 1e6:.0f} megapixel limit")
    return image


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _to_rgb_array(image: Image.Image) -> np.ndarray:
    """Any Pillow mode to (h, w, 3) uint8: 16-bit scaled down, alpha flattened on white."""
    mode = image.mode
    if mode in ("I;16", "I;16B", "I;16L", "I;16N", "I"):
        # 16-bit greyscale (PNG, TIFF): Pillow gives "I;16*" or 32-bit "I" holding 0..65535.
        values = np.asarray(image, dtype=np.float32)
        grey = np.clip(values / 257.0 + 0.5, 0, 255).astype(np.uint8)
        return np.ascontiguousarray(np.repeat(grey[:, :, None], 3, axis=2))
    if mode == "F":
        values = np.asarray(image, dtype=np.float32)
        top = float(values.max()) if values.size else 1.0
        scale = 255.0 if top <= 1.0 else 255.0 / top
        grey = np.clip(values * scale + 0.5, 0, 255).astype(np.uint8)
        return np.ascontiguousarray(np.repeat(grey[:, :, None], 3, axis=2))
    if mode in ("RGBA", "LA", "PA", "RGBa", "La") or (mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, ALPHA_BACKGROUND + (255,))
        return np.asarray(Image.alpha_composite(background, rgba).convert("RGB"))
    if mode != "RGB":
        image = image.convert("RGB")  # L, 1, P, CMYK, YCbCr, LAB, HSV, 16-bit RGB
    return np.asarray(image)


def load_photo(source: bytes | str | os.PathLike, *, max_pixels: int = DEFAULT_MAX_PIXELS,
               max_bytes: int = DEFAULT_MAX_BYTES, min_side: int | None = None) -> Photo:
    """Decode a photo upright (EXIF orientation applied).

    `min_side`: when given, a JPEG may be decoded at a reduced scale as long as both sides
    stay at least `min_side` pixels (other formats decode at full size); `Photo.width` and
    `Photo.height` are always the full-resolution upright size.
    """
    data, name = _read_bytes(source, max_bytes)
    image = _open_checked(data, name, max_pixels)
    full_w, full_h = image.size
    try:
        if min_side and image.format == "JPEG":
            image.draft("RGB", (min_side, min_side))
        image.load()
        upright = ImageOps.exif_transpose(image)
        rgb = _to_rgb_array(upright)
    except ImageError:
        raise
    except (OSError, ValueError, SyntaxError, EOFError, MemoryError) as exc:
        # Pillow says "image file is truncated", "broken data stream", ... for bad bodies.
        raise ImageError(f"{name}: truncated or corrupt image ({_one_line(exc)})") from None
    if upright.size != image.size:  # a 90/270 degree EXIF turn swaps the full size too
        full_w, full_h = full_h, full_w
    return Photo(rgb=np.ascontiguousarray(rgb), width=full_w, height=full_h)


def decode_image(source: bytes | str | os.PathLike, *,
                 max_pixels: int = DEFAULT_MAX_PIXELS,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> np.ndarray:
    """Full-resolution upright RGB uint8 array of shape (h, w, 3)."""
    return load_photo(source, max_pixels=max_pixels, max_bytes=max_bytes).rgb
