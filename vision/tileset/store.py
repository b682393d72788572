"""A table's tile set on disk: the reader's feature vectors of the set's own tiles, per class.

One file per set, `<data folder>/tilesets/<name>.npz` (the data folder of the ledger:
vision.runtime.data_dir). Each example is one tile: its code, the reader's features of its crop
as cut and turned 180° (a hand's tile may lie either way up), each at a few sizes (the tile
as photographed and shrunk, vision/tileset/reader.py VIEW_SIDES), what the reader read it as
by itself (`reads`: where it differs from the code, the player corrected the reader), where it
came from (`source`: "sheet" for a taught photo, "hand:<id>" for a hand added to the ledger)
and when. Files of format 1 (before `reads`) load with each example read as its code. The file
also keeps the reader model's features of a fixed probe image (`probe`): features of
another model mean nothing, so a set taught with another model is refused in one line
rather than read wrong. Writes go to a temporary file in
the same folder and are renamed over the old one, so a crash never leaves half a set, and a
set is read, changed and written back under the folder's lock (`updating`), so two hands
added at once both stay.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
import threading
import time
import zipfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from scoring.tiles import TILES
from vision.runtime import data_dir

try:  # POSIX: a lock other processes (`mahjong-lens teach` beside the page) respect too
    import fcntl
except ImportError:  # elsewhere the page's own threads still take turns
    fcntl = None

FOLDER = "tilesets"
SUFFIX = ".npz"
FORMAT = 2
FORMATS = (1, 2)  # 1: no `reads`, each taken as read right
MAX_PER_CLASS = 8  # the most recent examples of a class are kept; older ones make way
# Sets a data folder keeps: a table brings a set or two; a full set is about 6 MB, and a
# server open to its network must not fill its disk with them.
MAX_SETS = 20
MAX_NAME = 64
# file systems take names of 255 bytes; the name is the file's, with .npz (and .tmp- while written)
MAX_NAME_BYTES = 200
# A set file is untrusted (copied in, damaged): before anything is decompressed, its members
# may expand to at most MAX_FILE_BYTES (a full set is about 6 MB), each array may claim no more
# than its member holds, and the description is a short text. The set's name is its file's.
MAX_FILE_BYTES = 32 * 2**20
MAX_META = 4096
LATEST_TIME = 253402300799.0  # 9999-12-31: a time past it is no time a set was taught
PROBE_TOLERANCE = 1e-3  # one model's probe differs by ~1e-6 between runs; another's by far more
NAME_PUNCTUATION = " -_.'"


# Where examples came from: a sheet's tiles as aligned with the typed codes, and those whose
# code the player chose on the page; a hand added to the ledger is "hand:<id>".
SHEET_SOURCE = "sheet"
SHEET_CONFIRMED = "sheet:confirmed"


def sheet_examples(reads, codes, sources) -> tuple[str, ...]:
    """What the reader read each example as, where it counts: a sheet tile nobody confirmed
    is an example, never a fix, so it is taken as read right (a set file may still hold
    the reader's reading of such tiles, which would count as fixes nobody made)."""
    return tuple(c if s == SHEET_SOURCE else r for r, c, s in zip(reads, codes, sources))


class TileSetError(ValueError):
    """A set that cannot be used (bad name, missing, damaged, another model); one line."""


def check_name(name: str) -> str:
    """The set name, stripped, or TileSetError: a name is a name, never a path."""
    text = str(name).strip()
    if not text:
        raise TileSetError("a tile set needs a name")
    if len(text) > MAX_NAME:
        raise TileSetError(f"a tile set name has at most {MAX_NAME} characters, got {len(text)}")
    if len(text.encode("utf-8")) > MAX_NAME_BYTES:  # 64 rare CJK letters are 256 bytes
        raise TileSetError(f"a tile set name is at most {MAX_NAME_BYTES} bytes as UTF-8, got "
                           f"{len(text.encode('utf-8'))}: a shorter name, please")
    if not text[0].isalnum() or not all(ch.isalnum() or ch in NAME_PUNCTUATION for ch in text):
        raise TileSetError(f"{text!r} is not a tile set name: use letters, digits, spaces and "
                           f"- _ . ' (starting with a letter or digit)")
    return text


def sets_folder(data: str | os.PathLike | None = None) -> Path:
    """Where the sets live: `tilesets` in the data folder (--data-dir, $MAHJONG_LENS_DATA,
    ~/.mahjong-lens)."""
    return data_dir(data) / FOLDER


def set_path(name: str, data: str | os.PathLike | None = None) -> Path:
    return sets_folder(data) / f"{check_name(name)}{SUFFIX}"


@dataclass(frozen=True)
class TileSet:
    """A set's examples (M of them): `codes` (M,), `features` and `turned` (M, K, D) float32
    (K sizes of the crop, as cut and turned 180°),
    `sources` (M,), `taught` (M,) seconds since the epoch, `reads` (M,) what the reader read
    each as without a set; `probe` (P,): the reader's features of the probe image, which
    identify the model the set was taught with."""

    name: str
    probe: np.ndarray
    codes: tuple[str, ...] = ()
    features: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 0), np.float32))
    turned: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 0), np.float32))
    sources: tuple[str, ...] = ()
    taught: np.ndarray = field(default_factory=lambda: np.zeros(0))
    reads: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.reads and self.codes:  # not told: each example taken as read right
            object.__setattr__(self, "reads", tuple(self.codes))

    def __len__(self) -> int:
        return len(self.codes)

    def per_class(self) -> dict[str, int]:
        """Examples per class, in the order of the tile vocabulary."""
        return {code: self.codes.count(code) for code in TILES if code in self.codes}

    def corrected(self) -> dict[str, int]:
        """Examples the player corrected, per "read as>is" (e.g. "9s>8s"), most first."""
        pairs = Counter(f"{r}>{c}" for r, c in zip(self.reads, self.codes) if r != c)
        return dict(sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0])))

    @property
    def last_taught(self) -> float | None:
        return float(self.taught.max()) if len(self.taught) else None

    def add(self, codes, features, turned, source: str, when: float | None = None,
            keep: int = MAX_PER_CLASS, reads=None) -> "TileSet":
        """The set with these examples added (the most recent `keep` of each class kept);
        `reads`: what the reader read each as by itself (None: as its code)."""
        codes = tuple(str(c) for c in codes)
        reads = codes if reads is None else tuple(str(r) for r in reads)
        if len(reads) != len(codes):
            raise TileSetError(f"{len(reads)} readings for {len(codes)} examples")
        unknown = sorted(set(codes + reads) - set(TILES))
        if unknown:
            raise TileSetError(f"not tile codes: {', '.join(unknown)}")
        features, turned = _matrix(features, len(codes)), _matrix(turned, len(codes))
        if features.shape != turned.shape or (len(self) and
                                              features.shape[1:] != self.features.shape[1:]):
            raise TileSetError("these features do not match the set's reader")
        stamp = time.time() if when is None else float(when)
        merged = replace(
            self, codes=self.codes + codes,
            features=np.concatenate([self.features.reshape(-1, *features.shape[1:]), features]),
            turned=np.concatenate([self.turned.reshape(-1, *turned.shape[1:]), turned]),
            sources=self.sources + (str(source),) * len(codes),
            taught=np.concatenate([self.taught, np.full(len(codes), stamp)]),
            reads=self.reads + reads)
        return merged.bounded(keep)

    def bounded(self, keep: int = MAX_PER_CLASS) -> "TileSet":
        """The most recent `keep` examples of each class (later ones win a tie in time)."""
        order = np.lexsort((np.arange(len(self)), self.taught))[::-1]  # newest first
        seen: dict[str, int] = {}
        chosen = []
        for i in order:
            seen[self.codes[i]] = seen.get(self.codes[i], 0) + 1
            if seen[self.codes[i]] <= keep:
                chosen.append(i)
        return self.select(np.sort(np.array(chosen, np.int64)))

    def without(self, source: str) -> "TileSet":
        """The set without the examples that `source` added (undoing a hand)."""
        return self.select(np.array([s != source for s in self.sources], bool))

    def without_correction(self, read: str, code: str) -> "TileSet":
        """The set without its examples that the reader read as `read` and that are `code`
        (forgetting a fix the player regrets)."""
        return self.select(np.array([(r, c) != (read, code)
                                     for r, c in zip(self.reads, self.codes)], bool))

    def select(self, index: np.ndarray) -> "TileSet":
        index = np.asarray(index)
        pick = np.flatnonzero(index) if index.dtype == bool else index.astype(np.int64)
        return replace(self, codes=tuple(self.codes[i] for i in pick),
                       features=self.features[pick], turned=self.turned[pick],
                       sources=tuple(self.sources[i] for i in pick), taught=self.taught[pick],
                       reads=tuple(self.reads[i] for i in pick))


