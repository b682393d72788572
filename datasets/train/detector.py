"""Train the YOLO tile detector on synthetic scenes and real photos (run in .venv-train).

One command builds the dataset and trains; the same command with --resume continues from
the run's last.pt (ultralytics restores epoch, optimizer and schedule). The committed model
(a tile finder, models/README.md) continues models/checkpoints/detector_last.pt:

    .venv-train/bin/python -m datasets.train.detector --model models/checkpoints/detector_last.pt \
        --train cache/synth_train --val cache/synth_val --real cache/camerash_train \
        --real-repeat 16 --single-class --run cache/detector_run5 --hours 1.95 --seed 0
    .venv-train/bin/python -m datasets.train.detector --run cache/detector_run5 --resume

Data: `--train` and `--val` are output folders of `python -m datasets.synth.generate` (JPEG, YOLO
label .txt and truth .json per scene, in any sub-folder layout); `--val` must be drawn with
tile designs never used in `--train`, so validation measures generalisation to new sets.
Images are shrunk once to `--imgsz` on the long side (ultralytics would do it on every load,
and on 2 cores with workers=0 that decoding is a third of the step time), and each training
scene adds one zoomed crop a few tiles wide, so that large tiles (close shots) are seen too.

Nothing is fetched from the network: the model is built from its yaml (no pretrained
weights), AMP is off (its check downloads a model), plots are off, and the font that
ultralytics wants (Arial.ttf) is a copy of matplotlib's DejaVu Sans in a private config
folder. Tiles must never be mirrored: fliplr = flipud = 0.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from datasets.classes import class_names
from datasets.synth.generate import find_scenes
from vision.runtime import REPO_ROOT


def offline_ultralytics(config_dir: Path) -> None:
    """Point ultralytics at a private config folder with its fonts, and keep it offline."""
    config_dir.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    os.environ["YOLO_OFFLINE"] = "1"
    import matplotlib
    dejavu = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        if not (config_dir / name).exists():
            shutil.copy(dejavu, config_dir / name)


def _write(image, rows, target: Path, long_side: int, single_class: bool = False) -> None:
    """Image shrunk (or grown) to `long_side`, and its YOLO rows (normalised, so unchanged);
    with `single_class` every row becomes class 0, "tile"."""
    import cv2
    height, width = image.shape[:2]
    scale = long_side / max(height, width)
    if scale != 1:
        image = cv2.resize(image, (round(width * scale), round(height * scale)),
                           interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    cv2.imwrite(str(target), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    label = target.parent.parent.parent / "labels" / target.parent.name / (target.stem + ".txt")
    label.write_text("".join(f"{0 if single_class else int(r[0])} {r[1]:.6f} {r[2]:.6f} {r[3]:.6f} {r[4]:.6f}\n"
                             for r in rows))


def zoom_crop(image, rows, rng, min_visible: float = 0.6):
    """A window a few tiles wide around a random tile: the tiles come out 2-8x larger.

    Synthetic scenes show whole tables, so their tiles are small; product photos and close
    shots (Camerash) show tiles 60-300 pixels wide. Tiles cut by the window keep their
    label when at least `min_visible` of the box is inside.
    """
    import numpy as np
    height, width = image.shape[:2]
    boxes = rows[:, 1:] * [width, height, width, height]
    tile = float(np.median(boxes[:, 2]))
    win_w = min(width, max(width / 4, tile * rng.uniform(3, 10)))
    win_h = min(height, win_w * height / width)
    anchor = boxes[rng.integers(len(boxes)), :2]
    x0 = float(np.clip(anchor[0] - win_w * rng.uniform(0.2, 0.8), 0, width - win_w))
    y0 = float(np.clip(anchor[1] - win_h * rng.uniform(0.2, 0.8), 0, height - win_h))
    xyxy = np.concatenate([boxes[:, :2] - boxes[:, 2:] / 2, boxes[:, :2] + boxes[:, 2:] / 2], 1)
    clipped = np.clip(xyxy, [x0, y0, x0, y0], [x0 + win_w, y0 + win_h] * 2)
    area = np.prod(xyxy[:, 2:] - xyxy[:, :2], 1)
    visible = np.prod(np.clip(clipped[:, 2:] - clipped[:, :2], 0, None), 1) / np.maximum(area, 1e-9)
    keep = visible >= min_visible
    kept = clipped[keep] - [x0, y0, x0, y0]
    out_rows = np.column_stack([rows[keep, 0], (kept[:, 0] + kept[:, 2]) / 2 / win_w,
                                (kept[:, 1] + kept[:, 3]) / 2 / win_h,
                                (kept[:, 2] - kept[:, 0]) / win_w, (kept[:, 3] - kept[:, 1]) / win_h])
    crop = image[int(y0):int(y0 + win_h), int(x0):int(x0 + win_w)]
    return crop, out_rows


def turned(image, rows, turns: int):
    """The image turned `turns` quarter turns counter-clockwise, and its YOLO rows alike: the
    hand photographed from another side of the table."""
    import numpy as np
    for _ in range(turns % 4):  # (cx, cy, w, h) -> (cy, 1 - cx, h, w)
        rows = np.column_stack([rows[:, 0], rows[:, 2], 1 - rows[:, 1], rows[:, 4], rows[:, 3]])
        image = np.ascontiguousarray(np.rot90(image))
    return image, rows


def _shrink_one(job: tuple[str, str, str, int, int, bool, bool, float]) -> None:
    """One image (and for training its zoomed crop), each turned a quarter either way with
    probability `turn`; `scene_seed` < 0 (validation): as it is."""
    import cv2
    import numpy as np
    source, label, target, long_side, scene_seed, zoom, single_class, turn = job
    image = cv2.imread(source, cv2.IMREAD_COLOR)
    rows = np.loadtxt(label, ndmin=2) if Path(label).stat().st_size else np.zeros((0, 5))
    turns = (np.random.default_rng([scene_seed, 90]).choice([0, 1, 3], size=2, p=[1 - turn, turn / 2, turn / 2])
             if scene_seed >= 0 else (0, 0))
    _write(*turned(image, rows, turns[0]), Path(target), long_side, single_class)
    if scene_seed >= 0 and zoom and len(rows):
        crop, crop_rows = zoom_crop(image, rows, np.random.default_rng(scene_seed))
        _write(*turned(crop, crop_rows, turns[1]), Path(target).with_name(Path(target).stem + "_zoom.jpg"),
               long_side, single_class)


def build_dataset(train: Path, val: Path, out: Path, imgsz: int, seed: int = 0,
                  zoom: bool = True, real: Path | None = None, real_repeat: int = 1,
                  single_class: bool = False, turn: float = 0.0) -> Path:
    """Shrunk copies in out/{images,labels}/{train,val} and the dataset yaml; reused if there.

    Each training scene also gives one zoomed crop (see `zoom_crop`); validation does not.
    `real` (datasets/real/camerash_train.py output) joins training `real_repeat` times, each
    time with another zoomed crop: a few real photos against a thousand synthetic scenes.
    `single_class`: one class, "tile": the detector only finds tiles and the crop
    classifier reads them (vision/recognition/refine.py, "reader" mode). `turn`: the share of training
    images (scenes, real photos, zoomed crops) turned a quarter either way, as when the hand
    is photographed from the side (validation is never turned).
    """
    data_yaml = out / "data.yaml"
    if data_yaml.is_file():
        return data_yaml
    jobs = []
    counts = {}
    sources = [("train", train, 1), ("val", val, 1)]
    if real is not None:
        sources.append(("train", real, real_repeat))
    for split, folder, repeat in sources:
        pairs = find_scenes(folder)
        if not pairs:
            raise SystemExit(f"no images with YOLO labels under {folder}")
        counts[str(folder)] = len(pairs) * repeat
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        for copy in range(repeat):
            for i, (image, label) in enumerate(pairs):
                index = len(jobs)
                target = out / "images" / split / f"{index:06d}_{image.stem}.jpg"
                scene_seed = seed * 1_000_003 + index if split == "train" else -1
                jobs.append((str(image), str(label), str(target), imgsz, scene_seed, zoom,
                             single_class, turn))
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(_shrink_one, jobs, chunksize=32))
    names = ["tile"] if single_class else list(class_names())
    lines = [f"path: {out.resolve()}", "train: images/train", "val: images/val", "names:"]
    lines += [f"  {i}: '{name}'" for i, name in enumerate(names)]
    data_yaml.write_text("\n".join(lines) + "\n")
    (out / "sources.json").write_text(json.dumps(
        {"train": str(train), "val": str(val), "counts": counts, "imgsz": imgsz,
         "zoom_crops": zoom, "seed": seed, "real": str(real) if real else None,
         "real_repeat": real_repeat, "single_class": single_class, "turn": turn}, indent=1))
    return data_yaml


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=Path, help="synth output folder for training")
    parser.add_argument("--val", type=Path, help="synth output folder, held-out designs")
    parser.add_argument("--run", type=Path, default=REPO_ROOT / "cache" / "detector_run",
                        help="run folder: dataset copy, weights, logs")
    parser.add_argument("--model", default="yolo11n.yaml",
                        help="architecture yaml, or a .pt to start from its weights (a new run "
                             "that continues a finished one, e.g. models/checkpoints/detector_last.pt)")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--hours", type=float, default=0.0,
                        help="wall-time budget; the schedule is fitted to it (0 = use epochs)")
    parser.add_argument("--imgsz", type=int, default=640)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr0", type=float, default=0.002)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-zoom", action="store_true", help="no zoomed crops in training")
    parser.add_argument("--real", type=Path, default=None,
                        help="real labelled photos for training (datasets/real/camerash_train.py)")
    parser.add_argument("--real-repeat", type=int, default=16,
                        help="how many times the real photos join each epoch")
    parser.add_argument("--single-class", action="store_true",
                        help="one class, tile: a tile finder for the crop classifier to read")
    parser.add_argument("--turn", type=float, default=0.0,
                        help="share of training images turned a quarter either way")
    parser.add_argument("--resume", action="store_true", help="continue from RUN/train/weights/last.pt")
    return parser


def _last_weights(run: Path) -> Path:
    """The checkpoint a resumed run continues."""
    last = run / "train" / "weights" / "last.pt"
    if not last.is_file():
        raise SystemExit(f"nothing to resume: {last} is missing")
    return last


def _dataset(args: argparse.Namespace) -> Path:
    """The data yaml of a new run, its dataset built in RUN/data if not there yet."""
    if not (args.train and args.val):
        raise SystemExit("--train and --val are needed for a new run")
    return build_dataset(args.train, args.val, args.run / "data", args.imgsz,
                         args.seed, zoom=not args.no_zoom, real=args.real,
                         real_repeat=args.real_repeat, single_class=args.single_class,
                         turn=args.turn)


def _train_options(args: argparse.Namespace, data_yaml: Path) -> dict:
    """ultralytics' training options of a new run: on the CPU, offline, never mirrored."""
    return {
        "data": str(data_yaml), "epochs": args.epochs, "time": args.hours or None,
        "imgsz": args.imgsz, "batch": args.batch, "device": "cpu", "workers": 0, "seed": args.seed,
        "deterministic": True, "amp": False,
        # start from a .pt's weights (a previous run); a .yaml starts from scratch
        "pretrained": args.model if str(args.model).endswith(".pt") else False, "plots": False,
        "optimizer": "AdamW", "lr0": args.lr0, "warmup_epochs": 1, "cos_lr": False,
        "fliplr": 0.0, "flipud": 0.0, "mosaic": 1.0, "close_mosaic": 2, "degrees": 0.0,
        "save_period": 1, "patience": 1000, "project": str(args.run.resolve()), "name": "train",
        "exist_ok": True, "verbose": True, "cache": False}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    offline_ultralytics(REPO_ROOT / "cache" / "ultralytics-config")
    import torch
    from ultralytics import YOLO

    torch.set_num_threads(os.cpu_count() or 1)
    started = time.time()
    if args.resume:
        YOLO(str(_last_weights(args.run))).train(resume=True)
    else:
        data_yaml = _dataset(args)
        print(f"dataset ready in {time.time() - started:.0f} s: {data_yaml}", flush=True)
        YOLO(args.model).train(**_train_options(args, data_yaml))
    wall = time.time() - started
    (args.run / "wall_seconds.txt").open("a").write(f"{wall:.0f}\n")
    print(f"training finished in {wall / 3600:.2f} h", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
