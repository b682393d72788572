"""What one photo may cost: memory bounded per photo whatever its pixel count or format, and
files that are not files (a device, a pipe) refused at once, in one line."""
from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import threading
import zlib

import numpy as np
import pytest
from PIL import Image

from app.cli import main
from vision.image import ImageError, load_photo

PEAK_LIMIT_MB = 800


def one_colour_png(path, width: int, height: int, rgba=(30, 120, 60, 255)) -> None:
    """A PNG written row by row, so the test itself never holds the decoded pixels."""
    row = b"\x00" + bytes(rgba) * width
    pack = zlib.compressobj(1)
    body = b"".join(pack.compress(row) for _ in range(height)) + pack.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body)
                     + chunk(b"IEND", b""))


# a separate process reads the photo; its parent reports the child's peak resident memory
MEASURE = """
import resource, subprocess, sys
code = ("from vision.image import load_photo; import sys; "
        "p = load_photo(sys.argv[1], min_side=int(sys.argv[2]) or None); "
        "print(p.width, p.height, *p.rgb.shape, *p.rgb[0, 0])")
out = subprocess.run([sys.executable, "-c", code, *sys.argv[1:]], check=True,
                     capture_output=True, text=True).stdout.split()
print(*out, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


@pytest.mark.slow
@pytest.mark.parametrize("min_side", [1200, 0])  # as the reader asks; the whole photo
def test_a_63_megapixel_one_colour_png_reads_in_bounded_memory(tmp_path, min_side):
    path = tmp_path / "63mp.png"
    one_colour_png(path, 9000, 7000)
    assert path.stat().st_size < 2_000_000
    out = subprocess.run([sys.executable, "-c", MEASURE, str(path), str(min_side)],
                         capture_output=True, text=True, timeout=120, check=True).stdout.split()
    width, height, h, w, _, r, g, b, peak_kb = map(int, out)
    assert (width, height, (r, g, b)) == (9000, 7000, (30, 120, 60))
    assert h * w <= 16_000_000 and (min_side == 0 or min(h, w) >= min_side)
    assert peak_kb / 1024 < PEAK_LIMIT_MB, f"peak {peak_kb / 1024:.0f} MB"


def test_reduced_decode_keeps_the_orientation_and_the_full_size():
    rng = np.random.default_rng(3)
    pixels = rng.integers(0, 255, (60, 100, 3), dtype=np.uint8)
    exif = Image.Exif()
    exif[0x0112] = 6  # turned 90 degrees: upright it is 60 wide and 100 high
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "PNG", exif=exif)
    full = load_photo(buffer.getvalue(), max_decoded=None)
    small = load_photo(buffer.getvalue(), max_decoded=700)  # reduced 3 times
    assert (full.width, full.height) == (small.width, small.height) == (60, 100)
    assert full.rgb.shape == (100, 60, 3) and small.rgb.shape[0] > small.rgb.shape[1]
    assert small.rgb.shape[0] * small.rgb.shape[1] <= 700
    expected = np.asarray(Image.fromarray(full.rgb).reduce(3), dtype=float)
    assert np.abs(small.rgb.astype(float) - expected).mean() < 1.0


def test_reduced_rgba_is_flattened_on_white():
    buffer = io.BytesIO()
    Image.new("RGBA", (400, 300), (0, 0, 255, 0)).save(buffer, "PNG")
    photo = load_photo(buffer.getvalue(), max_decoded=10_000)
    assert photo.rgb.shape[0] * photo.rgb.shape[1] <= 10_000 and (photo.rgb == 255).all()


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="Unix only")
@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_device_or_a_pipe_is_refused_in_one_line(tmp_path, kind):
    if kind == "device":
        path = "/dev/zero"
    else:
        path = tmp_path / "pipe"
        os.mkfifo(path)
    done = []
    worker = threading.Thread(target=lambda: done.append(_refusal(path)), daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert done, "reading a device or a pipe with no writer must not hang"
    assert "not a regular file" in done[0] and "\n" not in done[0]


def _refusal(path) -> str:
    try:
        load_photo(path)
    except ImageError as exc:
        return str(exc)
    return "read"


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "0"])
def test_detect_max_megapixels_out_of_range_is_one_line(value, capsys):
    code = main(["detect", "--max-megapixels", value, "x.jpg"])
    err = capsys.readouterr().err
    assert code == 2 and "--max-megapixels" in err and len(err.strip().splitlines()) == 1


def test_detect_on_a_device_says_so_in_one_line():
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAHJONG_LENS_")}
    proc = subprocess.run([sys.executable, "-m", "app.cli", "detect", "/dev/zero", "--json"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "not a regular file" in json.loads(proc.stdout.splitlines()[0])["error"]


def test_the_page_reads_at_most_two_photos_at_once():
    """Four players uploading together: the reads queue instead of adding up their memory."""
    import time

    from app import recognise

    lock, state = threading.Lock(), {"now": 0, "most": 0}

    class SlowReader:
        def read(self, source):
            with lock:
                state["now"] += 1
                state["most"] = max(state["most"], state["now"])
            time.sleep(0.05)
            with lock:
                state["now"] -= 1
            raise ImageError("image bytes: not an image (unknown format)")

    answers = []
    players = [threading.Thread(target=lambda: answers.append(recognise.recognise(b"x", SlowReader())))
               for _ in range(6)]
    for player in players:
        player.start()
    for player in players:
        player.join(timeout=10)
    assert len(answers) == 6 and all(a.startswith("Could not use this photo") for a in answers)
    assert state["most"] == recognise.MAX_READS_AT_ONCE


def test_a_webp_over_its_own_pixel_limit_is_refused_from_its_header(tmp_path, monkeypatch):
    from vision import image
    assert image.FORMAT_MAX_PIXELS["WEBP"] < image.DEFAULT_MAX_PIXELS
    monkeypatch.setitem(image.FORMAT_MAX_PIXELS, "WEBP", 30_000)  # a small one stands in
    path = tmp_path / "big.webp"
    Image.new("RGB", (200, 200), (30, 120, 60)).save(path, lossless=True)
    with pytest.raises(ImageError, match="megapixel limit for WEBP"):
        load_photo(path)
    png = tmp_path / "big.png"
    Image.new("RGB", (200, 200), (30, 120, 60)).save(png)
    assert load_photo(png).width == 200  # other formats keep the general limit
