"""vision.recognition.detector: letterbox, both output layouts, NMS, metadata, through a stub ONNX model."""
from __future__ import annotations

import numpy as np
import pytest

from layout_scenes import detections
from vision.pipeline import NMS_IOU
from vision.recognition.detector import (
    Detector,
    decode_output,
    letterbox,
    nms,
    parse_imgsz,
    parse_names,
)
from vision.types import Detections
from vision_onnx_stub import write_stub_model

NAMES = ["a", "b", "c"]


def _raw(rows):
    """(1, 4+nc, N) from rows (cx, cy, w, h, score_a, score_b, score_c)."""
    return np.asarray(rows, np.float32).T[None]


def _e2e(rows):
    """(1, N, 6) from rows (x1, y1, x2, y2, score, class)."""
    return np.asarray(rows, np.float32)[None]


# A 128x64 (w x h) image into a 64x64 input: scale 0.5, 16 pixels of padding top and bottom.
# A box at input (16..32, 24..40) is image (32..64, 16..48).
LAYOUT_CASES = [
    ("raw", _raw([[24, 32, 16, 16, 0.1, 0.9, 0.0],     # kept, class b
                  [25, 32, 16, 16, 0.0, 0.8, 0.1],     # same tile, weaker: suppressed
                  [50, 20, 8, 8, 0.05, 0.1, 0.2]]),    # under conf 0.25
     [[32, 16, 64, 48]], [1], [0.9]),
    ("e2e", _e2e([[16, 24, 32, 40, 0.9, 1],
                  [40, 16, 56, 24, 0.6, 2],
                  [0, 0, 8, 8, 0.1, 0]]),
     [[32, 16, 64, 48], [80, 0, 112, 16]], [1, 2], [0.9, 0.6]),
    ("raw-empty", _raw([[24, 32, 16, 16, 0.1, 0.1, 0.1]]), np.zeros((0, 4)), [], []),
]


@pytest.mark.parametrize("label,output,xyxy,classes,scores", LAYOUT_CASES,
                         ids=[case[0] for case in LAYOUT_CASES])
def test_stub_model_boxes_map_back_to_image(tmp_path, label, output, xyxy, classes, scores):
    model = write_stub_model(tmp_path / "stub.onnx", output, imgsz=(64, 64), names=NAMES)
    detector = Detector(model, threads=1)
    assert detector.names == tuple(NAMES) and detector.imgsz == (64, 64)
    found = detector.detect(np.zeros((64, 128, 3), np.uint8), conf=0.25)
    assert isinstance(found, Detections)
    np.testing.assert_allclose(found.xyxy, np.asarray(xyxy).reshape(-1, 4), atol=1e-4)
    assert found.class_id.tolist() == classes
    np.testing.assert_allclose(found.confidence, scores, atol=1e-6)


def test_letterbox_values_invert():
    canvas, box = letterbox(np.zeros((300, 600, 3), np.uint8), (640, 640))
    assert canvas.shape == (640, 640, 3) and box.scale == pytest.approx(640 / 600)
    assert (box.pad_x, box.pad_y) == (0.0, 160.0)
    assert canvas[0, 0].tolist() == [114, 114, 114] and canvas[320, 320].tolist() == [0, 0, 0]
    back = box.to_image(np.array([[0, 160, 640, 480]], np.float32), 600, 300)
    np.testing.assert_allclose(back, [[0, 0, 600, 300]], atol=1e-3)


NMS_CASES = [
    # (agnostic, expected kept indices): boxes 0 and 1 overlap (IoU 0.82) with other classes
    (False, [0, 1, 2]),
    (True, [0, 2]),
]


@pytest.mark.parametrize("agnostic,kept", NMS_CASES)
def test_nms_class_aware_and_agnostic(agnostic, kept):
    xyxy = np.array([[0, 0, 10, 10], [0, 0, 10, 11], [20, 20, 30, 30]], np.float32)
    score = np.array([0.9, 0.8, 0.7], np.float32)
    class_id = np.array([0, 1, 1])
    assert sorted(nms(xyxy, score, class_id, 0.5, agnostic=agnostic).tolist()) == kept


