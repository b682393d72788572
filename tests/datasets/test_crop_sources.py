"""Which scene tiles the reader may learn from and which only measure it."""
from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from datasets.art.designs import DEVELOPMENT, HELD_OUT
from datasets.real.crop_sources import scene_patches

TRAIN_DESIGN = "proc_s000"


@pytest.fixture
def scenes(tmp_path):
    """One scene with a tile of a training, a held-out and a development design."""
    (tmp_path / "images").mkdir()
    (tmp_path / "truth").mkdir()
    Image.fromarray(np.full((120, 300, 3), 200, np.uint8)).save(tmp_path / "images" / "000000.jpg")
    tiles = [{"label": code, "box": [10 + 90 * i, 20, 60 + 90 * i, 90], "design": design}
             for i, (code, design) in enumerate([("1m", TRAIN_DESIGN), ("2m", HELD_OUT[0]),
                                                 ("3m", DEVELOPMENT[0])])]
    (tmp_path / "truth" / "000000.json").write_text(json.dumps({"image": "images/000000.jpg", "tiles": tiles}))
    return tmp_path


@pytest.mark.parametrize("held_out,designs", [(False, [TRAIN_DESIGN]), (True, [HELD_OUT[0]])])
def test_development_designs_are_neither_learnt_nor_reported(scenes, held_out, designs):
    patches = scene_patches(scenes, held_out_designs=held_out)
    assert [origin.split("/")[1] for origin in patches.origin] == designs
