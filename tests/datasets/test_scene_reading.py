"""The models and the layout on fresh synthetic scenes (datasets.synth): whole hands read from
their labelled boxes, and kongs laid as three with a fourth on top found by the committed
stack classifier."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.layout import read_layout
from vision.recognition.stacking import StackReader, set_crop
from vision.runtime import DEFAULT_STACK_PATH

needs_model = pytest.mark.skipif(not DEFAULT_STACK_PATH.is_file(),
                                 reason="no committed stack classifier")


@pytest.fixture(scope="module")
def scenes(art_root, tmp_path_factory) -> Path:
    """A few synthetic scenes with truth (procedural designs, so any machine with the fonts)."""
    synth = pytest.importorskip("datasets.synth.generate")
    out = tmp_path_factory.mktemp("layout_scenes")
    synth.generate(out, 12, seed=9001, designs_spec="proc_*", root=art_root)
    return out


@pytest.mark.slow
def test_synthetic_scenes_read_end_to_end(scenes):
    from datasets.eval.layout import compare, readable, truth_detections
    right = total = 0
    for path in sorted((scenes / "truth").glob("*.json")):
        truth = json.loads(path.read_text())
        if not readable(truth):
            continue
        layout = read_layout(truth_detections(truth))
        total += 1
        right += compare(truth, layout)["hand"]
        json.dumps(layout.to_dict())  # the read command's JSON
    assert total >= 5 and right / total >= 0.6


@pytest.fixture(scope="module")
def kong_scenes(art_root, tmp_path_factory) -> Path:
    synth = pytest.importorskip("datasets.synth.generate")
    out = tmp_path_factory.mktemp("kong_scenes")
    # 960 px instead of the generator's 1280: the same lines read alike, for about 60 % of
    # the drawing time
    synth.generate(out, 100, seed=9101, designs_spec="proc_*", root=art_root, more_kongs=True,
                   size=960, workers=2)
    return out


@pytest.mark.slow
@needs_model
def test_the_committed_classifier_finds_tiles_lying_on_others(kong_scenes):
    """On new scenes: most kongs laid as three are read with the right tile on top, and
    nearly all pungs as no tile on top."""
    from datasets.train.stacking import scene_lines
    from vision.image import load_photo
    reader = StackReader()
    right, lines = {"top": 0, "three": 0}, {"top": 0, "three": 0}
    for path in sorted((kong_scenes / "truth").glob("*.json")):
        truth = json.loads(path.read_text())
        rgb = load_photo(kong_scenes / truth["image"]).rgb
        for line, label, kind in scene_lines(truth):
            if kind in lines:
                p = reader.probabilities(set_crop(rgb, np.array([t["box"] for t in line]))[None])[0]
                lines[kind] += 1
                right[kind] += int(p.argmax() == label)
    assert lines["top"] >= 8 and lines["three"] >= 8, lines
    assert right["top"] / lines["top"] >= 0.6 and right["three"] / lines["three"] >= 0.9, (right, lines)
