"""Hostile files: each made here, each refused or handled in one line, in a process of its
own whose peak memory stays under PEAK_LIMIT_MB and whose read takes under READ_LIMIT_S of
CPU (the process's own time, all its threads: the tests share the cores with others)."""
from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zipfile
import zlib

import pytest
from PIL import Image

from vision.image import register_heif

HEIF = register_heif()  # the HEIC file below is written by pillow-heif

PEAK_LIMIT_MB = 800
READ_LIMIT_S = 5.0

# the process's own peak (VmHWM: ru_maxrss would carry the forking parent's peak over)
PEAK = ["peak_kb = next(int(line.split()[1]) for line in open('/proc/self/status')",
        "               if line.startswith('VmHWM:'))",
        "print(json.dumps({'said': said, 'seconds': seconds, 'peak_mb': peak_kb / 1024}))"]
# what the reader does with a photo file: read it as the page and `detect` do, or say why not
READ_PHOTO = """
import json, sys, time
from vision.image import load_photo
start = time.process_time()
try:
    photo = load_photo(sys.argv[1], min_side=640)
    said = f"read {photo.width}x{photo.height}"
except ValueError as exc:
    said = str(exc)
seconds = time.process_time() - start
""" + "\n".join(PEAK)


def measured(code: str, *args: str) -> dict:
    """What a fresh process running `code` said, how long it took and its peak memory."""
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and not out.stderr.strip(), out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def scan_bomb(path) -> None:
    """A progressive JPEG whose last scan is repeated 20,000 times."""
    buffer = io.BytesIO()
    Image.new("RGB", (2000, 2000), (200, 180, 160)).save(buffer, "JPEG", progressive=True)
    data = buffer.getvalue()
    scan = data[data.rfind(b"\xff\xda"):-2]
    path.write_bytes(data[:-2] + scan * 20_000 + b"\xff\xd9")


def tall_png(path, colour_type: int = 6, depth: int = 8, height: int = 63_999_999) -> None:
    """A 1-pixel-wide PNG, compressed a million rows at a time (small in the test too)."""
    channels = {0: 1, 3: 1, 6: 4}[colour_type]
    row = b"\x00" + bytes(max(1, channels * depth // 8))
    pack = zlib.compressobj(9)
    body = b"".join(pack.compress(row * min(1_000_000, height - done))
                    for done in range(0, height, 1_000_000)) + pack.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", 1, height, depth, colour_type, 0, 0, 0)
    palette = chunk(b"PLTE", bytes(3 * 256)) if colour_type == 3 else b""
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + palette
                     + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def saved(fmt: str, side: int = 7900, **options):
    """A one-colour image of side x side pixels saved as `fmt`: a few KB for 62 MP."""
    def write(path) -> None:
        buffer = io.BytesIO()
        Image.new("RGB", (side, side), (120, 130, 140)).save(buffer, fmt, **options)
        path.write_bytes(buffer.getvalue())
    return write


def eps_as_jpeg(path) -> None:
    """PostScript named .jpg: Pillow would hand it to Ghostscript."""
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), (1, 2, 3)).save(buffer, "EPS")
    path.write_bytes(buffer.getvalue())


PHOTOS = [
    # (file name, how it is made, what is said: words of the refusal, or "read")
    ("scans.jpg", scan_bomb, "scans"),
    ("tall-rgba.png", tall_png, "pixel limit on a side"),
    ("tall-palette.png", lambda p: tall_png(p, 3), "pixel limit on a side"),
    ("tall-1bit.png", lambda p: tall_png(p, 0, 1), "pixel limit on a side"),
    ("wide.png", lambda p: tall_png(p, height=9000), "longer than 20 times"),
    ("7900.jp2", saved("JPEG2000"), "not an image"),
    ("7900.avif", saved("AVIF", quality=10, speed=10), "read 7900x7900"),
    ("eps.jpg", eps_as_jpeg, "not an image"),
]
if HEIF:
    PHOTOS.append(("7900.heic", saved("HEIF", quality=10, enc_params={"preset": "ultrafast"}),
                   "read 7900x7900"))


@pytest.mark.slow
@pytest.mark.parametrize("name, make, said", PHOTOS, ids=[row[0] for row in PHOTOS])
def test_a_hostile_photo_is_refused_or_read_in_bounds(tmp_path, name, make, said):
    path = tmp_path / name
    make(path)
    assert path.stat().st_size < 2_200_000
    result = measured(READ_PHOTO, str(path))
    assert said in result["said"] and "\n" not in result["said"], result
    assert result["seconds"] < READ_LIMIT_S, result
    assert result["peak_mb"] < PEAK_LIMIT_MB, result


