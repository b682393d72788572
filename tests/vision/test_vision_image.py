"""vision.image: real bad and odd files made in tmp_path, one case per row."""
from __future__ import annotations

import io
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest
from PIL import Image

from vision.image import HEIF, ImageError, Photo, decode_image, load_photo, register_heif

register_heif()  # the HEIC files below are written by pillow-heif


def _jpeg(width=64, height=48, exif_orientation=None) -> bytes:
    pixels = np.zeros((height, width, 3), np.uint8)
    pixels[:, : width // 2] = (255, 0, 0)  # left half red: shows where the left went
    image = Image.fromarray(pixels)
    buffer = io.BytesIO()
    if exif_orientation:
        exif = Image.Exif()
        exif[0x0112] = exif_orientation
        image.save(buffer, "JPEG", quality=95, exif=exif.tobytes())
    else:
        image.save(buffer, "JPEG", quality=95)
    return buffer.getvalue()


def _saved(width: int, height: int, fmt: str, exif_orientation=None) -> bytes:
    """The left half red, as `_jpeg`, in another format (HEIF, AVIF, WEBP)."""
    pixels = np.zeros((height, width, 3), np.uint8)
    pixels[:, : width // 2] = (255, 0, 0)
    buffer = io.BytesIO()
    extra = {}
    if exif_orientation:
        exif = Image.Exif()
        exif[0x0112] = exif_orientation
        extra["exif"] = exif.tobytes()
    Image.fromarray(pixels).save(buffer, fmt, quality=95, **extra)
    return buffer.getvalue()


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims width x height and whose body is a few bytes."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"\x00" * 16)) + chunk(b"IEND", b""))


def _sixteen_bit_grey() -> bytes:
    values = np.full((10, 12), 65535, np.uint16)
    values[:, :6] = 257 * 100  # 100 in 8 bits
    return _png(Image.fromarray(values))


def _palette_with_transparency() -> bytes:
    image = Image.new("P", (8, 8), 0)
    image.putpalette([0, 0, 0, 200, 10, 10] + [0] * 762)
    image.paste(1, (0, 0, 4, 8))
    image.info["transparency"] = 0
    buffer = io.BytesIO()
    image.save(buffer, "PNG", transparency=0)
    return buffer.getvalue()


BAD_FILES = [
    # (file name, bytes, words the message must contain)
    ("text.jpg", b"this is not a photo\n" * 20, "not an image"),
    ("empty.jpg", b"", "empty"),
    ("truncated.jpg", _jpeg(400, 300)[:1500], "truncated or corrupt"),
    ("bomb.png", _png_header_only(10_000, 10_000), "megapixel limit"),
    ("random.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "not"),
]
if HEIF:  # a phone photo cut short in transfer
    BAD_FILES.append(("truncated.heic", _saved(400, 300, "HEIF")[:300], "truncated or corrupt"))


@pytest.mark.parametrize("name,data,words", BAD_FILES, ids=[row[0] for row in BAD_FILES])
def test_bad_files_raise_one_line_image_error(tmp_path, name, data, words):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ImageError) as caught:
        decode_image(path)
    message = str(caught.value)
    assert words in message and "\n" not in message and name in message
    assert isinstance(caught.value, ValueError)


def test_missing_file_and_directory_are_image_errors(tmp_path):
    with pytest.raises(ImageError, match="cannot read"):
        decode_image(tmp_path / "absent.jpg")
    with pytest.raises(ImageError, match="directory"):
        decode_image(tmp_path)


def test_limit_is_configurable_and_checked_before_decoding(tmp_path):
    path = tmp_path / "small.jpg"
    path.write_bytes(_jpeg(64, 48))
    with pytest.raises(ImageError, match="megapixel"):
        decode_image(path, max_pixels=1000)
    with pytest.raises(ImageError, match="MiB"):
        decode_image(path, max_bytes=100)


GOOD_FILES = [
    # (bytes, expected (h, w), pixel probe (y, x) -> expected RGB within tolerance)
    (_jpeg(64, 48), (48, 64), ((10, 5), (255, 0, 0))),
    (_jpeg(64, 48, exif_orientation=6), (64, 48), ((5, 40), (255, 0, 0))),  # 90 deg: left -> top
    (_jpeg(64, 48, exif_orientation=3), (48, 64), ((10, 60), (255, 0, 0))),  # 180 deg
    (_sixteen_bit_grey(), (10, 12), ((5, 2), (100, 100, 100))),
    (_png(Image.new("L", (7, 5), 30)), (5, 7), ((2, 2), (30, 30, 30))),
    (_png(Image.new("RGBA", (6, 4), (0, 0, 0, 0))), (4, 6), ((1, 1), (255, 255, 255))),
    (_palette_with_transparency(), (8, 8), ((2, 6), (255, 255, 255))),
    (_png(Image.new("1", (9, 3), 1)), (3, 9), ((1, 1), (255, 255, 255))),
    (_saved(64, 48, "WEBP"), (48, 64), ((10, 5), (255, 0, 0))),
    (_saved(64, 48, "AVIF"), (48, 64), ((10, 5), (255, 0, 0))),
]
if HEIF:  # an iPhone's own format; a phone that turned the camera stores the turn
    GOOD_FILES += [(_saved(64, 48, "HEIF"), (48, 64), ((10, 5), (255, 0, 0))),
                   (_saved(64, 48, "HEIF", exif_orientation=6), (64, 48), ((5, 40), (255, 0, 0)))]


@pytest.mark.parametrize("data,shape,probe", GOOD_FILES)
def test_good_files_decode_upright_rgb_uint8(data, shape, probe):
    rgb = decode_image(data)
    assert rgb.dtype == np.uint8 and rgb.shape == (*shape, 3)
    (y, x), colour = probe
    assert np.abs(rgb[y, x].astype(int) - colour).max() <= 12


def test_heic_is_read_when_pillow_heif_is_installed():
    """pillow-heif is a dependency (pyproject.toml): a fresh install reads iPhone photos."""
    assert HEIF


def test_a_jpeg_is_read_without_importing_pillow_heif(tmp_path):
    """pillow-heif loads only for a file that may be HEIC: a JPEG's reading never pays it."""
    path = tmp_path / "hand.jpg"
    path.write_bytes(_jpeg())
    code = ("import sys\nfrom vision.image import load_photo\nload_photo(sys.argv[1])\n"
            "print('pillow_heif' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout.split() == ["False"]


def test_a_huge_heic_is_refused_from_its_header():
    if not HEIF:
        pytest.skip("pillow-heif is not installed")
    with pytest.raises(ImageError, match="megapixel"):
        load_photo(_saved(640, 480, "HEIF"), max_pixels=100_000)


def test_jpeg_draft_keeps_full_size_and_scale():
    photo = load_photo(_jpeg(2600, 2000, exif_orientation=6), min_side=640)
    assert (photo.width, photo.height) == (2000, 2600)  # upright: the EXIF turn swaps sides
    assert min(photo.rgb.shape[:2]) >= 640 and photo.rgb.shape[1] < 2000
    sx, sy = photo.scale
    assert sx == pytest.approx(sy) and sx == pytest.approx(2.0)


def test_photo_validates_its_array():
    with pytest.raises(ValueError, match="uint8"):
        Photo(rgb=np.zeros((4, 4), np.float32), width=4, height=4)
    with pytest.raises(ValueError, match="smaller"):
        Photo(rgb=np.zeros((4, 4, 3), np.uint8), width=2, height=4)


def test_a_48_megapixel_phone_photo_is_read_at_reduced_scale():
    """Phones' high-resolution modes (48-50 MP) pass the limit; the JPEG decodes small."""
    buffer = io.BytesIO()
    Image.new("RGB", (8000, 6000), (40, 110, 60)).save(buffer, "JPEG", quality=50)
    photo = load_photo(buffer.getvalue(), min_side=1200)
    assert (photo.width, photo.height) == (8000, 6000)
    assert photo.rgb.shape == (1500, 2000, 3)
