"""Measure the layout step (vision.layout) on synthetic scenes with JSON truth.

    python -m datasets.eval.layout --scenes cache/layout_eval [--model models/detector.onnx]
        [--stacking models/stack_classifier.onnx|none] [--limit N] [--json cache/layout_eval.json]
        [--errors 20]

Both (a) and (b) below let the stack classifier (vision/recognition/stacking.py, when committed) look at
the photo, as the app does, unless `--stacking none`.

(a) Perfect detections: the labelled boxes of the truth (face-down tiles as `back`,
distractors included) go through `read_layout`; this measures the grouping on its own.
(b) With a detector model (default models/detector.onnx when it exists; `--model none` skips
it): the photo goes through the real reader; a scene counts as a *detection error* when a
labelled tile of the hand is missed or misread, or a spurious tile is read among the hand's
tiles; the other scenes measure the grouping after real detection.

A reading is compared with the truth at four levels:
  exact     the notation (offer digits included), the bonus tiles and the winning tile;
  shown     what the photo shows: as `exact`, but an offer digit counts only where the claimed
            tile is turned sideways (a kong put on top of a pung may read as promoted or
            claimed), and the winning tile only where it is set apart;
  scoring   the same hand for a scorer: offer digits ignored (which tile was claimed, who
            offered, a promoted or claimed kong: no fan of MCR depends on them, and the
            scene turns the claimed tile in only 75% of sets);
  hand      as `scoring`, but when the truth did not set the winning tile apart any tile of
            the concealed row is accepted as the winning tile (the layout can only guess it;
            the page asks).
Also reported: the time of `read_layout` + scoring per photo, and with a reader the share of
photos whose hand is right or one tap away among the alternatives the page offers.

Evaluation scenes, never used for tuning (the layout was tuned on seeds 4242-4246):
  python -m datasets.synth --out cache/layout_eval2 --count 1000 --seed 777 --designs heldout
  python -m datasets.eval.layout --scenes cache/layout_eval2 --model none   # perfect detections
  python -m datasets.eval.layout --scenes cache/layout_eval2                # with the reader
and the same with `--seed 779`. The figures of each version are in docs/experiments.md.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

from datasets.classes import class_names
from scoring.hand import MeldKind, parse_hand
from vision.boxes import box_iou
from vision.image import load_photo
from vision.layout import read_layout
from vision.runtime import model_path
from vision.types import Detections

HAND_GROUPS = ("concealed", "winning", "bonus")
KONGS = (MeldKind.KONG, MeldKind.PROMOTED_KONG, MeldKind.CONCEALED_KONG)
MATCH_IOU = 0.5


def readable(truth: dict) -> bool:
    """Every tile of the hand is labelled (in the photo, at least 40% visible), or lies under
    another tile of its meld (the fourth tile of a kong put on top); and no concealed kong
    shows only face-down tiles."""
    labelled = [t for t in truth["tiles"] if t.get("label")]
    groups: dict[str, list[str]] = {}
    for t in labelled:
        groups.setdefault(t["group"], []).append(t["label"])
    if any(g.startswith("meld") and set(v) == {"back"} for g, v in groups.items()):
        return False  # a concealed kong shown all face down: its tile is not in the photo
    for t in truth["tiles"]:
        if t["group"] == "distractor" or t.get("label"):
            continue
        if t["quad"] is None or not t["group"].startswith("meld"):
            return False
        c = np.mean(t["quad"], axis=0)
        if not any(o["group"] == t["group"] and o["box"][0] <= c[0] <= o["box"][2]
                   and o["box"][1] <= c[1] <= o["box"][3] for o in labelled):
            return False
    return True


def truth_detections(truth: dict) -> Detections:
    """Perfect detections: every labelled box of the scene with its class, confidence 1."""
    tiles = [t for t in truth["tiles"] if t.get("label")]
    names = class_names()
    if not tiles:
        return Detections.empty(names)
    return Detections(np.array([t["box"] for t in tiles], np.float32),
                      np.array([names.index(t["label"]) for t in tiles]),
                      np.ones(len(tiles), np.float32), names)


def _melds(hand, keep_offer: bool) -> Counter:
    out = Counter()
    for m in hand.melds:
        kind = MeldKind.KONG if m.kind is MeldKind.PROMOTED_KONG else m.kind
        offer = (m.offer, m.kind is MeldKind.PROMOTED_KONG) if keep_offer else None
        out[(kind.value, m.tiles, offer)] += 1
    return out


def _shown_claims(truth: dict) -> list[bool]:
    """Per truth meld: does the photo show which tile was claimed (a tile turned sideways)?"""
    out = []
    for i, meld in enumerate(truth["hand"]["melds"]):
        rot = [t["yaw"] for t in truth["tiles"] if t["group"] == f"meld:{i}"]
        base = np.median(rot) if rot else 0.0
        out.append(meld["kind"] != "concealed_kong" and any(
            abs(((r - base) % 180) - 90) < 30 for r in rot))
    return out


def _melds_match(want, got, shown: list[bool]) -> bool:
    """Melds equal, offer digits included where the photo shows the claimed tile; a kong put
    on top of a pung reads as promoted or claimed alike (the photo cannot tell)."""
    def key(m, offer: bool):
        kind = MeldKind.KONG if m.kind is MeldKind.PROMOTED_KONG else m.kind
        return kind.value, m.tiles, (m.offer if offer else None)
    left = Counter(key(m, k) for m, k in zip(want.melds, shown))
    for m in got.melds:
        for k in (key(m, True), key(m, False)):
            if left[k] > 0:
                left[k] -= 1
                break
        else:
            return False
    return not +left


def compare(truth: dict, layout) -> dict[str, bool]:
    """Which levels of agreement (exact, shown, scoring, hand) a layout reaches."""
    truth_hand = truth["hand"]
    bonus_ok = sorted(t.code for t in layout.bonus) == sorted(truth_hand["bonus"])
    if layout.hand is None:
        return {"exact": False, "shown": False, "scoring": False, "hand": False, "complete": False}
    want, got = parse_hand(truth_hand["notation"]), layout.hand
    same_melds = _melds(want, False) == _melds(got, False)
    same_closed = sorted(want.closed) == sorted(got.closed)
    scoring = bonus_ok and same_melds and same_closed and want.winning == got.winning
    exact = scoring and _melds(want, True) == _melds(got, True)
    hand = scoring or (bonus_ok and same_melds and same_closed and not truth_hand["winning_apart"])
    shown = hand and _melds_match(want, got, _shown_claims(truth))
    return {"exact": exact, "shown": shown, "scoring": scoring, "hand": hand, "complete": True}


def miss_kind(truth: dict, layout) -> str:
    """Why a reading misses the truth at the `hand` level, the first that applies: no complete
    hand; a kong read as a pung or a pung as a kong (nothing else of the sets wrong); other
    sets; the concealed tiles or the winning tile; only the bonus tiles."""
    if layout.hand is None:
        return "no complete hand"
    want, got = parse_hand(truth["hand"]["notation"]), layout.hand

    def sets(hand, kongs_as_pungs: bool) -> Counter:
        out = Counter()
        for m in hand.melds:
            kind = "pung" if kongs_as_pungs and m.kind in KONGS else \
                "kong" if m.kind in KONGS else m.kind.value
            out[(kind, m.tiles[0])] += 1
        return out
    if sets(want, False) != sets(got, False):
        if sets(want, True) != sets(got, True):
            return "other sets"
        missed = sets(want, False) - sets(got, False)
        return "kong read as pung" if all(k == "kong" for k, _ in missed) else "pung read as kong"
    if sorted(want.closed) != sorted(got.closed) or want.winning != got.winning:
        return "concealed or winning tile"
    return "bonus tiles"


def detection_ok(truth: dict, found: Detections) -> bool:
    """Every labelled hand tile found with its class, nothing extra among the hand's tiles."""
    hand = [t for t in truth["tiles"] if t.get("label") and t["group"] != "distractor"]
    labelled = [t for t in truth["tiles"] if t.get("label")]
    if not hand:
        return len(found) == 0
    xyxy = np.asarray(found.xyxy)
    iou = box_iou(np.array([t["box"] for t in labelled]), xyxy)
    used = set()
    for k, t in enumerate(labelled):
        j = int(iou[k].argmax()) if len(xyxy) else -1
        ok = j >= 0 and iou[k, j] >= MATCH_IOU and found.codes[j] == t["label"]
        if ok:
            used.add(j)
        elif t["group"] != "distractor":
            return False
    hand_box = np.array([t["box"] for t in hand])
    lo, hi = hand_box[:, :2].min(0), hand_box[:, 2:].max(0)
    pad = np.median(hand_box[:, 2:] - hand_box[:, :2])
    for j in range(len(xyxy)):
        if j in used:
            continue
        c = (xyxy[j, :2] + xyxy[j, 2:]) / 2
        if np.all(c >= lo - pad) and np.all(c <= hi + pad) and iou[:, j].max(initial=0) < MATCH_IOU:
            return False
    return True


