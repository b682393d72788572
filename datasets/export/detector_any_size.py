"""The tile finder's ONNX made to take any input size (multiples of 32), weights untouched.

    python -m datasets.export.detector_any_size models/detector.onnx --out models/detector.onnx

A YOLO11 export at a fixed size bakes that size into a few constants: the anchor points and
strides of the box decoding, and the shapes the attention block and the box decoder reshape
to. Each becomes an input of the graph instead (vision/recognition/detector.py computes them
for the size it letterboxes to: `shape_feeds`), and the image input's height and width become
free. A 4:3 photo is then read at 640 x 480 instead of 640 x 640 with a quarter of grey
padding; fed the 640 x 640 values, the graph gives the fixed one's output. ultralytics'
exporter would need a file per size; this needs only the `onnx` package.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from vision.recognition.detector import shape_feeds

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
    expected = shape_feeds(*size)  # what the detector feeds for this size
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


def main(argv: list[str] | None = None) -> int:
    import onnx
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    model = any_size(onnx.load(str(args.model)))
    onnx.checker.check_model(model)
    onnx.save(model, str(args.out))
    print(f"{args.out}: any input size in multiples of 32")
    return 0


if __name__ == "__main__":
    sys.exit(main())
