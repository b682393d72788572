"""Codes to a sheet's tiles by alignment (vision/tileset/align.py, teaching.py): a missed
tile leaves its code out instead of sliding the rest along, a box that is no tile is left
out, a code is taught only where the alignment is sure, and a photo is refused when it fits
two ways or none."""
from __future__ import annotations

import numpy as np
import pytest

from vision.tileset.align import COSTS, align, margins
from vision.rows import candidates, merge_halves
from vision.tileset.sheet import WAYS, Way, chain
from vision.tileset.store import TileSetError
from vision.tileset.placing import Observed, WayInDoubt, decide, doubt_of

NAMES = tuple(f"{n}m" for n in range(1, 10)) + ("5z", "back")


class Names:
    names = NAMES


def row_boxes(n, row=0, w=40.0, h=54.0, step=46.0, skip=(), x0=20.0):
    """Boxes of n tiles in a row, evenly spaced; the places in `skip` left empty."""
    return np.array([[x0 + c * step, 20 + row * h * 1.4, x0 + c * step + w, 20 + row * h * 1.4 + h]
                     for c in range(n) if c not in skip], np.float64)


def probs_for(codes, sure=0.9):
    """Reader probabilities that read each box as its code with `sure` (None: no idea)."""
    p = np.full((len(codes), len(NAMES)), 0.0)
    for i, c in enumerate(codes):
        if c is None:
            p[i] = 1.0 / len(NAMES)
        else:
            p[i] = (1 - sure) / (len(NAMES) - 1)
            p[i, NAMES.index(c)] = sure
    return p.astype(np.float32)


def photo_of(boxes, reads, tile=0.9, turned=None) -> Observed:
    """A teaching photo as observed: boxes, their tile probability, the reader's readings
    upright and turned (turned: each box read surely as some other tile)."""
    probs = probs_for(reads)
    wrong = [NAMES[(NAMES.index(c) + 3) % 9] if c else "5z" for c in reads]
    other = probs_for(wrong) if turned is None else probs_for(turned)
    tiles = np.full(len(boxes), tile) if np.isscalar(tile) else np.asarray(tile, float)
    return Observed(np.zeros((400, 600, 3), np.uint8), (1.0, 1.0), np.asarray(boxes, np.float32),
                  tiles, {False: (probs, other), True: (other, other)})


def taught(plan) -> list[tuple[int, str]]:
    """(box position in the chain, code) of the tiles taught unasked."""
    out = []
    for k, one in enumerate(plan.chains):
        matched = [e for e in plan.alignment.matches() if e.photo == k]
        out += [(e.box, plan.codes[e.codes[0]])
                for e, d in zip(matched, doubt_of(matched, one, COSTS)) if not d]
    return out


def gaps(plan) -> list[str]:
    return [plan.codes[j] for e in plan.alignment.events if e.kind == "missed" for j in e.codes]


ROW = [f"{n}m" for n in range(1, 10)]


@pytest.mark.parametrize("reads", [ROW, [None] * 9, ROW[:4] + ["9m"] + ROW[5:]])
def test_a_whole_row_is_taught_as_typed_whatever_the_reader_says(reads):
    """Read right, read as nothing, or one tile confidently misread (that is what teaching
    is for): every code on its own tile, sure."""
    plan = decide([photo_of(row_boxes(9), reads)], "123456789m", Names)
    assert taught(plan) == list(enumerate(ROW))


@pytest.mark.parametrize("missing", [0, 4, 8])
@pytest.mark.parametrize("reads_known", [True, False])
def test_a_tile_the_finder_missed_leaves_its_code_out_and_no_code_slides(missing, reads_known):
    boxes = row_boxes(9, skip=(missing,))
    left = [c for i, c in enumerate(ROW) if i != missing]
    plan = decide([photo_of(boxes, left if reads_known else [None] * 8)], "123456789m", Names)
    if reads_known or 0 < missing < 8:
        # inside the row the hole says where; at an end the reader must
        assert taught(plan) == list(enumerate(left)) and gaps(plan) == [ROW[missing]]
    else:
        # at an end with a reader that reads nothing: which end is a guess, so none is taught
        assert taught(plan) == []


