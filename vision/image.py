"""Photo decoding: bytes or a path in, an upright RGB uint8 array out.

Everything that can go wrong with a user's file (not an image, truncated, too large, an odd
pixel format) raises `ImageError`, a `ValueError`, with a one-line message; nothing else
escapes. The pixel-count limit is checked from the header, before any pixel is decoded, so
a small file that claims 100 megapixels (a decompression bomb) costs nothing.

Formats: only those of photos (`FORMATS`: JPEG, PNG, WebP, AVIF, TIFF, BMP) and HEIC/HEIF, the
default of iPhone cameras, through pillow-heif; any other file Pillow could open (PostScript,
which it would hand to Ghostscript, JPEG 2000, ...) is refused unread. Each side, the aspect
and a JPEG's scans are bounded as well as the area. pillow-heif also turns the picture upright
itself (it resets the EXIF orientation, so nothing is turned twice). HEVC has no reduced-scale
decode: a 12 MP HEIC laid out in 512-pixel tiles, as phones write it, decodes in about
0.25 s on 2 cores (a JPEG at half scale: 0.02 s), so the whole reading takes about 0.42 s
against 0.18 s (`cache/timing_12mp.jpg` saved both ways).

`load_photo(..., min_side=640)` lets a JPEG decode at 1/2, 1/4 or 1/8 scale in the DCT
(Pillow's `draft`), which is ten times faster than a full 12-megapixel decode and loses
nothing for a 640-pixel detector; `Photo` keeps the full upright size so boxes map back.
"""
from __future__ import annotations

import functools
import importlib.util
import io
import math
import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import ExifTags, Image, ImageOps, UnidentifiedImageError

from scoring.errors import one_line
from vision.jpeg import count_scans

# pillow-heif, a Pillow plugin, is imported and registered only for a file that may be a
# HEIC/HEIF (`register_heif`): its import costs about 10 ms of CPU, which a `detect` of a
# JPEG need not pay. An install without it reads every other format; HEIC is then "unknown".
HEIF = importlib.util.find_spec("pillow_heif") is not None

# 12-64 MP pass: phones shoot 12 MP by default and 48-50 MP in their high-resolution modes
# (a JPEG then decodes at 1/4 scale in about the time of a 12 MP one); a 100 MP claim is refused.
DEFAULT_MAX_PIXELS = 64_000_000
DEFAULT_MAX_BYTES = 200 * 1024 * 1024  # ten times a 48 MP phone JPEG; more is not a photo.
# Pixels kept once decoded: a bigger photo is decoded smaller (JPEG, in the DCT) or reduced by
# a whole factor right after decoding (PNG, WebP, TIFF, ...), before any copy or conversion,
# so a 262 KB one-colour 63 MP PNG costs one decode buffer, not gigabytes of copies.
MAX_DECODED_PIXELS = 16_000_000
# Formats decoded only whole and at several bytes a pixel (libwebp through Pillow: about 16
# bytes a pixel at its peak) get a lower pixel limit; phones do not write photos this large
# in them.
FORMAT_MAX_PIXELS = {"WEBP": 24_000_000}
# The formats a photo comes in (a phone's MPO opens as JPEG); Image.open tries no other plugin.
FORMATS = ("JPEG", "PNG", "WEBP", "AVIF", "HEIF", "TIFF", "BMP")
# Each side bounded, not only the area: a 1x63,999,999 PNG passes an area limit and costs
# gigabytes of row buffers downstream. Phones write up to 8064 px a side; a tight crop of a row
# of 18 tiles is about 14:1.
WITHOUT_HEIF = tuple(f for f in FORMATS if f != "HEIF")  # Image.open fails on a name not registered
MAX_SIDE = 16_384
MAX_ASPECT = 20
# A progressive JPEG is decoded scan by scan, each a pass over every pixel (about 3 ns a pixel
# on one core): scans x pixels is bounded, so that a decode stays within seconds. Encoders write
# about 10 scans; at least MIN_SCANS are always allowed.
JPEG_SCAN_WORK = 1_000_000_000
MIN_SCANS = 16
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
        data = _read_regular_file(path, name, max_bytes)
    if len(data) > max_bytes:
        raise ImageError(f"{name}: {len(data) / 2**20:.0f} MiB, over the "
                         f"{max_bytes / 2**20:.0f} MiB limit")
    if not data:
        raise ImageError(f"{name}: empty file, not an image")
    return data, name


