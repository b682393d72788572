"""Real training photos: every copy of a boxed tile is found, nothing held out is written."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from datasets.real.camerash_boxes import BOXES_JSON, box_overlap
from datasets.real.camerash_train import MAX_OVERLAP, build, find_copies, label_photo
from vision.image import decode_image
from vision.runtime import REPO_ROOT

BOXES = BOXES_JSON
CAMERASH = REPO_ROOT.parent / "shared" / "data" / "camerash"
needs_camerash = pytest.mark.skipif(not (CAMERASH / "raw-images").is_dir(),
                                    reason="../shared/data/camerash is not beside the project")


def test_copies_of_a_pattern_are_found_once_each_and_a_different_one_is_not():
    rng = np.random.default_rng(0)
    tile = rng.integers(0, 255, (40, 30), dtype=np.uint8)
    other = rng.integers(0, 255, (40, 30), dtype=np.uint8)
    grey = np.full((100, 300), 128, np.uint8)
    for x in (10, 60, 200):
        grey[30:70, x:x + 30] = tile
    grey[30:70, 120:150] = other
    found = sorted(box for box, _ in find_copies(grey, [10, 30, 40, 70]))
    assert found == [[10, 30, 40, 70], [60, 30, 90, 70], [200, 30, 230, 70]]


@needs_camerash
def test_a_real_photo_keeps_its_boxed_tiles_and_gains_their_copies():
    photo = json.loads(BOXES.read_text())["photos"]["8.jpg"]
    found = label_photo(decode_image(CAMERASH / "raw-images" / "8.jpg"), photo["tiles"])
    for tile in photo["tiles"]:
        assert any(code == tile["code"] and box_overlap(box, tile["box"]) > 0.9 for code, box, _ in found)
    assert len(found) > 2 * len(photo["tiles"])
    for i, (_, a, _) in enumerate(found):
        assert all(box_overlap(a, b) <= MAX_OVERLAP for _, b, _ in found[i + 1:])


@needs_camerash
def test_held_out_photos_are_never_written(tmp_path):
    summary = build(CAMERASH, BOXES, tmp_path)
    held_out = {name for name, p in json.loads(BOXES.read_text())["photos"].items() if p["held_out"]}
    assert summary and not held_out & set(summary)
    written = {p.stem for p in tmp_path.glob("*.jpg")}
    assert written == {"camerash_" + Path(name).stem for name in summary}
    assert all((tmp_path / f"{stem}.txt").stat().st_size for stem in written)
