"""The photo-to-tiles pipeline, the overlay and the pass-through refiner, on a stub model;
and the committed pair on a packed grid of tiles."""
from __future__ import annotations

import glob
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.draw import DOUBTFUL_RGB, draw_detections
from vision.pipeline import TileReader
from vision.recognition.refine import PassThrough, default_refiner
from vision.runtime import DEFAULT_MODEL_PATH, REPO_ROOT
from vision.types import Detections
from vision_onnx_stub import write_stub_model

# e2e rows in a 64x64 input: one tile at input (16..32, 24..40).
ONE_TILE = np.array([[[16, 24, 32, 40, 0.9, 1]]], np.float32)


def test_reader_maps_boxes_to_full_resolution_of_a_draft_decoded_jpeg(tmp_path):
    model = write_stub_model(tmp_path / "stub.onnx", ONE_TILE, imgsz=(64, 64))
    photo = tmp_path / "wide.jpg"
    Image.new("RGB", (1024, 512), (90, 90, 90)).save(photo, quality=90)
    reading = TileReader(model).read(photo)
    assert (reading.photo.width, reading.photo.height) == (1024, 512)
    assert reading.photo.rgb.shape[1] < 1024  # decoded at reduced scale
    # input 64 <- image 1024: scale 1/16, pad 16 rows: box x 256..512, y 128..384
    np.testing.assert_allclose(reading.detections.xyxy, [[256, 128, 512, 384]], atol=1e-3)
    assert reading.detections.codes == ["b"] and reading.seconds > 0


def test_overlay_marks_doubtful_tiles_and_leaves_the_photo_alone():
    rgb = np.zeros((100, 100, 3), np.uint8)
    found = Detections([[10, 30, 40, 90]], [0], [0.3], ["a"])
    drawn = draw_detections(rgb, found, low_confidence=0.5)
    assert rgb.max() == 0 and drawn.shape == rgb.shape
    assert (drawn[60, 10] == DOUBTFUL_RGB).all()


def test_refiner_defaults_to_pass_through(tmp_path):
    found = Detections([[0, 0, 1, 1]], [0], [0.5], ["a"])
    refiner = default_refiner(tmp_path / "absent.onnx")
    assert isinstance(refiner, PassThrough)
    assert refiner.refine(np.zeros((2, 2, 3), np.uint8), found) is found


def test_default_refiner_is_the_committed_reader_unless_switched_off(monkeypatch):
    from vision.recognition.refine import CropClassifier
    from vision.runtime import DEFAULT_CLASSIFIER_PATH
    if not DEFAULT_CLASSIFIER_PATH.is_file():
        pytest.skip("no committed crop classifier")
    monkeypatch.delenv("MAHJONG_LENS_CLASSIFIER")
    refiner = default_refiner()
    assert isinstance(refiner, CropClassifier) and refiner.mode == "reader"
    assert refiner.tile_score == "any"
    assert isinstance(default_refiner(names=("only", "two")), PassThrough)  # names must agree
    monkeypatch.setenv("MAHJONG_LENS_CLASSIFIER", "none")
    assert isinstance(default_refiner(), PassThrough)


@pytest.mark.parametrize("raw, expect", [(None, 0.5), ("0.3", 0.3), ("1", 1.0),
                                         ("1.5", ValueError), ("high", ValueError)])
def test_operating_confidence_comes_from_the_pipeline_or_the_environment(monkeypatch, raw, expect):
    from vision.runtime import OPERATING_CONF, operating_conf
    assert OPERATING_CONF == 0.5
    if raw is None:
        monkeypatch.delenv("MAHJONG_LENS_CONF", raising=False)
    else:
        monkeypatch.setenv("MAHJONG_LENS_CONF", raw)
    if expect is ValueError:
        with pytest.raises(ValueError, match="MAHJONG_LENS_CONF"):
            operating_conf()
    else:
        assert operating_conf() == expect


def test_the_committed_models_find_every_tile_of_a_packed_grid(tmp_path, monkeypatch):
    """192 face-up tiles packed edge to edge (the page's own tile pictures, 16 by 12): one box
    on each. The finder gives a dozen candidate boxes per tile; a cap on the candidates
    before suppression once kept only 118 of them."""
    if not DEFAULT_MODEL_PATH.is_file():
        pytest.skip("no committed model")
    monkeypatch.delenv("MAHJONG_LENS_CLASSIFIER")  # the app's pair: finder and reader
    monkeypatch.delenv("MAHJONG_LENS_STACKING")
    faces = [p for p in sorted(glob.glob(str(REPO_ROOT / "app" / "static" / "*.png")))
             if Path(p).stem != "back"]
    pictures = [cv2.resize(cv2.imread(p), (48, 64), interpolation=cv2.INTER_AREA) for p in faces]
    five_dots = [Path(p).stem for p in faces].index("5p")
    cols, rows = 16, 12
    canvas = np.full((rows * 64 + 60, cols * 48 + 60, 3), (60, 110, 40), np.uint8)
    for k in range(rows * cols):
        r, c = divmod(k, cols)
        face = five_dots if k < 3 else k % len(pictures)  # the first three: a flat pung
        canvas[30 + r * 64:94 + r * 64, 30 + c * 48:78 + c * 48] = pictures[face]
    cv2.imwrite(str(tmp_path / "grid.png"), canvas)
    reading = TileReader().read(tmp_path / "grid.png")
    found = np.asarray(reading.detections.xyxy)
    cells = Counter(map(tuple, (((found[:, :2] + found[:, 2:]) / 2 - 30) // [48, 64]).astype(int)))
    assert len(cells) >= 0.97 * rows * cols and max(cells.values()) == 1
    on_top = reading.detections.on_top  # the stack classifier judged the flat pung
    if on_top is not None:
        pung = [i for i, (x, y) in enumerate((found[:, :2] + found[:, 2:]) / 2)
                if y < 94 and x < 30 + 3 * 48]
        assert len(pung) == 3 and (on_top[pung] < 0.5).all(), on_top[pung]
