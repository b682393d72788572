"""The tile finder read without most of its grey padding: not used by the committed models.

    python -m datasets.experiments.any_size_finder export models/detector.onnx --out cache/finder_any.onnx
    python -m datasets.experiments.any_size_finder compare cache/finder_any.onnx \
        --scenes cache/synth_fd_val [--limit 300]

A YOLO11 export at a fixed size bakes that size into a few constants: the anchor points and
strides of the box decoding and the shapes the attention block and the box decoder reshape
to. `export` makes each an input instead and frees the image's height and width (weights
untouched; fed the 640 x 640 values, the graph gives the fixed one's output bit for bit).
`AnySizeDetector` letterboxes a photo at the usual scale but pads only to multiples of 32,
so a 4:3 photo is read at 640 x 480: the finder's ONNX call 25 % less CPU. `compare` reads
scenes with the committed finder and with this one, as the app does, and prints both F1 at
the operating confidence. It read worse on the development and the held-out scenes
(docs/experiments.md, 2026-12-05), so the app keeps the 640 x 640 input.
"""
from __future__ import annotations

import argparse
import math
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.recognition.detector import Detector, input_blob

# the fixed export's constants, by name, and the input that replaces each (one input may
# replace two constants of the same value: the decoder adds and subtracts the anchors)
REPLACED = {
    "/model.10/m/m.0/attn/Constant_output_0": "attn_shape",
    "/model.10/m/m.0/attn/Constant_3_output_0": "attn_grid",
    "/model.23/dfl/Constant_output_0": "dfl_shape",
    "/model.23/dfl/Constant_1_output_0": "dfl_boxes",
    "/model.23/Constant_12_output_0": "anchors",
    "/model.23/Constant_13_output_0": "anchors",
    "/model.23/Constant_15_output_0": "strides",
}


def any_size(model, size: tuple[int, int] = (640, 640)):
    """The model with its size constants made inputs; refuses a graph whose constants are not
    those of a fixed export at `size`."""
    from onnx import helper, numpy_helper
    graph = model.graph
    expected = shape_feeds(*size)  # what AnySizeDetector feeds for this size
    found = {init.name: init for init in graph.initializer if init.name in REPLACED}
    if set(found) != set(REPLACED):
        raise ValueError(f"not a YOLO11 export of this layout: missing {sorted(set(REPLACED) - set(found))}")
    for name, init in found.items():
        if not np.array_equal(numpy_helper.to_array(init), expected[REPLACED[name]]):
            raise ValueError(f"{name}: not the value of a {size[0]} x {size[1]} export")
    for node in graph.node:  # read the inputs where the constants were read
        node.input[:] = [REPLACED.get(name, name) for name in node.input]
    kept = [init for init in graph.initializer if init.name not in REPLACED]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    for name, value in expected.items():
        dims = ["anchors" if d == value.shape[-1] and value.ndim > 1 and name in ("anchors", "strides")
                else d for d in value.shape]
        graph.input.append(helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(value.dtype), dims))
    image = graph.input[0].type.tensor_type.shape
    image.dim[2].dim_param, image.dim[3].dim_param = "height", "width"
    graph.output[0].type.tensor_type.shape.dim[2].dim_param = "anchors"
    del graph.value_info[:]  # the shapes inferred for the fixed size no longer hold
    helper.set_model_props(model, {**{p.key: p.value for p in model.metadata_props}, "any_size": "32"})
    return model


@lru_cache(maxsize=64)
def shape_feeds(height: int, width: int) -> dict[str, np.ndarray]:
    """The size inputs of an exported any-size finder: its anchor points and strides and the
    shapes it reshapes to, for an input of this size."""
    points, strides = [], []
    for s in (8, 16, 32):
        gy, gx = np.meshgrid(np.arange(height // s) + 0.5, np.arange(width // s) + 0.5,
                             indexing="ij")
        points.append(np.stack([gx.ravel(), gy.ravel()]))
        strides.append(np.full(gx.size, s))
    anchors = np.concatenate(points, axis=1).astype(np.float32)
    count = anchors.shape[1]
    h32, w32 = height // 32, width // 32
    return {"attn_shape": np.array([1, 2, 128, h32 * w32], np.int64),
            "attn_grid": np.array([1, 128, h32, w32], np.int64),
            "dfl_shape": np.array([1, 4, 16, count], np.int64),
            "dfl_boxes": np.array([1, 4, count], np.int64),
            "anchors": anchors[None],
            "strides": np.concatenate(strides).astype(np.float32)[None]}


class AnySizeDetector(Detector):
    """An exported any-size finder, letterboxed at the 640 x 640 scale, padded to 32."""

    STEP = 32

    def input_size(self, height: int, width: int) -> tuple[int, int]:
        top_h, top_w = self.imgsz
        scale = min(top_h / height, top_w / width)
        return (min(top_h, self.STEP * math.ceil(max(1, round(height * scale)) / self.STEP)),
                min(top_w, self.STEP * math.ceil(max(1, round(width * scale)) / self.STEP)))

    def prepare(self, rgb: np.ndarray):
        return input_blob(rgb, self.input_size(*rgb.shape[:2]))

    def run(self, blob: np.ndarray) -> np.ndarray:
        feeds = {self.input_name: blob, **shape_feeds(*blob.shape[2:4])}
        return self.session.run(None, feeds)[0]


def compare(model: Path, scenes: Path, limit: int | None) -> dict:
    """F1 at the operating confidence of the app's reading with the committed finder and
    with `model` read at any size, and in how many scenes both read the same tiles."""
    from datasets.eval.metrics import f1, score_tiles
    from datasets.eval.samples import run_reader, synth_samples
    from vision.pipeline import TileReader
    from vision.runtime import operating_conf
    samples = synth_samples(scenes)[:limit]
    conf = operating_conf()
    committed, tight = TileReader(conf=conf), TileReader(conf=conf)
    tight.detector = AnySizeDetector(model)
    out = {}
    results = {name: run_reader(reader, samples) for name, reader in
               (("committed", committed), ("any_size", tight))}
    for name, found in results.items():
        score = score_tiles(samples, found, conf)
        out[name] = {"f1": round(f1(score.tp, score.fp, score.fn)[2], 4), "right": score.tp,
                     "wrong_or_extra": score.fp, "photos_right": score.photos_right}
    out["same_tiles"] = sum(np.array_equal(np.sort(a.class_id), np.sort(b.class_id))
                            for a, b in zip(*results.values()))
    print(f"{scenes.name}, {len(samples)} scenes: {out}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    export = sub.add_parser("export")
    export.add_argument("model", type=Path)
    export.add_argument("--out", type=Path, required=True)
    check = sub.add_parser("compare")
    check.add_argument("model", type=Path)
    check.add_argument("--scenes", type=Path, required=True)
    check.add_argument("--limit", type=int)
    args = parser.parse_args(argv)
    if args.step == "compare":
        compare(args.model, args.scenes, args.limit)
        return 0
    import onnx
    model = any_size(onnx.load(str(args.model)))
    onnx.checker.check_model(model)
    onnx.save(model, str(args.out))
    print(f"{args.out}: any input size in multiples of 32")
    return 0


if __name__ == "__main__":
    sys.exit(main())
