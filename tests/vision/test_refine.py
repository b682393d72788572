"""The second stage: the shared crop function, the ONNX crop classifier (on a tiny model that
reads a crop's mean colour), its decision rule, one batched call, and the decode scale."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from PIL import Image
from vision_onnx_stub import write_stub_model

from vision.pipeline import TileReader
from vision.recognition.refine import (
    CROP_MARGIN,
    EXTRA_MARGINS,
    CropClassifier,
    PassThrough,
    default_refiner,
    square_crop,
)
from vision.types import Detections

NAMES = ["a", "b", "c"]  # a = red, b = green, c = blue


def _save_classifier(path, reduce: list, initializer: list, size: int, names=NAMES,
                     margin: float | None = None, views: int | None = None):
    """A classifier graph: `reduce` nodes turn images into `mean` (N, 3); then
    probabilities = softmax(20 * mean), one class per colour channel."""
    weight = numpy_helper.from_array(np.eye(3, dtype=np.float32) * 20.0, name="weight")
    nodes = reduce + [helper.make_node("MatMul", ["mean", "weight"], ["logits"]),
                      helper.make_node("Softmax", ["logits"], ["probabilities"], axis=1)]
    graph = helper.make_graph(
        nodes, "classifier",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, size, size])],
        [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["batch", 3])],
        initializer=[weight, *initializer])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    props = {"names": str(dict(enumerate(names))), "imgsz": str([size, size])}
    if margin is not None:
        props["crop_margin"] = str(margin)
    if views is not None:
        props["views"] = str(views)
    helper.set_model_props(model, props)
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return path


def write_colour_classifier(path, size: int = 8, names=NAMES, margin: float | None = None,
                            views: int | None = None):
    """probabilities = softmax(20 * mean RGB of the crop): the class is the dominant colour."""
    reduce = [helper.make_node("ReduceMean", ["images"], ["mean"], axes=[2, 3], keepdims=0)]
    return _save_classifier(path, reduce, [], size, names, margin, views)


def photo_with_tiles() -> np.ndarray:
    rgb = np.full((100, 200, 3), 128, np.uint8)
    rgb[20:60, 10:40] = (255, 0, 0)     # a red tile
    rgb[20:60, 100:130] = (0, 0, 255)   # a blue tile
    return rgb


@pytest.mark.parametrize("box, margin, expect_region", [
    ((10, 20, 40, 60), 0.0, (20, 60, 10, 40)),
    ((10, 20, 40, 60), 0.1, (16, 64, 7, 43)),       # 3 px and 4 px of table around
    ((-5, -5, 20, 20), 0.0, (0, 20, 0, 20)),        # clipped to the photo
])
def test_square_crop_cuts_the_widened_box_and_squashes_it_square(box, margin, expect_region):
    rgb = np.random.default_rng(0).integers(0, 255, (100, 200, 3), dtype=np.uint8)
    crop = square_crop(rgb, box, 16, margin)
    top, bottom, left, right = expect_region
    assert crop.shape == (16, 16, 3) and crop.dtype == np.uint8
    import cv2
    want = rgb[top:bottom, left:right]
    interp = cv2.INTER_AREA if min(want.shape[:2]) > 16 else cv2.INTER_LINEAR
    np.testing.assert_array_equal(crop, cv2.resize(want, (16, 16), interpolation=interp))


def test_square_crop_of_a_box_outside_the_photo_is_blank():
    assert not square_crop(np.full((10, 10, 3), 255, np.uint8), (20, 20, 30, 30), 8).any()


def test_classifier_reads_its_metadata(tmp_path):
    classifier = CropClassifier(write_colour_classifier(tmp_path / "c.onnx", margin=0.05))
    assert classifier.names == tuple(NAMES) and classifier.size == 8
    assert classifier.margin == 0.05
    plain = CropClassifier(write_colour_classifier(tmp_path / "d.onnx"))
    assert plain.margin == CROP_MARGIN


def test_refine_overrides_an_unsure_detector_and_keeps_a_surer_one(tmp_path):
    classifier = CropClassifier(write_colour_classifier(tmp_path / "c.onnx"), min_confidence=0.5)
    found = Detections([[10, 20, 40, 60], [100, 20, 130, 60]], [1, 1], [0.4, 0.4], NAMES)
    refined = classifier.refine(photo_with_tiles(), found)
    assert refined.codes == ["a", "c"]
    np.testing.assert_array_equal(refined.confidence, found.confidence)  # the detector's
    np.testing.assert_array_equal(refined.xyxy, found.xyxy)
    sure = Detections(found.xyxy, [1, 1], [1.0, 1.0], NAMES)
    assert classifier.refine(photo_with_tiles(), sure).codes == ["b", "b"]


def test_refine_ignores_a_classifier_below_its_minimum(tmp_path):
    classifier = CropClassifier(write_colour_classifier(tmp_path / "c.onnx"), min_confidence=0.5)
    grey = Detections([[150, 70, 190, 95]], [2], [0.1], NAMES)  # grey table: 1/3 each
    assert classifier.refine(photo_with_tiles(), grey).codes == ["c"]


def test_all_crops_of_a_photo_go_through_one_onnx_call(tmp_path):
    classifier = CropClassifier(write_colour_classifier(tmp_path / "c.onnx"))
    calls = []
    run = classifier.session.run
    classifier.session = type("Counting", (), {"run": lambda self, *a: calls.append(
        a[1][classifier.input_name].shape) or run(*a)})()
    found = Detections([[10, 20, 40, 60]] * 5, [0] * 5, [0.2] * 5, NAMES)
    classifier.refine(photo_with_tiles(), found)
    assert calls == [(5, 3, 8, 8)]
    assert classifier.refine(photo_with_tiles(), Detections.empty(NAMES)).codes == []


def test_refine_refuses_other_class_names(tmp_path):
    classifier = CropClassifier(write_colour_classifier(tmp_path / "c.onnx"))
    with pytest.raises(ValueError, match="class names"):
        classifier.refine(photo_with_tiles(), Detections([[0, 0, 5, 5]], [0], [0.5], ["x"]))


@pytest.mark.parametrize("refiner_kind, min_short_side", [("none", 64), ("classifier", 1200)])
def test_photo_is_decoded_as_small_as_the_refiner_allows(tmp_path, refiner_kind, min_short_side):
    detector = write_stub_model(tmp_path / "stub.onnx",
                                np.array([[[16, 24, 32, 40, 0.9, 1]]], np.float32),
                                imgsz=(64, 64), names=NAMES)
    refiner = (CropClassifier(write_colour_classifier(tmp_path / "c.onnx"))
               if refiner_kind == "classifier" else PassThrough())
    photo = tmp_path / "big.jpg"
    Image.new("RGB", (4000, 3000), (200, 30, 30)).save(photo, quality=80)
    reading = TileReader(detector, refiner=refiner).read(photo)
    short = min(reading.photo.rgb.shape[:2])
    assert min_short_side <= short < 3000  # reduced, never below what the stage needs
    assert (reading.photo.width, reading.photo.height) == (4000, 3000)
    assert reading.detections.codes == (["a"] if refiner_kind == "classifier" else ["b"])


def test_a_tile_finder_is_read_by_the_classifier_in_reader_mode(tmp_path):
    """A one-class detector ("tile") finds; the classifier names the classes."""
    # raw layout (1, 4 + 1, N) in a 64x64 input: two tiles at the red and the blue patches
    raw = np.zeros((1, 5, 2), np.float32)
    # scale 0.32, 16 rows of padding on top: image (10..40, 20..60) and (100..130, 20..60)
    raw[0, :, 0] = [8.0, 28.8, 9.6, 12.8, 0.9]
    raw[0, :, 1] = [36.8, 28.8, 9.6, 12.8, 0.6]
    model = write_stub_model(tmp_path / "finder.onnx", raw, names=["tile"])
    photo = tmp_path / "two.png"
    Image.fromarray(photo_with_tiles()).save(photo)
    classifier = CropClassifier(write_colour_classifier(tmp_path / "cls.onnx", margin=0.0),
                                mode="reader")
    reader = TileReader(model, refiner=classifier)
    found = reader.read(photo).detections
    assert reader.names == tuple(NAMES) and found.names == tuple(NAMES)
    order = np.argsort(found.xyxy[:, 0])
    np.testing.assert_allclose(found.xyxy[order], [[10, 20, 40, 60], [100, 20, 130, 60]], atol=0.5)
    assert [found.codes[i] for i in order] == ["a", "c"]
    assert found.confidence.max() <= 0.9 + 1e-6  # tile score x class probability
    assert found.tile_score is not None and np.all(found.confidence <= found.tile_score + 1e-6)
    # the reader's runners-up ride along, likeliest first, on the confidence's scale
    assert found.alt_class_id.shape == (2, 2) and found.alt_confidence.shape == (2, 2)
    for i in range(2):
        assert found.class_id[i] not in found.alt_class_id[i]
        assert found.confidence[i] >= found.alt_confidence[i, 0] >= found.alt_confidence[i, 1]


@pytest.mark.parametrize("refiner", ["none", "override"])
def test_a_tile_finder_without_a_reader_is_refused_with_the_reason(tmp_path, refiner):
    model = write_stub_model(tmp_path / "finder.onnx", np.zeros((1, 5, 1), np.float32),
                             names=["tile"])
    chosen = (PassThrough() if refiner == "none" else
              CropClassifier(write_colour_classifier(tmp_path / "cls.onnx"), mode="override"))
    with pytest.raises(ValueError, match="only finds tiles"):
        TileReader(model, refiner=chosen)


def write_top_half_classifier(path, size: int = 8):
    """probabilities = softmax(20 * mean RGB of the crop's top half): turning the crop matters."""
    bounds = [numpy_helper.from_array(np.array([v], np.int64), name=n)
              for n, v in (("starts", 0), ("ends", size // 2), ("axes", 2))]
    reduce = [helper.make_node("Slice", ["images", "starts", "ends", "axes"], ["top"]),
              helper.make_node("ReduceMean", ["top"], ["mean"], axes=[2, 3], keepdims=0)]
    return _save_classifier(path, reduce, bounds, size, margin=0.0)


def test_upside_down_reading_averages_the_crop_and_the_crop_turned_over(tmp_path):
    rgb = np.zeros((40, 40, 3), np.uint8)
    rgb[:20, :, 0] = 255   # red top
    rgb[20:, :, 2] = 255   # blue bottom
    found = Detections([[0, 0, 40, 40]], [0], [0.9], NAMES)
    path = write_top_half_classifier(tmp_path / "top.onnx")
    plain = CropClassifier(path, mode="reader").probabilities(rgb, found)[0]
    both = CropClassifier(path, mode="reader", upside_down=True).probabilities(rgb, found)[0]
    assert plain[0] > 0.99                         # reads the red top only
    assert both[0] == pytest.approx(both[2], abs=1e-5) and both[0] > 0.45  # red and blue alike


@pytest.mark.parametrize("turn_below,turned", [
    (0.0, True),    # 0: every tile is read both ways up
    (0.5, False),   # read sure as cut (> 0.99): the turned crop is not read
    (1.5, True),    # above any probability: every tile read turned too
])
def test_a_tile_is_read_turned_only_when_the_crop_as_cut_leaves_it_unsure(tmp_path, turn_below,
                                                                           turned):
    rgb = np.zeros((40, 80, 3), np.uint8)
    rgb[:20, :40, 0] = 255   # tile 1: red top, blue bottom
    rgb[20:, :40, 2] = 255
    rgb[:, 40:, 0] = 255     # tile 2: red all over, the same read either way
    found = Detections([[0, 0, 40, 40], [40, 0, 80, 40]], [0, 0], [0.9, 0.9], NAMES)
    path = write_top_half_classifier(tmp_path / "top.onnx")
    plain = CropClassifier(path, mode="reader").probabilities(rgb, found)
    both = CropClassifier(path, mode="reader", upside_down=True).probabilities(rgb, found)
    read = CropClassifier(path, mode="reader", upside_down=True,
                          turn_below=turn_below).probabilities(rgb, found)
    np.testing.assert_allclose(read, both if turned else plain, atol=1e-5)


def test_reading_with_more_margins_averages_the_wider_and_tighter_crops(tmp_path):
    rgb = np.zeros((40, 40, 3), np.uint8)
    rgb[:, :, 2] = 255              # a blue table
    rgb[10:30, 10:30] = (255, 0, 0)  # around a red tile
    found = Detections([[10, 10, 30, 30]], [0], [0.9], NAMES)
    path = write_colour_classifier(tmp_path / "cls.onnx", margin=0.0)
    tight = CropClassifier(path, mode="reader").probabilities(rgb, found)[0]
    wide = CropClassifier(path, mode="reader", margins=(0.5,)).probabilities(rgb, found)[0]
    both = CropClassifier(path, mode="reader", margins=(0.5,), upside_down=True)
    assert tight[0] > 0.99 and wide[2] > tight[2] and wide[0] < tight[0]
    np.testing.assert_allclose(both.probabilities(rgb, found)[0], wide, atol=1e-5)  # symmetric
    assert wide.sum() == pytest.approx(1.0, abs=1e-5)
    # an unsure tile read turned and wider too, in a second call, as when read all at once
    unsure = CropClassifier(path, mode="reader", margins=(0.5,), upside_down=True, turn_below=1.5)
    np.testing.assert_allclose(unsure.probabilities(rgb, found)[0], wide, atol=1e-5)


@pytest.mark.parametrize("views,upside_down,margins", [
    (None, True, EXTRA_MARGINS),  # no word in the metadata: the six views of TileNet
    (6, True, EXTRA_MARGINS),
    (2, True, ()),
    (1, False, ()),
])
def test_the_app_reads_each_crop_as_many_ways_as_the_model_says(tmp_path, views, upside_down,
                                                                 margins):
    path = write_colour_classifier(tmp_path / "cls.onnx", views=views)
    refiner = default_refiner(path)
    assert (refiner.upside_down, refiner.extra_margins) == (upside_down, margins)


def test_a_number_of_views_without_a_meaning_is_refused(tmp_path):
    reader = CropClassifier(write_colour_classifier(tmp_path / "cls.onnx"), mode="reader")
    with pytest.raises(ValueError, match="views must be one of"):
        reader.set_views(3)


def test_the_reader_reads_the_shown_tiles_as_one_set(tmp_path):
    """Two tiles read as the one plum flower of a set: the less sure becomes its runner-up
    (orchid); a box below the threshold neither moves nor pushes."""
    rgb = np.zeros((40, 120, 3), np.uint8)
    rgb[:, 0:40] = (255, 0, 0)       # surely red: plum
    rgb[:, 40:80] = (200, 120, 0)    # red, a little green: plum, else orchid
    rgb[:, 80:120] = (255, 0, 0)     # red again, but a doubtful box
    found = Detections([[0, 0, 40, 40], [40, 0, 80, 40], [80, 0, 120, 40]], [0, 0, 0],
                       [0.9, 0.9, 0.3], ["tile"])
    path = write_colour_classifier(tmp_path / "cls.onnx", names=["1f", "2f", "back"], margin=0.0)
    alone = CropClassifier(path, mode="reader").refine(rgb, found)
    assert alone.codes == ["1f", "1f", "1f"]
    together = CropClassifier(path, mode="reader", one_set=0.5).refine(rgb, found)
    assert together.codes == ["1f", "2f", "1f"]
    assert together.confidence[1] < alone.confidence[1]  # the moved tile shows as doubtful
    assert together.alt_class_id[1, 0] == 0  # ... and its own best reading is the first guess


@pytest.mark.parametrize("score", [0.0, 0.3, 0.9])
def test_a_finder_and_reader_read_a_photo_with_no_tile_a_doubtful_one_or_a_sure_one(tmp_path,
                                                                                     score):
    """Only a tile from the operating confidence is shown, and nothing fails on the way."""
    raw = np.zeros((1, 5, 1), np.float32)
    raw[0, :, 0] = [8.0, 28.8, 9.6, 12.8, score]
    model = write_stub_model(tmp_path / "finder.onnx", raw, names=["tile"])
    photo = tmp_path / "one.png"
    Image.fromarray(photo_with_tiles()).save(photo)
    classifier = CropClassifier(write_colour_classifier(tmp_path / "cls.onnx", margin=0.0,
                                                        names=["5p", "6p", "back"]),
                                mode="reader")
    # one look: the stub finds its box wherever it looks, so a second look would add one
    found = TileReader(model, refiner=classifier, conf=0.5, zoom=False).read(photo).detections
    assert len(found) == (score >= 0.5)


def test_tiles_that_may_be_flowers_are_read_again_from_shifted_boxes(tmp_path):
    """A red tile with green to its right reads a little greener from the box shifted right;
    its reading is the mean of the five places. A blue tile (back) is not read again."""
    rgb = np.zeros((40, 160, 3), np.uint8)
    rgb[:, 0:40] = (255, 0, 0)
    rgb[:, 40:80] = (0, 255, 0)
    rgb[:, 120:160] = (0, 0, 255)
    found = Detections([[0, 0, 40, 40], [120, 0, 160, 40]], [0, 0], [0.9, 0.9], ["tile"])
    path = write_colour_classifier(tmp_path / "cls.onnx", names=["1f", "2f", "back"], margin=0.0)
    plain = CropClassifier(path, mode="reader")
    again = CropClassifier(path, mode="reader", bonus_shift=0.25)
    first = plain.probabilities(rgb, found)
    read = again.reread_bonus(rgb, found.xyxy, first)
    places = [[0, 0, 40, 40], [-10, 0, 30, 40], [10, 0, 50, 40], [0, -10, 40, 30], [0, 10, 40, 50]]
    want = np.mean([plain.probabilities(rgb, Detections([b], [0], [0.9], ["tile"]))[0]
                    for b in places], axis=0)
    np.testing.assert_allclose(read[0], want, atol=1e-5)
    assert read[0, 1] > first[0, 1]                       # greener than the first reading
    np.testing.assert_array_equal(read[1], first[1])      # the back tile is left alone
    assert again.refine(rgb, found).codes == plain.refine(rgb, found).codes == ["1f", "back"]
