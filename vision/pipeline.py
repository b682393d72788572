"""Photo in, tiles out: decode, detect (a second look where the tiles are small,
vision/recognition/zoom.py), refine, look again at the rows' gaps (vision/recognition/look.py),
with the boxes in full-resolution pixels.

`TileReader` holds the detector session and the refiner, so a batch of photos pays the
model loading once. The JPEG is decoded at reduced scale, which is what keeps a 12 MP photo
under 300 ms: without a crop classifier the detector's 640 pixels are enough; a refiner says
how many it needs in `decode_min_side` (None: the whole photo).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

import numpy as np

from vision.image import DEFAULT_MAX_PIXELS, Photo, load_photo
from vision.recognition.detector import Detector
from vision.recognition.look import WEAK_FLOOR, look_again
from vision.recognition.refine import Refiner, default_refiner
from vision.recognition.stacking import StackReader, stack_reader
from vision.recognition.zoom import detect_zoomed
from vision.runtime import operating_conf
from vision.types import Detections

# Boxes overlapping more than this are one tile (cv2.dnn.NMSBoxes, whatever the class). No two
# tiles of the development scenes overlap by IoU 0.3, while the finder's duplicate boxes for
# one tile often do by 0.5-0.7 and then read as a phantom extra tile.
NMS_IOU = 0.45
# The most boxes read in one photo: a hand is 14-22 tiles, a teaching sheet of a whole set
# 144, a packed grid of 192 is still read whole. Each box costs the readers crops at several
# sizes; the detector's own bound (300) is what `--conf 0` reaches on any photo.
MAX_TILES = 200


@dataclass(frozen=True)
class PhotoReading:
    """One photo's tiles; `seconds` covers decode, detect and refine."""

    photo: Photo
    detections: Detections  # boxes in full-resolution upright pixels
    seconds: float

    @property
    def tile_score(self) -> np.ndarray:
        """Per detection, the detector's "a tile is here" score, which the operating
        confidence is applied to (the reader's class probability lowers
        `detections.confidence` and marks a tile doubtful, but never drops it)."""
        return self.detections.finder_score


class TileReader:
    def __init__(self, model_path: str | os.PathLike | None = None,
                 refiner: Refiner | None = None, conf: float | None = None, iou: float = NMS_IOU,
                 agnostic: bool = True, max_pixels: int = DEFAULT_MAX_PIXELS,
                 stacking: StackReader | None | str = "default", zoom: bool = True,
                 look: bool = True) -> None:
        self.detector = Detector(model_path)  # None: $MAHJONG_LENS_MODEL or the committed one
        self.zoom = zoom  # read the region of small tiles again (vision/recognition/zoom.py)
        self.look = look  # look again at the rows' gaps and half boxes (vision/recognition/look.py)
        # a spec ("default": the committed stack classifier when there is one) or a reader
        self.stacking = stack_reader(stacking) if isinstance(stacking, str) else stacking
        # None → the pipeline's default second stage (vision/recognition/refine.py records the decision)
        self.refiner = refiner if refiner is not None else default_refiner(names=self.detector.names)
        if self.detector.finds_only_tiles and getattr(self.refiner, "mode", None) != "reader":
            raise ValueError(f"{self.detector.path} only finds tiles and no crop classifier is "
                             f"there to read them (models/tile_classifier.onnx, or "
                             f"MAHJONG_LENS_CLASSIFIER)")
        self.conf = operating_conf() if conf is None else conf
        self.iou, self.agnostic = iou, agnostic
        self.max_pixels = max_pixels

    @property
    def names(self) -> tuple[str, ...]:
        """The classes the reader returns: the classifier's behind a tile finder."""
        return self.refiner.names if self.detector.finds_only_tiles else self.detector.names

    def find(self, rgb: np.ndarray) -> Detections:
        """The tiles the detector finds in a decoded photo, before the refiner reads them:
        the MAX_TILES surest at most."""
        return self.find_all(rgb)[0]

    def find_all(self, rgb: np.ndarray) -> tuple[Detections, Detections]:
        """`find`'s tiles, and the weak boxes under the operating confidence (down to
        look.WEAK_FLOOR) that say where to look again (the same passes: the boxes at or over
        the confidence are the same whatever the floor, as suppression goes surest first)."""
        detect = detect_zoomed if self.zoom else Detector.detect
        found = detect(self.detector, rgb, conf=min(self.conf, WEAK_FLOOR), iou=self.iou,
                       agnostic=self.agnostic, tile_score=getattr(self.refiner, "tile_score", "class"))
        sure = found.confidence >= self.conf
        kept, weak = found.select(np.flatnonzero(sure)), found.select(np.flatnonzero(~sure))
        if len(kept) <= MAX_TILES:
            return kept, weak
        return kept.select(np.sort(np.argsort(-kept.confidence, kind="stable")[:MAX_TILES])), weak

    def read(self, source, finder_edit=None) -> PhotoReading:
        """Read one photo (path or bytes); raises `ImageError` for a bad file. `finder_edit`
        (for evaluations): a function of the finder's (boxes kept, weak boxes) and the
        photo's scale (`Photo.scale`: decoded to full-resolution pixels) that returns them
        changed, e.g. with a tile's box taken away, before they are read."""
        start = time.perf_counter()
        wanted = getattr(self.refiner, "decode_min_side", None)  # None: full resolution
        photo = load_photo(source, max_pixels=self.max_pixels,
                           min_side=None if wanted is None
                           else max(min(self.detector.imgsz), wanted))
        found, weak = self.find_all(photo.rgb)
        if finder_edit is not None:
            found, weak = finder_edit(found, weak, photo.scale)
        found = self.refiner.refine(photo.rgb, found)
        if self.look:
            found = look_again(photo.rgb, found, weak, self.conf, self.detector, self.refiner,
                               self.iou)
        if self.stacking is not None:
            found = replace(found, on_top=self.stacking.on_top(photo.rgb, found.xyxy,
                                                               found.codes))
        sx, sy = photo.scale
        if (sx, sy) != (1.0, 1.0):
            found = found.scaled(sx, sy)
        return PhotoReading(photo, found, time.perf_counter() - start)


def read_layout_from_path(path, model=None, refiner: Refiner | None = None):
    """`mahjong-lens read PHOTO`: the photo's `TableLayout` (vision.layout), timed; `refiner`:
    another second stage (e.g. one reading with a table's set, vision.tileset.refiner_for).

    A photo in which no tile is found is an error (one line, `ValueError`): there is nothing
    to lay out and the user should retake it. Tiles too small or too blurred to read well
    add a note (vision/legibility.py)."""
    from vision.layout import read_layout
    from vision.legibility import photo_hint

    reading = TileReader(model, refiner=refiner).read(path)
    if len(reading.detections) == 0:
        raise ValueError(f"{path}: no tiles found in the photo")
    layout = read_layout(reading.detections)
    hint = photo_hint(reading.photo.rgb, layout, reading.photo.scale)
    return replace(layout, notes=layout.notes + (hint,)) if hint else layout