# --- tile sets in the data folder ----------------------------------------------------------
# (a damaged file is made by adding a second member of the same name, which the zip keeps)
pytestmark = pytest.mark.filterwarnings("ignore:Duplicate name")
# what `sets` and the Tile sets page do with the data folder: list every set, each in one line
LIST_SETS = """
import json, sys, time
from vision.tileset.store import list_sets
start = time.process_time()
said = {s.name: s.error or f"{sum(s.examples.values())} examples" for s in list_sets(sys.argv[1])}
seconds = time.process_time() - start
""" + "\n".join(PEAK)


def good_set(data, name: str = "good"):
    import numpy as np
    from vision.tileset.store import TileSet, save_set
    feats = np.eye(2, 8, dtype=np.float32)
    return save_set(TileSet(name, np.ones(8, np.float32)).add(["1m", "2m"], feats, feats,
                                                               "sheet", when=100.0), data)


def rewritten(path, **changes) -> None:
    """The set at `path` with some arrays replaced, as a damaged or hand-made file would be."""
    import numpy as np
    with np.load(path) as npz:
        arrays = {key: npz[key] for key in npz.files}
    np.savez(path, **{**arrays, **changes})


def huge_header(path) -> None:
    """features.npy claims 10^5 x 10^5 x 64 halves and holds 16 bytes."""
    import numpy as np
    with zipfile.ZipFile(path, "a") as archive:
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(header, {"descr": "<f2", "fortran_order": False,
                                                      "shape": (100_000, 100_000, 64)})
        archive.writestr("features.npy", header.getvalue() + bytes(16))


