"""Train and export the stack classifier of vision/recognition/stacking.py (run in .venv-train, torch).

    python -m datasets.synth --out cache/stack_train --count 6000 --seed 31 --designs train
    python -m datasets.synth --out cache/stack_more --count 3000 --seed 32 --designs train --more-kongs
    .venv-train/bin/python -m datasets.train.stacking --scenes cache/stack_train,cache/stack_more \\
        --run cache/stack_run --minutes 20 [--out models/stack_classifier.onnx]

Data: lines of three tiles cut by `vision.recognition.stacking.set_crop` from boxes jittered as the tile
finder's are (`datasets.synth.crop_render.jitter_box`), in line order: the three shown tiles of a
kong laid with its fourth tile on top (the truth has the hidden fourth tile in the same group,
not labelled; the top tile is the shown one nearest to it), labelled with which one is on
top; pungs, chows and three neighbours of the concealed row, labelled "none". Kongs with a
tile on top are cut four times with other jitters, pungs twice. Scenes whose index ends in 0
are kept apart to check the model (`--check-every`), never trained on.
Training: a small CNN, AdamW, cross-entropy over none / first / second / third; turned 180°
and mirrored both ways at random (the line's order flips with them), lit at random. The
export writes a softmax output `probabilities` (N, 4) and metadata `imgsz`, `seed`, `steps`,
`data`, `check`; it checks onnxruntime against torch.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from scoring.tiles import BACK
from vision.recognition.stacking import HEIGHT, WIDTH, set_crop
from vision.runtime import REPO_ROOT

KINDS = ("top", "three", "set", "concealed")  # what a line is, for the check


def _centre(t: dict) -> np.ndarray:
    return np.reshape(t["box"], (2, 2)).mean(axis=0)


def _in_line(tiles: list[dict]) -> list[dict]:
    """The tiles ordered along the line through them."""
    c = np.array([_centre(t) for t in tiles])
    axis = np.linalg.svd(c - c.mean(axis=0))[2][0]
    return [tiles[i] for i in np.argsort(c @ axis)]


def scene_lines(truth: dict) -> list[tuple[list[dict], int, str]]:
    """(three tiles in line order, label: 0 none or 1 + the position of the tile on top,
    kind) for one scene; see the module docstring."""
    groups: dict[str, list[dict]] = {}
    for t in truth["tiles"]:
        groups.setdefault(t["group"] or "", []).append(t)
    out = []
    for name, tiles in groups.items():
        shown = [t for t in tiles if t.get("label") and t.get("box")]
        if name.startswith("meld") and len(shown) == 3:
            codes = {t["label"] for t in shown}
            line = _in_line(shown)
            hidden = [t for t in tiles if not t.get("label")]
            if len(tiles) == 4 and hidden and len(codes) == 1:
                if not hidden[0].get("quad"):  # the hidden tile is out of the photo: unsure
                    continue
                under = np.mean(hidden[0]["quad"], axis=0)
                top = int(np.argmin([np.hypot(*(_centre(t) - under)) for t in line]))
                out.append((line, 1 + top, "top"))
            elif len(tiles) == 3 and BACK not in codes:
                out.append((line, 0, "three" if len(codes) == 1 else "set"))
        elif name == "concealed" and len(shown) >= 3:
            line = _in_line(shown)
            out += [(line[i:i + 3], 0, "concealed") for i in range(0, len(line) - 2, 4)]
    return out


def scene_crops(truth: dict, rgb: np.ndarray, rng: np.random.Generator
                ) -> list[tuple[np.ndarray, int, str]]:
    """(crop, label, kind) for one scene, each line cut with jittered boxes."""
    from datasets.synth.crop_render import jitter_box
    out = []
    for line, label, kind in scene_lines(truth):
        for _ in range(4 if label else 2 if kind == "three" else 1):
            boxes = np.array([jitter_box(rng, t["box"]) for t in line])
            out.append((set_crop(rgb, boxes), label, kind))
    return out


def collect(folders: list[Path], seed: int, check_every: int) -> dict[str, np.ndarray]:
    """All crops of the scenes in `folders`, split into train and check by scene index."""
    from vision.image import load_photo
    rng = np.random.default_rng(seed)
    parts: dict[str, list] = {"train": [], "check": []}
    for folder in folders:
        for path in sorted((folder / "truth").glob("*.json")):
            truth = json.loads(path.read_text())
            rgb = load_photo(folder / truth["image"]).rgb
            part = "check" if truth["index"] % check_every == 0 else "train"
            parts[part] += scene_crops(truth, rgb, rng)
    out = {}
    for part, rows in parts.items():
        out[f"{part}_x"] = np.stack([r[0] for r in rows]) if rows else np.zeros((0, HEIGHT, WIDTH, 3), np.uint8)
        out[f"{part}_y"] = np.array([r[1] for r in rows], np.int64)
        out[f"{part}_kind"] = np.array([KINDS.index(r[2]) for r in rows], np.int64)
    return out


def build_net():
    from torch import nn

    def block(cin: int, cout: int) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                             nn.Conv2d(cout, cout, 3, padding=1, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    return nn.Sequential(block(3, 16), block(16, 32), block(32, 64), block(64, 96),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.3), nn.Linear(96, 4))


REVERSED = np.array([0, 3, 2, 1])  # the label once the line's order is reversed


def augment(rng: np.random.Generator, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mirrored across and along the line at random (the second reverses its order), lit
    and tinted at random; float 0..1 NCHW and the labels to match."""
    x, y = x.copy(), y.copy()
    across = rng.random(len(x)) < 0.5
    along = rng.random(len(x)) < 0.5
    x[across] = x[across, ::-1]
    x[along] = x[along, :, ::-1]
    y[along] = REVERSED[y[along]]
    x = x.astype(np.float32) / 255.0
    n = len(x)
    gain = np.exp(rng.normal(0, 0.25, (n, 1, 1, 1))) * np.exp(rng.normal(0, 0.06, (n, 1, 1, 3)))
    x = np.clip(x * gain + rng.normal(0, 0.02, (n, 1, 1, 1)), 0, 1)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32), y