def _read_regular_file(path: Path, name: str, max_bytes: int) -> bytes:
    """The file's bytes; a directory, device (/dev/zero) or FIFO is refused without reading
    it (opened non-blocking, so a FIFO with no writer cannot hang), and never more than
    max_bytes + 1 bytes are read, whatever the file claims."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except IsADirectoryError:
        raise ImageError(f"{name}: is a directory, not an image") from None
    except OSError as exc:
        raise ImageError(f"{name}: cannot read file ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ImageError(f"{name}: is a directory, not an image")
        if not stat.S_ISREG(info.st_mode):
            raise ImageError(f"{name}: not a regular file (a device, pipe or socket), not an image")
        if info.st_size > max_bytes:
            raise ImageError(f"{name}: file is {info.st_size / 2**20:.0f} MiB, over the "
                             f"{max_bytes / 2**20:.0f} MiB limit")
        with os.fdopen(fd, "rb", closefd=False) as stream:
            return stream.read(max_bytes + 1)
    except OSError as exc:
        raise ImageError(f"{name}: cannot read file ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


@functools.cache
def register_heif() -> bool:
    """pillow-heif's opener registered with Pillow, once (Image.open then reads HEIC/HEIF);
    False without pillow-heif."""
    try:
        from pillow_heif import register_heif_opener
    except ImportError:
        return False
    register_heif_opener()
    return True


def _open_checked(data: bytes, name: str, max_pixels: int) -> Image.Image:
    """Open lazily (header only) and refuse oversized images before decoding."""
    # an ISO media file (HEIC, HEIF or AVIF) is the only kind that may need pillow-heif
    formats = FORMATS if data[4:8] == b"ftyp" and register_heif() else WITHOUT_HEIF
    with warnings.catch_warnings():
        # Pillow's own bomb guard warns or raises at ~90/180 MP; our limit is the one
        # that counts, so its warning is noise and its error becomes ours.
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=formats)
        except Image.DecompressionBombError:
            raise ImageError(f"{name}: image is larger than {max_pixels / 1e6:.0f} "
                             f"megapixels, the limit") from None
        except UnidentifiedImageError:
            if data[4:8] == b"ftyp":  # an ISO media file (HEIC, HEIF, AVIF) that did not open
                raise ImageError(f"{name}: truncated or corrupt image (a HEIC/HEIF/AVIF file "
                                 f"that cannot be opened)") from None
            raise ImageError(f"{name}: not an image (unknown format)") from None
        except (OSError, ValueError, SyntaxError) as exc:  # broken headers
            raise ImageError(f"{name}: not a readable image ({one_line(exc)})") from None
    _check_size(image, name, max_pixels)
    if image.format in ("JPEG", "MPO"):
        _check_scans(data, name, image.size[0] * image.size[1])
    return image


def _check_size(image: Image.Image, name: str, max_pixels: int) -> None:
    width, height = image.size
    if width <= 0 or height <= 0:
        raise ImageError(f"{name}: image has no pixels ({width}x{height})")
    limit = min(max_pixels, FORMAT_MAX_PIXELS.get(image.format, max_pixels))
    if width * height > limit:
        kind = f" for {image.format}" if limit < max_pixels else ""
        raise ImageError(f"{name}: image is {width}x{height} = {width * height / 1e6:.0f} "
                         f"megapixels, over the {limit / 1e6:.0f} megapixel limit{kind}")
    if max(width, height) > MAX_SIDE:
        raise ImageError(f"{name}: image is {width}x{height}, over the {MAX_SIDE} pixel limit "
                         f"on a side")
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise ImageError(f"{name}: image is {width}x{height}, longer than {MAX_ASPECT} times "
                         f"its width; not a photo of a hand")


def _check_scans(data: bytes, name: str, pixels: int) -> None:
    allowed = max(MIN_SCANS, JPEG_SCAN_WORK // pixels)
    if count_scans(data, allowed + 1) > allowed:
        raise ImageError(f"{name}: a JPEG of more than {allowed} scans, the most read at "
                         f"this size (a photo has about 10)")


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
        rgba = image if mode == "RGBA" else image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, ALPHA_BACKGROUND)
        flat.paste(rgba.convert("RGB"), mask=rgba.getchannel("A"))  # one RGB copy, not four RGBA
        return np.asarray(flat)
    if mode != "RGB":
        image = image.convert("RGB")  # L, 1, P, CMYK, YCbCr, LAB, HSV, 16-bit RGB
    return np.asarray(image)


def load_photo(source: bytes | str | os.PathLike, *, max_pixels: int = DEFAULT_MAX_PIXELS,
               max_bytes: int = DEFAULT_MAX_BYTES, min_side: int | None = None,
               max_decoded: int | None = MAX_DECODED_PIXELS) -> Photo:
    """Decode a photo upright (EXIF orientation applied).

    `min_side`: when given, the photo may be decoded smaller as long as both sides stay at
    least `min_side` pixels (a JPEG at 1/2, 1/4 or 1/8 scale in the DCT, other formats
    reduced by a whole factor). `max_decoded`: the most pixels kept (None: no bound).
    `Photo.width` and `Photo.height` are always the full-resolution upright size.
    """
    data, name = _read_bytes(source, max_bytes)
    image = _open_checked(data, name, max_pixels)
    full_w, full_h = image.size
    factor = _reduce_factor(full_w, full_h, min_side, max_decoded)
    try:
        if factor > 1 and image.format == "JPEG":
            image.draft("RGB", (math.ceil(full_w / factor), math.ceil(full_h / factor)))
        image.load()
        decoded_size, orientation = image.size, _orientation(image)
        if factor > 1 and image.size == (full_w, full_h):  # not reduced while decoding
            upright = _reduced_upright(image, factor)
        else:  # turned in place: an upright photo is not copied (9 MB at 12 MP, half scale)
            ImageOps.exif_transpose(image, in_place=True)
            upright = image
        image = None  # the decode buffer goes before the conversion's copies are made
        rgb = _to_rgb_array(upright)
    except ImageError:
        raise
    except (OSError, ValueError, SyntaxError, EOFError, MemoryError) as exc:
        # Pillow says "image file is truncated", "broken data stream", ... for bad bodies.
        raise ImageError(f"{name}: truncated or corrupt image ({one_line(exc)})") from None
    if _turned(upright.size, decoded_size) or orientation in _QUARTER_TURNS:
        full_w, full_h = full_h, full_w  # a 90/270 degree EXIF turn swaps the full size too
    return Photo(rgb=np.ascontiguousarray(rgb), width=full_w, height=full_h)


def _reduce_factor(width: int, height: int, min_side: int | None, max_decoded: int | None) -> int:
    """The whole factor to decode by: as small as min_side allows, enough for max_decoded."""
    factor = max(1, min(width, height) // min_side) if min_side else 1
    if max_decoded:
        factor = max(factor, math.ceil(math.sqrt(width * height / max_decoded)))
    return factor


# EXIF orientation → the turn that makes the photo upright (as ImageOps.exif_transpose)
_TURNS = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
          4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
          6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
          8: Image.Transpose.ROTATE_90}
_QUARTER_TURNS = (5, 6, 7, 8)
# modes Image.reduce does not take, and the mode each is widened to first
_REDUCIBLE = {"1": "L", "P": "RGBA", "PA": "RGBA", "I;16": "I", "I;16B": "I", "I;16L": "I", "I;16N": "I"}


def _orientation(image: Image.Image) -> int:
    try:
        return int(image.getexif().get(ExifTags.Base.Orientation, 1) or 1)
    except (TypeError, ValueError):
        return 1


def _turned(upright: tuple[int, int], decoded: tuple[int, int]) -> bool:
    return upright != decoded and upright == decoded[::-1]


def _reduced_upright(image: Image.Image, factor: int) -> Image.Image:
    """The decoded image made `factor` times smaller, then turned upright; the orientation is
    read from the decoded file, since a reduced copy may not carry its tags."""
    orientation = _orientation(image)
    if image.mode in _REDUCIBLE:
        wide = _REDUCIBLE[image.mode]
        if image.mode == "P" and "transparency" not in image.info:
            wide = "RGB"
        image = image.convert(wide)
    if image.mode in ("RGBA", "LA"):
        # band by band: Image.reduce would first make a premultiplied copy of the whole
        # decoded image; a colour bleeding from a transparent pixel is lost on white anyway
        small = Image.merge(image.mode, [image.getchannel(band).reduce(factor)
                                         for band in image.getbands()])
    else:
        small = image.reduce(factor)
    turn = _TURNS.get(orientation)
    return small.transpose(turn) if turn is not None else small


def decode_image(source: bytes | str | os.PathLike, *,
                 max_pixels: int = DEFAULT_MAX_PIXELS,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> np.ndarray:
    """Full-resolution upright RGB uint8 array of shape (h, w, 3)."""
    return load_photo(source, max_pixels=max_pixels, max_bytes=max_bytes, max_decoded=None).rgb
