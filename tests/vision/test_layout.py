"""vision.layout: hand-made detection layouts (tables of tricky cases) and a few synthetic scenes."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from layout_scenes import TILE_H, detections, quads

from scoring.hand import format_hand, parse_hand
from vision.layout import LaidMeld, TableLayout, read_layout
from vision.layout.table import _scored_as
from vision.types import Detections

# (id, rows (near row first), options, expected notation, expected bonus)
CASES = [
    ("one row, winning apart", ["1m2m3m4p5p6p7s8s9sEEEN N"], {}, "123m456p789sEEENN", []),
    ("meld in a second row, bonus beside it",
     ["1m2m3m4p5p6p7s8sNN 9s", "E^EE 1f 2f"], {}, "[EEE1]123m456p78sNN9s", ["1f", "2f"]),
    ("claimed chow tile turned", ["4p5p6p7s8s9sN N", "1m^2m3m E^EE"], {}, "[123m1][EEE1]456p789sNN", []),
    ("chow claimed in the middle", ["4p5p6p7s8s9sN N", "1m2m^3m E^EE"], {}, "[123m2][EEE1]456p789sNN", []),
    ("kong with two face-down tiles", ["4p5p6p7s8s9sN N", "1m^2m3m #EE#"], {}, "[123m1][EEEE]456p789sNN", []),
    ("kong with the middle tiles face down", ["4p5p6p7s8s9sN N", "1m^2m3m E##E"], {},
     "[123m1][EEEE]456p789sNN", []),
    ("melds in the same row", ["4p5p6p7s8s9sN N 1m^2m3m #EE#"], {}, "[123m1][EEEE]456p789sNN", []),
    ("claimed kong, four in a row", ["4p5p6p7s8s9sN N", "1m^2m3m E^EEE"], {}, "[123m1][EEEE1]456p789sNN", []),
    ("rotated by 90 degrees", ["4p5p6p7s8s9sN N", "1m^2m3m #EE#"], {"angle_deg": 90},
     "[123m1][EEEE]456p789sNN", []),
    ("rotated by 180 degrees", ["4p5p6p7s8s9sN N", "1m^2m3m #EE#"], {"angle_deg": 180},
     "[123m1][EEEE]456p789sNN", []),
    ("rotated by 270 degrees, bonus beside the melds",
     ["4p5p6p7s8s9sN N", "1m^2m3m #EE# 5f"], {"angle_deg": 270}, "[123m1][EEEE]456p789sNN", ["5f"]),
    ("tilted 25 degrees in perspective", ["4p5p6p7s8s9sN N", "1m^2m3m #EE#"],
     {"angle_deg": 25, "tilt": 0.3}, "[123m1][EEEE]456p789sNN", []),
    ("four melds, a pair in the row", ["S S", "1m^2m3m 4p4p^4p 7s8s^9s #PP#"], {},
     "[123m1][444p2][789s2][PPPP]SS", []),
    ("seven pairs, winning apart", ["1m1m3m3m5p5p7p7p9s9sEEC C"], {}, "1133m5577p99sEECC", []),
    ("rotated by 45 degrees", ["4p5p6p7s8s9sN N", "1m^2m3m #EE#"], {"angle_deg": 45},
     "[123m1][EEEE]456p789sNN", []),
    ("rotated by 135 degrees in perspective", ["4p5p6p7s8s9sN N", "1m^2m3m #EE#"],
     {"angle_deg": 135, "tilt": 0.3}, "[123m1][EEEE]456p789sNN", []),
    ("concealed tiles in two rows", ["1m2m3m4p5p6p7s", "8s9sEEEN N"], {}, "123m456p789sEEENN", []),
    ("kong made by adding a tile on top of the claimed one",
     ["4p5p6p7s8s9sN N", "1m^2m3m 9p9p^*9p"], {}, "[123m1][9999p6]456p789sNN", []),
    ("bonus tiles in line beyond the melds, another player's far off",
     ["4p5p6p7s8s9sN N", "1m^2m3m E^EE _ 1f 2f"], {"extra": [("7f", [[900, -700], [930, -700],
                                                                  [930, -660], [900, -660]])]},
     "[123m1][EEE1]456p789sNN", ["1f", "2f"]),
]


@pytest.mark.parametrize("label,rows,options,notation,bonus", CASES, ids=[c[0] for c in CASES])
def test_hand_made_layouts(label, rows, options, notation, bonus):
    layout = read_layout(detections(rows, **options))
    assert layout.notation == format_hand(parse_hand(notation, bonus)), layout.notes  # bonus tiles last
    assert layout.hand == parse_hand(notation)  # what the scorer is handed: kinds, offers and all
    assert sorted(t.code for t in layout.bonus) == bonus
    assert 0 < layout.confidence <= 1


@pytest.mark.parametrize("label,rows,options,notation,bonus", CASES, ids=[c[0] for c in CASES])
def test_other_readings_are_other_hands(label, rows, options, notation, bonus):
    # The page offers three: none may be the chosen hand again in another order or with
    # other offer digits.
    layout = read_layout(detections(rows, **options))
    shown = [layout.notation, *layout.alternatives]
    assert len({_scored_as(parse_hand(n)) for n in shown}) == len(shown), shown


def test_a_flat_pung_still_offers_the_kong_with_a_tile_on_top():
    # From high above, a fourth tile on top of a pung barely shows: one tap away.
    layout = read_layout(detections(["4p5p6p7s8s9sN N", "1m^2m3m 9p9p^9p"]))
    assert layout.notation == "[123m1][999p2]456p789sNN"
    assert "[123m][9999p1]456p789sNN" in layout.alternatives[:3]


def test_winning_tile_guessed_when_nothing_is_set_apart():
    layout = read_layout(detections(["1m2m3m4p5p6p7s8s9sEEENN"]))
    assert layout.notation is not None and layout.winning_guessed
    assert any("winning tile not set apart" in n for n in layout.notes)
    assert sorted(layout.hand.closed) == sorted(parse_hand("123m456p789sEEENN").closed)


def test_fifteen_tiles_make_no_hand_and_say_why():
    layout = read_layout(detections(["1m2m3m4p5p6p7s8s9sEEENNN"]))
    assert layout.notation is None and layout.confidence == 0
    assert any("no complete hand" in n for n in layout.notes)
    assert len(layout.concealed) >= 13  # still laid out for the page to correct


def test_a_concealed_kong_all_face_down_is_laid_out_but_not_guessed():
    layout = read_layout(detections(["4p5p6p7s8s9sN N", "1m^2m3m ####"]))
    assert layout.notation is None and any("no face" in n for n in layout.notes)
    kong = next(m for m in layout.melds if m.kind == "concealed_kong")
    assert [t.code for t in kong.tiles] == ["back"] * 4


def test_a_stacked_kong_lists_the_hidden_tile():
    layout = read_layout(detections(["4p5p6p7s8s9sN N", "1m^2m3m 9p9p^*9p"]))
    kong = next(m for m in layout.melds if m.kind == "kong")
    assert kong.promoted and kong.offer == 2 and [t.code for t in kong.tiles] == ["9p"] * 4


def test_a_doubtful_stray_tile_is_left_out_to_complete_the_hand():
    found = detections(["4p5p6p7s8s9sN9sN", "1m^2m3m E^EE"])
    conf = found.confidence.copy()
    conf[7] = 0.3  # the stray 9s inside the concealed row
    layout = read_layout(Detections(found.xyxy, found.class_id, conf, found.names))
    assert layout.notation == "[123m1][EEE1]456p789sNN"
    assert any("doubtful" in n for n in layout.notes) and any(abs(t.confidence - 0.3) < 1e-6 for t in layout.ignored)


def test_a_box_the_finder_doubts_goes_before_a_tile_that_is_merely_hard_to_read():
    # The stray 9s: a box the finder doubts (tile score 0.55), read confidently enough to
    # pass the confidence rule. The 1f: sure to be a tile, its face hard to read (0.3).
    found = detections(["4p5p6p7s8s9sN9sN", "1m^2m3m E^EE 1f"])
    conf, tile_score = found.confidence.copy(), np.ones(len(found), np.float32)
    conf[7], tile_score[7] = 0.55, 0.55
    flower = found.codes.index("1f")
    conf[flower] = 0.3
    layout = read_layout(Detections(found.xyxy, found.class_id, conf, found.names,
                                    tile_score=tile_score))
    assert layout.notation == "[123m1][EEE1]456p789sNN1f", layout.notes
    assert [t.code for t in layout.bonus] == ["1f"]
    assert [t.code for t in layout.ignored] == ["9s"]
    # Without the finder's own score the confidence rule drops the flower and keeps the stray.
    plain = read_layout(Detections(found.xyxy, found.class_id, conf, found.names))
    assert plain.notation is None


def _misread(found: Detections, guesses: dict[int, list[tuple[str, float]]],
             conf: dict[int, float] | None = None) -> Detections:
    """`found` with the reader's next guesses: tile -> [(code, confidence), (code, confidence)];
    other tiles get two unlikely guesses."""
    index = {n: i for i, n in enumerate(found.names)}
    n = len(found)
    confidence = found.confidence.copy()
    for i, c in (conf or {}).items():
        confidence[i] = c
    alt_id = np.tile(np.array([index["1m"], index["2m"]]), (n, 1))
    alt_conf = np.full((n, 2), 0.001, np.float32)
    for i, pairs in guesses.items():
        for k, (code, c) in enumerate(pairs):
            alt_id[i, k], alt_conf[i, k] = index[code], c
    return Detections(found.xyxy, found.class_id, confidence, found.names, alt_id, alt_conf)


# (id, rows as read, {tile: its next guesses}, {tile: its confidence}, first hand offered or None)
REREAD_CASES = [
    ("one misread concealed tile, its second guess completes the hand",
     ["4p5p6p7s8s1sN N", "1m^2m3m E^EE"], {5: [("9s", 0.3), ("6p", 0.1)]}, {5: 0.55},
     "[123m1][EEE1]456p789sNN"),
    ("the closest runner-up that completes the hand wins, not the closest one",
     ["4p5p6p7s8s1sN N", "1m^2m3m E^EE"], {5: [("5s", 0.4), ("9s", 0.3)]}, {5: 0.55},
     "[123m1][EEE1]456p789sNN"),
    ("a misread tile inside a meld",
     ["4p5p6p7s8s9sN N", "1m^2m3m E^ES"], {13: [("1z", 0.3), ("3z", 0.1)]}, {13: 0.5},
     "[123m1][EEE1]456p789sNN"),
    ("two misread tiles",
     ["4p5p9p7s8s1sN N", "1m^2m3m E^EE"], {2: [("6p", 0.3)], 5: [("9s", 0.3)]},
     {2: 0.6, 5: 0.6}, "[123m1][EEE1]456p789sNN"),
    ("no guess good enough: nothing is offered",
     ["4p5p6p7s8s1sN N", "1m^2m3m E^EE"], {5: [("9s", 0.001)]}, {5: 0.9}, None),
    ("a sure reading is not doubted for a guess 100 times less likely",
     ["4p5p6p7s8s1sN N", "1m^2m3m E^EE"], {5: [("9s", 0.009)]}, {5: 0.95}, None),
]


@pytest.mark.parametrize("label,rows,guesses,conf,notation", REREAD_CASES,
                         ids=[c[0] for c in REREAD_CASES])
def test_a_hand_made_complete_by_the_readers_next_guess_is_offered(label, rows, guesses, conf,
                                                                    notation):
    layout = read_layout(_misread(detections(rows), guesses, conf))
    assert layout.notation is None, "offered for one tap, never taken silently"
    if notation is None:
        assert not any("next guess" in n for n in layout.notes)
    else:
        assert layout.alternatives[:1] == (notation,), layout.notes
        assert any("next guess" in n and notation in n for n in layout.notes)


def test_no_next_guesses_no_reread():
    layout = read_layout(detections(["4p5p6p7s8s1sN N", "1m^2m3m E^EE"]))
    assert layout.notation is None and not any("next guess" in n for n in layout.notes)


def test_detections_carry_next_guesses_through_select_and_scale():
    found = _misread(detections(["4p5p6p7s8s6sN N"]), {5: [("9s", 0.3), ("6p", 0.1)]})
    part = found.select(np.array([4, 5])).scaled(2.0, 2.0)
    assert part.alt_class_id.shape == (2, 2) and part.names[part.alt_class_id[1, 0]] == "9s"
    assert part.alt_confidence[1, 0] == pytest.approx(0.3)
    with pytest.raises(ValueError, match="come together"):
        Detections(found.xyxy, found.class_id, found.confidence, found.names, found.alt_class_id)


def test_detections_carry_the_finders_tile_score():
    found = detections(["4p5p6p7s8s6sN N"])
    scored = Detections(found.xyxy, found.class_id, found.confidence, found.names,
                        tile_score=np.linspace(0.5, 1.0, len(found)))
    part = scored.select(np.array([4, 5])).scaled(2.0, 2.0).with_class(0, 3, 0.4)
    np.testing.assert_allclose(part.tile_score, scored.tile_score[[4, 5]])
    assert found.select(np.array([0])).tile_score is None
    for bad in ([0.5] * (len(found) - 1), [1.5] * len(found)):
        with pytest.raises(ValueError, match="tile_score"):
            Detections(found.xyxy, found.class_id, found.confidence, found.names, tile_score=bad)


def test_no_tiles():
    names = tuple(f"{n}m" for n in range(1, 10))
    layout = read_layout(Detections.empty(names))
    assert layout == TableLayout(concealed=(), notes=("no tiles found",))


@pytest.mark.parametrize("row, says", [
    ("1f2f3f4f", "(only 4 flower or season tiles)"),
    ("5f##", "(only 1 flower or season tile and 2 face-down tiles)"),
    ("####", "(only 4 face-down tiles)"),
])
def test_a_photo_without_playing_tiles_says_which_tiles_it_has(row, says):
    layout = read_layout(detections([row]))
    assert layout.notation is None and says in layout.notes[0]
    assert "photograph the hand's suit and honour tiles" in layout.notes[0]


def test_discards_far_away_are_ignored():
    # a pond of face-up tiles far above the hand, as other players' discards lie
    extra = []
    for k, code in enumerate(["3m", "3m", "3m", "5s", "9p", "2z"]):
        x, y = 120.0 + k * 31, -600.0
        extra.append((code, [[x, y], [x + 30, y], [x + 30, y + 40], [x, y + 40]]))
    layout = read_layout(detections(["4p5p6p7s8s9sN N", "1m^2m3m E^EE"], extra=extra))
    assert layout.notation == "[123m1][EEE1]456p789sNN"
    assert len(layout.ignored) == 6


def test_meld_fields_and_tile_order():
    layout = read_layout(detections(["4p5p6p7s8s9sN N", "1m^2m3m #EE#"]))
    chow, kong = sorted(layout.melds, key=lambda m: m.kind)
    assert isinstance(chow, LaidMeld) and chow.kind == "chow" and chow.offer == 1
    assert [t.code for t in chow.tiles] == ["1m", "2m", "3m"] and chow.tiles[0].sideways
    assert kong.kind == "concealed_kong" and kong.offer is None
    assert [t.code for t in kong.tiles] == ["back", "1z", "1z", "back"]
    assert [t.code for t in layout.concealed] == ["4p", "5p", "6p", "7s", "8s", "9s", "4z"]
    assert layout.winning.code == "4z" and not layout.winning_guessed


def test_quads_keep_turned_tiles_on_the_near_edge():
    codes, qs = quads(["1m^2m"])
    assert codes == ["1m", "2m"]
    assert qs[0][:, 1].max() == qs[1][:, 1].max()  # both end on the row's near edge


# --- stacked kongs in a row running up the photo; which bonus tiles are the hand's ----------

def _shift(det: Detections, index: int, dx: float = 0.0, dy: float = 0.0) -> Detections:
    xyxy = np.asarray(det.xyxy, np.float32).copy()
    xyxy[index] += np.array([dx, dy, dx, dy], np.float32)
    return Detections(xyxy, det.class_id, det.confidence, det.names)


def test_a_stacked_kong_in_a_row_running_up_the_photo_reads_as_a_kong():
    """Rows turned 90°: a tile on top shows moved up along the row (closer to the tile above
    it, away from the one below), not across it."""
    rows = ["4p5p6p7s8s9sN N", "1m^2m3m 9p9p^9p"]
    plain = read_layout(detections(rows, angle_deg=90))
    assert plain.notation is not None and "[999p" in plain.notation
    det = detections(rows, angle_deg=90)
    middle = [i for i, c in enumerate(det.codes) if c == "9p"][1]
    size = float(np.sqrt(np.prod(det.xyxy[middle, 2:] - det.xyxy[middle, :2])))
    stacked = read_layout(_shift(det, middle, dy=-0.4 * size))  # photo up is -y
    assert stacked.notation is not None and "9999p" in stacked.notation, stacked.notes


BONUS_ROWS = ["4p5p6p7s8s9sN N", "1m^2m3m E^EE _ 1f 2f 3f"]


def _bonus_of(rows, extra) -> list[str]:
    return sorted(t.code for t in read_layout(detections(rows, extra=extra)).bonus)


def test_another_players_flower_next_to_the_bonus_row_but_out_of_its_line_is_left_out():
    x, y = 10.47 * 30.0, 56 + 40 + 12.0  # just under the middle of the bonus row: linked to it
    quad = [[x, y], [x + 30, y], [x + 30, y + 40], [x, y + 40]]
    assert _bonus_of(BONUS_ROWS, [("7f", quad)]) == ["1f", "2f", "3f"]


def test_a_lone_flower_apart_from_the_hands_bonus_group_is_another_players():
    x = -4 * 30.0   # left of the concealed row, in line with it: plausible on its own
    quad = [[x, 0], [x + 30, 0], [x + 30, 40], [x, 40]]
    alone = read_layout(detections(["4p5p6p7s8s9sN N", "1m^2m3m E^EE"], extra=[("7f", quad)]))
    assert [t.code for t in alone.bonus] == ["7f"]
    assert _bonus_of(BONUS_ROWS, [("7f", quad)]) == ["1f", "2f", "3f"]


def test_each_flower_exists_once_a_second_copy_is_not_the_hands():
    layout = read_layout(detections(["4p5p6p7s8s9sN N", "1m^2m3m E^EE _ 1f 2f 2f"]))
    assert sorted(t.code for t in layout.bonus) == ["1f", "2f"]


def test_a_kong_stacked_on_the_turned_end_tile_in_a_row_running_up_the_photo():
    rows = ["4p5p6p7s8s9sN N", "1m^2m3m 9p^9p9p"]
    det = detections(rows, angle_deg=90)
    turned = next(i for i, c in enumerate(det.codes) if c == "9p")
    assert "[999p" in read_layout(det).notation
    size = float(np.sqrt(np.prod(det.xyxy[turned, 2:] - det.xyxy[turned, :2])))
    stacked = read_layout(_shift(det, turned, dy=-0.4 * size))
    assert stacked.notation is not None and "9999p" in stacked.notation, stacked.notes


# A fourth tile on top of the turned tile of a pung, seen from high above: it shows only a
# little raised (photo up), and a turned tile sits at the near edge of its set, so the lift is
# read at that edge once the hand says where the player sits (at the photo's foot at 0°, at
# its top at 180°). Measured at the turned tile's centre, as before, a turned tile seen from
# across the table looks raised by itself.
STACK_ON_TURNED = [  # (angle of the photo, the turned tile's lift in tile heights, kong?)
    (0, 0.0, False),
    (0, 0.15, True),
    (180, 0.0, False),
    (180, 0.15, True),
    (180, 0.3, True),
]


def _middle_of_pung_raised(meld: str, angle: float, lift: float, by_size: bool) -> TableLayout:
    """A hand whose 9p pung `meld` has its middle tile raised (photo up) by `lift` tile
    heights, or tile sizes (square root of its box area) with `by_size`."""
    det = detections(["4p5p6p7s8s9sN N", "1m^2m3m " + meld], angle_deg=angle)
    middle = [i for i, c in enumerate(det.codes) if c == "9p"][1]
    unit = float(np.sqrt(np.prod(det.xyxy[middle, 2:] - det.xyxy[middle, :2]))) if by_size else TILE_H
    return read_layout(_shift(det, middle, dy=-lift * unit))


@pytest.mark.parametrize("angle,lift,kong", STACK_ON_TURNED)
def test_a_tile_on_top_of_the_turned_tile_is_read_at_the_near_edge(angle, lift, kong):
    layout = _middle_of_pung_raised("9p9p^9p", angle, lift, by_size=False)
    assert layout.notation is not None, layout.notes
    assert ("9999p" in layout.notation) == kong, layout.notation


# The upright middle tile of a pung raised (photo up) by this much of its size: in a row
# across the photo a third of a tile is a tile on top; in a row near 45° the boxes are loose
# (they mix the tiles' widths and heights), so it takes more.
STACK_ON_UPRIGHT = [  # (angle of the photo, lift in tile sizes, kong?)
    (0, 0.1, False),
    (0, 0.3, True),
    (45, 0.3, False),
    (45, 0.5, True),
]


@pytest.mark.parametrize("angle,lift,kong", STACK_ON_UPRIGHT)
def test_a_raised_upright_tile_of_a_pung(angle, lift, kong):
    layout = _middle_of_pung_raised("9p9p9p", angle, lift, by_size=True)
    assert layout.notation is not None, layout.notes
    assert ("9999p" in layout.notation) == kong, layout.notation


# The stack classifier (vision.recognition.stacking) looks at the pixels: where it has, its word on which
# tile of three lies on another outweighs the boxes' lift, which from a high camera is within
# the spread of flat tiles. Probabilities for the three 9p tiles of the pung, left to right.
STACK_CLASSIFIER = [  # (lift of the middle tile in tile sizes, on_top of the 9p tiles, kong?)
    (0.0, None, False),               # not measured: the boxes decide
    (0.0, (0.02, 0.97, 0.03), True),  # flat boxes, the pixels see two bodies under one face
    (0.0, (0.02, 0.03, 0.95), True),  # ... under the end tile
    (0.0, (0.02, 0.10, 0.03), False),
    (0.2, (0.02, 0.02, 0.02), False),  # raised a little, the pixels see no second tile
    (0.3, (0.02, 0.40, 0.03), True),   # raised plainly, the pixels unsure
]


@pytest.mark.parametrize("lift,on_top,kong", STACK_CLASSIFIER)
def test_the_stack_classifier_outweighs_the_lift(lift, on_top, kong):
    det = detections(["4p5p6p7s8s9sN N", "1m^2m3m 9p9p9p"])
    nines = [i for i, c in enumerate(det.codes) if c == "9p"]
    unit = float(np.sqrt(np.prod(det.xyxy[nines[1], 2:] - det.xyxy[nines[1], :2])))
    det = _shift(det, nines[1], dy=-lift * unit)
    if on_top is not None:
        p = np.full(len(det), 0.01, np.float32)
        p[nines] = on_top
        det = replace(det, on_top=p)
    layout = read_layout(det)
    assert layout.notation is not None, layout.notes
    assert ("9999p" in layout.notation) == kong, layout.notation


@pytest.mark.parametrize("row", [
    "EE9s8s7s6p5p4p3m2m1m1f2f3fN N",        # laid high to low, the bonus tiles after them
    "5f6f7fC PPP9s8s7s6p5p4p3m2mC",          # the winning tile set apart on the left
    "1f2f3f1m2m3m4p5p6p7s8s9sEEN N",
])
@pytest.mark.parametrize("angle", [0, 3, 93, 180])
def test_a_hand_in_one_row_is_listed_in_the_photos_reading_order(row, angle):
    """As `detect` lists the tiles: left to right across the photo, top to bottom down it."""
    layout = read_layout(detections([row], angle_deg=angle))
    axis = 1 if angle == 93 else 0
    for tiles in (layout.concealed, layout.bonus):
        along = [t.box[axis] + t.box[axis + 2] for t in tiles]
        assert along == sorted(along), [t.code for t in tiles]
