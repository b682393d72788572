"""Real photos: the Camerash sets read without and with a taught set.

    python -m datasets.eval.tileset camerash [--camerash ../shared/data/camerash]

`training`: the set is taught from the boxed tiles of the Camerash training photos (their
labels give the codes; other physical sets than the held-out ones), then the held-out
photos are read. `own set`: each held-out photo of a set with several is read with a set
taught from the set's OTHER held-out photos (a table's own set, taught on earlier photos).
Figures as datasets.eval.reader's (partly labelled photos: boxes away from every label are
left out).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from datasets.real.camerash_boxes import BOXES_JSON as BOXES


def taught_from(photos: dict, names: list[str], camerash: Path, refiner, probe):
    """A TileSet of the boxed tiles of the named photos."""
    from vision.image import load_photo
    from vision.tileset.learn import plain_reads
    from vision.tileset.store import TileSet

    tileset = TileSet("camerash", probe)
    for when, name in enumerate(names):
        tiles = photos[name]["tiles"]
        photo = load_photo(camerash / "raw-images" / name, min_side=refiner.decode_min_side)
        sx, sy = photo.scale
        boxes = np.array([t["box"] for t in tiles], np.float32) / [sx, sy, sx, sy]
        seen = refiner.features(photo.rgb, boxes)
        tileset = tileset.add([t["code"] for t in tiles], seen.features, seen.turned,
                              f"photo:{name}", when=float(when),
                              reads=plain_reads(seen, refiner.names))
    return tileset


def figures(samples, results, names) -> dict:
    from datasets.eval.metrics import f1, group_f1, mean_average_precision, score_tiles
    from vision.runtime import operating_conf

    counts = score_tiles(samples, results, operating_conf())
    per_class = {names[c]: f1(*v)[2] for c, v in counts.per_class.items() if v[0] + v[2] > 0}
    return {"photos": len(samples), "tiles": int(sum(len(s.class_id) for s in samples)),
            "f1": round(f1(counts.tp, counts.fp, counts.fn)[2], 4),
            "mAP50": round(mean_average_precision(samples, results, len(names))["mAP50"], 4),
            **group_f1(per_class),
            "confusions": [[names[t], names[r], n]
                           for (t, r), n in counts.confusions.most_common()]}


def run_camerash(camerash: Path) -> dict:
    from datasets.eval.samples import camerash_samples, run_reader
    from vision.pipeline import TileReader
    from vision.tileset.reader import TaughtClassifier, taught_refiner

    if not (camerash / "raw-images").is_dir():
        raise SystemExit(f"{camerash}: no Camerash photos here")
    photos = json.loads(BOXES.read_text())["photos"]
    base = taught_refiner()
    probe = base.probe()
    names = list(base.names)
    samples = camerash_samples(camerash, BOXES, held_out=True)
    train = sorted(n for n, p in photos.items() if not p["held_out"] and p["tiles"])
    taught = taught_from(photos, train, camerash, base, probe)
    out = {}
    for mode, tileset in (("untaught", None), ("training", taught)):
        reader = TileReader(refiner=TaughtClassifier(base.base, tileset))
        out[mode] = figures(samples, run_reader(reader, samples), names)
        print(mode, {k: v for k, v in out[mode].items() if k != "confusions"}, flush=True)
    out["own_set"] = own_set(photos, samples, camerash, base, probe, names)
    summary = {mode: {k: out[mode][k] for k in ("f1", "mAP50", "f1_flowers_seasons")}
               for mode in ("untaught", "training")}
    summary["own_set"] = {k: out["own_set"][m][k] for m in ("untaught", "taught")
                          for k in ("f1",)} if out["own_set"] else None
    return {**out, "summary": summary}


def own_set(photos, samples, camerash, base, probe, names, held_out: bool = True,
            hows: dict | None = None) -> dict | None:
    """Each photo (held out, or training) of a set with several, read with its set's other
    photos taught: untaught, and with each blend of `hows` (default: the shipped one)."""
    from datasets.eval.samples import run_reader
    from vision.pipeline import TileReader
    from vision.tileset.reader import DEFAULT_BLEND, TaughtClassifier

    hows = hows or {"taught": DEFAULT_BLEND}
    by_set: dict[str, list[str]] = {}
    for name, p in photos.items():
        if p["held_out"] == held_out and p["tiles"]:
            by_set.setdefault(p["set"], []).append(name)
    chosen = [s for s in samples if len(by_set[photos[s.image.name]["set"]]) > 1]
    if not chosen:
        return None
    results = {"untaught": [], **{name: [] for name in hows}}
    plain = TileReader(refiner=TaughtClassifier(base.base, None))
    for sample in chosen:
        others = sorted(n for n in by_set[photos[sample.image.name]["set"]]
                        if n != sample.image.name)
        tileset = taught_from(photos, others, camerash, base, probe)
        results["untaught"] += run_reader(plain, [sample])
        for name, how in hows.items():
            reader = TileReader(refiner=TaughtClassifier(base.base, tileset, how))
            results[name] += run_reader(reader, [sample])
    out = {mode: figures(chosen, r, names) for mode, r in results.items()}
    print("own set", {m: {k: v for k, v in o.items() if k != "confusions"} for m, o in out.items()},
          flush=True)
    return out


def run_own_set_training(camerash: Path, hows: dict) -> dict | None:
    """Development: the Camerash training photos, each read with its set's other photos."""
    from datasets.eval.samples import camerash_samples
    from vision.tileset.reader import taught_refiner

    photos = json.loads(BOXES.read_text())["photos"]
    base = taught_refiner()
    samples = camerash_samples(camerash, BOXES, held_out=False)
    return own_set(photos, samples, camerash, base, base.probe(), list(base.names),
                   held_out=False, hows=hows)
