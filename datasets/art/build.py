"""Build the art cache: every installable design plus procedural ones, one atlas each.

    python -m datasets.art.build [--out DIR] [--procedural N] [--force] [--only NAME ...]

Idempotent: a design whose meta.json exists is skipped unless --force. A source whose package
is missing is reported and skipped, so that a partial machine still gets procedural designs.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from datasets.art import debian_raster, fonts, kmj, pypi
from datasets.art.atlas import art_dir, list_designs, save_design
from datasets.art.faces import available_fonts, missing_fonts, render_design

DEFAULT_PROCEDURAL = 70  # seeds 0..69; held-out and development ones: datasets/art/designs.py


def build(out: Path, debroot: Path, pypi_dir: Path, n_procedural: int, force: bool, only: list[str] | None) -> list[str]:
    done = set(list_designs(out)) if not force else set()
    made, failed = [], []
    sources = [(n, f, m, debroot) for n, (f, m) in {**debian_raster.SOURCES, **kmj.SOURCES, **fonts.SOURCES}.items()]
    sources += [(n, f, m, pypi_dir) for n, (f, m) in pypi.SOURCES.items()]
    for name, fn, meta, root in sources:
        if (only and name not in only) or name in done:
            continue
        try:
            faces = fn(root)
            save_design(out, name, faces, {"source": meta.get("package", ""), **meta})
            made.append(name)
        except Exception as e:  # a missing package must not stop the others
            failed.append(f"{name}: {type(e).__name__}: {e}"[:200])
    if available_fonts():
        missing = missing_fonts()
        if missing:
            print("warning: fonts not installed, so the procedural sets that use them are drawn "
                  "in another font (not as the committed models saw them): "
                  + ", ".join(missing), file=sys.stderr)
        for seed in range(n_procedural):
            name = f"proc_s{seed:03d}"
            if (only and name not in only) or name in done:
                continue
            arr, meta = render_design(seed)
            save_design(out, name, dict(zip(_codes(), arr)), meta)
            made.append(name)
    else:
        failed.append("procedural: no CJK font")
    for f in failed:
        print("skipped", f, file=sys.stderr)
    return made


def _codes():
    from datasets.classes import TILE_CODES
    return TILE_CODES


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--debroot", type=Path, default=Path("/"), help="where the Debian packages are installed or unpacked")
    ap.add_argument("--pypi", type=Path, default=None, help="pip --target folder with mahjong-learner and mahjax")
    ap.add_argument("--procedural", type=int, default=DEFAULT_PROCEDURAL)
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args(argv)
    out = a.out or art_dir()
    out.mkdir(parents=True, exist_ok=True)
    t = time.time()
    made = build(out, a.debroot, a.pypi or out / "_pypi", a.procedural, a.force, a.only)
    print(f"built {len(made)} designs in {time.time() - t:.1f} s; cache {out} holds {len(list_designs(out))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
