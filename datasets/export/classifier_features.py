"""Give the committed crop classifier a second output, `features`, for learning a table's set.

    python -m datasets.export.classifier_features [--model models/tile_classifier.onnx]

The classifier averages the probabilities of its members (two networks). Each member pools
its last feature map globally before its class layer; this adds, as output `features`
(N, D), every member's pooled vector L2-normalised, concatenated and scaled by
1/sqrt(members), so the whole vector has length 1 and each member counts alike.
vision.recognition.tileset compares a tile with the set's own examples by these vectors.

Nothing else in the graph changes: the command checks, with onnxruntime on random and
constant crops, that `probabilities` is bit-identical before and after, and that the file
stays under 30 MB. It writes the model in place (atomically) and records `features` in the
metadata (`feature_dims`: one length per member). Running it on a model that already has
the output is refused. Needs the `onnx` package; the app only reads the result.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from vision.runtime import DEFAULT_CLASSIFIER_PATH

MAX_MODEL_BYTES = 30 * 1024 * 1024
OUTPUT = "features"


def pooled_outputs(graph) -> list[str]:
    """The output of each member's global average pooling, in member order."""
    names = [node.output[0] for node in graph.node if node.op_type == "GlobalAveragePool"]
    if len(names) < 1:
        raise ValueError("no GlobalAveragePool in the graph: not a pooled classifier")
    return names


def add_features(model) -> tuple[object, list[int]]:
    """`model` with the `features` output appended; the member dimensions."""
    from onnx import TensorProto, helper, shape_inference

    graph = model.graph
    if any(out.name == OUTPUT for out in graph.output):
        raise ValueError(f"the model already has an output {OUTPUT!r}")
    pooled = pooled_outputs(graph)
    inferred = {v.name: v for v in shape_inference.infer_shapes(model).graph.value_info}
    dims = [int(inferred[name].type.tensor_type.shape.dim[1].dim_value) for name in pooled]
    normed = []
    for k, name in enumerate(pooled):
        flat, unit = f"/features/flat_{k}", f"/features/unit_{k}"
        graph.node.extend([
            helper.make_node("Flatten", [name], [flat], axis=1, name=f"/features/Flatten_{k}"),
            helper.make_node("LpNormalization", [flat], [unit], axis=1, p=2,
                             name=f"/features/LpNormalization_{k}")])
        normed.append(unit)
    scale = "/features/scale"
    graph.initializer.append(helper.make_tensor(scale, TensorProto.FLOAT, [],
                                                [1.0 / np.sqrt(len(pooled))]))
    graph.node.extend([
        helper.make_node("Concat", normed, ["/features/concat"], axis=1, name="/features/Concat"),
        helper.make_node("Mul", ["/features/concat", scale], [OUTPUT], name="/features/Mul")])
    graph.output.append(helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT,
                                                      ["batch", sum(dims)]))
    meta = {p.key: p for p in model.metadata_props}
    entry = meta.get("feature_dims") or model.metadata_props.add()
    entry.key, entry.value = "feature_dims", json.dumps(dims)
    return model, dims


def check_same(before: bytes, after: bytes, size: int) -> float:
    """Largest |difference| of `probabilities` over test crops (must be 0); the features' norm
    is checked to be 1."""
    import onnxruntime as ort

    rng = np.random.default_rng(0)
    crops = np.concatenate([rng.random((6, 3, size, size), dtype=np.float32),
                            np.full((1, 3, size, size), 0.5, np.float32),
                            np.zeros((1, 3, size, size), np.float32)])
    old = ort.InferenceSession(before, providers=["CPUExecutionProvider"])
    new = ort.InferenceSession(after, providers=["CPUExecutionProvider"])
    p_old = old.run(["probabilities"], {"images": crops})[0]
    p_new, feats = new.run(["probabilities", OUTPUT], {"images": crops})
    norms = np.linalg.norm(feats, axis=1)
    if not np.allclose(norms, 1.0, atol=1e-4):
        raise ValueError(f"features are not unit vectors: norms {norms.min()}..{norms.max()}")
    return float(np.abs(p_old - p_new).max())


def main(argv=None) -> int:
    import onnx

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=DEFAULT_CLASSIFIER_PATH)
    args = parser.parse_args(argv)
    before = args.model.read_bytes()
    model, dims = add_features(onnx.load_from_string(before))
    after = model.SerializeToString()
    size = int(model.graph.input[0].type.tensor_type.shape.dim[-1].dim_value)
    diff = check_same(before, after, size)
    if diff != 0.0:
        raise SystemExit(f"probabilities changed by up to {diff}: not written")
    if len(after) > MAX_MODEL_BYTES:
        raise SystemExit(f"{len(after)} bytes is over the {MAX_MODEL_BYTES} limit: not written")
    fd, tmp = tempfile.mkstemp(dir=args.model.parent, suffix=".onnx.tmp")
    with os.fdopen(fd, "wb") as out:
        out.write(after)
    os.replace(tmp, args.model)
    print(json.dumps({"model": str(args.model), "feature_dims": dims, "bytes": len(after),
                      "probabilities_max_diff": diff}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
