"""Export the trained crop classifier to ONNX for `vision.recognition.refine.CropClassifier` (.venv-train).

    .venv-train/bin/python -m datasets.export.classifier --run cache/classifier_run \\
        [--with cache/other_run ...] [--views 1|2|6] [--out models/tile_classifier.onnx]

Takes the moving-average weights of RUN/last.pt (with `--with`, of several runs, whose
probabilities the model averages) and writes a model with input `images`
(N, 3, S, S) RGB in 0..1 (N dynamic: all crops of a photo in one call) and output
`probabilities` (N, 43). Opset 17 (onnxruntime >= 1.17). Metadata in the ultralytics
format that `vision.recognition.detector.parse_names` reads: `names` ("{0: '1m', ...}", checked against
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
from torch import nn

from datasets.classes import class_names
from datasets.train.classifier import NARROW, Probabilities, build_net
from vision.runtime import REPO_ROOT

MAX_MODEL_BYTES = 30 * 1024 * 1024
OPSET = 17


class MeanProbabilities(nn.Module):
    """Several classifiers as one: the mean of their probabilities (one ONNX file, one call)."""

    def __init__(self, nets: list[nn.Module]) -> None:
        super().__init__()
        self.members = nn.ModuleList(Probabilities(net) for net in nets)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.stack([member(x) for member in self.members]).mean(dim=0)


def _load(ckpt_path: Path) -> tuple[nn.Module, dict]:
    """The moving-average network of a run's checkpoint, and the checkpoint."""
    state = torch.load(ckpt_path, weights_only=False, map_location="cpu")
    if list(state["names"]) != list(class_names()):
        raise SystemExit(f"{ckpt_path}: class names differ from datasets/classes.yaml")
    net = build_net(state["args"].get("arch", "tilenet"), state["args"].get("widths", NARROW))
    net.load_state_dict(state["ema"])  # (the Lite models use ReLU6: no swish to swap)
    return net.eval(), state


def _data(args: dict) -> str:
    data = [(f"rendered: training designs of the art cache + {args['bonus_sets']} procedural "
             f"bonus sets + {args.get('white_sets', 0)} procedural white dragons"
             + (f" + {args['variant_sets']} procedural sets of other arrangements"
                if args.get("variant_sets") else ""))]
    if args.get("scenes"):
        folders = ", ".join(Path(f).name for f in str(args["scenes"]).split(","))
        data.append(f"synthetic training scenes ({folders})")
    if args.get("camerash"):
        data.append("Camerash photos of the sets not held out")
    return "; ".join(data)


def export(ckpt_paths: list[Path], out: Path, views: int = 6) -> dict:
    """One run's network, or the mean of several runs' (same input size and crop margin)."""
    loaded = [_load(path) for path in ckpt_paths]
    states = [state for _, state in loaded]
    size, margin = int(states[0]["size"]), states[0]["margin"]
    if any((int(st["size"]), st["margin"]) != (size, margin) for st in states):
        raise SystemExit("the runs differ in input size or crop margin")
    nets = [net for net, _ in loaded]
    model = (Probabilities(nets[0]) if len(nets) == 1 else MeanProbabilities(nets)).eval()

    def each(value) -> str:  # one field of every run, joined
        return " + ".join(str(value(st)) for st in states)
    meta = {"names": str({i: n for i, n in enumerate(class_names())}),
            "imgsz": str([size, size]), "crop_margin": str(margin), "task": "classify",
            "description": "mahjong-lens tile crop classifier ("
                           + each(lambda st: st["args"].get("arch", "tilenet"))
                           + (", probabilities averaged" if len(nets) > 1 else "")
                           + "; datasets/train/classifier.py)",
            "seed": each(lambda st: st["args"]["seed"]), "steps": each(lambda st: st["step"]),
            "train_minutes": each(lambda st: f"{st['elapsed'] / 60:.1f}"),
            "data": " | ".join(_data(st["args"]) for st in states), "views": str(views)}
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
    parser.add_argument("--run", type=Path, default=REPO_ROOT / "cache" / "classifier_run")
    parser.add_argument("--with", dest="also", type=Path, action="append", default=[],
                        help="another run: the model averages the runs' probabilities")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "models" / "tile_classifier.onnx")
    parser.add_argument("--views", type=int, choices=(1, 2, 6), default=6,
                        help="crops the app reads per tile with this model (vision.recognition.refine.VIEWS)")
    args = parser.parse_args(argv)
    meta = export([run / "last.pt" for run in (args.run, *args.also)], args.out, args.views)
    print(json.dumps({k: v for k, v in meta.items() if k != "names"}, indent=1))
    print(f"wrote {args.out} ({args.out.stat().st_size / 2**20:.2f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
