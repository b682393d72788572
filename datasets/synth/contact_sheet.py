"""Draw the labels over 16 generated scenes, so that anyone can look at the data.

    python -m datasets.synth.contact_sheet DIR [--out sheet.png] [--first 0] [--width 1600] [--colors 0]

Boxes are coloured by group (concealed, meld, bonus, winning, distractor); the label is the
class name; `back` boxes are dashed-looking grey; the hand notation is printed per scene.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

GROUP_BGR = {"concealed": (60, 200, 60), "winning": (0, 220, 255), "bonus": (255, 80, 255), "distractor": (255, 160, 40)}
MELD_BGR = (40, 40, 255)


def draw_labels(img: np.ndarray, truth: dict, scale: float) -> np.ndarray:
    """img: BGR; draws each labelled tile's box and, thinly, its quad."""
    for t in truth["tiles"]:
        if not t["box"]:
            continue
        col = MELD_BGR if t["group"].startswith("meld") else GROUP_BGR.get(t["group"], (200, 200, 200))
        x0, y0, x1, y1 = (int(round(v * scale)) for v in t["box"])
        cv2.rectangle(img, (x0, y0), (x1, y1), col, 1, cv2.LINE_AA)
        q = (np.array(t["quad"]) * scale).round().astype(np.int32)
        cv2.line(img, tuple(q[0]), tuple(q[1]), col, 2, cv2.LINE_AA)   # the face's top edge: shows rotation
        txt = t["label"]
        cv2.putText(img, txt, (x0 + 1, max(9, y0 - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.33, (0, 0, 0), 2, cv2.LINE_AA)
        cv2.putText(img, txt, (x0 + 1, max(9, y0 - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.33, col, 1, cv2.LINE_AA)
    return img


def contact_sheet(run: Path, first: int = 0, n: int = 16, width: int = 1600, cols: int = 4) -> np.ndarray:
    cell = width // cols
    truths = sorted((run / "truth").glob("*.json"))[first:first + n]
    rows = (len(truths) + cols - 1) // cols
    sheet = np.full((rows * cell, width, 3), 30, np.uint8)
    for i, p in enumerate(truths):
        truth = json.loads(p.read_text())
        img = cv2.imread(str(run / truth["image"]))
        s = cell / max(img.shape[:2])
        img = cv2.resize(img, (int(img.shape[1] * s), int(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
        img = draw_labels(img, truth, s)
        note = f"{truth['index']}: {truth['hand']['notation']} {' '.join(truth['hand']['bonus'])}"
        cv2.putText(img, note, (3, img.shape[0] - 5), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 0), 2, cv2.LINE_AA)
        cv2.putText(img, note, (3, img.shape[0] - 5), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (255, 255, 255), 1, cv2.LINE_AA)
        r, c = divmod(i, cols)
        y0, x0 = r * cell + (cell - img.shape[0]) // 2, c * cell + (cell - img.shape[1]) // 2
        sheet[y0:y0 + img.shape[0], x0:x0 + img.shape[1]] = img
    return sheet


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--width", type=int, default=1600)
    ap.add_argument("--colors", type=int, default=0, help="quantise to this many colours (small PNG for the README)")
    a = ap.parse_args(argv)
    sheet = cv2.cvtColor(contact_sheet(a.run, a.first, width=a.width), cv2.COLOR_BGR2RGB)
    out = a.out or a.run / "contact_sheet.png"
    im = Image.fromarray(sheet)
    if a.colors:
        im = im.quantize(a.colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    im.save(out, optimize=True)
    print(out, out.stat().st_size // 1024, "KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
