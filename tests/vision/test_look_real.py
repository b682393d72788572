"""The second look at the rows on real photos of a tile set nobody trained on (rows of touching
tiles): a tile whose box the finder lost, or found as half a tile, comes back with its code,
and a photo with nothing lost gains nothing (over all the held-out photos:
`datasets/eval/look_real.py`). Skipped without ../shared/data/camerash."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.eval.look_real import fault, inner
from vision.boxes import box_iou
from vision.pipeline import TileReader

PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "camerash" / "raw-images"


@pytest.fixture(scope="module")
def reader():
    if not PHOTOS.is_dir():
        pytest.skip("../shared/data/camerash is not here")
    return TileReader()


@pytest.mark.parametrize("photo", ["1-1.jpg", "12.jpg"])
@pytest.mark.parametrize("fault_kind", ["taken_away", "halved"])
def test_a_lost_tile_of_a_real_row_comes_back_read_right(reader, photo, fault_kind):
    whole = reader.read(PHOTOS / photo).detections
    assert whole.looked is None or not whole.looked.any()  # nothing lost here: nothing added
    for target in inner(np.asarray(whole.xyxy, np.float64), 3):
        box = np.asarray(whole.xyxy[target], np.float64)
        again = reader.read(PHOTOS / photo, finder_edit=fault(box, fault_kind)).detections
        back = box_iou(again.xyxy, box)[:, 0]
        assert back.max() >= 0.5 and again.looked[back.argmax()]
        assert again.codes[back.argmax()] == whole.codes[target]
        assert len(again) == len(whole)
