"""Fixtures of the data pipeline's tests."""
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def art_root(tmp_path_factory) -> str:
    """The tile-art cache if installed (bash datasets/art/install_art.sh); otherwise three
    procedural designs built from the CJK fonts into a temporary folder, so the generator's
    path is tested on any machine with those fonts."""
    from datasets.art.atlas import art_dir, list_designs
    from datasets.art.faces import available_fonts
    if len(list_designs(art_dir())) >= 5:
        return str(art_dir())
    if not available_fonts():
        pytest.skip("no art cache (bash datasets/art/install_art.sh) and no CJK font to build procedural designs")
    from datasets.art.build import build
    root = tmp_path_factory.mktemp("art")
    build(root, Path("/nonexistent"), root / "_pypi", 3, False, [f"proc_s{s:03d}" for s in range(3)])
    return str(root)
