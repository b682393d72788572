"""Declared sets read from tiles in a row: which three or four tiles make a chow, pung,
kong or concealed kong, which tile of an exposed set was claimed (turned sideways), and
whether a fourth tile lies on top of a pung (an added kong).

Used by the hand search (vision.layout.grouping); positions refer to `vision.layout.geometry.RowFrame`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.hand import Meld, MeldKind
from scoring.tiles import PLAYING

from .geometry import RowFrame

BACK = "back"
CLAIM_BONUS = 1.0        # an exposed set with one clearly turned tile
UNTURNED = 1.2           # an exposed set without a turned tile
HIDDEN_KONG = 1.0        # four tiles with face-down ones: a concealed kong, plainly
TURNED_EXCESS = 0.16     # a turned tile lengthens the steps to its neighbours by this (of a step)
SPACING_SD = 0.07        # spread of steps between touching tiles
BOX_WEIGHT = 6.0         # weight of the box clue (log of the wider-along-the-row score)
STACKED = 0.15           # an upright tile this far (in tile sizes) above its row lies on top
STACKED_TURNED = 0.17    # the same for a turned tile (measured at its centre)
STACKED_NEAR = 0.08      # ... measured at its near edge, when the player's side is known
DIAGONAL = 0.85          # a row this close to 45° (|cos| below) boxes tiles loosely: a lift
DIAGONAL_MARGIN = 0.15   # must then be this much more (tile sizes) to read as a tile on top
STACK_WEIGHT = 20.0      # score per tile size of lift above STACKED (kong over pung)
# The stack classifier's word (vision.recognition.stacking): lean per unit of its log-odds, the log-odds
# at which pung and kong are even (-1: a probability of 0.27), and the share of the box
# lift's own lean kept beside it; chosen on perfect detections of the development seeds
# 4242-4246 (models/README.md, stack classifier): hands right 1,273 -> 1,290 of 1,333.
PIXEL_WEIGHT = 1.0
PIXEL_BIAS = -1.0
LIFT_SHARE = 0.5


@dataclass(frozen=True)
class MeldChoice:
    kind: str                  # chow, pung, kong, concealed_kong
    tiles: tuple[int, ...]     # detection indices in +u order
    claimed: int | None        # position (in +u order) of the turned tile, None: concealed kong
    score: float
    stacked: bool = False      # a kong shown as three tiles, the fourth on top of the claimed one
    hidden: bool = False       # a concealed kong with all four tiles face down: no face to read


def soft_sideways(score: float) -> float:
    """0 for an upright tile, 1 for a plainly turned one (geometry's score is 1 at the cut)."""
    return float(np.clip((score - 0.8) / 0.35, 0.0, 1.0)) if np.isfinite(score) else 0.0


def set_kind(codes: list[str]) -> str | None:
    """chow / pung / kong / concealed_kong for face codes in any order, else None."""
    backs = codes.count(BACK)
    faces = [c for c in codes if c != BACK]
    if any(c[1] == "f" for c in faces):
        return None
    if len(codes) == 4:
        if backs == 4 or (len(set(faces)) == 1 and backs):
            return "concealed_kong"
        return "kong" if len(set(faces)) == 1 and not backs else None
    if len(codes) != 3 or backs:
        return None
    if len(set(faces)) == 1:
        return "pung"
    if faces[0][1] != "z" and len({c[1] for c in faces}) == 1:
        nums = sorted(int(c[0]) for c in faces)
        if nums == list(range(nums[0], nums[0] + 3)):
            return "chow"
    return None


def _lifted(tiles: tuple[int, ...], frame: RowFrame, row: tuple[int, ...]) -> tuple[int, float]:
    """The tile of three that sits highest above the line of its row (photo up, where a tile
    put on top of another shows), and how far, in tile sizes. The lines are fitted to the
    row's other nearby upright tiles (two at least). An upright tile must rise at both its top
    and bottom edge. A turned tile keeps to the near edge of the row (the player's side), so
    once that side is known (`frame.owner`) its near edge must rise; until then its centre
    is used, which a turned tile seen from across the table shows raised by itself."""
    ca = np.cos(frame.angle)
    if frame.xyxy is None:
        return 0, 0.0
    if abs(ca) < 0.5:  # the row runs up the photo: a lift runs along it
        return _lifted_along(tiles, frame, row)
    box = frame.xyxy
    x = (box[:, 0] + box[:, 2]) / 2
    size = np.mean(np.sqrt(np.prod(box[list(tiles), 2:] - box[list(tiles), :2], axis=1)))
    pos = {t: k for k, t in enumerate(row)}
    wh = box[:, 2:] - box[:, :2]
    upright = [t for t in tiles if soft_sideways(frame.sideways[t]) < 0.5] or list(tiles)
    look = np.median(np.log(wh[upright]), axis=0)  # log width, log height of the set's tiles
    best = (0, -np.inf)
    for k, t in enumerate(tiles):
        near = [r for r in row if r != t and abs(pos[r] - pos.get(t, 0)) <= 4]
        ref = [r for r in near if soft_sideways(frame.sideways[r]) < 0.5  # alike: not standing
               and np.abs(np.log(wh[r]) - look).max() < 0.2]
        if len(ref) < 2:  # a turned tile keeps to the near edge: no line to measure against
            continue
        rise = []
        for edges in ((1,), (3,), (1, 3)):
            y = box[ref][:, edges].mean(axis=1)
            slope, icpt = np.polyfit(x[ref], y, 1)
            rise.append((icpt + slope * x[t] - box[t, list(edges)].mean()) / size)
        if soft_sideways(frame.sideways[t]) < 0.5:
            lift = min(rise[0], rise[1])
        elif frame.owner:  # the near edge: the bottom one when the player sits at the photo's foot
            lift = rise[1 if frame.owner * ca > 0 else 0] + STACKED - STACKED_NEAR
        else:
            lift = rise[2] + STACKED - STACKED_TURNED
        if lift > best[1]:
            best = (k, float(lift))
    if abs(ca) < DIAGONAL:  # boxes of a row near 45° mix tiles' widths and heights: less sure
        best = (best[0], best[1] - DIAGONAL_MARGIN)
    return best


def _lifted_along(tiles: tuple[int, ...], frame: RowFrame, row: tuple[int, ...]) -> tuple[int, float]:
    """`_lifted` for a row that runs up the photo: a tile put on top shows moved up along the
    row, closer to (or over) the tile above it and away from the tile below. Measured within
    the set (the gap to the next set says nothing): the middle tile lifted makes the gap
    below it wider than the gap above it (lift: half the difference, in tile sizes); an end
    tile lifted, the upper gap wider than the lower one (lift: the difference; the top tile
    is taken for the more turned end: a tile is added on top of the claimed one)."""
    box = frame.xyxy
    order = sorted(tiles, key=lambda t: (box[t, 1] + box[t, 3]) / 2)
    if len(order) != 3:
        return 0, 0.0
    size = float(np.mean(np.sqrt(np.prod(box[order, 2:] - box[order, :2], axis=1))))
    upper = (box[order[1], 1] - box[order[0], 3]) / size   # gap between the top two
    lower = (box[order[2], 1] - box[order[1], 3]) / size   # and the bottom two
    best = (tiles.index(order[1]), float((lower - upper) / 2))
    if upper - lower > best[1]:  # an end lifted opens the upper gap or closes the lower one:
        end = max((order[0], order[2]), key=lambda t: frame.sideways[t]  # the more turned end
                  if np.isfinite(frame.sideways[t]) else 0.0)  # (put on the claimed tile)
        best = (tiles.index(end), float(upper - lower))
    return best


def _claimed(tiles: tuple[int, ...], frame: RowFrame) -> tuple[int, float]:
    """Which tile of an exposed set is turned sideways, and how plainly its spacing says so.

    Two clues: the box (wider along the row than its neighbours; `frame.sideways`) and the
    spacing (a turned tile is longer, so the steps to its neighbours in the set are longer
    by about TURNED_EXCESS of the row's step; only the differences between the set's steps
    are used, as the row's own step is unsure). Boxes blur under perspective and near 45°,
    spacing does not; the tile that fits both best wins."""
    t = list(tiles)
    du, dv = np.diff(frame.u[t]), np.diff(frame.v[t])
    size = frame.along[t]
    excess = np.hypot(du, dv) / ((size[1:] + size[:-1]) / 2) / frame.pitch[t[:-1]] - 1
    if any(x in frame.stacked for x in t):  # a lifted tile: spacing says nothing
        excess = np.zeros_like(excess)
    box = np.log(np.clip(np.nan_to_num(frame.sideways[t], nan=1.0), 0.1, 10)) if frame.solved \
        else np.zeros(len(t))

    def fit(c: int | None) -> float:  # steps compared among themselves: the row's step is unsure
        expected = np.array([TURNED_EXCESS * (c is not None and c in (k, k + 1)) for k in range(len(t) - 1)])
        diff = (excess - excess.mean()) - (expected - expected.mean())
        return -float((diff ** 2).sum()) / (2 * SPACING_SD ** 2)

    none = fit(None)
    evidence = [fit(c) + BOX_WEIGHT * (box[c] - np.delete(box, c).mean()) for c in range(len(t))]
    c = int(np.argmax(evidence))
    return c, float(1 / (1 + np.exp(-(fit(c) - none))))


def _stack_lean(tiles: tuple[int, ...], frame: RowFrame, row: tuple[int, ...]
                ) -> tuple[int, float]:
    """Which of three like tiles would carry a fourth on top, and how much the photo leans
    to that kong over a pung (-3..3). A tile whose hidden partner's box shows beside it is
    plainly on top; else the lift of the boxes (`_lifted`), and where the stack classifier
    has looked at the pixels (`frame.on_top`), its word, which sees what boxes cannot (two
    bodies under one face) and so outweighs the lift."""
    seen = [k for k, t in enumerate(tiles) if t in frame.stacked]
    if seen:
        return seen[0], 3.0
    top, lift = _lifted(tiles, frame, row)
    lean = float(np.clip(STACK_WEIGHT * (lift - STACKED), -3, 3))
    if frame.on_top is None or np.isnan(frame.on_top[list(tiles)]).any():
        return top, lean
    p = np.clip(frame.on_top[list(tiles)], 1e-4, 1 - 1e-4)
    k = int(np.argmax(p))
    pixel = PIXEL_WEIGHT * (np.log(p[k] / (1 - p[k])) - PIXEL_BIAS)
    return k, float(np.clip(LIFT_SHARE * lean + pixel, -3, 3))


def meld_choices(tiles: tuple[int, ...], codes: list[str], frame: RowFrame,
                  row: tuple[int, ...] = ()) -> list[MeldChoice]:
    """The readings of three or four tiles as a declared set, best first: none, one, or for
    three identical tiles a pung and a kong whose fourth tile lies on top (the lift of the
    tile decides which comes first; the hand search may still take the other)."""
    kind = set_kind([codes[t] for t in tiles])
    if kind is None:
        return []
    turned = np.array([soft_sideways(frame.sideways[t]) for t in tiles])
    if kind == "concealed_kong":
        hidden = all(codes[t] == BACK for t in tiles)
        return [MeldChoice(kind, tiles, None, HIDDEN_KONG - turned.sum() - hidden, hidden=hidden)]
    claimed, spaced = _claimed(tiles, frame)
    turned[claimed] = max(turned[claimed], spaced)
    score = CLAIM_BONUS * turned[claimed] - UNTURNED * (1 - turned[claimed])
    score -= np.delete(turned, claimed).sum()
    plain = MeldChoice(kind, tiles, claimed, float(score))
    if kind != "pung":
        return [plain]
    top, lean = _stack_lean(tiles, frame, row or tiles)
    kong = MeldChoice("kong", tiles, top, float(score) + lean / 2, stacked=True)
    plain = MeldChoice(kind, tiles, claimed, float(score) - lean / 2)
    return [kong, plain] if lean > 0 else [plain, kong]


def meld_ways(tiles: tuple[int, ...], codes: list[str], frame: RowFrame,
              row: tuple[int, ...] = (), limit: int = 8) -> tuple[tuple[MeldChoice, ...], ...]:
    """Every split of a piece into consecutive sets of 3 or 4 tiles."""
    memo: dict[int, list[tuple[MeldChoice, ...]]] = {len(tiles): [()]}

    def ways(start: int) -> list[tuple[MeldChoice, ...]]:
        if start in memo:
            return memo[start]
        out = []
        for size in (3, 4):
            if start + size <= len(tiles):
                for choice in meld_choices(tiles[start:start + size], codes, frame, row):
                    out.extend((choice,) + rest for rest in ways(start + size))
        memo[start] = out[:limit]
        return memo[start]

    return tuple(ways(0)) if len(tiles) >= 3 else ()


def meld_codes(m: MeldChoice, codes: list[str], unknown: str = "1m") -> tuple[str, ...]:
    """The four faces of a concealed kong (its face-down tiles read as the shown face, or as
    `unknown` when none shows) or of a stacked kong; the faces of any other set."""
    faces = [codes[t] for t in m.tiles if codes[t] != BACK] or [unknown]
    return (faces[0],) * 4 if m.kind == "concealed_kong" or m.stacked else tuple(faces)


def to_meld(m: MeldChoice, codes: list[str], offer: int | None = None,
            promoted: bool = False, unknown: str = "1m") -> Meld:
    if m.kind == "concealed_kong":
        return Meld(MeldKind.CONCEALED_KONG, meld_codes(m, codes, unknown))
    if m.kind == "kong":
        kind = MeldKind.PROMOTED_KONG if promoted else MeldKind.KONG
        return Meld(kind, meld_codes(m, codes), offer or 1)
    return Meld(MeldKind(m.kind), meld_codes(m, codes), offer)


def spare_code(codes: list[str], tiles) -> str:
    """A tile kind none of `tiles` shows: stands in for a kong whose face cannot be seen."""
    seen = {codes[t] for t in tiles}
    return next(c for c in PLAYING if c not in seen)
