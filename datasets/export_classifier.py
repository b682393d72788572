"""Export the trained crop classifier to ONNX for `vision.refine.CropClassifier` (.venv-train).

    .venv-train/bin/python -m datasets.export_classifier --run cache/classifier_run \\
        [--out models/tile_classifier.onnx]

Takes the moving-average weights of RUN/last.pt and writes a model with input `images`
(N, 3, S, S) RGB in 0..1 (N dynamic: all crops of a photo in one call) and output
`probabilities` (N, 43). Opset 17 (onnxruntime >= 1.17). Metadata in the ultralytics
format that `vision.detector.parse_names` reads: `names` ("{0: '1m', ...}", checked against
datasets/classes.yaml), `imgsz` ("[S, S]"), and `crop_margin`, `task`, `seed`, `steps`,
`train_minutes`, `data`, `views` (crops the app reads per tile: `--views`). Checks that
onnxruntime (when installed) gives what torch gives.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

from datasets.classes import class_names
from datasets.train_classifier import NARROW, REPO, Probabilities, build_net

MAX_MODEL_BYTES = 30 * 1024 * 1024
OPSET = 17


def export(ckpt_path: Path, out: Path, views: int = 6) -> dict:
    state = torch.load(ckpt_path, weights_only=False, map_location="cpu")
    names = state["names"]
    if list(names) != list(class_names()):
        raise SystemExit(f"{ckpt_path}: class names differ from datasets/classes.yaml")
    arch = state["args"].get("arch", "tilenet")
    net = build_net(arch, state["args"].get("widths", NARROW))
    net.load_state_dict(state["ema"])  # (the Lite models use ReLU6: no swish to swap)
    model = Probabilities(net).eval()
    size = int(state["size"])
    args = state["args"]
    data = [(f"rendered: training designs of the art cache + {args['bonus_sets']} procedural "
             f"bonus sets + {args.get('white_sets', 0)} procedural white dragons")]
    if args.get("scenes"):
        folders = ", ".join(Path(f).name for f in str(args["scenes"]).split(","))
        data.append(f"synthetic training scenes ({folders})")
    if args.get("camerash"):
        data.append("Camerash photos of the sets not held out")
    meta = {"names": str({i: n for i, n in enumerate(names)}), "imgsz": str([size, size]),
            "crop_margin": str(state["margin"]), "task": "classify",
            "description": f"mahjong-lens tile crop classifier ({arch}, "
                           "datasets/train_classifier.py)",
            "seed": str(args["seed"]), "steps": str(state["step"]),
            "train_minutes": f"{state['elapsed'] / 60:.1f}", "data": "; ".join(data),
            "views": str(views)}
    write_onnx(model, torch.rand(2, 3, size, size), out, meta)
    return meta


def write_onnx(model: torch.nn.Module, example: torch.Tensor, out: Path, meta: dict) -> bool:
    """`model` (images in 0..1 -> probabilities) as ONNX at `out`, batch dynamic, with the
    metadata `meta`; checked under the 30 MB limit and, when onnxruntime is installed,
    against torch on `example` (True when it was). The crop and stack classifiers are both
    written this way."""
    import onnx
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, (example,), str(out), input_names=["images"],
                      output_names=["probabilities"], opset_version=OPSET,
                      dynamic_axes={"images": {0: "batch"}, "probabilities": {0: "batch"}},
                      dynamo=False)
    proto = onnx.load(str(out))
    onnx.helper.set_model_props(proto, meta)
    onnx.checker.check_model(proto)
    onnx.save(proto, str(out))
    if out.stat().st_size > MAX_MODEL_BYTES:
        raise SystemExit(f"{out}: over the 30 MB limit")
    try:
        import onnxruntime as ort
    except ImportError:
        return False
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    got = session.run(None, {"images": example.numpy()})[0]
    model.eval()  # the exporter puts back the mode the model had
    with torch.no_grad():
        want = model(example).numpy()
    if not np.allclose(got, want, atol=1e-4):
        raise SystemExit(f"{out}: onnxruntime and torch disagree")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, default=REPO / "cache" / "classifier_run")
    parser.add_argument("--out", type=Path, default=REPO / "models" / "tile_classifier.onnx")
    parser.add_argument("--views", type=int, choices=(1, 2, 6), default=6,
                        help="crops the app reads per tile with this model (vision.refine.VIEWS)")
    args = parser.parse_args(argv)
    meta = export(args.run / "last.pt", args.out, args.views)
    print(json.dumps({k: v for k, v in meta.items() if k != "names"}, indent=1))
    print(f"wrote {args.out} ({args.out.stat().st_size / 2**20:.2f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
