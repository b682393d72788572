"""The committed models as onnxruntime optimised them for this machine, kept on disk.

Optimising a model's graph at the full level (fused operators, the CPU's own NCHWc layouts)
costs each process 27-39 ms of CPU per large model, and a one-photo `mahjong-lens detect`
loads two. The optimised graph is saved the first time a model is loaded and read as it is
afterwards (15-17 ms; the same outputs, bit for bit). It holds layouts of this CPU and
operators of this onnxruntime, so both name the file, with the model's size and time; only
the models that come with mahjong-lens (`vision/models/`, about 26 MB) are kept, never one
given by path. A file that does not load is removed and the model optimised again. The
folder may be deleted at any time: $MAHJONG_LENS_CACHE, else $XDG_CACHE_HOME/mahjong-lens,
else ~/.cache/mahjong-lens; MAHJONG_LENS_CACHE=none keeps nothing.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import platform
import tempfile
from pathlib import Path

from vision.runtime import CACHE_ENV, MODELS_DIR


def cache_dir() -> Path | None:
    """Where the optimised models are kept; None when $MAHJONG_LENS_CACHE is "none"."""
    raw = os.environ.get(CACHE_ENV)
    if raw and raw.lower() == "none":
        return None
    if raw:
        return Path(raw).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "mahjong-lens"


def cached_model(model: str | os.PathLike, ort_version: str) -> Path | None:
    """The file the optimised `model` is kept in (which may not be there yet); None for a
    model that is not one of the committed ones, or with the cache off."""
    folder, model = cache_dir(), Path(model).resolve()
    if folder is None or model.parent != MODELS_DIR.resolve() or not model.is_file():
        return None
    info = model.stat()
    # the install's folder apart, so that an install replaces only its own older files
    where = _digest(str(model.parent), 8)
    key = _digest(f"{ort_version}|{info.st_size}|{info.st_mtime_ns}|{cpu_signature()}", 16)
    return folder / f"{model.stem}-{where}-{key}.onnx"


def _digest(text: str, length: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:length]


@functools.cache
def cpu_signature() -> str:
    """The CPU's model and instruction sets, which the optimised layouts depend on."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            lines = []
            for line in info:  # the first processor's lines are enough
                if line.startswith(("model name", "flags")):
                    lines.append(line)
                if len(lines) == 2 or (lines and not line.strip()):
                    break
    except OSError:
        lines = []
    return "".join(lines) or f"{platform.machine()} {platform.processor()}"


def spare_file(target: Path) -> Path | None:
    """A new empty file beside `target` to write into and then move onto it (two processes
    never write one file); None when the folder cannot be written."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=target.stem, suffix=".part", dir=target.parent)
    except OSError:
        return None
    os.close(handle)
    return Path(name)


def keep(written: Path, target: Path) -> None:
    """The written file moved onto `target` (the same model's older files removed), or
    removed when that fails."""
    try:
        if written.stat().st_size > 0:
            os.replace(written, target)
            model_and_install = target.stem.rsplit("-", 1)[0]
            for old in target.parent.glob(f"{model_and_install}-*.onnx"):
                if old != target:
                    forget(old)
            return
    except OSError:
        pass
    forget(written)


def forget(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()
