"""datasets.eval.layout: truth to detections, the levels of agreement, detection errors."""
from __future__ import annotations

import numpy as np

from datasets.classes import class_names
from datasets.eval.layout import compare, detection_ok, miss_kind, readable, truth_detections
from scoring.hand import parse_hand
from vision.layout import LaidTile, TableLayout
from vision.types import Detections


def _tile(code, box, group, label=None, yaw=0.0, quad=True):
    x1, y1, x2, y2 = box
    return {"code": code, "label": label if label is not None else code, "box": list(box),
            "quad": [[x1, y1], [x2, y1], [x2, y2], [x1, y2]] if quad else None,
            "yaw": yaw, "group": group, "standing": False}


def _truth(notation="[123m1]456p789sSSEEE", melds=None, tiles=None, apart=True, bonus=()):
    melds = melds if melds is not None else [{"kind": "chow", "tiles": ["1m", "2m", "3m"], "offer": 1}]
    tiles = tiles if tiles is not None else [
        _tile("1m", (0, 0, 10, 10), "meld:0", yaw=90), _tile("2m", (10, 0, 20, 10), "meld:0"),
        _tile("3m", (20, 0, 30, 10), "meld:0")]
    return {"hand": {"notation": notation, "bonus": list(bonus), "winning_apart": apart,
                     "melds": melds}, "tiles": tiles}


def _layout(notation, bonus=()):
    return TableLayout(concealed=(), hand=parse_hand(notation) if notation else None,
                       bonus=tuple(LaidTile(c, (0, 0, 1, 1), 1.0) for c in bonus))


LEVEL_CASES = [
    # (read notation, truth winning apart, expected levels)
    ("[123m1]456p789sSSEEE", True, dict(exact=True, shown=True, scoring=True, hand=True)),
    ("[123m2]456p789sSSEEE", True, dict(exact=False, shown=False, scoring=True, hand=True)),
    ("[123m1]456p789sSEEES", True, dict(exact=False, shown=False, scoring=False, hand=False)),
    ("[123m1]456p789sSEEES", False, dict(exact=False, shown=True, scoring=False, hand=True)),
    ("123m456p789sSSEEE", True, dict(exact=False, shown=False, scoring=False, hand=False)),
]


def test_levels_of_agreement():
    for read, apart, want in LEVEL_CASES:
        got = compare(_truth(apart=apart), _layout(read))
        assert {k: got[k] for k in want} == want, (read, apart, got)


def test_offer_digit_counts_only_where_the_claimed_tile_is_turned():
    tiles = [_tile(c, (10 * i, 0, 10 * i + 10, 10), "meld:0") for i, c in enumerate(["1m", "2m", "3m"])]
    got = compare(_truth(tiles=tiles), _layout("[123m3]456p789sSSEEE"))
    assert got["shown"] and not got["exact"]


def test_bonus_tiles_must_match():
    truth = _truth(bonus=["1f"])
    assert not compare(truth, _layout("[123m1]456p789sSSEEE"))["hand"]
    assert compare(truth, _layout("[123m1]456p789sSSEEE", bonus=["1f"]))["exact"]


MISS_CASES = [
    # (truth notation, read notation, read bonus, expected kind)
    ("[999p1][123m1]456p78sSS9s", None, (), "no complete hand"),
    ("[9999p5][123m1]456p78sSS9s", "[999p1][123m1]456p78sSS9s", (), "kong read as pung"),
    ("[999p1][123m1]456p78sSS9s", "[9999p5][123m1]456p78sSS9s", (), "pung read as kong"),
    ("[999p1][123m1]456p78sSS9s", "[999p1]123m456p78sSS9s", (), "other sets"),
    ("[999p1][123m1]456p78sSS9s", "[999p1][123m1]456p79sSS8s", (), "concealed or winning tile"),
    ("[999p1][123m1]456p78sSS9s", "[999p1][123m1]456p78sSS9s", ("1f",), "bonus tiles"),
]


def test_why_a_reading_misses():
    for truth, read, bonus, kind in MISS_CASES:
        assert miss_kind(_truth(notation=truth), _layout(read, bonus)) == kind, (truth, read)


def test_no_notation_is_no_agreement():
    assert not any(compare(_truth(), _layout(None)).values())


def test_readable_scenes():
    assert readable(_truth())
    hidden = _truth(tiles=[_tile("1m", (0, 0, 10, 10), "meld:0", label="")])
    hidden["tiles"][0]["label"] = None
    hidden["tiles"][0]["quad"] = None
    assert not readable(hidden)
    # the fourth tile of a kong under another one of its meld: readable
    under = _tile("5p", (0, 0, 10, 10), "meld:0")
    under["label"] = None
    top = _tile("5p", (-1, -2, 11, 9), "meld:0")
    assert readable(_truth(tiles=[under, top]))
    backs = [_tile("1z", (10 * i, 0, 10 * i + 10, 10), "meld:0", label="back") for i in range(4)]
    assert not readable(_truth(tiles=backs))


def test_truth_detections_keep_labelled_tiles_and_backs():
    tiles = [_tile("1m", (0, 0, 10, 10), "concealed"), _tile("2z", (10, 0, 20, 10), "meld:0", label="back"),
             _tile("3m", (20, 0, 30, 10), "distractor")]
    tiles.append({**_tile("4m", (30, 0, 40, 10), "concealed"), "label": None})
    det = truth_detections(_truth(tiles=tiles))
    assert det.codes == ["1m", "back", "3m"]
    assert np.allclose(det.confidence, 1.0)


def test_detection_errors():
    names = class_names()
    truth = _truth(tiles=[_tile("1m", (0, 0, 10, 10), "concealed"), _tile("2m", (10, 0, 20, 10), "concealed"),
                          _tile("9s", (200, 200, 210, 210), "distractor")])

    def det(rows):
        return Detections(np.array([r[1] for r in rows], np.float32),
                          np.array([names.index(r[0]) for r in rows]), np.ones(len(rows), np.float32), names)

    assert detection_ok(truth, det([("1m", (0, 0, 10, 10)), ("2m", (10, 0, 20, 10))]))
    assert not detection_ok(truth, det([("1m", (0, 0, 10, 10)), ("3m", (10, 0, 20, 10))]))   # misread
    assert not detection_ok(truth, det([("1m", (0, 0, 10, 10))]))                            # missed
    assert not detection_ok(truth, det([("1m", (0, 0, 10, 10)), ("2m", (10, 0, 20, 10)),
                                        ("5p", (4, 11, 14, 21))]))                           # extra, in the hand
    assert detection_ok(truth, det([("1m", (0, 0, 10, 10)), ("2m", (10, 0, 20, 10)),
                                    ("5p", (300, 300, 310, 310))]))                          # extra, far away
