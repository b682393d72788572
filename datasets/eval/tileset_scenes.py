"""The scenes every tile-set evaluation reads (datasets/eval/tileset.py and its game night):
generated once per design into the cache, decoded and with the tile finder's boxes, and the
readers they are read with."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass
class Scene:
    """One scene read up to the refiner: the decoded photo, the finder's boxes, the truth."""
    image: Path
    rgb: np.ndarray
    scale: tuple[float, float]
    found: object   # vision.types.Detections in decoded pixels
    truth: dict
    sample: object  # datasets.eval.samples.Sample


SCENE_SIDE = 1280  # the scenes' long side, as the generator draws them by default


def scenes_of(design: str, count: int, seed: int, cache: Path, side: int = SCENE_SIDE) -> Path:
    """The design's scenes, `side` pixels on their long side, generated once into the cache.
    Face-down tiles are labelled `back`, as in the pipeline's evaluation scenes: the finder
    finds them and the reader reads them, so unlabelled they would count as false tiles."""
    from datasets.synth.generate import generate

    suffix = "" if side == SCENE_SIDE else f"_{side}px"
    folder = cache / f"scenes_{design}_{seed}_{count}_fd{suffix}"
    if not (folder / "truth").is_dir() or len(list((folder / "truth").glob("*.json"))) < count:
        generate(folder, count, seed, designs_spec=design, size=side, workers=1,
                 label_face_down=True)
    return folder


def load_scenes(folder: Path, reader) -> list[Scene]:
    """The scenes of a generated folder, decoded and with the finder's boxes; the truth's
    labelled boxes are the samples (as their YOLO labels say)."""
    from datasets.eval.samples import Sample
    from vision.image import load_photo

    out = []
    for path in sorted((folder / "truth").glob("*.json")):
        truth = json.loads(path.read_text())
        labelled = [t for t in truth["tiles"] if t.get("label")]
        image = folder / "images" / f"{path.stem}.jpg"
        sample = Sample(image, np.array([t["box"] for t in labelled], np.float64).reshape(-1, 4),
                        np.array([t["class_id"] for t in labelled], np.int64))
        photo = load_photo(image, min_side=max(min(reader.detector.imgsz),
                                               reader.refiner.decode_min_side))
        out.append(Scene(image, photo.rgb, photo.scale, reader.find(photo.rgb), truth, sample))
    return out


def setup(cache: Path):
    from vision.recognition.stacking import stack_reader
    from vision.tileset.learn import sheet_reader
    from vision.tileset.reader import taught_refiner

    cache.mkdir(parents=True, exist_ok=True)
    sheets = sheet_reader()
    base = taught_refiner()
    from vision.pipeline import TileReader
    reader = TileReader(refiner=base, stacking=None)
    return sheets, base, reader, stack_reader("default")