def _matrix(values, rows: int) -> np.ndarray:
    """(rows, K, D) feature vectors ((rows, D): one size)."""
    out = np.asarray(values, np.float32)
    out = out[:, None, :] if out.ndim == 2 else out
    if out.ndim != 3 or len(out) != rows:
        raise TileSetError(f"expected {rows} feature vectors, got shape {out.shape}")
    return out


@dataclass(frozen=True)
class SetSummary:
    """What `mahjong-lens sets` lists."""
    name: str
    examples: dict[str, int]
    last_taught: float | None
    error: str | None = None  # a damaged file is listed with its one-line reason
    corrected: dict[str, int] = field(default_factory=dict)  # TileSet.corrected

    @property
    def unseen(self) -> tuple[str, ...]:
        """The faces the set holds no example of, which it reads as the reader alone does
        (none for a damaged set: nothing is known of it)."""
        return () if self.error else tuple(c for c in TILES if c not in self.examples)


_UPDATING = threading.Lock()
LOCK_FILE = ".lock"


@contextlib.contextmanager
def updating(data: str | os.PathLike | None = None):
    """Hold the data folder's sets still while one is read, changed and written back: two
    hands added at once (two players' phones, or `teach` beside the page) each keep what
    they add, where without it the later write would drop the earlier one's examples."""
    folder = sets_folder(data)
    folder.mkdir(parents=True, exist_ok=True)
    with _UPDATING, open(folder / LOCK_FILE, "a") as handle:
        locked = _lock_file(handle)
        try:
            yield
        finally:
            if locked:
                fcntl.flock(handle, fcntl.LOCK_UN)


