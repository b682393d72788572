"""Quantize the tile finder and the tile reader to 8-bit integers (onnxruntime, QDQ).

    python -m datasets.synth.batch --out cache/synth_calib --count 40 --seed 7 --label-face-down
    python -m datasets.experiments.quantize finder models/detector.onnx --scenes cache/synth_calib \
        --out cache/finder_int8.onnx
    python -m datasets.experiments.quantize reader models/tile_classifier.onnx --scenes cache/synth_calib \
        --out cache/reader_int8.onnx

Not used by the committed models: both were measured under a rule written first. The
8-bit pair read the 12 MP photo 1.43 times faster but lost 0.45 points of F1 on the
development design; the 8-bit reader alone lost 0.31 points and 8 layout hands for 1.17
times (docs/experiments.md, "Speed of a 12 MP photo"). Kept to try again
with a reader built to quantize well (or trained with quantization in the loop); try any
candidate with `MAHJONG_LENS_MODEL` / `MAHJONG_LENS_CLASSIFIER` and datasets/eval/reader.py.

Calibration shows each network what it sees in the app, drawn from scenes of the *training*
designs: the finder the letterboxed scene and the region its second look reads
(vision/recognition/zoom.py), the reader each labelled tile cut by `CropClassifier.crops`, both ways up.
Weights are int8 per output channel in 7 bits (`reduce_range`): a CPU without VNNI
multiplies uint8 by int8 in 16-bit pairs that 8-bit weights can overflow, so 7 bits give
the same integers on every x86 CPU. The finder's box decoding (`/model.23/` after its last
convolutions) stays in float: it turns distances into pixels, where an 8-bit step is a
visible shift of a box.

The output keeps the source's metadata (`names`, `imgsz`, `views`...) and adds `quantized`:
the source's SHA-256, the settings and the calibration scenes. No network, no torch: only
onnx and onnxruntime (the test extra). The same inputs give the same file, byte for byte.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from datasets.eval.samples import Sample, synth_samples

MAX_MODEL_BYTES = 30 * 1024 * 1024
FINDER_DECODE = ("/model.23/dfl", "/model.23/Concat", "/model.23/Reshape", "/model.23/Slice",
                 "/model.23/Sigmoid", "/model.23/Sub", "/model.23/Add", "/model.23/Div",
                 "/model.23/Mul")
READER_CROPS = 1536  # crops (both ways up counted apart) the reader is calibrated on


@dataclass(frozen=True)
class Recipe:
    """How one kind of network is quantized (the chosen settings: models/README.md)."""

    calibration: str  # onnxruntime CalibrationMethod name
    keep_float: tuple[str, ...]  # node-name prefixes left in float


RECIPES = {
    "finder": Recipe("MinMax", FINDER_DECODE),
    "reader": Recipe("Percentile", ()),
}


def finder_inputs(samples: list[Sample], imgsz: tuple[int, int]) -> list[np.ndarray]:
    """(1, 3, H, W) blobs: each scene as the finder's first look prepares it, and the region
    its second look reads (vision.recognition.zoom.tile_region round the labelled tiles)."""
    from vision.recognition.detector import input_blob
    from vision.recognition.zoom import tile_region

    blobs = []
    for sample in samples:
        rgb = _rgb(sample.image)
        views = [rgb]
        region = tile_region(sample.xyxy, rgb.shape[:2], imgsz)
        if region is not None:
            views.append(np.ascontiguousarray(rgb[region.y0:region.y1, region.x0:region.x1]))
        blobs.extend(input_blob(view, imgsz)[0] for view in views)
    return blobs


def reader_inputs(samples: list[Sample], source: Path, count: int = READER_CROPS,
                  seed: int = 0) -> list[np.ndarray]:
    """Batches of crops of the scenes' labelled tiles, cut as the app cuts them, each also
    turned 180°, `count` of them drawn at random."""
    from vision.recognition.refine import CropClassifier, turn_over

    cutter = CropClassifier(source, mode="reader")  # the source says how: input size, margin
    crops = []
    for sample in samples:
        batch = cutter.crops(_rgb(sample.image), sample.xyxy)
        crops.extend([batch, turn_over(batch)])
    crops = np.concatenate(crops)
    crops = crops[np.random.default_rng(seed).permutation(len(crops))[:count]]
    return [crops[i:i + 64] for i in range(0, len(crops), 64)]


def _rgb(path: Path) -> np.ndarray:
    from vision.image import load_photo
    return load_photo(path).rgb


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def quantize(kind: str, source: Path, scenes: Path, out: Path) -> dict:
    """Write the int8 model of `source` to `out`; returns what its `quantized` metadata says."""
    import onnx  # noqa: F401 (here, so that without onnx it fails before any calibration work)
    import onnxruntime

    recipe = RECIPES[kind]
    samples = synth_samples(scenes)
    if not samples:
        raise SystemExit(f"{scenes}: no scenes to calibrate on")
    batches = _calibration_inputs(kind, source, samples)
    _quantize_static(source, out, recipe, batches)
    info = {"kind": kind, "source_sha256": sha256(source), "calibration": recipe.calibration,
            "keep_float": list(recipe.keep_float),
            "weights": "int8 per channel, 7 bits", "activations": "uint8",
            "calibration_scenes": f"{scenes.name} ({len(samples)} scenes)",
            "calibration_inputs": int(sum(len(b) for b in batches)),
            "onnxruntime": onnxruntime.__version__}
    _set_metadata(out, info)
    if out.stat().st_size > MAX_MODEL_BYTES:
        raise SystemExit(f"{out}: {out.stat().st_size} bytes, over the 30 MB the repository keeps")
    return info


def _calibration_inputs(kind: str, source: Path, samples: list[Sample]) -> list[np.ndarray]:
    """What the network of `kind` is calibrated on: finder_inputs or reader_inputs."""
    if kind == "finder":
        from vision.recognition.detector import Detector
        return finder_inputs(samples, Detector(source).imgsz)
    return reader_inputs(samples, source)


def _quantize_static(source: Path, out: Path, recipe: Recipe, batches: list[np.ndarray]) -> None:
    """Prepare `source` for the quantizer (shapes inferred, graph optimised) and write its
    QDQ int8 model to `out`, calibrated on `batches`."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
        graph = onnx.load(str(prepared)).graph
        keep = [n.name for n in graph.node if n.name.startswith(recipe.keep_float)]
        quantize_static(str(prepared), str(out), _calibration_reader(batches, graph.input[0].name),
                        quant_format=QuantFormat.QDQ,
                        per_channel=True, reduce_range=True, weight_type=QuantType.QInt8,
                        activation_type=QuantType.QUInt8,
                        calibrate_method=getattr(CalibrationMethod, recipe.calibration),
                        nodes_to_exclude=keep)