def report(p: np.ndarray, y: np.ndarray, kind: np.ndarray) -> dict:
    """Lines read wrong (the most probable of none / first / second / third), by kind."""
    wrong = p.argmax(axis=1) != y
    out = {"lines": len(y), "errors": int(wrong.sum())}
    for k, name in enumerate(KINDS):
        out[name] = f"{int((wrong & (kind == k)).sum())}/{int((kind == k).sum())}"
    return out


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", required=True, help="synthetic scene folders, comma-separated")
    parser.add_argument("--run", type=Path, default=REPO_ROOT / "cache" / "stack_run")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "models" / "stack_classifier.onnx")
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--check-every", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    return parser


def _crops(args: argparse.Namespace) -> dict[str, np.ndarray]:
    """The crops of `collect`, kept in RUN/crops.npz and read from there the next time."""
    cache = args.run / "crops.npz"
    start = time.time()
    if cache.exists():
        data = dict(np.load(cache))
    else:
        data = collect([Path(f) for f in args.scenes.split(",")], args.seed, args.check_every)
        np.savez(cache, **data)
    y = data["train_y"]
    print(f"lines: {len(y)} to train ({int((y > 0).sum())} with a tile on top), "
          f"{len(data['check_y'])} to check ({int((data['check_y'] > 0).sum())}); "
          f"{time.time() - start:.0f} s", flush=True)
    return data


def _train(net, x: np.ndarray, y: np.ndarray, args: argparse.Namespace) -> int:
    """Train `net` for --minutes, the learning rate on a cosine over the time; the steps taken."""
    import torch
    peak = 3e-3
    optimizer = torch.optim.AdamW(net.parameters(), lr=peak, weight_decay=5e-4)
    # lines with a tile on top are few: a quarter of each batch
    pos, neg = np.where(y > 0)[0], np.where(y == 0)[0]
    rng = np.random.default_rng(args.seed)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    budget, step, begun = args.minutes * 60, 0, time.time()
    while time.time() - begun < budget:
        idx = np.concatenate([rng.choice(pos, args.batch // 4),
                              rng.choice(neg, args.batch - args.batch // 4)])
        images, labels = augment(rng, x[idx], y[idx])
        frac = min((time.time() - begun) / budget, 1.0)
        for group in optimizer.param_groups:
            group["lr"] = peak * 0.5 * (1 + np.cos(np.pi * frac))
        net.train()
        loss = loss_fn(net(torch.from_numpy(images)), torch.from_numpy(labels))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        if step % 200 == 0:
            print(f"step {step} loss {loss.item():.3f} {(time.time() - begun) / 60:.1f} min",
                  flush=True)
    return step


def _predict(model, images: np.ndarray) -> np.ndarray:
    """Probabilities (N, 4) of uint8 NHWC crops, 512 at a time."""
    import torch
    with torch.no_grad():
        return np.concatenate([model(torch.from_numpy(np.ascontiguousarray(
            images[i:i + 512].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0)).numpy()
            for i in range(0, len(images), 512)]) if len(images) else np.zeros((0, 4))


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    import torch
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    args.run.mkdir(parents=True, exist_ok=True)
    data = _crops(args)
    net = build_net()
    steps = _train(net, data["train_x"], data["train_y"], args)
    model = torch.nn.Sequential(net, torch.nn.Softmax(dim=1)).eval()
    check = report(_predict(model, data["check_x"]), data["check_y"], data["check_kind"])
    print("check (scenes kept apart):", json.dumps(check), flush=True)
    torch.save({"net": net.state_dict(), "steps": steps, "check": check,
                "args": vars(args) | {"run": str(args.run), "out": str(args.out)}},
               args.run / "last.pt")
    export(model, args, steps, check)
    return 0


def export(model, args, steps: int, check: dict) -> None:
    import torch

    from datasets.export.classifier import write_onnx
    meta = {"imgsz": str([HEIGHT, WIDTH]), "task": "classify",
            "description": "mahjong-lens stack classifier: a tile lying on top of another "
                           "(datasets/train/stacking.py)",
            "seed": str(args.seed), "steps": str(steps), "train_minutes": str(args.minutes),
            "data": args.scenes, "check": json.dumps(check)}
    checked = write_onnx(model, torch.rand(2, 3, HEIGHT, WIDTH), args.out, meta)
    print(f"exported {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)"
          + ("; onnxruntime matches torch" if checked else ""))


if __name__ == "__main__":
    sys.exit(main())
