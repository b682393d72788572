"""datasets/eval/size.py: reading by tile size, on a hand-made scene with truth."""
from __future__ import annotations

import json

import numpy as np

from datasets.eval.samples import Result, Sample
from datasets.eval.size import hand_mask, size_table

# (box, class id, face, group): two small hand tiles, two large ones, a small wall tile
TILES = [([0, 0, 20, 30], 0, "up", "concealed"), ([30, 0, 50, 30], 1, "up", "concealed"),
         ([0, 100, 60, 180], 2, "up", "meld:0"), ([100, 100, 160, 180], 3, "up", "winning"),
         ([300, 0, 318, 25], 4, "up", "distractor"), ([400, 0, 418, 25], 42, "down", "concealed")]


def _scene(tmp_path) -> Sample:
    (tmp_path / "images").mkdir()
    (tmp_path / "truth").mkdir()
    truth = {"tiles": [{"box": box, "label": str(c), "face": face, "group": group}
                       for box, c, face, group in TILES]}
    (tmp_path / "truth" / "000000.json").write_text(json.dumps(truth))
    return Sample(tmp_path / "images" / "000000.jpg", np.array([t[0] for t in TILES], float),
                  np.array([t[1] for t in TILES], np.int64))


def test_only_face_up_hand_tiles_count(tmp_path):
    assert hand_mask(_scene(tmp_path)).tolist() == [True, True, True, True, False, False]


def test_size_table(tmp_path):
    sample = _scene(tmp_path)
    # every tile found; the second small one misread; the wall tile misread too (not counted)
    read = np.array([0, 7, 2, 3, 9, 42])
    result = Result(sample.xyxy.copy(), read, np.full(6, 0.9), 0.1, tile_score=np.full(6, 0.9))
    table = size_table([sample], [result], conf=0.5)
    assert table["tiles_read_right"] == [{"from": 20, "to": 24, "n": 2, "right": 0.5},
                                         {"from": 56, "to": 64, "n": 2, "right": 1.0}]
    # the photo's median short side is (20 + 60) / 2 = 40, and one hand tile is wrong
    assert table["photos_all_right"] == [{"from": 40, "to": 48, "n": 1, "right": 0.0}]
    # a tile the finder misses does not count among the read, but spoils its photo
    missed = Result(sample.xyxy[1:], read[1:] * 0 + sample.class_id[1:], np.full(5, 0.9), 0.1,
                    tile_score=np.full(5, 0.9))
    table = size_table([sample], [missed], conf=0.5)
    assert table["tiles_read_right"][0] == {"from": 20, "to": 24, "n": 1, "right": 1.0}
    assert table["photos_all_right"] == [{"from": 40, "to": 48, "n": 1, "right": 0.0}]
