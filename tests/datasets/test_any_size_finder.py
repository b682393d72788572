"""datasets/experiments/any_size_finder.py on the committed tile finder: the exported graph
gives the fixed one's output at 640 x 640 and reads a 4:3 input at 640 x 480."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from datasets.experiments.any_size_finder import AnySizeDetector, any_size, shape_feeds  # noqa: E402
from vision.runtime import DEFAULT_MODEL_PATH, cpu_session  # noqa: E402

# (photo height, width) -> the input it is letterboxed to: the 640 x 640 scale, padded to 32
INPUT_SIZES = [
    ((3000, 4000), (480, 640)),
    ((4000, 3000), (640, 480)),
    ((2342, 4000), (384, 640)),
    ((1000, 1000), (640, 640)),
    ((101, 774), (96, 640)),
]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    if not DEFAULT_MODEL_PATH.is_file():
        pytest.skip("no committed model")
    path = tmp_path_factory.mktemp("finder") / "any.onnx"
    onnx.save(any_size(onnx.load(str(DEFAULT_MODEL_PATH))), str(path))
    return path


def test_the_exported_finder_gives_the_fixed_output_at_640(exported):
    blob = np.random.default_rng(0).random((1, 3, 640, 640), dtype=np.float32)
    fixed = cpu_session(DEFAULT_MODEL_PATH, 1).run(None, {"images": blob})[0]
    free = cpu_session(exported, 1).run(None, {"images": blob, **shape_feeds(640, 640)})[0]
    np.testing.assert_array_equal(free, fixed)


@pytest.mark.parametrize("shape,size", INPUT_SIZES)
def test_a_photo_is_padded_only_to_multiples_of_32(exported, shape, size):
    detector = AnySizeDetector(exported, threads=1)
    assert detector.input_size(*shape) == size
    blob, _ = detector.prepare(np.zeros((*shape, 3), np.uint8))
    assert blob.shape == (1, 3, *size)
    anchors = sum((size[0] // s) * (size[1] // s) for s in (8, 16, 32))
    assert detector.run(blob).shape == (1, 5, anchors)


def test_a_graph_of_another_size_is_refused():
    if not DEFAULT_MODEL_PATH.is_file():
        pytest.skip("no committed model")
    with pytest.raises(ValueError, match="not the value of a 480 x 640 export"):
        any_size(onnx.load(str(DEFAULT_MODEL_PATH)), size=(480, 640))