def test_a_blank_white_dragon_missed_in_the_honours_row_leaves_a_gap():
    names = ("1z", "2z", "3z", "4z", "5z", "6z", "7z", "back")

    class Honours:
        pass

    Honours.names = names
    boxes = row_boxes(7, skip=(4,))
    probs = np.full((6, len(names)), 0.02, np.float32)
    for i, c in enumerate(["1z", "2z", "3z", "4z", "6z", "7z"]):
        probs[i, names.index(c)] = 0.5
    found = Observed(np.zeros((400, 600, 3), np.uint8), (1.0, 1.0), boxes.astype(np.float32),
                   np.full(6, 0.9), {False: (probs, probs[::-1]), True: (probs, probs)})
    plan = decide([found], "1234567z", Honours)
    assert [plan.codes[j] for e in plan.alignment.matches() for j in e.codes] == \
        ["1z", "2z", "3z", "4z", "6z", "7z"]
    assert gaps(plan) == ["5z"] and len(taught(plan)) == 6


def test_a_box_that_is_no_tile_is_left_out():
    boxes = np.vstack([row_boxes(9), [[470.0, 20.0, 510.0, 74.0]]])  # past the row's end
    plan = decide([photo_of(boxes, ROW + [None], tile=[0.9] * 9 + [0.6])], "123456789m", Names)
    assert taught(plan) == list(enumerate(ROW))
    assert [e.box for e in plan.alignment.events if e.kind == "extra"] == [9]


def test_a_low_scored_tile_in_a_hole_of_the_row_is_taken():
    plan = decide([photo_of(row_boxes(9), ROW, tile=[0.9] * 4 + [0.1] + [0.9] * 4)],
                  "123456789m", Names)
    assert taught(plan) == list(enumerate(ROW))


def test_two_half_boxes_of_one_tile_become_the_tile():
    boxes = row_boxes(3)
    halves = np.array([[boxes[1, 0], boxes[1, 1], boxes[1, 2], 47.0],
                       [boxes[1, 0], 47.0, boxes[1, 2], boxes[1, 3]]])
    merged, scores = merge_halves(np.vstack([boxes[[0, 2]], halves]),
                                  np.array([0.9, 0.9, 0.6, 0.5]), 40.0 * 54.0)
    assert len(merged) == 3 and scores.tolist() == [0.9, 0.9, 0.6]
    np.testing.assert_allclose(merged[-1], boxes[1])
    kept, _ = candidates(np.vstack([boxes[[0, 2]], halves]), np.array([0.9, 0.9, 0.6, 0.5]), 0.5)
    assert len(kept) == 3


def test_small_whole_tiles_of_a_far_row_are_not_taken_for_halves():
    """Seen from a low seat the far row's tiles are half the area of the near rows': side by
    side, two of them make a box twice a tile's width, not a tile."""
    near = np.vstack([row_boxes(9, row=1), row_boxes(9, row=2)])
    far = row_boxes(9, w=29.0, h=39.0, step=32.0, x0=60.0)
    kept, _ = candidates(np.vstack([far, near]), np.full(27, 0.8), 0.5)
    assert len(kept) == 27


def test_a_far_row_s_own_pitch_says_where_a_tile_is_missing():
    far = row_boxes(9, w=29.0, h=39.0, step=32.0, x0=60.0, skip=(4,))
    boxes = np.vstack([far, row_boxes(9, row=1)])
    plan = decide([photo_of(boxes, [None] * 17)], "123456789m 123456789m", Names)
    assert gaps(plan) == ["5m"]
    assert taught(plan)[:8] == list(enumerate(ROW[:4] + ROW[5:]))


def test_a_half_tile_matched_is_not_taught():
    boxes = row_boxes(9)
    boxes[3, 3] = boxes[3, 1] + 20  # only the top of the tile was found
    plan = decide([photo_of(boxes, ROW)], "123456789m", Names)
    assert (3, "4m") not in taught(plan) and len(taught(plan)) == 8