def test_nms_same_class_overlap_is_suppressed_either_way():
    xyxy = np.array([[0, 0, 10, 10], [1, 0, 11, 10]], np.float32)
    for agnostic in (False, True):
        assert nms(xyxy, np.array([0.5, 0.9], np.float32), np.array([2, 2]), 0.5,
                   agnostic=agnostic).tolist() == [1]


def test_nms_keeps_every_tile_of_a_crowded_photo():
    """144 tiles edge to edge, each with a dozen near-duplicate candidates (as a YOLO head
    gives): one box per tile survives, however many candidates there are in all."""
    rng = np.random.default_rng(0)
    tiles = np.array([[x * 30, y * 40, x * 30 + 30, y * 40 + 40] for y in range(12) for x in range(12)],
                     np.float32)
    xyxy = np.repeat(tiles, 12, axis=0) + rng.normal(0, 1.0, (len(tiles) * 12, 4)).astype(np.float32)
    score = rng.uniform(0.5, 0.95, len(xyxy)).astype(np.float32)
    keep = nms(xyxy, score, np.zeros(len(xyxy), int), 0.7, agnostic=True)
    assert len(keep) == len(tiles)
    assert len({int(k) // 12 for k in keep}) == len(tiles)


@pytest.mark.parametrize("angle", [0, 30, 45])
def test_the_apps_nms_keeps_touching_tiles_and_drops_a_duplicate_box(angle):
    """Two rows of touching tiles turned by `angle` (their axis-aligned boxes overlap by IoU
    up to about 0.2 near 45°) keep every tile; a second box on one tile (IoU 0.6) is dropped."""
    row = detections(["1m2m3m4m5m6m7m8m9m", "1p2p3p4p5p6p7p8p9p"], angle_deg=angle, tilt=0.3)
    xyxy = np.asarray(row.xyxy, np.float32)
    w = xyxy[4, 2] - xyxy[4, 0]
    duplicate = xyxy[4] + np.array([0.25 * w, 0, 0.25 * w, 0], np.float32)  # IoU 0.6 with tile 4
    boxes = np.vstack([xyxy, duplicate])
    score = np.r_[np.full(len(xyxy), 0.9), 0.8].astype(np.float32)
    keep = nms(boxes, score, np.zeros(len(boxes), int), NMS_IOU, agnostic=True)
    assert sorted(keep.tolist()) == list(range(len(xyxy)))


@pytest.mark.parametrize("shape", [(1, 5, 9), (2, 7, 3), (7,)])
def test_decode_output_rejects_unknown_layouts(shape):
    with pytest.raises(ValueError, match="expected"):
        decode_output(np.zeros(shape, np.float32), num_classes=3, conf=0.25)


METADATA_CASES = [
    ("{0: '1m', 1: '2m'}", ("1m", "2m")),
    ({0: "x", 1: "y"}, ("x", "y")),
    (["p", "q"], ("p", "q")),
]


@pytest.mark.parametrize("raw,names", METADATA_CASES)
def test_parse_names(raw, names):
    assert parse_names(raw) == names


@pytest.mark.parametrize("raw,size", [("[640, 640]", (640, 640)), ("320", (320, 320)),
                                      ([480, 640], (480, 640))])
def test_parse_imgsz(raw, size):
    assert parse_imgsz(raw) == size


def test_model_problems_are_clear(tmp_path):
    with pytest.raises(FileNotFoundError, match="no detector model"):
        Detector(tmp_path / "absent.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a usable ONNX model"):
        Detector(junk)
    bare = write_stub_model(tmp_path / "bare.onnx", _e2e([[0, 0, 1, 1, 0.5, 0]]),
                            metadata=False)
    with pytest.raises(ValueError, match="'names'"):
        Detector(bare)


DETECTIONS_ERRORS = [
    (dict(xyxy=np.zeros((2, 3))), "shape"),
    (dict(class_id=np.array([0, 5])), "0..2"),
    (dict(confidence=np.array([0.5, 1.5])), r"\[0, 1\]"),
    (dict(xyxy=np.array([[5, 0, 1, 1], [0, 0, 1, 1]])), "x2 >= x1"),
    (dict(xyxy=np.array([[0, 0, np.nan, 1], [0, 0, 1, 1]])), "finite"),
    (dict(confidence=np.array([0.5])), "shape"),
    (dict(names=()), "names"),
]


@pytest.mark.parametrize("change,message", DETECTIONS_ERRORS)
def test_detections_validate_on_construction(change, message):
    fields = dict(xyxy=np.array([[0, 0, 1, 1], [2, 2, 3, 4]]), class_id=np.array([0, 2]),
                  confidence=np.array([0.5, 0.7]), names=("a", "b", "c"))
    fields.update(change)
    with pytest.raises(ValueError, match=message):
        Detections(**fields)


def test_detections_are_frozen_and_convert_types():
    found = Detections([[0, 0, 1, 1]], [2], [0.5], ["a", "b", "c"])
    assert found.xyxy.dtype == np.float32 and found.class_id.dtype == np.int64
    assert found.codes == ["c"] and len(found) == 1 and found.names == ("a", "b", "c")
    with pytest.raises(ValueError):
        found.xyxy[0, 0] = 3
    scaled = found.scaled(2, 3)
    assert scaled.xyxy.tolist() == [[0, 0, 2, 3]]
    assert len(Detections.empty(["a"])) == 0 and len(found.select(np.array([False]))) == 0


@pytest.mark.parametrize("keep", [np.array([False, False]), np.array([], np.int64), np.array([1])])
def test_selecting_read_tiles_keeps_their_runners_up(keep):
    """A reader's detections carry runners-up; selecting none of them (no tile shown) once
    failed to reshape them."""
    found = Detections([[0, 0, 1, 1], [2, 2, 3, 4]], [0, 2], [0.5, 0.7], ["a", "b", "c"],
                       alt_class_id=[[1, 2], [0, 1]], alt_confidence=[[0.2, 0.1], [0.2, 0.05]],
                       tile_score=[0.4, 0.9])
    picked = found.select(keep)
    n = int(keep.sum()) if keep.dtype == bool else len(keep)
    assert len(picked) == n and picked.alt_class_id.shape == (n, 2)
    assert picked.alt_confidence.shape == (n, 2) and picked.tile_score.shape == (n,)


def test_tile_score_any_sums_the_class_scores():
    from vision.recognition.detector import decode_output
    # one box whose score is spread over three classes (0.2 each), one clear box (0.9)
    out = np.zeros((1, 4 + 5, 2), np.float32)
    out[0, :4, 0] = [50, 50, 10, 20]
    out[0, 4:7, 0] = 0.2
    out[0, :4, 1] = [100, 100, 10, 20]
    out[0, 8, 1] = 0.9
    _, cls, score = decode_output(out, 5, conf=0.25)
    assert list(cls) == [4] and np.allclose(score, [0.9])
    xyxy, cls, score = decode_output(out, 5, conf=0.25, tile_score="any")
    assert list(cls) == [0, 4] and np.allclose(score, [0.6, 0.9])
    with pytest.raises(ValueError, match="tile_score"):
        decode_output(out, 5, conf=0.25, tile_score="sum")


def test_every_session_runs_on_the_cpu_with_idle_workers_asleep(tmp_path):
    from vision.runtime import cpu_session
    session = cpu_session(write_stub_model(tmp_path / "m.onnx", np.zeros((1, 5, 1), np.float32),
                                           names=["tile"]), threads=2)
    options = session.get_session_options()
    assert session.get_providers() == ["CPUExecutionProvider"]
    assert options.intra_op_num_threads == 2
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
