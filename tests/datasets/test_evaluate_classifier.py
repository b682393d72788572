"""The crop reader's evaluation on the held-out Camerash tiles (datasets/eval/classifier.py):
the command the model card gives runs, with the committed boxes. Skips without
../shared/data/camerash."""
from __future__ import annotations

import json

import pytest

from datasets.eval.classifier import main
from vision.runtime import REPO_ROOT

CAMERASH = REPO_ROOT.parent / "shared" / "data" / "camerash"


@pytest.mark.slow
@pytest.mark.skipif(not CAMERASH.is_dir(), reason="../shared/data/camerash is not here")
def test_the_held_out_camerash_tiles_are_read_three_ways(tmp_path):
    out = tmp_path / "eval.json"
    assert main(["--camerash", str(CAMERASH), "--json", str(out)]) == 0
    sets = json.loads(out.read_text())["sets"]
    assert set(sets) == {"camerash-box", "camerash-file", "camerash-small"}
    assert all(s["n"] > 200 and s["accuracy"] > 0.9 for s in sets.values())