def test_no_code_crosses_a_typed_row_break():
    """The first row lost its last tile: with the rows typed, no code of the second row
    moves up into it."""
    boxes = np.vstack([row_boxes(8), row_boxes(9, row=1)])
    plan = decide([photo_of(boxes, [None] * 17)], "123456789m 123456789m", Names)
    codes = dict(taught(plan))
    assert all(codes[8 + i] == ROW[i] for i in range(9))  # the second row as typed
    assert gaps(plan) == ["9m"] or gaps(plan) == ["1m"]


def test_a_row_of_face_down_tiles_between_the_rows_is_no_row_of_the_sheet():
    boxes = np.vstack([row_boxes(9), row_boxes(9, row=1), row_boxes(9, row=2)])
    tile = [0.9] * 9 + [0.9 * 0.02] * 9 + [0.9] * 9  # read as face down
    plan = decide([photo_of(boxes, ROW + [None] * 9 + ROW, tile=tile)],
                  "123456789m 123456789m", Names)
    assert taught(plan) == list(enumerate(ROW)) + [(18 + i, c) for i, c in enumerate(ROW)]


def test_a_photo_that_does_not_fit_is_refused():
    with pytest.raises(TileSetError, match="the codes do not fit this photo either way round"):
        decide([photo_of(row_boxes(4), [None] * 4)], "123456789m 123456789m", Names)


def test_a_sheet_that_reads_as_well_both_ways_round_is_refused():
    """1m 2m 3m, read as surely turned and reversed as upright: which way is up is a guess."""
    found = photo_of(row_boxes(3), ["1m", "2m", "3m"], turned=["3m", "2m", "1m"])
    with pytest.raises(WayInDoubt) as err:
        decide([found], "123m", Names)
    assert err.value.photo == 0 and {w.across for w in err.value.ways} == {False, True}
    plan = decide([found], "123m", Names, ways={0: Way(across=True)})  # the page asked
    assert plan.ways == (Way(across=True),)


def test_one_code_repeated_is_no_guess_whichever_way_round():
    found = photo_of(row_boxes(4), ["5m"] * 4, turned=["5m"] * 4)
    plan = decide([found], "5555m", Names)
    assert len(taught(plan)) == 4


@pytest.mark.parametrize("typed", ["123456789m12345678m1234m", "123456789m 12345678m 1234m"])
def test_a_sheet_over_two_photos_takes_each_photo_s_share_from_the_alignment(typed):
    first = photo_of(row_boxes(9), ROW)
    second = photo_of(np.vstack([row_boxes(8, skip=(2,)), row_boxes(4, row=1)]),
                      ROW[:2] + ROW[3:8] + [None] * 4)
    plan = decide([first, second], typed, Names)
    shares = [sum(e.photo == k for e in plan.alignment.matches()) for k in (0, 1)]
    assert shares == [9, 11] and gaps(plan) == ["3m"]


def test_the_margin_of_a_tile_is_what_the_next_best_alignment_costs_more():
    found = photo_of(row_boxes(9), ROW)
    plan = decide([found], "123456789m", Names)
    one = plan.chains[0]
    assert all(e.margin >= COSTS.sure for e in plan.alignment.matches())
    ids = [NAMES.index(c) for c in ROW]
    best = align([one], ids)
    assert [e.margin for e in margins([one], ids, None, best).matches()] == \
        [e.margin for e in plan.alignment.matches()]


def test_a_photo_of_a_heap_of_tiles_is_refused_quickly():
    """300 boxes strewn about (the finder's most), CODES of 42: one line, quickly."""
    import time
    rng = np.random.default_rng(0)
    corner = rng.uniform(0, 2000, (300, 2))
    boxes = np.hstack([corner, corner + rng.uniform(40, 60, (300, 2))])
    start = time.perf_counter()
    with pytest.raises(TileSetError, match="do not fit"):
        decide([photo_of(boxes, [None] * 300)], "123456789m" * 4 + "12m", Names)
    assert time.perf_counter() - start < 15


