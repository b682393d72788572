"""Which tile designs a scene may use, how often, and the held-out evaluation split.

Designs are named (`xmj_real`, `kmj_default`, `proc_s017`, ...) and every scene records the
ones it used, so that the detector can be evaluated on designs it never saw in training.
"""
from __future__ import annotations

import fnmatch

import numpy as np

from datasets.art.atlas import list_designs, load_meta

# Held out of training by default (README "Design split"): three named styles of different
# realism, all complete in the 42 classes, and 8 of the 64 default procedural seeds.
HELD_OUT = ("kmj_traditional", "xmj_dorothys", "font_notosymbols2") + tuple(f"proc_s{s:03d}" for s in range(56, 64))
# Extracted after the scenes of the committed models were drawn, so kept out
# of `train` (those commands still draw the same scenes): `extra` is art a reader may learn,
# `dev` a design no model learns, to choose by how well unseen art is read without looking at
# the held-out designs, which only report.
EXTRA = ("xmj_thick", "xmj_small")
DEVELOPMENT = ("gnome_postmodern",)
# Procedural sets drawn after every committed model was trained: tile sets no model learnt,
# to choose how a table's set is learnt (datasets/eval/tileset.py) without the held-out ones.
SET_DEVELOPMENT = tuple(f"proc_s{s:03d}" for s in range(64, 70))
NEVER_LEARNT = HELD_OUT + DEVELOPMENT + SET_DEVELOPMENT  # no training run may draw these
REALISM_WEIGHT = {5: 3.0, 4: 2.5, 3: 1.5, 2: 1.0, 1: 0.5, 0: 0.0}
PROCEDURAL_SHARE = 0.35   # procedural sets are the only source of many bonus-tile looks


def select(spec: str | None, root=None) -> list[str]:
    """`spec`: comma-separated patterns; `train` (default) = all but HELD_OUT, EXTRA and
    DEVELOPMENT, `extra`, `dev`, `heldout`, `all`;
    a leading `-` excludes, e.g. `train,-font_*` or `xmj_real,proc_s00*`."""
    names = list_designs(root)
    chosen: list[str] = []
    for part in (spec or "train").split(","):
        part = part.strip()
        if not part:
            continue
        if part.startswith("-"):
            chosen = [n for n in chosen if not fnmatch.fnmatch(n, part[1:])]
        elif part == "train":
            chosen += [n for n in names if n not in NEVER_LEARNT + EXTRA]
        elif part == "extra":
            chosen += [n for n in names if n in EXTRA]
        elif part == "dev":
            chosen += [n for n in names if n in DEVELOPMENT]
        elif part == "heldout":
            chosen += [n for n in names if n in HELD_OUT]
        elif part == "all":
            chosen += names
        else:
            chosen += fnmatch.filter(names, part)
    return sorted(dict.fromkeys(chosen))


def sample_design(rng: np.random.Generator, names: list[str], small_tiles: bool, root=None) -> str:
    """Weighted by realism; tiny pixel-art sets only where tiles are drawn small."""
    procs = [n for n in names if n.startswith("proc_")]
    others = [n for n in names if not n.startswith("proc_")
              and (small_tiles or not load_meta(n, root).get("tiny_only"))]
    if procs and (not others or rng.random() < PROCEDURAL_SHARE):
        return procs[rng.integers(len(procs))]
    pool = others or names
    w = np.array([REALISM_WEIGHT.get(load_meta(n, root).get("realism", 2), 1.0) for n in pool]) + 1e-6
    return pool[rng.choice(len(pool), p=w / w.sum())]