def _calibration_reader(batches: list[np.ndarray], input_name: str):
    """`batches` as the quantizer reads them: one input of `input_name` a call."""
    from onnxruntime.quantization import CalibrationDataReader

    class Batches(CalibrationDataReader):
        def __init__(self, input_name: str) -> None:
            self.input_name, self.left = input_name, iter(batches)

        def get_next(self):
            batch = next(self.left, None)
            return None if batch is None else {self.input_name: batch}

    return Batches(input_name)


def _set_metadata(path: Path, info: dict) -> None:
    """The model at `path` keeps the source's metadata, less the quantizer's own notes
    (onnx.*), and says how it was quantized (`info`, as JSON under `quantized`)."""
    import onnx

    model = onnx.load(str(path))
    meta = {p.key: p.value for p in model.metadata_props if not p.key.startswith("onnx.")}
    meta["quantized"] = json.dumps(info, sort_keys=True)
    del model.metadata_props[:]
    for key, value in meta.items():
        model.metadata_props.add(key=key, value=value)
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=sorted(RECIPES))
    parser.add_argument("source", type=Path, help="the float ONNX model (models/ or an export's)")
    parser.add_argument("--scenes", type=Path, required=True,
                        help="synthetic scenes of the training designs to calibrate on")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.source.resolve() == args.out.resolve():
        parser.error("--out must differ from the source (the float model is the reference)")
    info = quantize(args.kind, args.source, args.scenes, args.out)
    print(json.dumps(info))
    return 0


if __name__ == "__main__":
    sys.exit(main())
