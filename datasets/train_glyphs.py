"""Train the glyph reader of flower and season tiles (run in .venv-train, with torch).

    .venv-train/bin/python -m datasets.train_glyphs --run cache/glyph_run --minutes 30
    .venv-train/bin/python -m datasets.train_glyphs --run cache/glyph_run --export models/glyph_reader.onnx

Windows of 24 x 24 ink map are drawn on the fly (datasets.glyph_render), batch `step` from
Generator([seed, step]) in one worker process while the main process trains. The network is
fully convolutional with valid convolutions only: a 24 x 24 window gives one output, and a
whole tile gives a map of outputs every 4 pixels (vision/glyphs.py), so one ONNX call reads
every window of a tile. Adam with a cosine learning rate over the planned steps; RUN/last.pt
every 2 minutes; the export has the class names, the window and the stride in its metadata.
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import torch
from torch import nn

from datasets.glyph_render import NAMES, WINDOW, ClutterBank, SceneNegatives, batch

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
                 scene_share: float = 0.0) -> None:
        self.seed, self.start, self.batch_size = seed, start, batch_size
        self.extra_fonts, self.brush = extra_fonts, brush
        self.scenes, self.scene_tiles, self.scene_share = scenes, scene_tiles, scene_share

    def __iter__(self):
        scenes = (SceneNegatives(self.scenes, self.scene_tiles, self.seed, STRIDE)
                  if self.scenes and self.scene_share > 0 else None)
        bank = ClutterBank(seed=self.seed, extra_fonts=self.extra_fonts, brush=self.brush,
                           scenes=scenes, scene_share=self.scene_share)
        step = self.start
        while True:
            x, y = batch(np.random.default_rng([self.seed, step]), bank, self.batch_size)
            yield torch.from_numpy(x), torch.from_numpy(y)
            step += 1


def validation(seed: int, extra_fonts: bool, n: int = 4096):
    bank = ClutterBank(pictures=100, designs=20, seed=seed + 1, extra_fonts=extra_fonts)
    x, y = batch(np.random.default_rng([seed, 10 ** 9]), bank, n)
    return torch.from_numpy(x), torch.from_numpy(y)


def train(args) -> None:
    run = Path(args.run)
    run.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    model = GlyphNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-5)
    step, plan, spent = 0, args.steps, 0.0
    if args.resume and (run / "last.pt").exists():
        state = torch.load(run / "last.pt", weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        step, plan, spent = state["step"], state["plan"], state["spent"]
    windows = Windows(args.seed, step, args.batch, args.more_fonts, args.brush, args.scenes,
                      args.scene_tiles, args.scene_share)
    loader = torch.utils.data.DataLoader(windows, batch_size=None,
                                         num_workers=1, prefetch_factor=4)
    vx, vy = validation(args.seed, args.more_fonts)
    start, saved = time.time() - spent, time.time()
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    for x, y in loader:
        if plan == 0 and step == 50:  # plan the steps from the speed of the first ones
            plan = int(args.minutes * 60 / ((time.time() - start) / 50))
        if plan and step >= plan:
            break
        lr = args.lr * 0.5 * (1 + np.cos(np.pi * min(1.0, step / max(plan, 1)))) if plan else args.lr
        for g in opt.param_groups:
            g["lr"] = lr
        model.train()
        loss = loss_fn(model(x).flatten(1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 200 == 0 or (plan and step >= plan):
            model.eval()
            with torch.no_grad():
                acc = float((model(vx).flatten(1).argmax(1) == vy).float().mean())
            line = {"step": step, "plan": plan, "loss": round(loss.item(), 4), "val_acc": round(acc, 4),
                    "lr": round(lr, 6), "minutes": round((time.time() - start) / 60, 2)}
            with open(run / "train.log", "a") as log:
                print(json.dumps(line), file=log)
        if time.time() - saved > 120 or (plan and step >= plan):
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step,
                        "plan": plan, "spent": time.time() - start, "args": vars(args)},
                       run / "last.pt")
            saved = time.time()


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
    p.add_argument("--export", default="", help="write the ONNX model here instead of training")
    args = p.parse_args()
    export(args) if args.export else train(args)


if __name__ == "__main__":
    main()