def _lock_file(handle) -> bool:
    """Whether the lock file is held for other processes too: not where there is no fcntl,
    nor on a file system that refuses locks (the page's own threads still take turns)."""
    if fcntl is None:
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
    except OSError:
        return False
    return True


def save_set(tileset: TileSet, data: str | os.PathLike | None = None) -> Path:
    """Write the set atomically; returns its path. A new set past MAX_SETS is refused."""
    path = set_path(tileset.name, data)
    if not path.is_file() and len(set_files(data)) >= MAX_SETS:
        raise TileSetError(f"this data folder already holds {MAX_SETS} tile sets, the most it "
                           f"keeps: delete one first")
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"format": FORMAT, "name": tileset.name}
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=SUFFIX)
    try:
        with os.fdopen(fd, "wb") as out:
            np.savez(out, meta=np.array(json.dumps(meta)),
                     probe=np.asarray(tileset.probe, np.float32),
                     codes=np.array(tileset.codes, dtype="<U4"),
                     features=tileset.features.astype(np.float16),
                     turned=tileset.turned.astype(np.float16),
                     sources=np.array(tileset.sources, dtype="<U64"),
                     taught=tileset.taught.astype(np.float64),
                     reads=np.array(tileset.reads, dtype="<U4"))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def load_set(name: str, data: str | os.PathLike | None = None, probe: np.ndarray | None = None
             ) -> TileSet:
    """The named set; TileSetError (one line) when it is missing or damaged, or, given the
    reader's `probe` features, when it was taught with another model."""
    path = set_path(name, data)
    if not path.is_file():
        raise TileSetError(f"no tile set named {check_name(name)!r} (teach one with "
                           f"mahjong-lens teach)")
    try:
        _check_archive(path)
        with np.load(path, allow_pickle=False) as npz:
            version = _format(npz["meta"])
            codes = tuple(str(c) for c in npz["codes"])
            old = version == 1  # before `reads`: each example taken as read right
            reads = codes if old else tuple(str(c) for c in npz["reads"])
            sources = tuple(str(s) for s in npz["sources"])
            tileset = TileSet(path.stem, npz["probe"].astype(np.float32), codes,
                              npz["features"].astype(np.float32),
                              npz["turned"].astype(np.float32), sources,
                              npz["taught"].astype(np.float64),
                              sheet_examples(reads, codes, sources))
        _check_shapes(tileset, version)
    except (TileSetError, OSError, ValueError, KeyError, TypeError, EOFError, MemoryError,
            RecursionError, zipfile.BadZipFile) as exc:
        raise TileSetError(f"tile set {path.stem!r} is damaged ({damage(exc)})") from None
    if probe is not None and not same_model(tileset.probe, probe):
        raise TileSetError(f"tile set {tileset.name!r} was taught with another reader model; "
                           f"teach it again")
    return tileset


