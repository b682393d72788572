"""The second look at the rows on real photos of a tile set nobody trained on (rows of touching
tiles): a tile whose box the finder lost, or found as half a tile, comes back with its code,
and a photo with nothing lost gains nothing. Skipped without ../shared/data/camerash."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.boxes import box_iou
from vision.pipeline import TileReader

PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "camerash" / "raw-images"


@pytest.fixture(scope="module")
def reader():
    if not PHOTOS.is_dir():
        pytest.skip("../shared/data/camerash is not here")
    return TileReader()


def inner(xyxy: np.ndarray, k: int) -> list[int]:
    """`k` tiles with two tiles of their row on each side, spread over the photo (a hole
    beside a row's last tile is not looked at: it may be a winning tile set apart)."""
    centre = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    width = np.median(xyxy[:, 2] - xyxy[:, 0])

    def beside(i: int, side: int) -> int:
        return sum(abs(centre[j, 1] - centre[i, 1]) < 0.3 * width
                   and 0.5 * width < side * (centre[j, 0] - centre[i, 0]) < 2.5 * width
                   for j in range(len(xyxy)))

    both = [i for i in range(len(xyxy)) if beside(i, 1) == 2 and beside(i, -1) == 2]
    return both[::max(1, len(both) // k)][:k]


@pytest.mark.parametrize("photo", ["1-1.jpg", "2-1.jpg"])
@pytest.mark.parametrize("fault", ["taken away", "halved"])
def test_a_lost_tile_of_a_real_row_comes_back_read_right(reader, photo, fault):
    whole = reader.read(PHOTOS / photo).detections
    assert whole.looked is None or not whole.looked.any()  # nothing lost: nothing looked for
    for target in inner(np.asarray(whole.xyxy, np.float64), 3):
        box = np.asarray(whole.xyxy[target], np.float64)

        def edit(kept, weak, scale):
            on = np.flatnonzero(box_iou(kept.xyxy * np.array([*scale, *scale]), box)[:, 0] >= 0.5)
            if fault == "halved":
                xyxy = np.array(kept.xyxy)
                xyxy[on, 3] = (xyxy[on, 1] + xyxy[on, 3]) / 2
                return replace(kept, xyxy=xyxy), weak
            near = box_iou(weak.xyxy * np.array([*scale, *scale]), box)[:, 0] >= 0.3
            return kept.select(np.setdiff1d(np.arange(len(kept)), on)), weak.select(np.flatnonzero(~near))

        again = reader.read(PHOTOS / photo, finder_edit=edit).detections
        back = box_iou(again.xyxy, box)[:, 0]
        assert back.max() >= 0.5 and again.looked[back.argmax()]
        assert again.codes[back.argmax()] == whole.codes[target]
        assert len(again) == len(whole)
