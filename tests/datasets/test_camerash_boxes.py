"""The committed Camerash boxes: consistent with the class list, the split and the photos."""
from __future__ import annotations

import json

import pytest

from datasets.classes import class_index
from datasets.real.camerash_boxes import BOXES_JSON, HELD_OUT_SETS, code_of, drop_duplicates, photo_set
from vision.runtime import REPO_ROOT

BOXES = json.loads(BOXES_JSON.read_text())
CAMERASH = REPO_ROOT.parent / "shared" / "data" / "camerash"


@pytest.mark.parametrize("label,code", [("dots-7", "7p"), ("bamboo-1", "1s"),
                                        ("characters-9", "9m"), ("honors-white", "5z"),
                                        ("honors-north", "4z"), ("bonus-chrysanthemum", "3f"),
                                        ("bonus-winter", "8f")])
def test_label_names_map_to_codes(label, code):
    assert code_of(label) == code


def test_boxes_lie_in_their_photos_with_known_codes_and_the_split_is_by_set():
    held_out_sets = set()
    for name, photo in BOXES["photos"].items():
        assert photo["held_out"] == (photo_set(name) in HELD_OUT_SETS)
        if photo["held_out"]:
            held_out_sets.add(photo["set"])
        for tile in photo["tiles"]:
            x1, y1, x2, y2 = tile["box"]
            assert 0 <= x1 < x2 <= photo["width"] and 0 <= y1 < y2 <= photo["height"]
            assert tile["code"] in class_index() and tile["score"] >= BOXES["min_score"]
    assert held_out_sets == set(HELD_OUT_SETS)
    held_codes = {t["code"] for p in BOXES["photos"].values() if p["held_out"] for t in p["tiles"]}
    assert len(held_codes) == 42  # every tile class is tested on real photos


def test_two_crops_on_one_tile():
    same = [{"crop": "a", "code": "1m", "box": [0, 0, 10, 10], "score": 0.95},
            {"crop": "b", "code": "1m", "box": [1, 0, 11, 10], "score": 0.92}]
    kept, dropped = drop_duplicates(same)
    assert [t["crop"] for t in kept] == ["a"] and dropped[0]["best"] == "duplicate"
    differ = [same[0], dict(same[1], code="2m")]
    kept, dropped = drop_duplicates(differ)
    assert kept == [] and {d["best"] for d in dropped} == {"duplicate", "conflict"}


@pytest.mark.skipif(not CAMERASH.is_dir(), reason="../shared/data/camerash is not here")
def test_photo_sizes_match_the_shared_photos():
    from PIL import Image
    for name, photo in BOXES["photos"].items():
        with Image.open(CAMERASH / "raw-images" / name) as image:
            assert image.size == (photo["width"], photo["height"])
