"""The second look at small tiles (vision/recognition/zoom.py): where it looks, the boxes it maps back,
and the committed finder on a hand photographed from afar."""
from __future__ import annotations

import glob
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_onnx_stub import write_stub_model

from vision.pipeline import TileReader
from vision.recognition.detector import Detector
from vision.recognition.zoom import MIN_GAIN, Region, detect_zoomed, tile_region
from vision.runtime import DEFAULT_MODEL_PATH, REPO_ROOT

MODEL = (640, 640)


@pytest.mark.parametrize("boxes, shape, expect", [
    ([], (1000, 1000), None),
    # a row of tiles across the frame: nothing to gain
    ([[50 + 60 * k, 400, 100 + 60 * k, 470] for k in range(14)], (1000, 1000), None),
    # one 100-px tile in the middle: 100 px + 1.5 sides each way = 400 px, read 2.5x larger
    ([[450, 450, 550, 550]], (1000, 1000), Region(300, 300, 700, 700, 2.5)),
    # at the corner the margin is cut at the photo's edge
    ([[0, 0, 40, 40]], (1000, 2000), Region(0, 0, 100, 100, 20.0)),
    # a wide photo: the gain is against the long side the letterbox fits
    ([[900, 200, 1000, 300]], (500, 2000), Region(750, 50, 1150, 450, 5.0)),
])
def test_the_region_round_the_tiles_and_its_gain(boxes, shape, expect):
    region = tile_region(np.array(boxes, np.float32).reshape(-1, 4), shape, MODEL)
    if expect is None:
        assert region is None
    else:
        assert region is not None and region.gain >= MIN_GAIN
        assert (region.x0, region.y0, region.x1, region.y1) == (expect.x0, expect.y0,
                                                                expect.x1, expect.y1)
        assert region.gain == pytest.approx(expect.gain)


def test_boxes_of_the_second_look_are_mapped_back_to_the_photo(tmp_path):
    # the stub finds one tile at input 28..36 of 64 whatever it is shown
    model = write_stub_model(tmp_path / "stub.onnx", np.array([[[28, 28, 36, 36, 0.9, 0]]],
                                                              np.float32), imgsz=(64, 64))
    detector = Detector(model)
    rgb = np.zeros((1024, 1024, 3), np.uint8)
    once = detector.detect(rgb, conf=0.5, iou=0.45)
    np.testing.assert_allclose(once.xyxy, [[448, 448, 576, 576]])
    # region 448 - 1.5 * 128 .. 576 + 1.5 * 128 = 256..768, read at 1/8: 28 * 8 + 256 = 480
    twice = detect_zoomed(detector, rgb, conf=0.5, iou=0.45)
    np.testing.assert_allclose(twice.xyxy, [[480, 480, 544, 544]])
    assert twice.confidence.tolist() == pytest.approx([0.9])


def test_the_committed_finder_reads_a_hand_photographed_from_afar(tmp_path, monkeypatch):
    """14 tiles 14 px wide in a 1600x1200 photo (the page's tile pictures): 7 px each in the
    finder's 640, too small for it; in the region read again, every one is found."""
    if not DEFAULT_MODEL_PATH.is_file():
        pytest.skip("no committed model")
    monkeypatch.delenv("MAHJONG_LENS_CLASSIFIER")
    faces = [p for p in sorted(glob.glob(str(REPO_ROOT / "app" / "static"
                                             / "*.png"))) if Path(p).stem != "back"]
    canvas = np.full((1200, 1600, 3), (60, 110, 40), np.uint8)
    for k in range(14):
        face = cv2.resize(cv2.imread(faces[k * 3 % len(faces)]), (14, 18),
                          interpolation=cv2.INTER_AREA)
        canvas[560:578, 600 + 16 * k:614 + 16 * k] = face
    cv2.imwrite(str(tmp_path / "afar.png"), canvas)
    found = TileReader().read(tmp_path / "afar.png").detections
    centres = np.sort((found.xyxy[:, 0] + found.xyxy[:, 2]) / 2)
    assert len(found) == 14
    np.testing.assert_allclose(centres, 607 + 16 * np.arange(14), atol=4)
