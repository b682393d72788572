"""Teaching from real photos of real sets (Camerash): one row of a set (set 2, five photos,
every tile labelled), taught with the labels as CODES and shot each way round; and a whole
set laid out in a grid of touching tiles (set 13, 144 tiles, 42 of them labelled). Skips
without ../shared/data/camerash."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from datasets.real.camerash_boxes import BOXES_JSON
from vision.runtime import DEFAULT_CLASSIFIER_PATH, DEFAULT_MODEL_PATH, REPO_ROOT
from vision.rows import rows_of
from vision.tileset.sheet import turn_quarter

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


# Camerash 13.jpg as laid: four rows of dots with red, green and white; four of bamboo with
# east, south and a flower; four of characters with west, north and a season
WHOLE_SET = (["123456789p765z"] * 4 + [f"123456789s12z{k}f" for k in (1, 2, 3, 4)]
             + [f"123456789m34z{k}f" for k in (5, 6, 7, 8)])


@pytest.mark.slow
def test_a_whole_real_set_laid_in_a_grid_is_taught_from_its_rows(reader):
    from vision.tileset.learn import read_sheet

    sheet = read_sheet([CAMERASH / "raw-images" / "13.jpg"], " ".join(WHOLE_SET), reader=reader)
    assert sheet.rows == ((12,) * 12,) and sheet.agreed == 144
    found = np.array([t.box for t in sheet.tiles], np.float32)
    for tile in json.loads(BOXES_JSON.read_text())["photos"]["13.jpg"]["tiles"]:
        nearest = int(np.argmin(np.abs(found - np.array(tile["box"], np.float32)).sum(axis=1)))
        assert sheet.tiles[nearest].code == tile["code"]
