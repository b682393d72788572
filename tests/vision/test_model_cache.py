"""vision/model_cache.py: a committed model optimised once per machine, then read as saved."""
import shutil

import numpy as np
import onnxruntime as ort
import pytest

import vision.runtime as runtime
from vision.model_cache import cached_model
from vision.runtime import CACHE_ENV, DEFAULT_STACK_PATH, cpu_session

X = np.random.default_rng(0).random((2, 3, 64, 128), dtype=np.float32)


@pytest.fixture
def loads(monkeypatch, tmp_path):
    """The cache in tmp_path; the files each session is made from, in order."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    made = []
    real = runtime._session

    def spy(ort_module, path, threads, **kwargs):
        made.append(str(path))
        return real(ort_module, path, threads, **kwargs)
    monkeypatch.setattr(runtime, "_session", spy)
    return made


def _read(session) -> np.ndarray:
    return session.run(None, {session.get_inputs()[0].name: X})[0]


def test_a_committed_model_is_optimised_once_then_read_as_saved(loads, tmp_path):
    first, second = cpu_session(DEFAULT_STACK_PATH), cpu_session(DEFAULT_STACK_PATH)
    kept = cached_model(DEFAULT_STACK_PATH, ort.__version__)
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [kept.name]
    assert loads == [str(DEFAULT_STACK_PATH), str(kept)]
    assert np.array_equal(_read(first), _read(second))


@pytest.mark.parametrize("setting, damaged", [("none", False), ("", False), ("", True)])
def test_no_cache_a_foreign_model_or_a_damaged_file_still_loads(
        loads, tmp_path, monkeypatch, setting, damaged):
    model = DEFAULT_STACK_PATH
    if setting == "none":
        monkeypatch.setenv(CACHE_ENV, "none")
    elif not damaged:  # a model given by path is not one of the committed ones
        model = shutil.copy(DEFAULT_STACK_PATH, tmp_path / "stack.onnx")
    else:
        kept = cached_model(model, ort.__version__)
        kept.parent.mkdir(parents=True)
        kept.write_bytes(b"not a model")
    expected = _read(ort.InferenceSession(str(DEFAULT_STACK_PATH),
                                          providers=["CPUExecutionProvider"]))
    np.testing.assert_allclose(_read(cpu_session(model)), expected, rtol=1e-5, atol=1e-6)
    folder = tmp_path / "cache"
    kept = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
    assert kept == ([cached_model(model, ort.__version__).name] if damaged else [])
    assert all(b"not a model" != (folder / name).read_bytes() for name in kept)


def test_an_unwritable_cache_loads_the_model_as_it_is(loads, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder would be")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    assert _read(cpu_session(DEFAULT_STACK_PATH)).shape == (2, 4)
    assert loads == [str(DEFAULT_STACK_PATH)]


def test_an_installs_newer_model_replaces_only_its_own_older_file(loads, tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir()
    kept = cached_model(DEFAULT_STACK_PATH, ort.__version__)
    model, install, _ = kept.stem.split("-")
    older, elsewhere = folder / f"{model}-{install}-0.onnx", folder / f"{model}-0-0.onnx"
    for path in (older, elsewhere):
        path.write_bytes(b"an older optimised model")
    cpu_session(DEFAULT_STACK_PATH)
    assert sorted(p.name for p in folder.iterdir()) == sorted([kept.name, elsewhere.name])
