"""Render KMahjongg SVG tilesets with QtSvg, as Kajongg does (artwork.md §2).

Run with Debian's python3 (python3-pyqt5.qtsvg), not the project python:
    QT_QPA_PLATFORM=offscreen /usr/bin/python3 kmj_qt.py SET.svgz OUTDIR FACE_H
It writes OUTDIR/<ELEMENT>.png: the face element drawn over the body (TILE_2), cropped to the
face rectangle. rsvg-convert computes wrong bounding boxes for these files, hence Qt.
"""
import gzip
import sys
from pathlib import Path

from PyQt5.QtCore import QByteArray, QRectF
from PyQt5.QtGui import QGuiApplication, QImage, QPainter
from PyQt5.QtSvg import QSvgRenderer

ELEMENTS = ([f"CHARACTER_{n}" for n in range(1, 10)] + [f"ROD_{n}" for n in range(1, 10)]
            + [f"BAMBOO_{n}" for n in range(1, 10)] + [f"WIND_{n}" for n in range(1, 5)]
            + [f"DRAGON_{n}" for n in range(1, 4)] + [f"FLOWER_{n}" for n in range(1, 5)]
            + [f"SEASON_{n}" for n in range(1, 5)])


def main(src: str, out: str, face_h: int) -> None:
    app = QGuiApplication(sys.argv[:1])  # noqa: F841 (QtSvg needs an application object)
    data = Path(src).read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    r = QSvgRenderer(QByteArray(data))
    face, tile = r.boundsOnElement("BAMBOO_1"), r.boundsOnElement("TILE_2")
    s = face_h / face.height()
    W, H = int(round(face.width() * s)), face_h
    Path(out).mkdir(parents=True, exist_ok=True)
    for el in ELEMENTS + ["TILE_2"]:
        if not r.elementExists(el):
            continue
        img = QImage(int(tile.width() * s) + 1, int(tile.height() * s) + 1, QImage.Format_ARGB32)
        img.fill(0)
        p = QPainter(img)
        p.setRenderHint(QPainter.Antialiasing)
        r.render(p, "TILE_2", QRectF(0, 0, tile.width() * s, tile.height() * s))
        if el != "TILE_2":
            r.render(p, el, QRectF(0, 0, W, H))
        p.end()
        img.copy(0, 0, W, H).save(str(Path(out) / f"{el}.png"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
