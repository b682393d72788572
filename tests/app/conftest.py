"""Fixtures for the page's tests: a fresh data folder, a stub or absent model, AppTest, and
for the browser tests one chromium, a fresh page per test and the Streamlit servers."""
from __future__ import annotations

import contextlib
import functools
import itertools

import pytest

import browser_fixtures as bf
from app_fixtures import PAGE, write_misread_model


@pytest.fixture(scope="session", autouse=True)
def components_scanned_once():
    """Each new AppTest reads the metadata of every installed package to find Streamlit
    components (about 0.4 s); the installed packages do not change during a run, so they are
    read once."""
    try:
        from streamlit.components.v2 import manifest_scanner as scanner
        scan = scanner.scan_component_manifests
    except (ImportError, AttributeError):  # another Streamlit: nothing to keep
        yield
        return
    scanner.scan_component_manifests = functools.cache(scan)
    yield
    scanner.scan_component_manifests = scan


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("MAHJONG_LENS_DATA", str(folder))
    return folder


@pytest.fixture
def stub_model(tmp_path, monkeypatch):
    """A stub detector reading the 14 tiles of `table_photo()`; the 6th (6p) read as 9p with
    low confidence, as a real misread would be."""
    path = write_misread_model(tmp_path / "stub.onnx")
    monkeypatch.setenv("MAHJONG_LENS_MODEL", str(path))
    monkeypatch.setenv("MAHJONG_LENS_CLASSIFIER", "none")  # the stub's reading is the test's truth
    # detector alone: its score is the confidence, so the 0.31 misread is shown only under 0.5
    monkeypatch.setenv("MAHJONG_LENS_CONF", "0.25")
    return path


@pytest.fixture
def no_model(tmp_path, monkeypatch):
    monkeypatch.setenv("MAHJONG_LENS_MODEL", str(tmp_path / "absent.onnx"))


@pytest.fixture
def page(data_dir):
    """A started page (AppTest), with its own data folder."""
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


# --- the page in a real browser (browser_fixtures.py) -------------------------------------

@pytest.fixture(scope="session")
def browser():
    """One headless chromium for the run; skips where chromium or playwright is missing."""
    sync_api = bf.sync_api()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=bf.CHROMIUM, args=bf.LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser):
    """Makes pages, each in its own browser context (no cookies or storage shared); all are
    closed after the test. Takes playwright's context options (viewport, locale...)."""
    contexts = []

    def make(**options):
        contexts.append(browser.new_context(**options))
        return contexts[-1].new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def app_server(tmp_path):
    """Starts a server of its own (a fresh ledger in ~/.mahjong-lens of a fresh HOME):
    `app_server(env)` gives its URL; stopped after the test."""
    with contextlib.ExitStack() as stack:
        count = itertools.count()
        yield lambda env: stack.enter_context(bf.serve(tmp_path / f"app{next(count)}", env))


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory):
    """One server for the tests that add nothing to the ledger: the stub detector that
    misreads the 6th tile of `table_photo()` (as `stub_model`), its own data folder."""
    folder = tmp_path_factory.mktemp("shared-app")
    model = write_misread_model(folder / "stub.onnx")
    with bf.serve(folder, bf.stub_env(model), data=folder / "data") as url:
        yield url
