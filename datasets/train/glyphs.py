"""Train the glyph reader of flower and season tiles (run in .venv-train, with torch).

    .venv-train/bin/python -m datasets.train.glyphs --run cache/glyph_run --minutes 30
    .venv-train/bin/python -m datasets.train.glyphs --run cache/glyph_run --export models/glyph_reader.onnx

Windows of 24 x 24 ink map are drawn on the fly (datasets.synth.glyph_render), batch `step` from
Generator([seed, step]) in one worker process while the main process trains. The network is
fully convolutional with valid convolutions only: a 24 x 24 window gives one output, and a
whole tile gives a map of outputs every 4 pixels (vision/recognition/glyphs.py), so one ONNX call reads
every window of a tile. Adam with a cosine learning rate over the planned steps; RUN/last.pt
every 2 minutes; the export has the class names, the window and the stride in its metadata.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import torch
from torch import nn

from datasets.synth.glyph_render import (
    NAMES,
    OTHER,
    WINDOW,
    ClutterBank,
    SceneBonus,
    SceneNegatives,
    batch,
)
from vision.recognition.glyphs import HEIGHTS, LEGIBLE, top_rows

STRIDE = 4


def block(cin: int, cout: int) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, 3), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


class GlyphNet(nn.Module):
    """24 x 24 → 1 x 1 (receptive field 24, stride 4); input is the ink map (1 = face)."""

    def __init__(self, widths=(16, 24, 32, 48, 64), classes: int = len(NAMES)) -> None:
        super().__init__()
        a, b, c, d, e = widths
        self.body = nn.Sequential(*block(1, a), *block(a, b), nn.MaxPool2d(2),
                                  *block(b, c), *block(c, d), nn.MaxPool2d(2),
                                  *block(d, e), nn.Conv2d(e, classes, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(1.0 - x)  # ink as the signal, face as zero


class Windows(torch.utils.data.IterableDataset):
    def __init__(self, seed: int, start: int, batch_size: int, extra_fonts: bool,
                 brush: float, scenes: str = "", scene_tiles: int = 0,
                 scene_share: float = 0.0, bonus_tiles: int = 0, bonus_batch: int = 0) -> None:
        self.seed, self.start, self.batch_size = seed, start, batch_size
        self.extra_fonts, self.brush = extra_fonts, brush
        self.scenes, self.scene_tiles, self.scene_share = scenes, scene_tiles, scene_share
        self.bonus_tiles, self.bonus_batch = bonus_tiles, bonus_batch

    def __iter__(self):
        scenes = (SceneNegatives(self.scenes, self.scene_tiles, self.seed, STRIDE)
                  if self.scenes and self.scene_share > 0 else None)
        bonus = (SceneBonus(self.scenes, self.bonus_tiles, self.seed, STRIDE)
                 if self.scenes and self.bonus_batch > 0 else None)
        bank = ClutterBank(seed=self.seed, extra_fonts=self.extra_fonts, brush=self.brush,
                           scenes=scenes, scene_share=self.scene_share)
        step = self.start
        while True:
            rng = np.random.default_rng([self.seed, step])
            x, y = batch(rng, bank, self.batch_size)
            tiles = tile_batch(bonus.sample(rng, self.bonus_batch)) if bonus else None
            yield torch.from_numpy(x), torch.from_numpy(y), tiles
            step += 1


def tile_batch(tiles) -> tuple[list[tuple[torch.Tensor, torch.Tensor, torch.Tensor]],
                               torch.Tensor, torch.Tensor]:
    """Scene bonus tiles (SceneBonus.sample) as one batch per height of vision.recognition.glyphs.HEIGHTS:
    the views padded with bare face to one width, each view's tile (index into `tiles`) and
    number of window columns; and per tile its own glyphs as a mask (tiles, classes) and
    whether it is fully legible."""
    own = torch.zeros(len(tiles), len(NAMES), dtype=torch.bool)
    for t, (_, glyphs, _) in enumerate(tiles):
        own[t, list(glyphs)] = True
    sure = torch.tensor([short >= LEGIBLE[1] for _, _, short in tiles])
    out = []
    for height in HEIGHTS:
        rows = top_rows(height, WINDOW, STRIDE)
        group = [(t, v) for t, (views, _, _) in enumerate(tiles) for v in views if v.shape[0] == rows]
        if not group:
            continue
        x = np.ones((len(group), 1, rows, max(v.shape[1] for _, v in group)), np.float32)
        for k, (_, v) in enumerate(group):
            x[k, 0, :, :v.shape[1]] = v
        cols = [(v.shape[1] - WINDOW) // STRIDE + 1 for _, v in group]
        out.append((torch.from_numpy(x), torch.tensor([t for t, _ in group]), torch.tensor(cols)))
    return out, own, sure


@contextlib.contextmanager
def running_norms(model: nn.Module):
    """Batch norms normalise by their running statistics and leave them alone: whole tiles,
    mostly bare face and padding, are not the windows the app's statistics must describe
    (without this, 2,000 steps of them took the validation accuracy from 0.988 to 0.69)."""
    norms = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    modes = [m.training for m in norms]
    for m in norms:
        m.eval()
    try:
        yield
    finally:
        for m, mode in zip(norms, modes):
            m.train(mode)


def tile_loss(model: nn.Module, tiles) -> tuple[torch.Tensor, torch.Tensor]:
    """On whole scene bonus tiles (`tile_batch`): the mean over their windows of -log(1 - p)
    of seeing a glyph of another bonus tile, and the mean over fully legible tiles of -log of
    their best window's probability of one of their own glyphs."""
    groups, own, sure = tiles
    wrong = ~own
    wrong[:, OTHER] = False
    neg, windows = 0.0, 0
    best = torch.zeros(len(own))
    for x, tile, cols in groups:
        with running_norms(model):
            p = torch.softmax(model(x), dim=1)                                # (m, C, oh, ow)
        valid = torch.arange(p.shape[3])[None, None, :] < cols[:, None, None]  # (m, 1, ow)
        p_wrong = (p * wrong[tile][:, :, None, None]).sum(1)                   # (m, oh, ow)
        p_own = (p * own[tile][:, :, None, None]).sum(1)
        neg = neg - (torch.log1p(-p_wrong.clamp(max=1 - 1e-6)) * valid).sum()
        windows += int(valid.sum()) * p.shape[2]
        view_best = (p_own * valid).flatten(1).amax(1)                         # (m,)
        best = best.scatter_reduce(0, tile, view_best, "amax")
    pos = -torch.log(best[sure].clamp(min=1e-6)).mean() if sure.any() else torch.zeros(())
    return neg / max(windows, 1), pos


