"""The rule that chooses how a set is blended (datasets.eval.tileset.choose)."""
from __future__ import annotations

import pytest

from datasets.eval.tileset import choose


def row(weight, mean_f1, mean_bonus, qualifies=True):
    return {"blend": {"weight": weight, "temperature": 0.05, "threshold": 0.6},
            "qualifies": qualifies, "mean_f1": mean_f1, "mean_bonus": mean_bonus}


@pytest.mark.parametrize("rows, weight", [
    ([row(0.5, 0.80, 0.5), row(0.8, 0.82, 0.5)], 0.8),                   # best mean F1
    ([row(0.5, 0.80, 0.5), row(0.8, 0.83, 0.5, qualifies=False)], 0.5),  # never worse first
    ([row(0.8, 0.820, 0.5), row(1.0, 0.819, 0.7)], 1.0),                 # within TIE: bonus
    ([row(1.0, 0.820, 0.5), row(0.5, 0.8195, 0.5)], 0.5),                # then smaller weight
    ([row(0.5, 0.9, 0.9, qualifies=False)], None),                       # none qualifies
])
def test_the_rule_picks_the_best_blend_that_is_never_worse(rows, weight):
    chosen = choose(rows)
    assert (chosen and chosen["weight"]) == weight


def test_a_hand_needs_a_fix_per_misread_missed_or_stray_tile():
    import numpy as np

    from datasets.eval.tileset_night import hand_fixes
    from vision.types import Detections

    tile = lambda code, x, group="concealed": {  # noqa: E731
        "label": code, "group": group, "box": [x, 0.0, x + 10.0, 14.0]}
    truth = {"tiles": [tile("1m", 0), tile("2m", 12), tile("3m", 24), tile("4m", 36),
                       tile("9p", 100, "distractor")]}
    scene = type("Scene", (), {"truth": truth})
    names = ("1m", "2m", "3m", "4m", "9p")
    found = Detections(np.array([[0, 0, 10, 14], [12, 0, 22, 14], [24, 0, 34, 14],
                                 [48, 0, 58, 14], [100, 0, 110, 14]], np.float32),
                       np.array([0, 2, 2, 0, 1]), np.full(5, 0.9, np.float32), names,
                       tile_score=np.full(5, 0.9, np.float32))
    fixes, misread, taught = hand_fixes(scene, found, 0.5)
    # 2m read as 3m (misread), 4m not found, a box at x=48 on no tile; the distractor's
    # misreading does not count
    assert (fixes, misread) == (3, 1)
    assert taught == [(0, "1m"), (1, "2m"), (2, "3m")]


def test_a_sheet_photo_lays_every_face_of_the_design_in_rows():
    from datasets.art.atlas import list_designs

    if "proc_s000" not in list_designs():
        pytest.skip("the art cache is not built (datasets/art/install_art.sh)")
    from datasets.eval.sheet_photo import make_sheet

    img, truth = make_sheet(1, "proc_s000", long_side=640)
    assert len(truth["codes"]) == len(truth["boxes"]) == 42
    boxes = truth["boxes"]
    assert all(0 <= b[0] < b[2] <= img.shape[1] and 0 <= b[1] < b[3] <= img.shape[0]
               for b in boxes)
    assert boxes[0][1] < boxes[9][1] < boxes[18][1] < boxes[27][1] < boxes[34][1]


@pytest.mark.parametrize("side, folder", [(1280, "scenes_kmj_default_7_3_fd"),
                                          (2000, "scenes_kmj_default_7_3_fd_2000px")])
def test_scenes_are_drawn_at_their_size_with_face_down_tiles_labelled(
        tmp_path, monkeypatch, side, folder):
    from datasets.eval import tileset_scenes
    from datasets.synth import generate as generator

    drawn = []
    monkeypatch.setattr(generator, "generate",
                        lambda out, count, seed, **kw: drawn.append(
                            (out.name, kw["size"], kw["label_face_down"])))
    assert tileset_scenes.scenes_of("kmj_default", 3, 7, tmp_path, side).name == folder
    assert drawn == [(folder, side, True)]


