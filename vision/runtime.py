"""Where the models live and how the environment changes them: the one place for both.

Every setting is read when it is asked for, never at import time, so a test or a page that
sets a variable before building a reader gets what it set. A bad value is a one-line
`ValueError`.

    MAHJONG_LENS_MODEL       another tile detector (ONNX)
    MAHJONG_LENS_CLASSIFIER  another crop classifier, or "none": the detector reads alone
    MAHJONG_LENS_CONF        another operating confidence, 0..1 (fewer misses: lower)
    MAHJONG_LENS_GLYPHS      another glyph reader for flowers and seasons, or "none"
    MAHJONG_LENS_STACKING    another stack classifier, or "none": kongs judged by the boxes
    MAHJONG_LENS_DATA        the data folder (the ledger and the tile sets; ~/.mahjong-lens)
    MAHJONG_LENS_CACHE       where the models optimised for this machine are kept, or "none"

`cpu_session` is how every model of the app is run.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
# inside the package, so that an installed wheel carries them (models/ at the root links here)
MODELS_DIR = Path(__file__).resolve().parent / "models"
DEFAULT_MODEL_PATH = MODELS_DIR / "detector.onnx"
DEFAULT_CLASSIFIER_PATH = MODELS_DIR / "tile_classifier.onnx"
DEFAULT_GLYPH_PATH = MODELS_DIR / "glyph_reader.onnx"
DEFAULT_STACK_PATH = MODELS_DIR / "stack_classifier.onnx"

MODEL_ENV = "MAHJONG_LENS_MODEL"
CLASSIFIER_ENV = "MAHJONG_LENS_CLASSIFIER"
CONF_ENV = "MAHJONG_LENS_CONF"
GLYPH_ENV = "MAHJONG_LENS_GLYPHS"
STACK_ENV = "MAHJONG_LENS_STACKING"
DATA_ENV = "MAHJONG_LENS_DATA"
CACHE_ENV = "MAHJONG_LENS_CACHE"
# the variables that change how a photo is read, besides the detector's path
READER_ENV = (CLASSIFIER_ENV, CONF_ENV)

# The detector's tile score from which a tile is shown: the best F1 of the grid on the
# synthetic development scenes (training designs, seed 9; models/README.md), never tuned on
# the held-out sets.
OPERATING_CONF = 0.5


def model_path() -> Path:
    """The tile detector: $MAHJONG_LENS_MODEL, else the committed one."""
    return Path(os.environ.get(MODEL_ENV) or DEFAULT_MODEL_PATH)


def classifier_setting() -> str:
    """The crop classifier's path, or "none" ($MAHJONG_LENS_CLASSIFIER, else the committed one)."""
    return os.environ.get(CLASSIFIER_ENV) or str(DEFAULT_CLASSIFIER_PATH)


def glyph_setting() -> str:
    """The glyph reader's path, or "none" ($MAHJONG_LENS_GLYPHS, else the committed one)."""
    return os.environ.get(GLYPH_ENV) or str(DEFAULT_GLYPH_PATH)


def stacking_setting() -> str:
    """The stack classifier's path or "none" as $MAHJONG_LENS_STACKING says; "" when unset."""
    return os.environ.get(STACK_ENV, "")


def operating_conf() -> float:
    """OPERATING_CONF, or the value of $MAHJONG_LENS_CONF; a bad value is a one-line error."""
    raw = os.environ.get(CONF_ENV)
    if not raw:
        return OPERATING_CONF
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{CONF_ENV}={raw!r}: expected a number from 0 to 1")
    return value


# onnxruntime's PyPI builds start Microsoft's telemetry when the module is imported: a usage
# database under ~/.cache/Microsoft and, some 9 s later, DNS lookups and uploads to
# mobile.events.data.microsoft.com (`disable_telemetry_events()` does not stop them; 1.32.0).
# This variable, set before the import, keeps it from starting.
QUIET_ENV = {"ORT_DISABLE_TELEMETRY": "1"}


def cpu_session(path: str | os.PathLike, threads: int | None = None):
    """An onnxruntime session on the CPU, one operator at a time over `threads` (default:
    the cores this process may use). A committed model is read as optimised for this machine
    when it was first loaded (vision/model_cache.py)."""
    os.environ.update(QUIET_ENV)
    import onnxruntime as ort  # imported here: `vision` loads without it for tests of types

    from vision import model_cache

    cached = model_cache.cached_model(path, ort.__version__)
    if cached is not None and cached.is_file():
        try:
            return _session(ort, cached, threads, optimise=False)
        except Exception:  # a damaged file, or another onnxruntime's: optimised again
            model_cache.forget(cached)
    spare = model_cache.spare_file(cached) if cached is not None else None
    if spare is not None:
        try:
            session = _session(ort, path, threads, save_to=spare)
        except Exception:  # the optimised graph could not be written: optimised anew below
            model_cache.forget(spare)
        else:
            model_cache.keep(spare, cached)
            return session
    return _session(ort, path, threads)


def _session(ort, path, threads: int | None, optimise: bool = True, save_to=None):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads or cpu_count()
    options.inter_op_num_threads = 1
    # Idle workers sleep instead of spinning: the app makes many short calls with Python and
    # OpenCV work between them, which spinning workers take cores from (a 12 MP photo 1.23x
    # faster on 2 cores, the same readings; docs/experiments.md, "Pipeline changes")
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.graph_optimization_level = (ort.GraphOptimizationLevel.ORT_ENABLE_ALL if optimise
                                        else ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
    if save_to is not None:
        options.optimized_model_filepath = str(save_to)
        options.log_severity_level = 3  # not its warning that the file suits this CPU only
    # One memory arena for every model of the process: the crop reader's first call reuses
    # the pages the finder's call already touched (a one-photo `detect`: 6,000 page faults
    # and about 10 ms of CPU less; the same outputs)
    _shared_arena()
    options.add_session_config_entry("session.use_env_allocators", "1")
    return ort.InferenceSession(str(path), sess_options=options,
                                providers=["CPUExecutionProvider"])


@functools.cache
def _shared_arena() -> None:
    """onnxruntime's CPU arena registered once with its environment, for every session."""
    import onnxruntime as ort

    info = ort.OrtMemoryInfo("Cpu", ort.OrtAllocatorType.ORT_ARENA_ALLOCATOR, 0,
                             ort.OrtMemType.DEFAULT)
    ort.create_and_register_allocator(info, ort.OrtArenaCfg(0, -1, -1, -1))  # its defaults


def cpu_count() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def data_dir(flag: str | os.PathLike | None = None) -> Path:
    """The data folder (the ledger, the tile sets): the flag, else $MAHJONG_LENS_DATA, else
    ~/.mahjong-lens."""
    chosen = flag or os.environ.get(DATA_ENV) or Path.home() / ".mahjong-lens"
    return Path(chosen).expanduser()