@pytest.mark.parametrize("way", WAYS)
def test_a_chain_reads_the_rows_the_way_the_sheet_lies(way):
    boxes = np.vstack([row_boxes(3), row_boxes(2, row=1)])
    probs = np.arange(5, dtype=np.float32)[:, None].repeat(2, axis=1)
    one = chain(0, boxes, probs, np.ones(5), way)
    if way.quarter:
        assert sorted(one.rows) != [2, 3]  # rows across the photo run down it now
    else:
        assert one.rows == ((3, 2) if not way.across else (2, 3))
        assert one.index.tolist() == ([0, 1, 2, 3, 4] if not way.across else [4, 3, 2, 1, 0])


# --- what a save stores -------------------------------------------------------------------

def sheet_of(codes, reads, doubts=None):
    from vision.tileset.teaching import Sheet, SheetTile

    doubts = doubts or [""] * len(codes)
    tiles = tuple(SheetTile(0, (0.0, 0.0, 1.0, 1.0), c, r, doubt=d)
                  for c, r, d in zip(codes, reads, doubts))
    feats = np.eye(len(codes), 8, dtype=np.float32)[:, None, :].repeat(3, axis=1)
    return Sheet(tiles, ((len(codes),),), feats, feats, np.ones(8, np.float32), 0.0)


def test_sheet_tiles_are_examples_and_only_confirmed_ones_are_fixes(tmp_path):
    from vision.tileset.store import load_set
    from vision.tileset.teaching import save_sheet

    sheet = sheet_of(["8m", "2m", "3m"], ["9m", "2m", "4m"], ["", "", "unsure"])
    saved = save_sheet(sheet, "club", tmp_path)
    assert saved.codes == ("8m", "2m") and saved.corrected() == {}  # read 9m: not a fix
    saved = save_sheet(sheet.with_codes(["8m", "2m", "3m"], confirmed=[0, 2]), "club", tmp_path)
    loaded = load_set("club", tmp_path)
    assert loaded.corrected() == {"9m>8m": 1, "4m>3m": 1}  # the player chose these
    assert sorted(loaded.codes) == ["2m", "2m", "3m", "8m", "8m"]


def test_nothing_sure_is_nothing_taught(tmp_path):
    from vision.tileset.teaching import save_sheet

    with pytest.raises(TileSetError, match="nothing was taught"):
        save_sheet(sheet_of(["1m"], ["1m"], ["unsure"]), "club", tmp_path)
    assert not (tmp_path / "tilesets").exists()


def test_an_old_set_with_fixes_made_from_sheet_tiles_loads_without_them(tmp_path):
    from vision.tileset.store import TileSet, load_set, save_set

    feats = np.eye(3, 8, dtype=np.float32)[:, None, :]
    old = TileSet("club", np.ones(8, np.float32)).add(["8m", "2m"], feats[:2], feats[:2],
                                                       "sheet", reads=["9m", "1m"])
    old = old.add(["8m"], feats[2:], feats[2:], "hand:4", reads=["9m"])
    save_set(old, tmp_path)
    assert old.corrected() == {"9m>8m": 2, "1m>2m": 1}
    assert load_set("club", tmp_path).corrected() == {"9m>8m": 1}  # the hand's fix stays


def test_extra_boxes_the_player_names_are_taught_as_confirmed():
    from vision.tileset.teaching import Extra

    sheet = sheet_of(["1m", "2m"], ["1m", "2m"])
    from dataclasses import replace
    extra_feats = np.ones((2, 3, 8), np.float32)
    sheet = replace(sheet, extras=(Extra(0, 0, (5.0, 0.0, 6.0, 1.0), "2m", "", "5z"),
                                   Extra(0, 0, (7.0, 0.0, 8.0, 1.0), "", "", "9m")),
                    extra_features=extra_feats, extra_turned=extra_feats)
    named = sheet.with_extras({1: "3m"})
    assert named.codes == ["1m", "2m", "3m"] and named.taught == [0, 1, 2]
    assert named.tiles[2].confirmed and len(named.extras) == 1 and len(named.features) == 3
    assert sheet.with_extras({0: ""}) is sheet  # "not a tile" changes nothing


