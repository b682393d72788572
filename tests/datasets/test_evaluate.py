"""Metric code of datasets/eval/reader.py on hand-made cases."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.eval.metrics import (
    average_precision,
    f1,
    marks,
    match_tiles,
    mean_average_precision,
    score_tiles,
)
from datasets.eval.samples import Result, Sample, drop_unlabelled, without_class
from vision.boxes import box_iou

BOX_A = [0, 0, 10, 10]
BOX_B = [20, 0, 30, 10]
BOX_A_SHIFTED = [0, 0, 10, 12]  # IoU with A = 100/120 = 0.833
BOX_A_HALF = [5, 0, 15, 10]  # IoU with A = 50/150 = 0.333


def _sample(boxes, classes, partial=False):
    return Sample(Path("x.jpg"), np.array(boxes, float).reshape(-1, 4),
                  np.array(classes, np.int64), partial)


def _result(boxes, classes, confidences, error=None):
    return Result(np.array(boxes, float).reshape(-1, 4), np.array(classes, np.int64),
                  np.array(confidences, float), 0.1, error)


@pytest.mark.parametrize("a,b,iou", [(BOX_A, BOX_A, 1.0), (BOX_A, BOX_B, 0.0),
                                     (BOX_A, BOX_A_SHIFTED, 100 / 120),
                                     (BOX_A, BOX_A_HALF, 1 / 3), (BOX_A, [0, 0, 0, 0], 0.0)])
def test_box_iou(a, b, iou):
    assert box_iou([a], [b])[0, 0] == pytest.approx(iou)


def test_matching_is_one_to_one_by_confidence():
    pairs = match_tiles(np.array([BOX_A_SHIFTED, BOX_A]), np.array([0.5, 0.9]), np.array([BOX_A]))
    assert pairs == [(1, 0)]


TILE_CASES = [
    # (truth boxes, truth classes, detections, (tp, fp, fn), photos right, confusions,
    #  tiles found whatever their reading)
    ([BOX_A, BOX_B], [0, 1], ([BOX_A, BOX_B], [0, 1], [0.9, 0.8]), (2, 0, 0), 1, {}, 2),
    ([BOX_A, BOX_B], [0, 1], ([BOX_A, BOX_B], [0, 2], [0.9, 0.8]), (1, 1, 1), 0, {(1, 2): 1}, 2),
    ([BOX_A, BOX_B], [0, 1], ([BOX_A], [0], [0.9]), (1, 0, 1), 0, {}, 1),
    ([BOX_A], [0], ([BOX_A, BOX_A_SHIFTED], [0, 0], [0.9, 0.8]), (1, 1, 0), 0, {}, 1),
    ([BOX_A], [0], ([BOX_A_HALF], [0], [0.9]), (0, 1, 1), 0, {}, 0),  # IoU 0.33: a miss
    ([BOX_A], [0], ([BOX_A, BOX_B], [0, 1], [0.9, 0.1]), (1, 0, 0), 1, {}, 1),  # under conf
    ([BOX_A], [0], ([BOX_A], [0], [0.1]), (0, 0, 1), 0, {}, 0),  # found only under conf
]


@pytest.mark.parametrize("boxes,classes,found,counts,right,confusions,shown", TILE_CASES)
def test_per_tile_counts(boxes, classes, found, counts, right, confusions, shown):
    score = score_tiles([_sample(boxes, classes)], [_result(*found)], conf=0.25)
    assert (score.tp, score.fp, score.fn) == counts
    assert score.photos_right == right and dict(score.confusions) == confusions
    assert score.found == shown


def test_per_class_counts_charge_the_read_and_the_true_class():
    score = score_tiles([_sample([BOX_A], [3])], [_result([BOX_A], [5], [0.9])], conf=0.25)
    assert score.per_class == {3: [0, 0, 1], 5: [0, 1, 0]}


@pytest.mark.parametrize("counts,expected", [((8, 2, 0), (0.8, 1.0, 8 / 9)),
                                             ((0, 0, 0), (0.0, 0.0, 0.0)),
                                             ((1, 1, 1), (0.5, 0.5, 0.5))])
def test_f1(counts, expected):
    assert f1(*counts) == pytest.approx(expected)


AP_CASES = [
    ([1.0], [1.0], 1.0),                     # one hit, all found
    ([0.5, 1.0], [1.0, 1.0], 1.0),
    ([0.5], [1.0], 51 / 101),                # half the truth never found
    ([0.0, 0.5], [0.0, 0.5], 51 / 101 * 0.5),  # a false positive ranked first
]


@pytest.mark.parametrize("recall,precision,ap", AP_CASES)
def test_average_precision(recall, precision, ap):
    assert average_precision(np.array(recall), np.array(precision)) == pytest.approx(ap)


def test_map_perfect_and_localisation_dependent():
    samples = [_sample([BOX_A, BOX_B], [0, 1])]
    perfect = mean_average_precision(samples, [_result([BOX_A, BOX_B], [0, 1], [0.9, 0.8])], 3)
    assert perfect == {"mAP50": pytest.approx(1.0), "mAP50-95": pytest.approx(1.0)}
    # IoU 0.833 counts at thresholds 0.50..0.80 (7 of 10) for class 0; class 1 is perfect
    shifted = mean_average_precision(samples, [_result([BOX_A_SHIFTED, BOX_B], [0, 1],
                                                       [0.9, 0.8])], 3)
    assert shifted["mAP50"] == pytest.approx(1.0)
    assert shifted["mAP50-95"] == pytest.approx((0.7 + 1.0) / 2)
    wrong_class = mean_average_precision(samples, [_result([BOX_A, BOX_B], [1, 1], [0.9, 0.8])], 3)
    # class 0 never read: AP 0; class 1: a false positive ranked first, then a hit: AP 0.5
    assert wrong_class["mAP50"] == pytest.approx(0.25)


def test_partly_labelled_photos_ignore_detections_away_from_labels():
    sample = _sample([BOX_A], [0], partial=True)
    far = [100, 100, 110, 110]
    kept = drop_unlabelled(sample, _result([BOX_A, far], [0, 4], [0.9, 0.9]))
    assert kept.class_id.tolist() == [0]
    full = drop_unlabelled(_sample([BOX_A], [0]), _result([BOX_A, far], [0, 4], [0.9, 0.9]))
    assert len(full.class_id) == 2


def test_unreadable_photo_is_never_right():
    score = score_tiles([_sample([], [])], [_result([], [], [], error="bad")], conf=0.25)
    assert score.photos_right == 0


def test_the_operating_confidence_applies_to_the_tile_score_as_in_the_app():
    """A sure tile with an unsure class stays (doubtful); an unsure tile goes."""
    found = Result(np.array([BOX_A, BOX_B], float), np.array([0, 1]), np.array([0.15, 0.2]),
                   0.1, tile_score=np.array([0.9, 0.2]))
    score = score_tiles([_sample([BOX_A, BOX_B], [0, 1])], [found], conf=0.25)
    assert (score.tp, score.fp, score.fn) == (1, 0, 1)
    kept = drop_unlabelled(_sample([BOX_A], [0], partial=True), found)
    assert list(kept.tile_score) == [0.9]


def test_face_up_only_leaves_out_face_down_labels_and_readings():
    """A wall tile found and read `back` counts for nothing either way; a face-down tile read
    as a face is still a wrong tile."""
    back = 2
    sample = _sample([BOX_A, BOX_B, [40, 0, 50, 10]], [0, back, back])
    result = _result([BOX_A, BOX_B, [40, 0, 50, 10]], [0, back, 1], [0.9, 0.8, 0.7])
    (kept_sample,), (kept_result,) = without_class([sample], [result], back)
    assert kept_sample.class_id.tolist() == [0] and kept_result.class_id.tolist() == [0, 1]
    counts = score_tiles([kept_sample], [kept_result], 0.5)
    assert (counts.tp, counts.fp, counts.fn) == (1, 1, 0)


def test_top3_map_credits_a_right_runner_up_and_the_headline_does_not():
    """A box read as class 1 with class 0 second: the headline mAP50 misses class 0, the
    top-3 figure finds it at the runner-up's confidence; a photo's partial labels keep the
    runners-up of the boxes they keep."""
    sample = _sample([BOX_A], [0])
    read = Result(np.array([BOX_A], float), np.array([1]), np.array([0.6]), 0.1,
                  alt_class_id=np.array([[0, 2]]), alt_confidence=np.array([[0.3, 0.05]]))
    assert mean_average_precision([sample], [read], 3)["mAP50"] == 0.0
    expanded = read.with_runners_up()
    assert expanded.class_id.tolist() == [1, 0, 2]
    assert expanded.confidence.tolist() == pytest.approx([0.6, 0.3, 0.05])
    assert mean_average_precision([sample], [expanded], 3)["mAP50"] == pytest.approx(1.0)
    far = [100, 100, 110, 110]
    two = Result(np.array([BOX_A, far], float), np.array([1, 1]), np.array([0.6, 0.6]), 0.1,
                 alt_class_id=np.array([[0, 2], [2, 0]]),
                 alt_confidence=np.array([[0.3, 0.05], [0.2, 0.1]]))
    kept = drop_unlabelled(_sample([BOX_A], [0], partial=True), two)
    assert kept.alt_class_id.tolist() == [[0, 2]]
    assert _result([BOX_A], [0], [0.9]).with_runners_up().class_id.tolist() == [0]


# (scale, turns, expected photo size, expected box): a 200 x 100 photo, a tile at 20-60, 10-70
RESHOT = [
    (0.5, 0, (100, 50), [10, 5, 30, 35]),
    (1.0, 1, (100, 200), [10, 140, 70, 180]),   # a quarter turn: x -> y, y -> width - x
    (1.0, 2, (200, 100), [140, 30, 180, 90]),
    (0.5, 3, (50, 100), [15, 10, 45, 30]),
]


@pytest.mark.parametrize("scale, turns, size, box", RESHOT)
def test_reshot_photos_keep_their_tiles_in_place(tmp_path, scale, turns, size, box):
    from PIL import Image

    from datasets.eval.samples import reshot
    pixels = np.zeros((100, 200, 3), np.uint8)
    pixels[10:70, 20:60] = 255  # the tile, white on black
    Image.fromarray(pixels).save(tmp_path / "p.png")
    sample = Sample(tmp_path / "p.png", np.array([[20.0, 10.0, 60.0, 70.0]]), np.array([3]), True)
    (shot,) = reshot([sample], tmp_path, scale, turns)
    image = np.asarray(Image.open(shot.image).convert("L"))
    assert image.shape[::-1] == size and shot.image.suffix == ".jpg"
    assert shot.xyxy.tolist() == [box] and shot.class_id.tolist() == [3] and shot.partial
    x1, y1, x2, y2 = (int(v) for v in box)
    assert image[y1 + 2:y2 - 2, x1 + 2:x2 - 2].mean() > 200 and image.mean() < 80  # the tile moved with its box


@pytest.mark.parametrize("blur, noise, sharp, noisy", [
    (0.0, 0.0, True, False),    # as taken: the 170-level edge in one step, a flat background
    (0.04, 0.0, False, False),  # a Gaussian of 0.04 x the 40 px tile spreads the edge
    (0.08, 0.0, False, False),
    (0.0, 20.0, True, True),    # noise of 20 grey levels (JPEG smooths a little of it)
])
def test_reshot_photos_blur_and_noise_as_asked(tmp_path, blur, noise, sharp, noisy):
    from PIL import Image

    from datasets.eval.samples import reshot
    pixels = np.full((100, 200, 3), 60, np.uint8)
    pixels[10:70, 20:60] = 230  # the tile, 40 px across
    Image.fromarray(pixels).save(tmp_path / "p.png")
    sample = Sample(tmp_path / "p.png", np.array([[20.0, 10.0, 60.0, 70.0]]), np.array([3]), True)
    (shot,) = reshot([sample], tmp_path / "out", blur=blur, noise=noise)
    image = np.asarray(Image.open(shot.image).convert("L")).astype(np.float64)
    step = np.abs(np.diff(image[40, 10:70]))  # across the tile's left edge
    assert (step.max() > 150) == sharp and step.max() > 15
    assert (image[80:95, 100:190].std() > 10) == noisy
    assert shot.xyxy.tolist() == sample.xyxy.tolist()
    (again,) = reshot([sample], tmp_path / "again", blur=blur, noise=noise)
    assert np.array_equal(np.asarray(Image.open(again.image)), np.asarray(Image.open(shot.image)))


@pytest.mark.parametrize("per_class, bonus, playing", [
    ({"1f": 0.5, "2f": 1.0, "1m": 1.0, "7z": 0.8, "back": 0.2}, 0.75, 0.9),  # back in neither
    ({"1m": 1.0}, None, 1.0),                                               # no bonus tile
    ({}, None, None),
])
def test_class_groups_are_averaged_apart(per_class, bonus, playing):
    from datasets.eval.metrics import group_f1
    assert group_f1(per_class) == {"f1_flowers_seasons": bonus, "f1_suits_honours": playing}


MARK_CASES = [
    # (truth classes at A, B; detections (boxes, classes, confidences); {threshold: counts})
    # a right sure tile and a misread unsure one: the mark finds the misread
    ([0, 1], ([BOX_A, BOX_B], [0, 2], [0.9, 0.4]), {0.5: [1, 1, 0, 1], 0.95: [1, 1, 1, 1]}),
    # a misread read with confidence: no mark finds it
    ([0, 1], ([BOX_A, BOX_B], [0, 2], [0.9, 0.8]), {0.5: [0, 1, 0, 1]}),
    # a box on no labelled tile is wrong too; a tile not shown has no box to mark
    ([0], ([BOX_B], [0], [0.3]), {0.5: [1, 1, 0, 0]}),
    ([0, 1], ([BOX_A], [0], [0.45]), {0.5: [0, 0, 1, 1]}),
]


@pytest.mark.parametrize("classes,found,expected", MARK_CASES)
def test_marks_count_wrong_and_right_shown_tiles_under_each_threshold(classes, found, expected):
    boxes = [BOX_A, BOX_B][: len(classes)]
    result = _result(*found)
    result.tile_score = np.ones(len(result.xyxy))  # every box shown, as at a low operating point
    counts = marks([_sample(boxes, classes)], [result], 0.5, tuple(expected))
    assert counts == expected