@pytest.mark.parametrize("weight", [0.0, 0.5])
def test_finishing_a_reading_leaves_the_evidence_as_it_was(weight):
    """Every candidate blend starts from the same reading: re-weighing bonus tiles by their
    glyphs must not write into the evidence (it did when the blend handed it back)."""
    import types

    import numpy as np

    from datasets.classes import class_names
    from datasets.eval.tileset import Parts, finish
    from vision.tileset.reader import Blend
    from vision.types import Detections

    names = tuple(class_names())
    raw = np.full((2, len(names)), 0.01, np.float32)
    raw[:, names.index("1f")] = 0.6
    raw /= raw.sum(axis=1, keepdims=True)
    glyphs = np.tile(np.eye(8)[1], (2, 1)).astype(np.float32)  # the print says 2f
    parts = Parts(raw.copy(), np.zeros((2, 4), np.float32), glyphs)
    found = Detections(np.array([[0, 0, 10, 14], [20, 0, 30, 14]], np.float32),
                       np.zeros(2, np.int64), np.ones(2, np.float32), ("tile",))
    scene = types.SimpleNamespace(found=found, scale=(1.0, 1.0))
    refiner = types.SimpleNamespace(bank=None, names=names, one_set=0.5)
    first = finish(scene, parts, refiner, Blend(weight))
    np.testing.assert_array_equal(parts.raw, raw)
    np.testing.assert_array_equal(finish(scene, parts, refiner, Blend(weight)).class_id,
                                  first.class_id)


def test_a_candidate_qualifies_only_never_below_untaught_and_with_no_more_fixes():
    from types import SimpleNamespace

    from datasets.eval.tileset import DEV_DESIGNS, pick_correction, rule_rows

    untaught = {d: 0.8 for d in DEV_DESIGNS}
    f1s = {"a": {d: 0.81 for d in DEV_DESIGNS},                       # better, fewer fixes
           "b": {**{d: 0.9 for d in DEV_DESIGNS}, DEV_DESIGNS[0]: 0.79},  # one design lower
           "c": {d: 0.85 for d in DEV_DESIGNS}}                       # more fixes
    nights = {"n": {"hands_5_on_without": 2.0, "hands_5_on_a": 1.0, "hands_5_on_b": 0.5,
                    "hands_5_on_c": 2.5}}
    hows = {k: SimpleNamespace(weight=0.5, correction_level=0.9) for k in f1s}
    fields = lambda how: {"weight": how.weight, "correction_level": how.correction_level}
    rows = rule_rows(hows, f1s, untaught, nights, fields)
    assert [r["qualifies"] for r in rows] == [True, False, False]
    assert pick_correction(rows) == "a"


def floor_nights(fixes: dict) -> dict:
    """One development night's summary with these fixes per floor (untaught: 3.0)."""
    return {"n": {"hands_5_on_without": 3.0,
                  **{f"hands_5_on_floor_{f}": v for f, v in fixes.items()}}}


@pytest.mark.parametrize("right, fixes, chosen", [
    ((0.86, 0.86, 0.86, 0.86), (2.5, 2.5, 2.5, 2.5), 0.05),     # costs nothing: the largest
    ((0.86, 0.86, 0.859, 0.857), (2.5, 2.5, 2.5, 2.5), 0.01),   # 0.05: 0.003 under floor 0
    ((0.86, 0.86, 0.86, 0.86), (2.5, 2.5, 2.7, 2.5), 0.05),     # 0.01's 0.2 more fixes alone
    ((0.86, 0.86, 0.86, 0.86), (2.5, 2.5, 2.55, 2.7), 0.01),    # 0.05 over the 0.1, 0.01 not
    ((0.86, 0.85, 0.85, 0.85), (2.5, 2.5, 2.5, 2.5), 0.0),      # none but 0: off
])
def test_the_floor_rule_takes_the_largest_floor_that_costs_nothing(right, fixes, chosen):
    from datasets.eval.tileset_floor import FLOORS, floor_blends, pick

    hows = floor_blends()
    mean = {"right": {f"floor_{f}": v for f, v in zip(FLOORS, right)}}
    nights = floor_nights(dict(zip(FLOORS, fixes)))
    assert hows[pick(hows, mean, nights)].floor == chosen


@pytest.mark.parametrize("shifted", [False, True])
def test_a_sheet_set_is_labelled_right_or_its_first_row_one_code_along(shifted):
    import numpy as np

    from datasets.art.atlas import list_designs
    from vision.tileset.reader import TileViews

    if "proc_s000" not in list_designs():
        pytest.skip("the art cache is not built (datasets/art/install_art.sh)")
    from datasets.eval.tileset_floor import sheet_set

    class Reader:  # what sheet_set asks of the crop reader
        def features(self, rgb, boxes):
            views = np.zeros((len(boxes), 3, 4), np.float32)
            return TileViews(views[:, 0], views[:, 0], views, views)

        def probe(self):
            return np.zeros(4, np.float32)

    tileset = sheet_set("proc_s000", Reader(), shifted)
    row = "2m 3m 4m 5m 6m 7m 8m 9m 1m" if shifted else "1m 2m 3m 4m 5m 6m 7m 8m 9m"
    assert tileset.codes[:9] == tuple(row.split()) and tileset.codes[9:12] == ("1p", "2p", "3p")
    assert tileset.reads == tileset.codes  # sheet tiles are examples, not fixes
