"""datasets/experiments/quantize.py on a tiny hand-made network and two hand-made scenes."""
from __future__ import annotations

import json

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime.quantization")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from datasets.classes import class_names  # noqa: E402
from datasets.eval.samples import synth_samples  # noqa: E402
from datasets.experiments.quantize import finder_inputs, main, quantize, sha256  # noqa: E402

SIZE = 16  # the tiny reader's input side


def _tiny_reader(path) -> None:
    """conv 3x3 -> relu -> mean -> linear -> softmax over the 43 classes, with the
    metadata the app reads."""
    rng = np.random.default_rng(0)
    nc = len(class_names())
    inits = [numpy_helper.from_array(rng.normal(0, 0.5, (8, 3, 3, 3)).astype(np.float32), "w"),
             numpy_helper.from_array(rng.normal(0, 0.1, 8).astype(np.float32), "b"),
             numpy_helper.from_array(rng.normal(0, 1.0, (8, nc)).astype(np.float32), "fc"),
             numpy_helper.from_array(np.zeros(nc, np.float32), "fcb")]
    nodes = [helper.make_node("Conv", ["images", "w", "b"], ["c"], name="conv", pads=[1] * 4),
             helper.make_node("Relu", ["c"], ["r"], name="relu"),
             helper.make_node("GlobalAveragePool", ["r"], ["g"], name="pool"),
             helper.make_node("Flatten", ["g"], ["f"], name="flat"),
             helper.make_node("Gemm", ["f", "fc", "fcb"], ["logits"], name="fc"),
             helper.make_node("Softmax", ["logits"], ["probabilities"], name="soft", axis=1)]
    graph = helper.make_graph(
        nodes, "tiny", [helper.make_tensor_value_info("images", TensorProto.FLOAT,
                                                      ["batch", 3, SIZE, SIZE])],
        [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["batch", nc])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    names = "{" + ", ".join(f"{i}: '{n}'" for i, n in enumerate(class_names())) + "}"
    for key, value in {"names": names, "imgsz": f"[{SIZE}, {SIZE}]", "views": "2"}.items():
        model.metadata_props.add(key=key, value=value)
    onnx.save(model, str(path))


@pytest.fixture
def scenes(tmp_path):
    """Two photos of coloured squares with YOLO labels, laid out as datasets.synth.generate writes."""
    from PIL import Image
    folder = tmp_path / "scenes"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    rng = np.random.default_rng(1)
    for k in range(2):
        rgb = np.full((320, 480, 3), 60, np.uint8)
        rows = []
        for i in range(6):
            x0, y0 = 150 + 30 * i, 140
            rgb[y0:y0 + 40, x0:x0 + 28] = rng.integers(0, 255, 3)
            rows.append(f"{i} {(x0 + 14) / 480:.6f} {(y0 + 20) / 320:.6f} "
                        f"{28 / 480:.6f} {40 / 320:.6f}")
        Image.fromarray(rgb).save(folder / "images" / f"{k:06d}.jpg", quality=95)
        (folder / "labels" / f"{k:06d}.txt").write_text("\n".join(rows) + "\n")
    return folder


def test_reader_is_quantized_keeps_metadata_and_reads_alike(tmp_path, scenes):
    import onnxruntime as ort
    source, out = tmp_path / "reader.onnx", tmp_path / "reader_int8.onnx"
    _tiny_reader(source)
    info = quantize("reader", source, scenes, out)

    model = onnx.load(str(out))
    ops = {node.op_type for node in model.graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    int8 = [t for t in model.graph.initializer if t.data_type == TensorProto.INT8]
    assert int8 and np.abs(numpy_helper.to_array(int8[0])).max() <= 63  # 7-bit weights
    meta = {p.key: p.value for p in model.metadata_props}
    assert meta["views"] == "2" and meta["names"].startswith("{0: '1m'")
    assert json.loads(meta["quantized"]) == info
    assert info["source_sha256"] == sha256(source) and info["kind"] == "reader"
    assert info["calibration_inputs"] == 24  # 2 scenes x 6 tiles, each both ways up

    crops = np.random.default_rng(2).random((8, 3, SIZE, SIZE), dtype=np.float32)
    float_p, int8_p = (ort.InferenceSession(str(p), providers=["CPUExecutionProvider"])
                       .run(None, {"images": crops})[0] for p in (source, out))
    assert np.abs(float_p - int8_p).max() < 0.05


def test_finder_sees_each_scene_and_its_second_look(scenes):
    blobs = finder_inputs(synth_samples(scenes), (64, 64))
    # the six tiles fill a small part of each photo: the second look's region is read too
    assert len(blobs) == 4
    assert all(b.shape == (1, 3, 64, 64) and b.dtype == np.float32 for b in blobs)
    assert all(0.0 <= b.min() and b.max() <= 1.0 for b in blobs)


def test_refuses_to_overwrite_its_source(tmp_path, scenes):
    source = tmp_path / "reader.onnx"
    _tiny_reader(source)
    with pytest.raises(SystemExit):
        main(["reader", str(source), "--scenes", str(scenes), "--out", str(source)])