def _check_archive(path: Path) -> None:
    """Refuse, from the zip directory and the arrays' headers alone, a file that would expand
    past MAX_FILE_BYTES or an array that claims more than its member holds (a header can
    claim terabytes in a few bytes). zipfile never reads a member past its stated size."""
    with zipfile.ZipFile(path) as archive:
        members = archive.infolist()
        expanded = sum(m.file_size for m in members)
        if expanded > MAX_FILE_BYTES:
            raise TileSetError(f"it would expand to {expanded / 2**20:.0f} MB, more than the "
                               f"{MAX_FILE_BYTES / 2**20:.0f} MB a set may hold")
        for member in members:
            with archive.open(member) as stream:
                shape, dtype = _array_header(stream)
            if dtype.hasobject or math.prod(shape) * dtype.itemsize > member.file_size:
                raise TileSetError("its arrays claim more than the file holds")


def _array_header(stream) -> tuple[tuple[int, ...], np.dtype]:
    version = np.lib.format.read_magic(stream)
    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
            else np.lib.format.read_array_header_2_0)
    shape, _, dtype = read(stream)
    return shape, dtype


def _format(meta: np.ndarray) -> int:
    """The file format from the set's description (a short JSON object)."""
    text = str(meta)
    if len(text) > MAX_META:
        raise TileSetError("its description is too long")
    found = json.loads(text)
    version = found.get("format") if isinstance(found, dict) else None
    if not isinstance(version, int) or isinstance(version, bool):
        raise TileSetError("its description has no format")
    return version


def damage(exc: Exception) -> str:
    """What is wrong with a set file, in a player's words (numpy's own messages speak of
    pickles and keyword arguments)."""
    if isinstance(exc, TileSetError):
        return str(exc)
    if isinstance(exc, KeyError):
        return "parts of it are missing"
    if isinstance(exc, (zipfile.BadZipFile, EOFError)) or "pickle" in str(exc):
        return "not a tile set file"
    if isinstance(exc, json.JSONDecodeError):
        return "its description is unreadable"
    if isinstance(exc, OSError):
        return exc.strerror or "it cannot be read"
    if isinstance(exc, (MemoryError, RecursionError)):
        return "its parts claim more than it holds"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def same_model(probe: np.ndarray, other: np.ndarray) -> bool:
    """Whether two probe feature vectors come from the same model (up to float noise)."""
    a, b = np.asarray(probe, np.float32), np.asarray(other, np.float32)
    return a.shape == b.shape and bool(np.abs(a - b).max(initial=0.0) < PROBE_TOLERANCE)


