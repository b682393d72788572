"""Table geometry from axis-aligned tile boxes: clusters, the row direction, rows and segments.

Boxes are axis-aligned in the photo while the rows of a hand can run at any angle, so the
work happens in a *row frame*: `u` along the row, `v` across it. The row angle comes from
the nearest-neighbour vectors (tiles of a row touch, rows are farther apart), averaged on
the circle at four times the angle, which makes the estimate blind to 90° turns; the
caller tries both axes. In the row frame the extent of a tile along and across the row is
solved from its box (exact for a rectangle; unreliable within ~15° of 45°, where a box says
nothing about which way a tile lies: then spacing alone separates segments).

A row is a chain of tiles linked to their nearest neighbour along `u`; perspective bends
nothing (lines stay lines), so chains follow a tilted row. A row splits into segments at
gaps wider than a fraction of the tile width: a meld, the concealed tiles, a winning tile
set apart, a bonus tile.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.boxes import centres

CLUSTER_LINK = 2.8       # box-to-box distance (in tile sizes, sqrt of box area) that joins two tiles
ROW_LINK = 5.0           # centre distance (in tile widths) along a row that still chains
ROW_SLOPE = 0.36         # |dv| allowed per unit du for a chain link (about 20°)
SPLIT_GAP = 0.25         # a step this much over the row's typical step starts a new segment
TURNED_STEP = 0.09       # a turned tile is longer: each one lengthens its steps by this much
SIDEWAYS_RATIO = 1.38    # along/across of a tile over its row's typical value: turned 90°
STACK_LIFT = 0.12        # a lone tile this far above a hole in a row lies on a hidden tile
STACK_LIFT_END = 0.3     # above the spot just past a row's end (no hole to see): surer
SOLVABLE = 0.5           # |cos 2θ| above which a box's extents can be solved in the row frame


@dataclass(frozen=True)
class Segment:
    """Touching tiles of one row, in order along the row (`tiles` index the detections)."""
    tiles: tuple[int, ...]
    row: int
    u0: float                # start and end along the row (photo pixels)
    u1: float
    v: float                 # mean position across the row
    unit: float              # tile width in this row (pixels)
    gap_before: float        # gap to the previous segment of the row, in tile widths (inf: none)
    gap_after: float


@dataclass(frozen=True)
class RowFrame:
    """Every tile of a cluster seen in one row frame."""
    angle: float             # direction of +u in the photo, radians
    index: np.ndarray        # detection indices of the tiles in this frame
    u: np.ndarray            # per detection (full length arrays, NaN outside `index`)
    v: np.ndarray
    along: np.ndarray        # tile size (sqrt of the box area, pixels) for distances
    across: np.ndarray
    solved: bool             # extents come from the boxes (not a near-45° guess)
    sideways: np.ndarray     # score >1 means wider along the row than its row-mates
    segments: tuple[Segment, ...]
    rows: tuple[tuple[int, ...], ...]  # segment indices of each row, in order along u
    stacked: frozenset[int] = frozenset()  # tiles lying on top of a hidden one (added kong)
    xyxy: np.ndarray | None = None         # the boxes (photo pixels), all detections
    pitch: np.ndarray | None = None        # per tile: its row's step between touching tiles
                                           # (centre distance over tile size)
    owner: int = 0                         # +1: the player sits on the +v side, -1: on the -v
                                           # side, 0: not known yet (vision.layout learns it)
    on_top: np.ndarray | None = None       # per detection: the stack classifier's probability
                                           # that the tile lies on another (None: not measured)


def clusters(xyxy: np.ndarray, link: float = CLUSTER_LINK) -> list[np.ndarray]:
    """Groups of tiles joined by short box-to-box distances (single linkage), biggest first."""
    n = len(xyxy)
    if n == 0:
        return []
    wh = xyxy[:, 2:] - xyxy[:, :2]
    short = np.sqrt(np.maximum(wh[:, 0] * wh[:, 1], 1e-6))
    dx = np.maximum(0, np.maximum(xyxy[:, None, 0], xyxy[None, :, 0])
                    - np.minimum(xyxy[:, None, 2], xyxy[None, :, 2]))
    dy = np.maximum(0, np.maximum(xyxy[:, None, 1], xyxy[None, :, 1])
                    - np.minimum(xyxy[:, None, 3], xyxy[None, :, 3]))
    near = np.hypot(dx, dy) < link * np.minimum(short[:, None], short[None, :])
    label = -np.ones(n, int)
    for start in range(n):
        if label[start] >= 0:
            continue
        label[start] = start
        stack = [start]
        while stack:
            i = stack.pop()
            for j in np.flatnonzero(near[i] & (label < 0)):
                label[j] = start
                stack.append(j)
    groups = [np.flatnonzero(label == k) for k in np.unique(label)]
    return sorted(groups, key=len, reverse=True)


def row_angle(xyxy: np.ndarray, index: np.ndarray) -> float:
    """Row direction modulo 90°, in [-45°, 45°), from nearest-neighbour vectors."""
    if len(index) < 2:
        return 0.0
    c = centres(xyxy[index])
    wh = xyxy[index, 2:] - xyxy[index, :2]
    scale = np.sqrt(wh[:, 0] * wh[:, 1])
    d = np.linalg.norm(c[:, None] - c[None], axis=2)
    np.fill_diagonal(d, np.inf)
    nearest = d.argmin(axis=1)
    vec = c[nearest] - c
    close = d[np.arange(len(c)), nearest] < 1.6 * scale
    if not close.any():
        close[:] = True
    alpha = np.arctan2(vec[close, 1], vec[close, 0])
    z = np.exp(4j * alpha).sum()
    return float(np.angle(z) / 4) if abs(z) > 1e-9 else 0.0


def extents(xyxy: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray, bool]:
    """Tile extents along and across a row at `angle`, solved from the axis-aligned boxes."""
    w = xyxy[:, 2] - xyxy[:, 0]
    h = xyxy[:, 3] - xyxy[:, 1]
    c, s = abs(np.cos(angle)), abs(np.sin(angle))
    det = c * c - s * s
    if abs(det) >= SOLVABLE:
        along = (c * w - s * h) / det
        across = (c * h - s * w) / det
        floor = 0.25 * np.maximum(w, h)
        return np.maximum(along, floor), np.maximum(across, floor), True
    mean = (w + h) / 2  # near 45°: a box is (a+b)/sqrt(2) square; assume an upright tile
    return 0.6 * mean, 0.8 * mean, False


def _chains(u: np.ndarray, v: np.ndarray, size: np.ndarray, index: np.ndarray) -> list[list[int]]:
    """Mutual nearest neighbours along +u / -u within the slope cone: the rows."""
    right, left = {}, {}
    for i in index:
        du = u[index] - u[i]
        dv = np.abs(v[index] - v[i])
        scale = (size[i] + size[index]) / 2
        ok = (du > 0.3 * scale) & (dv <= ROW_SLOPE * du + 0.25 * scale) & (du < ROW_LINK * scale)
        if ok.any():
            cost = (du[ok] + 2.0 * dv[ok]) / scale[ok]
            right[i] = int(index[ok][cost.argmin()])
    cost = {i: (u[j] - u[i] + 2 * abs(v[j] - v[i])) / (size[i] + size[j]) for i, j in right.items()}
    for i, j in right.items():
        if j not in left or cost[i] < cost[left[j]]:
            left[j] = i
    chains, seen = [], set()
    for i in sorted(index, key=lambda k: u[k]):
        if i in seen:
            continue
        chain = [int(i)]
        seen.add(i)
        while chain[-1] in right and left.get(right[chain[-1]]) == chain[-1] \
                and right[chain[-1]] not in seen:
            chain.append(right[chain[-1]])
            seen.add(chain[-1])
        chains.append(chain)
    return chains


def _attach_stacked(chains: list[np.ndarray], u, v, size, codes, angle: float, pitch: float
                    ) -> tuple[list[np.ndarray], set[int]]:
    """A fourth tile put on top of a meld hides the tile under it and shows lifted towards
    the top of the photo (more so the lower the camera), often out of its row. A lone tile
    that sits above a hole in a row (or just past its end), next to a tile of its own face,
    joins that row as a stacked tile."""
    up = np.array([-np.sin(angle), -np.cos(angle)])  # photo up in (u, v)
    stacked: set[int] = set()
    for t in [int(ch[0]) for ch in chains if len(ch) == 1]:
        best = None
        for ci, ch in enumerate(chains):
            if len(ch) < 2:
                continue
            p = np.stack([u[ch], v[ch]], axis=1)
            step = pitch * size[ch]
            slots = []
            for k in range(len(ch) - 1):
                d = p[k + 1] - p[k]
                if np.hypot(*d) >= 1.6 * (step[k] + step[k + 1]) / 2:
                    slots.append(((p[k] + p[k + 1]) / 2, d / np.hypot(*d), k + 1, (ch[k], ch[k + 1]),
                                  STACK_LIFT))
            for end, nxt, at in ((0, 1, 0), (len(ch) - 1, len(ch) - 2, len(ch))):
                d = (p[end] - p[nxt]) / max(np.hypot(*(p[end] - p[nxt])), 1e-9)
                slots.append((p[end] + d * step[end], d, at, (ch[end],), STACK_LIFT_END))
            for pos, direction, at, beside, least in slots:
                if codes[t] not in {codes[b] for b in beside}:
                    continue
                off = np.array([u[t], v[t]]) - pos
                along, lift = abs(off @ direction) / size[t], off @ up / size[t]
                if along < 0.45 and least < lift < 1.8 and (best is None or along < best[0]):
                    best = (along, ci, at)
        if best is not None:
            _, ci, at = best
            chains[ci] = np.insert(chains[ci], at, t)
            stacked.add(t)
    return [ch for ch in chains if not (len(ch) == 1 and int(ch[0]) in stacked)], stacked


def frame(xyxy: np.ndarray, index: np.ndarray, angle: float, split_gap: float = SPLIT_GAP,
          codes: list[str] | None = None) -> RowFrame:
    """Rows and segments of the tiles `index` in the row frame at `angle`.

    Gaps are read from centre spacing over box size (sqrt of the box area), which perspective
    leaves nearly alone along a row: touching tiles give the row's typical step; a step
    wider by `split_gap` (more next to a turned tile, which is longer) starts a segment.
    """
    n = len(xyxy)
    u, v = np.full(n, np.nan), np.full(n, np.nan)
    along, across = np.full(n, np.nan), np.full(n, np.nan)
    c = centres(xyxy[index])
    ca, sa = np.cos(angle), np.sin(angle)
    u[index] = c[:, 0] * ca + c[:, 1] * sa
    v[index] = -c[:, 0] * sa + c[:, 1] * ca
    a, b, solved = extents(xyxy[index], angle)
    along[index], across[index] = a, b
    size = np.full(n, np.nan)
    size[index] = np.sqrt(np.prod(xyxy[index, 2:] - xyxy[index, :2], axis=1)).clip(1e-3)
    chains = [np.asarray(ch) for ch in _chains(u, v, size, index)]
    all_steps = np.concatenate([_steps(ch, u, v, size, set()) for ch in chains]) \
        if chains else np.zeros(0)
    frame_step = float(np.median(all_steps)) if len(all_steps) else 1.0
    stacked: set[int] = set()
    if codes is not None:
        chains, stacked = _attach_stacked(chains, u, v, size, codes, angle, frame_step)
    overall = float(np.median(along[index] / across[index]))
    sideways = np.full(n, np.nan)
    pitch = np.full(n, frame_step)
    segments: list[Segment] = []
    rows: list[tuple[int, ...]] = []
    for r, ch in enumerate(chains):
        step = _steps(ch, u, v, size, stacked)
        base = float(np.median(step)) if len(step) >= 4 else frame_step
        base = min(base, 1.15 * frame_step) if len(step) < 8 else base
        pitch[ch] = base
        starts, gaps = _split_row(ch, step / base, along[ch] / across[ch], overall, solved,
                                  split_gap, sideways)
        first = len(segments)
        segments += _segments(ch, starts, gaps, r, u, v, size)
        rows.append(tuple(range(first, len(segments))))
    return RowFrame(angle, np.asarray(index), u, v, size, size, solved, sideways,
                    tuple(segments), tuple(rows), frozenset(stacked), xyxy, pitch)


def _steps(ch: np.ndarray, u: np.ndarray, v: np.ndarray, size: np.ndarray,
           stacked: set[int]) -> np.ndarray:
    """Centre spacing along a chain over the mean box size; next to a tile put on top of
    another, only the spacing along the row counts."""
    du, dv = np.diff(u[ch]), np.diff(v[ch])
    step = np.hypot(du, dv)
    if stacked:
        on_top = np.array([int(t) in stacked for t in ch])
        step = np.where(on_top[1:] | on_top[:-1], np.abs(du), step)
    return step / ((size[ch[1:]] + size[ch[:-1]]) / 2)


def _split_row(ch: np.ndarray, step: np.ndarray, ratio: np.ndarray, overall: float,
               solved: bool, split_gap: float, sideways: np.ndarray
               ) -> tuple[list[int], list[float]]:
    """Where a row's segments start and the gaps before them, `step` in the row's pitch;
    fills `sideways` for the row's tiles (their aspect over their segment's typical one)."""
    typical = np.full(len(ch), np.median(ratio) if len(ch) >= 3 else overall)
    for _ in range(2):  # a row may hold standing and lying tiles: compare within segments
        sideways[ch] = ratio / np.maximum(typical, 1e-6) / SIDEWAYS_RATIO
        turned = np.clip((sideways[ch] - 0.8) / 0.35, 0, 1) if solved else np.zeros(len(ch))
        starts, gaps = [0], []
        for k in range(1, len(ch)):
            gap = step[k - 1] - 1 - TURNED_STEP * (turned[k - 1] + turned[k])
            if gap > split_gap:
                starts.append(k)
                gaps.append(float(gap))
        for a, b in zip(starts, starts[1:] + [len(ch)]):
            if b - a >= 3:
                typical[a:b] = np.median(ratio[a:b])
    return starts, gaps


def _segments(ch: np.ndarray, starts: list[int], gaps: list[float], row: int, u: np.ndarray,
              v: np.ndarray, size: np.ndarray) -> list[Segment]:
    bounds = starts + [len(ch)]
    out = []
    for s in range(len(starts)):
        tiles = ch[bounds[s]:bounds[s + 1]]
        half = size[tiles] / 2
        out.append(Segment(
            tiles=tuple(int(t) for t in tiles), row=row,
            u0=float((u[tiles] - half).min()), u1=float((u[tiles] + half).max()),
            v=float(v[tiles].mean()), unit=float(np.median(size[tiles])),
            gap_before=gaps[s - 1] if s > 0 else float("inf"),
            gap_after=gaps[s] if s < len(gaps) else float("inf")))
    return out