def zip_bomb(path, gigabytes: int = 2) -> None:
    """features.npy of 2 GB of zeros, deflated to about 2 MB."""
    import numpy as np
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        with archive.open("features.npy", "w", force_zip64=True) as member:
            n = gigabytes * 2**30 // 2
            np.lib.format.write_array_header_2_0(member, {"descr": "<f2", "fortran_order": False,
                                                          "shape": (n // 512, 1, 512)})
            block = bytes(2**24)
            for _ in range(gigabytes * 2**30 // len(block)):
                member.write(block)


def damaged(how):
    """A copy of a good set, `how` done to it."""
    def make(path) -> None:
        good_set(path.parent.parent, "seed").rename(path)
        how(path)
    return make


def meta(text: str):
    import numpy as np
    return lambda path: rewritten(path, meta=np.array(text))


def taught(value: float):
    import numpy as np
    return lambda path: rewritten(path, taught=np.array([value, value]))


DAMAGED_SETS = [
    # (file, how it is made, what `sets` says of it)
    ("shape.npz", damaged(huge_header), "claim more than the file holds"),
    ("bomb.npz", damaged(zip_bomb), "would expand to 2048 MB"),
    ("deep.npz", damaged(meta("[" * 100_000 + "]" * 100_000)), "description is too long"),
    ("far.npz", damaged(taught(1e308)), "no times"),
    ("nan.npz", damaged(taught(float("nan"))), "no times"),
    ("evil.npz", damaged(meta('{"format": 2, "name": "../../evil"}')), "2 examples"),
    ("null.npz", damaged(meta('{"format": 2, "name": null}')), "2 examples"),
]


@pytest.mark.slow
@pytest.mark.parametrize("name, make, said", DAMAGED_SETS, ids=[row[0] for row in DAMAGED_SETS])
def test_a_damaged_set_is_one_line_and_the_others_are_listed(tmp_path, name, make, said):
    from vision.tileset.store import sets_folder
    good_set(tmp_path)
    make(sets_folder(tmp_path) / name)
    result = measured(LIST_SETS, str(tmp_path))
    stem = name.removesuffix(".npz")
    assert result["said"]["good"] == "2 examples", result
    assert said in result["said"][stem] and "\n" not in result["said"][stem], result
    assert sorted(result["said"]) == sorted(["good", stem]), result  # listed under its file's name
    assert result["seconds"] < READ_LIMIT_S and result["peak_mb"] < PEAK_LIMIT_MB, result


UNREADABLE = [row for row in DAMAGED_SETS[:5] if row[0] != "bomb.npz"]  # the bomb: slow test


@pytest.mark.parametrize("name, make, said", UNREADABLE, ids=[row[0] for row in UNREADABLE])
def test_undo_beside_a_damaged_set_is_one_line(tmp_path, name, make, said):
    from vision.tileset import forget_hand
    from vision.tileset.store import TileSetError, sets_folder
    good_set(tmp_path)
    make(sets_folder(tmp_path) / name)
    with pytest.raises(TileSetError, match=said[:12]):
        forget_hand(name.removesuffix(".npz"), 7, tmp_path)
    assert forget_hand("good", 7, tmp_path) == 0


def test_a_copied_set_is_taught_as_its_copy_and_listed_once(tmp_path):
    import shutil

    import numpy as np
    from vision.tileset.store import add_examples, list_sets, load_set, set_path
    good = good_set(tmp_path)
    before = good.read_bytes()
    shutil.copy(good, set_path("backup", tmp_path))
    feats = np.eye(1, 8, 3, dtype=np.float32)
    add_examples("backup", np.ones(8, np.float32), ["3m"], feats, feats, "hand:1", ["3m"],
                 tmp_path)
    assert good.read_bytes() == before
    assert load_set("backup", tmp_path).name == "backup" and len(load_set("backup", tmp_path)) == 3
    assert [s.name for s in list_sets(tmp_path)] == ["backup", "good"]


# --- the ledger ----------------------------------------------------------------------------
def played_ledger(folder):
    """A ledger of two hands: E wins 24 from S, then S wins 8 from each."""
    from app.ledger import HandEntry, Ledger
    ledger = Ledger(folder)
    night = ledger.current_night()
    ledger.set_names(night, ["Ann", "Bo", "Cy", "Di"])
    ledger.add_hand(night, HandEntry("mcr", "x", 8, "E", {"E": 24, "S": -24, "W": 0, "N": 0}), "a")
    ledger.add_hand(night, HandEntry("mcr", "y", 8, "S", {"E": -8, "S": 24, "W": -8, "N": -8}), "b")
    return ledger, night


def sql(folder, statement: str) -> None:
    import sqlite3
    with sqlite3.connect(folder / "ledger.sqlite3") as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")  # as a hand-edited file may be
        conn.execute(statement)


BAD_ROWS = [
    # (what is changed, the totals shown after it, rows left out)
    ("UPDATE amounts SET amount='lots' WHERE hand_id=1 AND seat='E'",
     {"Ann": -8, "Bo": 0, "Cy": -8, "Di": -8}, 1),
    ("UPDATE amounts SET player_no=7 WHERE hand_id=2 AND seat='S'",
     {"Ann": 16, "Bo": -24, "Cy": -8, "Di": -8}, 1),
    ("UPDATE hands SET created='yesterday' WHERE id=1", {"Ann": -8, "Bo": 24, "Cy": -8, "Di": -8}, 1),
    ("UPDATE hands SET created=1e300 WHERE id=2", {"Ann": 24, "Bo": -24, "Cy": 0, "Di": 0}, 1),
    ("UPDATE amounts SET amount=9e999 WHERE hand_id=2 AND seat='W'",
     {"Ann": 16, "Bo": 0, "Cy": 0, "Di": -8}, 1),
    ("UPDATE seats SET name='Ann'",  # four players of one name: four totals still
     {"Ann (1)": 16, "Ann (2)": 0, "Ann (3)": -8, "Ann (4)": -8}, 0),
]


@pytest.mark.parametrize("change, totals, off", BAD_ROWS, ids=[row[0][:40] for row in BAD_ROWS])
def test_a_bad_ledger_row_is_left_out_and_the_rest_shown(tmp_path, change, totals, off):
    from app.ledger import Ledger
    _, night = played_ledger(tmp_path)
    sql(tmp_path, change)
    before = (tmp_path / "ledger.sqlite3").read_bytes()
    ledger = Ledger(tmp_path)
    assert ledger.totals(night) == totals and ledger.off_rows(night) == off
    assert len(ledger.hands(night)) == 2 - ("hands" in change)
    assert ledger.to_csv(night).count("\n") == 4 - ("hands" in change)
    assert (tmp_path / "ledger.sqlite3").read_bytes() == before  # nothing changed unasked


def test_a_ledger_of_an_unknown_schema_is_one_line_and_left_as_it_is(tmp_path):
    from app.ledger import Ledger, LedgerError
    played_ledger(tmp_path)
    sql(tmp_path, "UPDATE meta SET value='x' WHERE key='schema_version'")
    before = (tmp_path / "ledger.sqlite3").read_bytes()
    with pytest.raises(LedgerError, match="the ledger is off") as caught:
        Ledger(tmp_path)
    assert "\n" not in str(caught.value)
    assert (tmp_path / "ledger.sqlite3").read_bytes() == before


@pytest.mark.slow
@pytest.mark.parametrize("change, said", [
    ("UPDATE meta SET value='x' WHERE key='schema_version'", "the ledger is off: its schema"),
    (BAD_ROWS[0][0], "The ledger is off: 1 row of tonight could not be read and is left out."),
], ids=["schema", "row"])
def test_the_page_stays_up_and_says_the_ledger_is_off(data_dir, change, said):
    from streamlit.testing.v1 import AppTest

    from app_fixtures import PAGE
    played_ledger(data_dir)
    sql(data_dir, change)
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(str(e.value) for e in [*at.error, *at.warning, *at.markdown])
    assert said in shown, shown[:2000]


# --- the notation box ----------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["1" * 1_000_000, "[123m]" * 50_000], ids=["ones", "chows"])
def test_a_megabyte_typed_as_a_hand_is_one_short_line(page, typed):
    import time

    from app_fixtures import texts
    page.segmented_control(key="mode__win").set_value("Manual").run()
    start = time.process_time()
    page.text_input(key="notation__win__0").set_value(typed).run()
    assert not page.exception, [e.value for e in page.exception]
    assert time.process_time() - start < READ_LIMIT_S
    said = texts(page)  # the box keeps 200 characters; the page checks the length again
    assert len(said) < 20_000 and typed[:300] not in said


# --- a reader told to take every box -------------------------------------------------------
READ_EVERY_BOX = """
import json, sys, time
from vision.pipeline import MAX_TILES, TileReader
reader = TileReader(conf=0.0)
start = time.process_time()
found = reader.read(sys.argv[1]).detections
said = f"{len(found)} tiles of at most {MAX_TILES}"
seconds = time.process_time() - start
""" + "\n".join(PEAK)


@pytest.mark.slow
def test_reading_at_confidence_0_reads_a_bounded_number_of_boxes(tmp_path, monkeypatch):
    from app_fixtures import table_photo
    for name in ("MAHJONG_LENS_CLASSIFIER", "MAHJONG_LENS_STACKING", "MAHJONG_LENS_CONF"):
        monkeypatch.delenv(name, raising=False)  # the committed readers, as `detect` has them
    path = tmp_path / "table.jpg"
    path.write_bytes(table_photo())
    result = measured(READ_EVERY_BOX, str(path))
    assert result["said"] == "200 tiles of at most 200", result
    assert result["peak_mb"] < PEAK_LIMIT_MB, result


@pytest.mark.parametrize("name, ok", [("\U00020000" * 64, False), ("\U00020000" * 50, True),
                                      ("麻" * 64, True)])
def test_a_set_name_too_long_for_a_file_is_refused_before_anything_is_read(tmp_path, name, ok):
    import numpy as np
    from vision.tileset.store import TileSet, TileSetError, save_set
    if ok:
        assert save_set(TileSet(name, np.ones(8, np.float32)), tmp_path).stem == name
    else:
        with pytest.raises(TileSetError, match="at most 200 bytes") as caught:
            save_set(TileSet(name, np.ones(8, np.float32)), tmp_path)
        assert str(tmp_path) not in str(caught.value)


# --- numbers too long to be options --------------------------------------------------------
DIGITS = "1" * 5000


@pytest.mark.parametrize("argv, stdin", [
    (["--option", f"limit={DIGITS}", "--hand", "1m9m1p9p1s9sESWNPFCC", "--self-drawn"], None),
    (["-"], '{"hand": "1m9m1p9p1s9sESWNPFCC", "self_drawn": true, "options": {"limit": %s}}\n'
     % DIGITS),
], ids=["flag", "batch"])
def test_a_5000_digit_option_is_one_short_line(argv, stdin, capsys, monkeypatch):
    from app.cli import main
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    assert main(["score", "--rules", "hk001", *argv]) == 2
    out, err = capsys.readouterr()
    said = (err + out).strip()
    assert "set_int_max_str_digits" not in said and len(said) < 300 and "\n" not in said, said