def _check_shapes(tileset: TileSet, version: int) -> None:
    m = len(tileset.codes)
    if version not in FORMATS:
        raise TileSetError(f"format {version}, expected one of {', '.join(map(str, FORMATS))}")
    if (tileset.features.ndim != 3 or tileset.features.shape[0] != m
            or tileset.turned.shape != tileset.features.shape
            or len(tileset.sources) != m or tileset.taught.shape != (m,)
            or len(tileset.reads) != m):
        raise TileSetError("its arrays disagree in length")
    if set(tileset.codes + tileset.reads) - set(TILES):
        raise TileSetError("unknown tile codes")
    if m and not (np.isfinite(tileset.features).all() and np.isfinite(tileset.turned).all()):
        raise TileSetError("features that are not numbers")
    if m and not ((tileset.taught >= 0) & (tileset.taught <= LATEST_TIME)).all():
        raise TileSetError("times it was taught that are no times")


def set_files(data: str | os.PathLike | None = None) -> list[Path]:
    """The set files of the data folder, by name (none half written)."""
    folder = sets_folder(data)
    return sorted(p for p in folder.glob(f"*{SUFFIX}") if not p.name.startswith(".tmp-")) \
        if folder.is_dir() else []


def set_names(data: str | os.PathLike | None = None) -> list[str]:
    """The names of the sets in the data folder, without reading them (a menu's choices:
    a full set is megabytes, read on every tap of the page it would slow the page)."""
    return [p.stem for p in set_files(data)]


def list_sets(data: str | os.PathLike | None = None) -> list[SetSummary]:
    """Every set in the data folder, by name; a damaged one with its `error`."""
    out = []
    for path in set_files(data):
        try:
            tileset = load_set(path.stem, data)
            out.append(SetSummary(tileset.name, tileset.per_class(), tileset.last_taught,
                                  corrected=tileset.corrected()))
        except TileSetError as exc:
            out.append(SetSummary(path.stem, {}, None, str(exc)))
    return out


def delete_set(name: str, data: str | os.PathLike | None = None) -> None:
    path = set_path(name, data)
    if not path.is_file():
        raise TileSetError(f"no tile set named {check_name(name)!r}")
    path.unlink()


def remove_source(name: str, source: str, data: str | os.PathLike | None = None) -> int:
    """Remove what `source` added to the named set (e.g. "hand:17" on undo); the number of
    examples removed (0 when the set or the source is not there)."""
    return _rewrite(name, data, lambda tileset: tileset.without(source))


def forget_correction(name: str, read: str, code: str,
                      data: str | os.PathLike | None = None) -> int:
    """Forget that the reader's `read` is `code` in the named set (a fix made by mistake):
    the number of examples removed (0 when there are none)."""
    return _rewrite(name, data, lambda tileset: tileset.without_correction(read, code))


def add_examples(name: str, probe: np.ndarray, codes, features, turned, source: str, reads,
                 data: str | os.PathLike | None = None) -> TileSet:
    """Add examples (TileSet.add) to the named set, created when new (for the reader of
    `probe`, checked against it when not), under the folder's lock; the set as stored."""
    with updating(data):
        if set_path(name, data).is_file():
            tileset = load_set(name, data, probe)
        else:
            tileset = TileSet(check_name(name), np.asarray(probe, np.float32))
        tileset = tileset.add(codes, features, turned, source, reads=reads)
        save_set(tileset, data)
    return tileset


def _rewrite(name: str, data, change) -> int:
    """The named set changed by `change` (TileSet -> TileSet with fewer examples) and written
    back when it lost any, under the folder's lock; how many it lost."""
    if not set_path(name, data).is_file():
        return 0
    with updating(data):
        tileset = load_set(name, data)
        kept = change(tileset)
        if len(kept) != len(tileset):
            save_set(kept, data)
    return len(tileset) - len(kept)
