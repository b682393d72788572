"""vision.runtime: the ONNX session every model runs in."""
import numpy as np
import onnxruntime as ort
import pytest

from vision.runtime import DEFAULT_CLASSIFIER_PATH, DEFAULT_STACK_PATH, cpu_session


@pytest.mark.parametrize("path, batch", [(DEFAULT_CLASSIFIER_PATH, 3), (DEFAULT_STACK_PATH, 2)])
def test_models_share_one_arena_and_read_as_with_their_own(path, batch):
    shared = cpu_session(path)
    options = shared.get_session_options()
    assert options.get_session_config_entry("session.use_env_allocators") == "1"
    own = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    model_input = shared.get_inputs()[0]
    x = np.random.default_rng(0).random((batch, *model_input.shape[1:]), dtype=np.float32)
    np.testing.assert_allclose(shared.run(None, {model_input.name: x})[0],
                               own.run(None, {model_input.name: x})[0], rtol=1e-5, atol=1e-6)
