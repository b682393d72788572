"""Test-wide settings and shared fixtures."""
import sys

import pytest

# Session fixtures that are costly to build, shared by their tests: run in parallel
# (pytest-xdist, `--dist loadgroup`), the tests that use one run on one worker, which builds
# it once (one chromium and one shared page server; one set of procedural tile designs).
SHARED = {"browser": "browser", "shared_server": "browser", "art_root": "art"}


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        group = next((SHARED[f] for f in getattr(item, "fixturenames", ()) if f in SHARED), None)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(autouse=True)
def restored_sys_path():
    """Each test starts from the same sys.path: the page run as a script (AppTest) puts the
    repository on it, and an entry left behind by one test would be walked by every later
    import and every scan of the installed packages."""
    saved = list(sys.path)
    yield
    sys.path[:] = saved


@pytest.fixture(autouse=True)
def detector_alone(monkeypatch):
    """Stub detectors in the tests say exactly which tiles a photo holds; the committed crop
    classifier would re-read those made-up pictures, and the stack classifier judge their
    pungs. Tests of these stages opt back in with `monkeypatch.delenv(...)` or by passing a
    refiner or a stack reader."""
    monkeypatch.setenv("MAHJONG_LENS_CLASSIFIER", "none")
    monkeypatch.setenv("MAHJONG_LENS_STACKING", "none")


@pytest.fixture(autouse=True)
def english_shell(monkeypatch):
    """The command line and the page speak the shell's language ($LANGUAGE, $LC_ALL, $LANG);
    tests that read their English words run in an English shell wherever they are run."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "MAHJONG_LENS_LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