def _score(layout) -> None:
    """Score the read hand (MCR defaults), as `mahjong-lens score PHOTO` does."""
    from scoring.request import score_request
    if layout.hand is not None:
        try:
            score_request({"flowers": ",".join(t.code for t in layout.bonus)}, "mcr", None, {},
                          hand=layout.hand)
        except Exception:  # noqa: BLE001, S110 - a scorer still being written must not stop the measure
            pass


def _right_as(truth: dict, layout, notation: str) -> bool:
    """Whether `notation`, taken instead of the layout's own reading, is the hand."""
    return compare(truth, replace(layout, hand=parse_hand(notation)))["hand"]


def _offered(truth: dict, layout) -> bool:
    """One tap away: the hand is among the three the page offers under "Other ways to read
    these tiles"."""
    return any(_right_as(truth, layout, n) for n in layout.alternatives[:3])


def _timed(det: Detections):
    """The layout and the (wall, CPU) seconds of layout + scoring."""
    wall, cpu = time.perf_counter(), time.process_time()
    layout = read_layout(det)
    _score(layout)
    return layout, time.perf_counter() - wall, time.process_time() - cpu


def _groups(truth: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for t in truth["tiles"]:
        out.setdefault(t["group"] or "", []).append(t)
    return out


def _facets(truth: dict) -> dict[str, str]:
    hand, cam = truth["hand"], truth["camera"]
    standing = any(t["standing"] for t in truth["tiles"] if t["group"] == "concealed")
    # a kong shown as three tiles with the fourth on top: one tile of its group has no label
    stacked = any(g.startswith("meld") and len(ts) == 4 and sum(bool(t.get("label")) for t in ts) == 3
                  for g, ts in _groups(truth).items())
    return {"stacked_kong": "yes" if stacked else "no","melds": str(len(hand["melds"])), "apart": str(hand["winning_apart"]),
            "side": cam["side"], "standing": str(standing), "shape": hand["shape"],
            "elevation": "low" if cam["elevation"] < 45 else "mid" if cam["elevation"] < 72 else "high",
            "distractors": "yes" if any(t["group"] == "distractor" and t.get("label")
                                        for t in truth["tiles"]) else "no"}


LEVELS = ("exact", "shown", "scoring", "hand", "complete")  # what `compare` answers


def _share(counts: Counter, key: str, of: int) -> float | None:
    return round(counts[key] / of, 4) if of else None


def _perfect_layout(scenes: Path, truth: dict, stacker):
    """The layout of the truth's own boxes (the stack classifier looking at the photo), and
    its (wall, CPU) seconds."""
    det = truth_detections(truth)
    if stacker is not None and len(det):
        rgb = load_photo(scenes / truth["image"]).rgb
        det = replace(det, on_top=stacker.on_top(rgb, det.xyxy, det.codes))
    return _timed(det)


class _Tally:
    """What `evaluate` counts: the layouts of perfect detections and, with a reader, of the
    real ones; and their summary."""

    def __init__(self, errors: int) -> None:
        self.errors = errors  # how many wrong scenes to list
        self.perfect, self.real = Counter(), Counter()
        self.facets: dict[str, Counter] = {}
        self.misses, self.grouping_misses = Counter(), Counter()  # hand-level misses by kind (miss_kind)
        self.seconds, self.cpu_seconds, self.worst = [], [], []
        self.detector_ms, self.after_ms = [], []

    def add_perfect(self, scene: str, truth: dict, layout, wall: float, cpu: float) -> None:
        self.seconds.append(wall)
        self.cpu_seconds.append(cpu)
        got = compare(truth, layout)
        self.perfect["n"] += 1
        self.perfect.update(k for k in LEVELS if got[k])
        self.perfect["one_tap_hand"] += got["hand"] or _offered(truth, layout)
        for name, value in _facets(truth).items():
            c = self.facets.setdefault(f"{name}={value}", Counter())
            c["n"] += 1
            c.update(k for k in ("exact", "shown", "hand") if got[k])
        if not got["hand"]:
            self.misses[miss_kind(truth, layout)] += 1
        if not got["hand"] and len(self.worst) < self.errors:
            self.worst.append({"scene": scene, "truth": truth["hand"]["notation"],
                               "bonus": truth["hand"]["bonus"], "read": layout.notation,
                               "read_bonus": [t.code for t in layout.bonus], "notes": list(layout.notes)})

    def add_read(self, truth: dict, reading) -> None:
        real = self.real
        lay, wall, _ = _timed(reading.detections)
        self.detector_ms.append(reading.seconds * 1000)
        self.after_ms.append(wall * 1000)
        real["n"] += 1
        got = compare(truth, lay)
        if detection_ok(truth, reading.detections):
            real["detected"] += 1
            real.update(f"detected_{k}" for k in LEVELS if got[k])
            if not got["hand"]:
                self.grouping_misses[miss_kind(truth, lay)] += 1
        real.update(f"all_{k}" for k in LEVELS if got[k])
        real["one_tap_hand"] += got["hand"] or _offered(truth, lay)
        if lay.rereads:  # vision.layout._reread: hands the reader's next guesses make
            suggested = [n for n, _ in lay.rereads]
            real["reread"] += 1
            real["reread_first_right"] += _right_as(truth, lay, suggested[0])
            real["reread_any_right"] += any(_right_as(truth, lay, n) for n in suggested)

    def summary(self, scenes: int) -> dict:
        perfect = self.perfect
        ms, cpu_ms = np.array(self.seconds) * 1000, np.array(self.cpu_seconds) * 1000
        return {"scenes": scenes, "unreadable": perfect["unreadable"], "readable": perfect["n"],
                "perfect": {k: _share(perfect, k, perfect["n"]) for k in (*LEVELS, "one_tap_hand")},
                "perfect_misses": dict(self.misses.most_common()),
                "layout_ms": {  # read_layout + MCR scoring per photo; wall time, then CPU time of this process
                    "mean": round(float(ms.mean()), 2), "p95": round(float(np.percentile(ms, 95)), 2),
                    "max": round(float(ms.max()), 2), "cpu_mean": round(float(cpu_ms.mean()), 2),
                    "cpu_p95": round(float(np.percentile(cpu_ms, 95)), 2),
                    "cpu_max": round(float(cpu_ms.max()), 2)} if len(ms) else None,
                "facets": {k: {"n": c["n"], **{m: _share(c, m, c["n"]) for m in ("exact", "shown", "hand")}}
                           for k, c in sorted(self.facets.items())},
                "errors": self.worst}

    def detector_summary(self, model: str) -> dict:
        real, d = self.real, self.real["detected"]
        detector_ms, after_ms = self.detector_ms, self.after_ms
        return {"model": str(model), "scenes": real["n"],
                "detection_right": _share(real, "detected", real["n"]),
                "grouping_given_detection": {k: _share(real, f"detected_{k}", d) for k in LEVELS},
                "grouping_misses": dict(self.grouping_misses.most_common()),
                "end_to_end": {k: _share(real, f"all_{k}", real["n"]) for k in LEVELS},
                "hand_right_or_one_tap_away": _share(real, "one_tap_hand", real["n"]),
                "reread": {"photos": real["reread"], "first_right": real["reread_first_right"],
                           "any_right": real["reread_any_right"]},
                "ms": {"detector_mean": round(float(np.mean(detector_ms)), 2) if detector_ms else None,
                       "layout_and_score_mean": round(float(np.mean(after_ms)), 2) if after_ms else None,
                       "layout_and_score_p95": round(float(np.percentile(after_ms, 95)), 2)
                       if after_ms else None}}


def evaluate(scenes: Path, model: str | None, limit: int | None, errors: int,
             stacking: str = "default", zoom: bool = True) -> dict:
    """`stacking`: the stack classifier's path, "default" (the committed one, when there
    is one) or "none"; it looks at the photo for the perfect detections too. `zoom`: the
    finder's second look at small tiles (vision/recognition/zoom.py)."""
    from vision.recognition.stacking import stack_reader
    stacker = stack_reader(stacking)
    files = sorted((scenes / "truth").glob("*.json"))[:limit]
    reader = None
    if model:
        from vision.pipeline import TileReader
        reader = TileReader(model, stacking=stacker, zoom=zoom)
    tally = _Tally(errors)
    for f in files:
        truth = json.loads(f.read_text())
        if not readable(truth):
            tally.perfect["unreadable"] += 1
            continue
        tally.add_perfect(f.stem, truth, *_perfect_layout(scenes, truth, stacker))
        if reader is not None:
            tally.add_read(truth, reader.read(scenes / truth["image"]))
    out = tally.summary(len(files))
    if reader is not None:
        out["detector"] = tally.detector_summary(model)
    return out

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=Path, required=True, help="a datasets.synth.generate output folder")
    ap.add_argument("--model", default=None, help="detector ONNX (default: models/detector.onnx if present; 'none': skip)")
    ap.add_argument("--stacking", default="default", help="stack classifier ONNX (default: "
                    "models/stack_classifier.onnx if present; 'none': boxes alone)")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--errors", type=int, default=20, help="how many wrong scenes to list")
    ap.add_argument("--json", type=Path, default=None, help="also write the report here")
    ap.add_argument("--no-zoom", action="store_true",
                    help="the finder reads each photo once (no second look at small tiles)")
    a = ap.parse_args(argv)
    model = a.model if a.model not in (None, "none") else None
    if a.model is None and model_path().is_file():
        model = str(model_path())
    if not (a.scenes / "truth").is_dir():
        print(f"evaluate_layout: no truth/ folder in {a.scenes}", file=sys.stderr)
        return 2
    report = evaluate(a.scenes, model, a.limit, a.errors, a.stacking, zoom=not a.no_zoom)
    text = json.dumps(report, indent=1)
    print(text)
    if a.json:
        a.json.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
