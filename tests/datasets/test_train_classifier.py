"""The reader's random-convolution restyling (datasets/train/classifier.py; needs torch, so it
runs in .venv-train: `.venv-train/bin/python -m pytest tests/datasets/test_train_classifier.py`)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from datasets.train.classifier import restyle


def _crops(n: int = 8) -> torch.Tensor:
    """Light faces with a dark bar in the middle: a shape that restyling must keep."""
    x = torch.full((n, 3, 32, 32), 0.85)
    x[:, :, 8:24, 14:18] = 0.1
    return x


@pytest.mark.parametrize("share,changed", [(0.0, 0), (1.0, 8)])
def test_restyle_touches_the_share_asked(share, changed):
    x = _crops()
    out = restyle(x.clone(), np.random.default_rng(0), share)
    assert int((out - x).abs().flatten(1).amax(1).gt(1e-6).sum()) == changed


def test_restyled_crops_stay_in_range_keep_their_brightness_and_depend_on_the_seed():
    x = _crops()
    a = restyle(x.clone(), np.random.default_rng(1), 1.0)
    b = restyle(x.clone(), np.random.default_rng(1), 1.0)
    c = restyle(x.clone(), np.random.default_rng(2), 1.0)
    assert torch.equal(a, b) and not torch.equal(a, c)
    assert float(a.min()) >= 0.0 and float(a.max()) <= 1.0
    assert torch.allclose(a.mean((1, 2, 3)), x.mean((1, 2, 3)), atol=0.1)
