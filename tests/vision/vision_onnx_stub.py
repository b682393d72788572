"""A tiny ONNX "detector" whose output is a fixed array: tests the runtime without torch.

The graph adds 0 * mean(images) to a constant so that the input is really used.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def write_stub_model(path: Path, output: np.ndarray, imgsz: tuple[int, int] = (64, 64),
                     names: list[str] | None = None, metadata: bool = True) -> Path:
    const = numpy_helper.from_array(np.asarray(output, np.float32), name="fixed")
    nodes = [
        helper.make_node("ReduceMean", ["images"], ["mean"], keepdims=0),
        helper.make_node("Constant", [], ["zero"], value=numpy_helper.from_array(
            np.array(0.0, np.float32), name="zero_value")),
        helper.make_node("Mul", ["mean", "zero"], ["nothing"]),
        helper.make_node("Add", ["fixed", "nothing"], ["output0"]),
    ]
    graph = helper.make_graph(
        nodes, "stub",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, *imgsz])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, list(output.shape))],
        initializer=[const])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    if metadata:
        names = names or ["a", "b", "c"]
        helper.set_model_props(model, {
            "names": str({i: name for i, name in enumerate(names)}),
            "imgsz": str(list(imgsz)),
        })
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return path