def validation(seed: int, extra_fonts: bool, n: int = 4096):
    bank = ClutterBank(pictures=100, designs=20, seed=seed + 1, extra_fonts=extra_fonts)
    x, y = batch(np.random.default_rng([seed, 10 ** 9]), bank, n)
    return torch.from_numpy(x), torch.from_numpy(y)


def train(args) -> None:
    """Train GlyphNet into RUN (args.run) for the planned steps (--steps, or as many as
    --minutes allow at the speed of the first 50), logging and saving as it goes."""
    run = Path(args.run)
    run.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    model = GlyphNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-5)
    step, plan, spent = _resume(run / "last.pt", model, opt, args)
    loader = _loader(args, step)
    vx, vy = validation(args.seed, args.more_fonts)
    start, saved = time.time() - spent, time.time()
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    for x, y, tiles in loader:
        if plan == 0 and step == 50:  # plan the steps from the speed of the first ones
            plan = int(args.minutes * 60 / ((time.time() - start) / 50))
        if plan and step >= plan:
            break
        lr = _learning_rate(args.lr, step, plan)
        loss = _learn(model, opt, lr, loss_fn, (x, y, tiles), args)
        step += 1
        last = bool(plan and step >= plan)
        if step % 200 == 0 or last:
            acc = _accuracy(model, vx, vy)
            line = {"step": step, "plan": plan, "loss": round(loss.item(), 4), "val_acc": round(acc, 4),
                    "lr": round(lr, 6), "minutes": round((time.time() - start) / 60, 2)}
            with open(run / "train.log", "a") as log:
                print(json.dumps(line), file=log)
        if time.time() - saved > 120 or last:
            _save(run / "last.pt", model, opt, step, plan, time.time() - start, args)
            saved = time.time()


def _resume(path: Path, model: nn.Module, opt: torch.optim.Optimizer, args) -> tuple[int, int, float]:
    """The step reached, the steps planned and the seconds spent: with --resume, those of the
    checkpoint at `path` (its model and optimiser state loaded), else none yet."""
    if not (args.resume and path.exists()):
        return 0, args.steps, 0.0
    state = torch.load(path, weights_only=False)
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["opt"])
    # more steps than planned: continue on the same cosine
    return state["step"], max(state["plan"], args.steps), state["spent"]


def _loader(args, step: int) -> torch.utils.data.DataLoader:
    """Batches from `step` on, drawn in one worker process while the main one trains."""
    windows = Windows(args.seed, step, args.batch, args.more_fonts, args.brush, args.scenes,
                      args.scene_tiles, args.scene_share, args.bonus_tiles, args.bonus_batch)
    return torch.utils.data.DataLoader(windows, batch_size=None,
                                       num_workers=1, prefetch_factor=4)


