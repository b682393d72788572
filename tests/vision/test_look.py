"""vision.recognition.look: the second look at a row's holes and half boxes, and the hand the
layout reads from it. The finder and the reader are stand-ins that see the table as laid: the
finder finds a box where a tile lies (or, to test the places alone, everywhere it is asked),
the reader names the tile laid there."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from layout_scenes import detections

from app import edit
from app.recognise import LOW_CONFIDENCE
from vision.boxes import box_iou
from vision.layout import read_layout
from vision.layout.table import LOOKED_CONFIDENCE, hand_tiles
from vision.recognition.look import places, look_again
from vision.types import Detections

# the "photo": each pixel holds its own x and y, so that the stand-in finder knows where the
# crop it is shown lies
RGB = np.stack(np.meshgrid(np.arange(3000, dtype=np.int16), np.arange(3000, dtype=np.int16)), axis=2)


class Table:
    """What lies on the table (`laid`: every tile's box and code), as a finder and a reader
    see it. The finder `finds` the tiles "laid", "nothing", or a tile "everywhere" it looks."""

    def __init__(self, laid: Detections, finds: str = "laid"):
        self.laid, self.finds, self.names = laid, finds, laid.names

    def detect(self, crop, conf, iou, agnostic, tile_score):
        x0, y0 = (float(v) for v in crop[0, 0])
        if self.finds == "nothing":
            return Detections.empty(self.names)
        if self.finds == "everywhere":
            ys, xs = np.mgrid[0:crop.shape[0]:10, 0:crop.shape[1]:10]
            boxes = np.stack([xs.ravel(), ys.ravel(), xs.ravel() + 30, ys.ravel() + 40], 1)
            return Detections(boxes.astype(np.float32), np.zeros(len(boxes), np.int64),
                              np.full(len(boxes), 0.9, np.float32), self.names)
        return replace(self.laid, xyxy=self.laid.xyxy - np.array([x0, y0, x0, y0], np.float32))

    def refine(self, rgb, found: Detections) -> Detections:
        near = box_iou(found.xyxy, self.laid.xyxy)
        ids = np.where(near.max(axis=1) > 0.3, self.laid.class_id[near.argmax(axis=1)],
                       self.names.index("5z"))
        return Detections(found.xyxy, ids, found.confidence * 0.9, self.names,
                          tile_score=found.confidence)


def read(laid: Detections, found: Detections, weak: Detections | None = None,
         finds: str = "laid"):
    """The tiles after the second look at `found` (read), and the layout read from them."""
    table = Table(laid, finds)
    weak = weak if weak is not None else Detections.empty(laid.names)
    seen = look_again(RGB, table.refine(RGB, found), weak, 0.5, table, table)
    return seen, read_layout(seen)


def without(dets: Detections, *index: int) -> Detections:
    return dets.select(np.setdiff1d(np.arange(len(dets)), index))


def halved(dets: Detections, i: int) -> Detections:
    xyxy = np.array(dets.xyxy)
    xyxy[i, 3] = (xyxy[i, 1] + xyxy[i, 3]) / 2
    return replace(dets, xyxy=xyxy)


ROW14 = ["1m2m3m4m5m6m7m8m9m1p1p1p2p2p"]  # 123m456m789m111p22p: complete


@pytest.mark.parametrize("rows,in_hand", [
    (["1m2m3m4m5m6m7m8m9m1p3p5p7p9p"], 14),         # one row of 14 that makes no hand
    (["1m2m3m4m5m6m7m8m9m1p3p5p 7p9p"], 14),         # and split by a gap: still all of it
    (["1m2m3m4m5m6m7m8m9m1p3p5p7p9p 2s3s"], 14),    # more than 14: the piece apart stays out
])
def test_an_incomplete_hand_is_shown_whole(rows, in_hand):
    layout = read_layout(detections(rows))
    assert layout.hand is None
    assert len(hand_tiles(layout)) == in_hand
    assert len(layout.ignored) == len(detections(rows)) - in_hand


@pytest.mark.parametrize("fault", ["removed", "halved", "removed and halved"])
def test_a_row_with_a_tile_lost_reads_as_the_complete_hand(fault):
    laid = detections(ROW14)
    found = {"removed": without(laid, 5), "halved": halved(laid, 8),
             "removed and halved": halved(without(laid, 3), 9)}[fault]
    if "removed" in fault:
        assert read_layout(found).hand is None  # as the finder left it
    seen, layout = read(laid, found)
    assert layout.notation is not None and sorted(layout.hand.closed) == sorted(laid.codes)
    looked = [t for t in hand_tiles(layout) if t.looked_again]
    assert looked and all(t.confidence <= LOOKED_CONFIDENCE for t in looked)
    assert edit.doubtful(edit.from_layout(layout), LOW_CONFIDENCE) >= len(looked)  # framed
    assert all(box_iou(t.box, laid.xyxy).max() > 0.99 for t in looked)  # whole tiles
    assert layout.to_dict()["concealed"][0].keys() >= {"looked_again"}
    assert f"{len(looked)} tiles found by looking again at a gap in a row: check them first" in layout.notes


def test_a_weak_box_is_enough_to_look():
    laid = detections(ROW14)
    weak = laid.select(np.array([5]))
    weak = replace(weak, confidence=np.array([0.2], np.float32))
    seen, layout = read(laid, without(laid, 5), weak, finds="nothing")
    assert layout.hand is not None and int(seen.looked.sum()) == 1


@pytest.mark.parametrize("rows", [
    ["_ 1m2m3m4m5m6m7m8m9m1p1p1p2p _"],             # 13 tiles, bare table at both ends
    ["1m2m3m4m5m6m7m8m9m1p1p2p N"],                 # the winning tile set apart
    ["1m2m3m4m5m6m7m8m9m1p N N"],
])
def test_the_ends_of_a_row_and_a_tile_set_apart_gain_nothing(rows):
    laid = detections(rows)
    assert places(laid.xyxy, laid.codes) == []  # no hole: nothing is looked at between tiles
    seen, _ = read(laid, laid)  # one short: the ends are looked at, and the table is bare
    assert len(seen) == len(laid)


def test_the_ends_are_looked_at_only_when_the_hand_is_one_tile_short():
    laid = detections(ROW14)
    seen, layout = read(laid, without(laid, 13))
    assert layout.hand is not None and int(seen.looked.sum()) == 1
    complete = detections(["1m2m3m4m5m6m7m8m9m1p1p1p2p 2p"])  # the winning tile set apart
    assert read_layout(complete).hand is not None
    seen, _ = read(complete, complete, finds="everywhere")
    assert len(seen) == len(complete)


@pytest.mark.parametrize("lift", [0.5, 0.9, 1.5])
def test_a_kong_with_its_fourth_tile_on_top_gains_no_fifth(lift):
    """The fourth tile lies on the middle one, seen lifted out of its row by `lift` tile
    heights (the lower the camera, the more): the hole it leaves is not a place."""
    laid = detections(["1m2m3m4m5m6m7m8m9m1p9p9p9p1p N"])
    middle = 11
    top = np.array(laid.xyxy[middle])
    top[[1, 3]] -= lift * (top[3] - top[1])
    on_top = without(laid, middle).joined(replace(laid.select(np.array([middle])), xyxy=top[None]))
    seen, layout = read(on_top, on_top, finds="everywhere")
    assert len(seen) == len(on_top)


def test_a_blank_white_dragon_between_two_tiles_is_kept():
    laid = detections(["1m2m3m4m5m6m7m8m9m5z5z5zNN"])
    seen, layout = read(laid, without(laid, 10))
    assert layout.hand is not None and sum(t.code == "5z" for t in hand_tiles(layout)) == 3


def test_a_face_down_tile_in_a_hole_or_at_a_row_end_is_not_a_tile_of_the_row():
    laid = detections(["1m2m3m4m5m6m#7m8m9m1p1p1p2p2p #"])
    seen, _ = read(laid, without(laid, 6, 15))
    assert "back" not in seen.codes and len(seen) == len(laid) - 2


def test_the_wall_is_not_looked_at():
    laid = detections(["################"])
    assert places(without(laid, 5).xyxy, without(laid, 5).codes) == []
