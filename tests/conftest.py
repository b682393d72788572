"""Test-wide settings and shared fixtures."""
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def detector_alone(monkeypatch):
    """Stub detectors in the tests say exactly which tiles a photo holds; the committed crop
    classifier would re-read those made-up pictures, and the stack classifier judge their
    pungs. Tests of these stages opt back in with `monkeypatch.delenv(...)` or by passing a
    refiner or a stack reader."""
    monkeypatch.setenv("MAHJONG_LENS_CLASSIFIER", "none")
    monkeypatch.setenv("MAHJONG_LENS_STACKING", "none")


@pytest.fixture(scope="session")
def art_root(tmp_path_factory) -> str:
    """The tile-art cache if installed (bash datasets/install_art.sh); otherwise three
    procedural designs built from the CJK fonts into a temporary folder, so the generator's
    path is tested on any machine with those fonts."""
    from datasets.art.atlas import art_dir, list_designs
    from datasets.faces import available_fonts
    if len(list_designs(art_dir())) >= 5:
        return str(art_dir())
    if not available_fonts():
        pytest.skip("no art cache (bash datasets/install_art.sh) and no CJK font to build procedural designs")
    from datasets.art.build import build
    root = tmp_path_factory.mktemp("art")
    build(root, Path("/nonexistent"), root / "_pypi", 3, False, [f"proc_s{s:03d}" for s in range(3)])
    return str(root)
