"""A game night without a sheet: hands in a row with one design, each hand's truth fed back as
the player's corrections, tile fixes per hand with and without learning.

    python -m datasets.eval.tileset night [--design kmj_traditional] [--hands 16] [--sheet-first]

Hand i is scene i of `datasets.synth.generate --designs DESIGN --seed NIGHT_SEED`. A hand
needs one fix per hand tile read wrong or not found, and per box among the hand's tiles on
no tile (`fixes`); `misread` counts the first kind only, the part a set can change. After
each hand, every hand tile the page showed is added to the set with its true code (what
learn_hand stores when the corrected hand goes into the ledger: a fix only where the page,
reading with the set, showed another code); tiles not found have no box
to learn from.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from datasets.eval.tileset_scenes import load_scenes, scenes_of, setup

MATCH_IOU = 0.5


def hand_fixes(scene, found, conf: float) -> tuple[int, int, list[tuple[int, str]]]:
    """(fixes, misread, [(shown detection index, true code) of the hand tiles found])."""
    from vision.boxes import box_iou

    hand = [t for t in scene.truth["tiles"] if t.get("label") and t["group"] != "distractor"]
    labelled = [t for t in scene.truth["tiles"] if t.get("label")]
    shown = np.flatnonzero(found.tile_score >= conf)
    xy = found.xyxy[shown]
    iou = (box_iou(np.array([t["box"] for t in labelled]), xy) if len(xy)
           else np.zeros((len(labelled), 0)))
    fixes = misread = 0
    used, taught = set(), []
    for k, t in enumerate(labelled):
        j = int(iou[k].argmax()) if iou.shape[1] else -1
        hit = j >= 0 and iou[k, j] >= MATCH_IOU and j not in used
        if hit:
            used.add(j)
        if t["group"] == "distractor":
            continue
        if not hit:
            fixes += 1
            continue
        taught.append((int(shown[j]), t["label"]))
        if found.codes[shown[j]] != t["label"]:
            fixes += 1
            misread += 1
    if hand:
        box = np.array([t["box"] for t in hand])
        lo, hi = box[:, :2].min(0), box[:, 2:].max(0)
        pad = np.median(box[:, 2:] - box[:, :2])
        for j in set(range(len(xy))) - used:
            c = (xy[j, :2] + xy[j, 2:]) / 2
            if np.all(c >= lo - pad) and np.all(c <= hi + pad):
                fixes += 1
    return fixes, misread, taught


def run_night(design: str, hands: int, seed: int, cache: Path, hows: dict | None = None,
              sheet_first: bool = False) -> dict:
    """Fixes per hand without a set and, for each blend of `hows` (name -> Blend; default:
    the shipped one as "with"), with the set learnt from the hands before; `sheet_first`:
    the set starts from the design's generated sheet photo (taught before the first hand,
    datasets.eval.tileset.teach_design) instead of empty."""
    from scoring.tiles import TILES
    from vision.runtime import operating_conf
    from vision.tileset.learn import plain_reads
    from vision.tileset.reader import DEFAULT_BLEND, TaughtClassifier
    from vision.tileset.store import TileSet

    hows = hows or {"with": DEFAULT_BLEND}
    sheets, base, reader, _ = setup(cache)
    scenes = load_scenes(scenes_of(design, hands, seed, cache), reader)
    conf = operating_conf()
    untaught = TaughtClassifier(base.base, None)
    tileset = TileSet(f"night-{design}", base.probe())
    if sheet_first:
        from datasets.eval.tileset import teach_design
        tileset = teach_design(design, sheets, cache)[0] or tileset
    rows = []
    for i, scene in enumerate(scenes):
        plain = untaught.refine(scene.rgb, scene.found).scaled(*scene.scale)
        row = {"hand": i + 1}
        row["without"], row["misread_without"], taught = hand_fixes(scene, plain, conf)
        shown = None
        for name, how in hows.items():
            learnt = TaughtClassifier(base.base, tileset, how).refine(scene.rgb, scene.found)
            shown = learnt.codes if shown is None else shown
            row[name], row[f"misread_{name}"], _ = hand_fixes(scene, learnt.scaled(*scene.scale),
                                                              conf)
        # what the page shows and the player corrects: the boxes shown, their true codes; a
        # fix is learnt only where the page (reading with the set) showed another code
        taught = [(j, code) for j, code in taught if code in TILES]
        if taught:
            boxes = scene.found.xyxy[[j for j, _ in taught]]
            seen = base.features(scene.rgb, boxes)
            codes = [c for _, c in taught]
            reads = [r if shown[j] != c else c
                     for r, (j, c) in zip(plain_reads(seen, base.names), taught)]
            tileset = tileset.add(codes, seen.features, seen.turned, f"hand:{i + 1}",
                                  reads=reads)
        rows.append(row)
        print(row, flush=True)
    later = [r for r in rows if r["hand"] >= 5]
    summary = {f"hands_5_on_{key}": round(float(np.mean([r[key] for r in later])), 3)
               for key in rows[0] if key != "hand"} if later else {}
    return {"design": design, "sheet_first": sheet_first, "hands": rows, "summary": summary}