@pytest.mark.parametrize("corrected, fixes", [(None, {}), ([True, False], {"9m>8m": 1})])
def test_a_hand_teaches_fixes_only_for_the_tiles_the_player_changed(tmp_path, corrected, fixes):
    from vision.tileset.learn import learn_hand
    from vision.tileset.reader import TileViews
    from vision.tileset.store import load_set

    class Reader:
        names = NAMES

        def features(self, rgb, boxes):
            probs = probs_for(["9m", "3m"])  # the reader read 9m and 3m
            feats = np.ones((2, 3, 8), np.float32)
            return TileViews(probs, probs, feats, feats)

        def probe(self):
            return np.ones(8, np.float32)

    boxes = row_boxes(2)
    # 8m the player's fix; 2m where the layout, not the player, changed the reading
    assert learn_hand("club", np.zeros((100, 200, 3), np.uint8), boxes, ["8m", "2m"], 1,
                      tmp_path, refiner=Reader(), corrected=corrected) == 2
    assert load_set("club", tmp_path).corrected() == fixes


def test_a_copy_unlike_its_copy_in_another_photo_is_not_taught():
    from dataclasses import replace

    from vision.tileset.teaching import SheetTile, _far_copies

    sheet = sheet_of(["1m", "2m", "1m", "2m"], ["1m", "2m", "1m", "2m"])
    tiles = tuple(replace(t, photo=i // 2) for i, t in enumerate(sheet.tiles))
    feats = np.zeros((4, 3, 8), np.float32)
    feats[[0, 2], :, 0] = 1.0               # the two 1m alike
    feats[1, :, 1], feats[3, :, 2] = 1.0, 1.0  # the two 2m unlike each other
    checked = _far_copies(replace(sheet, tiles=tiles, features=feats, turned=feats))
    assert [t.doubt for t in checked.tiles] == ["", "far", "", "far"]
    assert isinstance(checked.tiles[0], SheetTile)


@pytest.mark.slow
def test_a_sheet_whose_white_dragon_the_finder_misses_teaches_the_rest_right(monkeypatch):
    """The committed finder and reader on the test art; the finder's boxes on the blank
    white dragon taken away: its code is a gap, every other taught tile has its own code."""
    import cv2

    from tests.vision.tileset_art import SHEET_ROWS, lay_out
    from vision.runtime import DEFAULT_CLASSIFIER_PATH, DEFAULT_MODEL_PATH
    from vision.tileset.learn import read_sheet, sheet_reader
    from vision.types import Detections

    if not (DEFAULT_MODEL_PATH.is_file() and DEFAULT_CLASSIFIER_PATH.is_file()):
        pytest.skip("the committed models are not there")
    monkeypatch.delenv("MAHJONG_LENS_CLASSIFIER", raising=False)
    rgb, boxes, codes = lay_out(SHEET_ROWS, scale=0.8, seed=0)
    white = boxes[codes.index("5z")]
    reader = sheet_reader()
    find = reader.find

    def without_white(pixels):
        found = find(pixels)
        keep = [i for i, b in enumerate(found.xyxy)
                if not (b[0] < white[2] and white[0] < b[2] and b[1] < white[3] and white[1] < b[3])]
        return Detections(found.xyxy[keep], found.class_id[keep], found.confidence[keep],
                          found.names, tile_score=None if found.tile_score is None
                          else found.tile_score[keep])

    monkeypatch.setattr(reader, "find", without_white)
    photo = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))[1].tobytes()
    sheet = read_sheet([photo], " ".join(SHEET_ROWS), reader=reader)
    assert [g.code for g in sheet.gaps] == ["5z"]
    for i in sheet.taught:
        tile = sheet.tiles[i]
        centre = ((tile.box[0] + tile.box[2]) / 2, (tile.box[1] + tile.box[3]) / 2)
        laid = codes[int(np.argmin(np.hypot((boxes[:, 0] + boxes[:, 2]) / 2 - centre[0],
                                            (boxes[:, 1] + boxes[:, 3]) / 2 - centre[1])))]
        assert tile.code == laid
    assert len(sheet.taught) >= 33  # the flowers of this art the reader cannot read
