"""The glyph reader's loss on whole scene bonus tiles (datasets/train/glyphs.py; needs torch,
so it runs in .venv-train: `.venv-train/bin/python -m pytest tests/datasets/test_train_glyphs.py`)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from datasets.synth.glyph_render import NAMES, OTHER, own_glyphs
from datasets.train.glyphs import tile_batch, tile_loss


class Sees(torch.nn.Module):
    """A stand-in reader that sees `glyph` in every window."""

    def __init__(self, glyph: int) -> None:
        super().__init__()
        self.glyph = glyph

    def forward(self, x):
        n, _, h, w = x.shape
        logits = torch.zeros(n, len(NAMES), (h - 24) // 4 + 1, (w - 24) // 4 + 1)
        logits[:, self.glyph] = 20.0
        return logits


def _tile(code="2f", short=70.0):
    views = [np.ones((rows, 60), np.float16) for rows in (48, 56, 72) for _ in range(2)]
    return views, own_glyphs(code), short


@pytest.mark.parametrize("glyph, neg_high, pos_high", [
    (OTHER, False, True),                 # sees nothing: no wrong glyph, but not its own either
    (NAMES.index("2"), False, False),     # its own number
    (NAMES.index("3"), True, True),       # another tile's number
    (NAMES.index("蘭"), False, False),    # its own character
])
def test_the_loss_punishes_another_tiles_glyph_and_asks_for_its_own(glyph, neg_high, pos_high):
    neg, pos = tile_loss(Sees(glyph), tile_batch([_tile("2f")]))
    assert (float(neg) > 1.0) == neg_high
    assert (float(pos) > 1.0) == pos_high


def test_only_a_fully_legible_tile_is_asked_for_its_own_glyph():
    _, pos = tile_loss(Sees(OTHER), tile_batch([_tile("2f", short=40.0)]))
    assert float(pos) == 0.0


def test_whole_tiles_leave_the_batch_norms_statistics_alone():
    from datasets.train.glyphs import GlyphNet
    net = GlyphNet()
    net.train()
    before = [m.running_mean.clone() for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    neg, _ = tile_loss(net, tile_batch([_tile("2f")]))
    neg.backward()
    after = [m.running_mean for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert all(torch.equal(a, b) for a, b in zip(before, after))
    assert all(m.training for m in net.modules())
    assert any(p.grad is not None and p.grad.abs().sum() > 0 for p in net.parameters())