def _learning_rate(base: float, step: int, plan: int) -> float:
    """Cosine from `base` down to 0 over the planned steps; `base` while none are planned."""
    return base * 0.5 * (1 + np.cos(np.pi * min(1.0, step / max(plan, 1)))) if plan else base


def _learn(model: nn.Module, opt: torch.optim.Optimizer, lr: float, loss_fn: nn.Module,
           batch, args) -> torch.Tensor:
    """One step of the optimiser at `lr` on a batch of Windows; the batch's loss."""
    x, y, tiles = batch
    for g in opt.param_groups:
        g["lr"] = lr
    model.train()
    loss = loss_fn(model(x).flatten(1), y)
    if tiles is not None:
        neg, pos = tile_loss(model, tiles)
        loss = loss + args.bonus_neg * neg + args.bonus_pos * pos
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


def _accuracy(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    """The share of windows `x` the model reads as `y` (in evaluation mode)."""
    model.eval()
    with torch.no_grad():
        return float((model(x).flatten(1).argmax(1) == y).float().mean())


def _save(path: Path, model: nn.Module, opt: torch.optim.Optimizer, step: int, plan: int,
          spent: float, args) -> None:
    """A checkpoint to resume from (and to export): weights, optimiser, progress, options."""
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step,
                "plan": plan, "spent": spent, "args": vars(args)}, path)


class Probabilities(nn.Module):
    def __init__(self, net: GlyphNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x):
        return torch.softmax(self.net(x), dim=1)


def export(args) -> None:
    import onnx

    state = torch.load(Path(args.run) / "last.pt", weights_only=False)
    net = GlyphNet()
    net.load_state_dict(state["model"])
    net.eval()
    out = Path(args.export)
    torch.onnx.export(Probabilities(net), torch.ones(1, 1, 96, 72), str(out), opset_version=17,
                      input_names=["ink"], output_names=["glyphs"], dynamo=False,
                      dynamic_axes={"ink": {0: "n", 2: "h", 3: "w"},
                                    "glyphs": {0: "n", 2: "oh", 3: "ow"}})
    model = onnx.load(str(out))
    meta = {"names": json.dumps(list(NAMES), ensure_ascii=False), "window": str(WINDOW),
            "stride": str(STRIDE), "steps": str(state["step"]),
            "minutes": str(round(state["spent"] / 60, 1)), "seed": str(args.seed)}
    trained = state.get("args", {})
    if trained.get("scenes") and trained.get("scene_share"):
        meta["scene_negatives"] = (f"{Path(trained['scenes']).name}: {trained['scene_tiles']} "
                                   f"tiles, share {trained['scene_share']}")
    if trained.get("scenes") and trained.get("bonus_batch"):
        meta["scene_bonus"] = (f"{Path(trained['scenes']).name}: {trained['bonus_tiles']} tiles, "
                               f"{trained['bonus_batch']} a step, weights {trained['bonus_neg']} / "
                               f"{trained['bonus_pos']}")
    for k, v in meta.items():
        model.metadata_props.add(key=k, value=v)
    onnx.save(model, str(out))
    print(f"exported {out} ({out.stat().st_size // 1024} KB) after {state['step']} steps")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--run", default="cache/glyph_run")
    p.add_argument("--minutes", type=float, default=30.0)
    p.add_argument("--steps", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--resume", action="store_true")
    p.add_argument("--brush", type=float, default=0.0,
                   help="share of the glyphs bent as by a brush (glyph_render._brush)")
    p.add_argument("--more-fonts", action="store_true",
                   help="draw glyphs in the fonts of glyph_render.EXTRA_CJK too, where installed")
    p.add_argument("--scenes", default="",
                   help="synthetic training scenes to cut 'other' windows from (glyph_render.SceneNegatives)")
    p.add_argument("--scene-tiles", type=int, default=1500, help="tiles of --scenes to cut from")
    p.add_argument("--scene-share", type=float, default=0.0,
                   help="share of the 'other' windows cut from --scenes")
    p.add_argument("--bonus-batch", type=int, default=0,
                   help="flower and season tiles of --scenes read whole each step (glyph_render.SceneBonus)")
    p.add_argument("--bonus-tiles", type=int, default=3000, help="tiles of --scenes to keep for that")
    p.add_argument("--bonus-neg", type=float, default=1.0,
                   help="weight of 'no window shows another bonus tile's glyph'")
    p.add_argument("--bonus-pos", type=float, default=0.2,
                   help="weight of 'a fully legible tile's best window shows one of its own glyphs'")
    p.add_argument("--export", default="", help="write the ONNX model here instead of training")
    args = p.parse_args()
    export(args) if args.export else train(args)


if __name__ == "__main__":
    main()
