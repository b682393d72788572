"""Photos with their truth, and what a reader made of them: the sets every evaluation reads.

`Sample` is one photo's labelled boxes; `Result` one reading of it (all detections down to
MAP_CONF, so that any operating confidence can be applied afterwards). Sets: synthetic scenes
of `datasets.synth` (`synth_samples`), the Camerash photos boxed by
datasets/real/camerash_boxes.py (`camerash_samples`), and either of them shot again smaller,
blurred, noisier or turned (`reshot`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from vision.boxes import box_iou

IGNORE_IOU = 0.25


MAP_CONF = 0.001


@dataclass
class Sample:
    """One photo's truth: boxes (M, 4) in photo pixels and class ids (M,)."""
    image: Path
    xyxy: np.ndarray
    class_id: np.ndarray
    partial: bool = False  # only some tiles labelled: ignore detections away from them


@dataclass
class Result:
    """One photo's detections (all down to MAP_CONF) and reading time."""
    xyxy: np.ndarray
    class_id: np.ndarray
    confidence: np.ndarray
    seconds: float
    error: str | None = None
    tile_score: np.ndarray | None = None  # what the operating confidence applies to (the app's rule)
    alt_class_id: np.ndarray | None = None  # (N, K) the reader's runner-up classes, best first
    alt_confidence: np.ndarray | None = None

    def with_runners_up(self) -> Result:
        """Each box once more for each runner-up class, at its own confidence."""
        if self.alt_class_id is None or len(self.xyxy) == 0:
            return self
        k = self.alt_class_id.shape[1]
        return Result(np.concatenate([self.xyxy, np.repeat(self.xyxy, k, axis=0)]),
                      np.concatenate([self.class_id, self.alt_class_id.reshape(-1)]),
                      np.concatenate([self.confidence, self.alt_confidence.reshape(-1)]),
                      self.seconds, self.error)

    def select(self, keep: np.ndarray) -> Result:
        """Only the detections where `keep` is true (every per-detection field)."""
        def pick(values):
            return None if values is None else values[keep]
        return replace(self, xyxy=self.xyxy[keep], class_id=self.class_id[keep],
                       confidence=self.confidence[keep], tile_score=pick(self.tile_score),
                       alt_class_id=pick(self.alt_class_id),
                       alt_confidence=pick(self.alt_confidence))

    def kept(self, conf: float) -> np.ndarray:
        """The detections the app shows at operating confidence `conf`."""
        score = self.confidence if self.tile_score is None else self.tile_score
        return score >= conf


def drop_unlabelled(sample: Sample, result: Result) -> Result:
    """For a partly labelled photo, keep only detections near some labelled tile."""
    if not sample.partial or len(result.xyxy) == 0:
        return result
    if len(sample.xyxy) == 0:
        keep = np.zeros(len(result.xyxy), bool)
    else:
        keep = box_iou(result.xyxy, sample.xyxy).max(axis=1) >= IGNORE_IOU
    return result.select(keep)


def synth_samples(folder: Path) -> list[Sample]:
    """Scenes of `datasets.synth`: each image with its YOLO label file."""
    from PIL import Image

    from datasets.synth.generate import find_scenes
    samples = []
    for image, label in find_scenes(folder):
        width, height = Image.open(image).size
        rows = np.loadtxt(label, ndmin=2) if label.stat().st_size else np.zeros((0, 5))
        cx, cy, w, h = (rows[:, k] * scale for k, scale in
                        zip(range(1, 5), (width, height, width, height)))
        xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
        samples.append(Sample(image, xyxy.reshape(-1, 4), rows[:, 0].astype(np.int64)))
    return samples


def camerash_samples(camerash: Path, boxes_json: Path, held_out: bool = True) -> list[Sample]:
    """Held-out Camerash photos (or the others), partly labelled by template matching."""
    from datasets.classes import class_index
    boxes = json.loads(boxes_json.read_text())
    samples = []
    for name, photo in sorted(boxes["photos"].items()):
        if photo["held_out"] != held_out or not photo["tiles"]:
            continue
        xyxy = np.array([t["box"] for t in photo["tiles"]], np.float64)
        class_id = np.array([class_index()[t["code"]] for t in photo["tiles"]], np.int64)
        samples.append(Sample(camerash / "raw-images" / name, xyxy, class_id, partial=True))
    return samples


def reshot(samples: list[Sample], folder: Path, scale: float = 1.0, turns: int = 0,
           blur: float = 0.0, noise: float = 0.0) -> list[Sample]:
    """The photos resized by `scale` (Lanczos), blurred (a Gaussian of `blur` times the
    photo's median labelled tile short side: out of focus, or a shaking hand in dim light),
    with sensor noise (Gaussian, `noise` grey levels of 255, seeded by the photo's place in
    the list) and turned `turns` x 90 degrees counter-clockwise in their pixels (no EXIF),
    written into `folder` as JPEG q90, with their boxes moved alike: the same tiles seen
    smaller (from farther, through a messenger), in worse light, or from another side of
    the table."""
    import cv2
    from PIL import Image

    from vision.boxes import short_sides
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for index, sample in enumerate(samples):
        image = Image.open(sample.image).convert("RGB")
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.LANCZOS) if scale != 1.0 else image
        xyxy = sample.xyxy * scale
        if blur > 0 or noise > 0:
            pixels = np.asarray(image, np.float32)
            if blur > 0 and len(xyxy):
                side = float(np.median(short_sides(xyxy)))
                pixels = cv2.GaussianBlur(pixels, (0, 0), max(blur * side, 1e-3))
            if noise > 0:
                pixels = pixels + np.random.default_rng([index]).normal(0.0, noise, pixels.shape)
            image = Image.fromarray(np.clip(np.rint(pixels), 0, 255).astype(np.uint8))
        for _ in range(turns % 4):  # (x, y) -> (y, width - x), one quarter turn at a time
            x1, y1, x2, y2 = xyxy.T
            xyxy = np.stack([y1, image.width - x2, y2, image.width - x1], axis=1)
            image = image.transpose(Image.Transpose.ROTATE_90)
        path = folder / f"{sample.image.stem}.jpg"
        image.save(path, quality=90)
        out.append(replace(sample, image=path, xyxy=xyxy))
    return out


def run_reader(reader, samples: list[Sample]) -> list[Result]:
    from vision.image import ImageError
    results = []
    for sample in samples:
        try:
            reading = reader.read(sample.image)
            found = reading.detections
            result = Result(found.xyxy.astype(np.float64), found.class_id, found.confidence,
                            reading.seconds, tile_score=reading.tile_score,
                            alt_class_id=found.alt_class_id, alt_confidence=found.alt_confidence)
        except ImageError as exc:
            result = Result(np.zeros((0, 4)), np.zeros(0, np.int64), np.zeros(0), 0.0, str(exc))
        results.append(drop_unlabelled(sample, result))
    return results


def without_class(samples: list[Sample], results: list[Result], class_id: int
                  ) -> tuple[list[Sample], list[Result]]:
    """The same photos with the labels of `class_id` and the detections read as it left out
    (`--face-up-only`: finders that label face-down walls or not are then compared on the
    tiles whose faces show; a face-down tile read as a face still counts as a wrong tile)."""
    kept_samples = [replace(s, xyxy=s.xyxy[s.class_id != class_id],
                            class_id=s.class_id[s.class_id != class_id]) for s in samples]
    return kept_samples, [r.select(r.class_id != class_id) for r in results]
