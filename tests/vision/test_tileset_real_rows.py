"""Teaching from real photos: the Camerash photos of one row of a real set (set 2, five photos;
every tile in them is labelled), taught as a sheet with the labels as CODES, shot each way
round. Skips without ../shared/data/camerash."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from datasets.real.camerash_boxes import BOXES_JSON
from vision.runtime import DEFAULT_CLASSIFIER_PATH, DEFAULT_MODEL_PATH, REPO_ROOT
from vision.tileset.sheet import rows_of, turn_quarter

CAMERASH = REPO_ROOT.parent / "shared" / "data" / "camerash"
ROW_PHOTOS = ("2-1.jpg", "2-2.jpg", "2-3.jpg", "2-4.jpg", "2-5.jpg")


@pytest.fixture(scope="module")
def reader():
    if not (CAMERASH / "raw-images").is_dir():
        pytest.skip("../shared/data/camerash is not here")
    if not (DEFAULT_MODEL_PATH.is_file() and DEFAULT_CLASSIFIER_PATH.is_file()):
        pytest.skip("the committed models are not there")
    from vision.tileset.learn import sheet_reader
    return sheet_reader()


@pytest.mark.slow
@pytest.mark.parametrize("name", ROW_PHOTOS)
def test_every_code_lands_on_its_real_tile_whichever_way_the_row_lies(reader, name):
    from vision.tileset.learn import read_sheet

    tiles = json.loads(BOXES_JSON.read_text())["photos"][name]["tiles"]
    boxes = np.array([t["box"] for t in tiles], np.float32)
    order = np.concatenate(rows_of(boxes))
    codes = [tiles[i]["code"] for i in order]
    rgb = cv2.cvtColor(cv2.imread(str(CAMERASH / "raw-images" / name)), cv2.COLOR_BGR2RGB)
    boxes = boxes[order]
    for turn in range(4):  # quarter turns counter-clockwise
        png = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))[1].tobytes()
        sheet = read_sheet([png], "".join(codes), reader=reader)
        found = np.array([t.box for t in sheet.tiles], np.float32)
        nearest = [int(np.argmin(np.abs(boxes - box).sum(axis=1))) for box in found]
        assert [codes[i] for i in nearest] == sheet.codes == codes, f"turned {turn}"
        rgb, boxes = turn_quarter(rgb, boxes)
