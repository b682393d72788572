"""Export a trained detector to ONNX for the runtime in `vision/` (run in .venv-train).

    .venv-train/bin/python -m datasets.export.detector cache/detector_run/train/weights/best.pt

Writes models/detector.onnx: static 1x3x640x640 input, raw (1, 4+nc, N) output (NMS is
done by `vision.recognition.detector` with OpenCV), opset 17 (onnxruntime >= 1.17 runs it), simplified
with onnxslim; ultralytics stores `names` and `imgsz` in the metadata, checked here against
datasets/classes.yaml (or the one class "tile" of a tile finder). Refuses a file over 30 MB (the repository keeps the model).
"""
from __future__ import annotations

import argparse
import ast
import shutil
import sys
from pathlib import Path

from datasets.classes import class_names
from datasets.train.detector import offline_ultralytics
from vision.runtime import REPO_ROOT

MAX_MODEL_BYTES = 30 * 1024 * 1024
OPSET = 17


def check_metadata(onnx_path: Path, imgsz: int) -> dict[str, str]:
    import onnx
    model = onnx.load(str(onnx_path), load_external_data=False)
    meta = {prop.key: prop.value for prop in model.metadata_props}
    names = ast.literal_eval(meta.get("names", "{}"))
    found = [names[i] for i in range(len(names))]
    if found not in (list(class_names()), ["tile"]):  # the 43 classes, or a tile finder (--single-class)
        raise SystemExit(f"{onnx_path}: metadata names are neither datasets/classes.yaml nor 'tile'")
    if list(ast.literal_eval(meta.get("imgsz", "[]"))) != [imgsz, imgsz]:
        raise SystemExit(f"{onnx_path}: metadata imgsz is {meta.get('imgsz')}, expected {imgsz}")
    return meta


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("weights", type=Path, help="best.pt or last.pt of a training run")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "models" / "detector.onnx")
    parser.add_argument("--imgsz", type=int, default=640)
    args = parser.parse_args(argv)

    offline_ultralytics(REPO_ROOT / "cache" / "ultralytics-config")
    from ultralytics import YOLO

    exported = Path(YOLO(str(args.weights)).export(
        format="onnx", imgsz=args.imgsz, opset=OPSET, simplify=True, dynamic=False,
        half=False, batch=1, nms=False, device="cpu"))
    check_metadata(exported, args.imgsz)
    size = exported.stat().st_size
    if size > MAX_MODEL_BYTES:
        raise SystemExit(f"{exported}: {size / 2**20:.1f} MiB, over the 30 MB limit")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(exported, args.out)
    print(f"wrote {args.out} ({size / 2**20:.1f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
