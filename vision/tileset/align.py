"""Codes to tiles by alignment: what the reader reads, the finder's score and the rows'
spacing weigh every way the typed codes could lie on a sheet's boxes.

A teaching photo's boxes, put in reading order for one way the sheet may lie (a `Chain`:
rows top to bottom, each left to right), are aligned with CODES as two sequences. Each box
is either a tile under a code or no tile of the sheet (an *extra*: a stray, a second box on
a tile, the wall), and each code either lies on a box or has none (a *missed* tile, one the
finder did not find). Every choice has a cost in nats (`Costs`):

- a box under a code: how unlikely the reader finds that code there (floored, so that a
  reader that disagrees with the player, which is what teaching is for, never outweighs
  the geometry) plus how unlikely the finder finds a face-up tile there;
- an extra box: how likely the finder finds a face-up tile there;
- missed codes between two boxes: how far their number is from the room the row leaves
  there (a tile-wide hole where the spacing says one tile is missing); at a row's ends,
  where the spacing cannot say, a fixed cost per code.

When the player typed rows (a space or `/` between them), a typed row never shares a found
row with another: the codes only pass from one typed row to the next between found rows
(a found row may be no row of the sheet at all, the wall; a typed row may have no tile
found). The cheapest alignment is kept (`align`); a box's code is *sure* when every
alignment that does not put that code on that box costs at least `Costs.sure` more
(`margins`): only sure tiles are taught.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

INF = 1e9


@dataclass(frozen=True)
class Costs:
    """The costs of the alignment, in nats. `read_weight` and `sure` were chosen on
    development sheets by the rule of datasets/eval/sheet_align.py (`RULE`: of read weight
    {1, 0.5} x sure {3, 4, 6}, none storing a label wrong, the most labels right); the others
    were set by hand from the geometry of a laid row (models/README.md, "Learning a table's
    set")."""
    read_floor: float = 0.02     # the reader's probability of a code is taken as at least this
    read_weight: float = 0.5     # the reader's log-probabilities count this much
    tile_clip: float = 0.02      # a box is a tile with probability in [clip, 1 - clip]
    miss: float = 1.0            # each missed code
    hole: float = 4.0            # per tile of room the missed codes and the spacing differ by,
    #                              and for leaving out a tile-like box that sits on the row's pitch
    end: float = 2.0             # each code missed at a row's end (no spacing to say)
    max_missed: int = 3          # codes missed together in one place, at most
    sure: float = 3.0            # margin a taught tile's code must win by
    row: float = 1.0             # each found row, when ways are compared (a sheet is few rows)


COSTS = Costs()


@dataclass(frozen=True)
class Chain:
    """One photo's boxes in reading order, read one way round: `probs` (n, C) the reader's
    probabilities of each box as it stands that way, `tile` (n,) the probability that each
    box is a face-up tile, `rows` the found row lengths, `room` (n + 1,) the tiles' room
    before, between and after the boxes of a row (NaN at a row's ends), `fit` (n,) how
    well each box sits on the row's pitch from its neighbours (1: exactly; a box left out
    that fits leaves a hole no code explains)."""
    photo: int
    boxes: np.ndarray
    index: np.ndarray
    probs: np.ndarray
    tile: np.ndarray
    rows: tuple[int, ...]
    room: np.ndarray
    fit: np.ndarray

    def __len__(self) -> int:
        return len(self.boxes)


def room_between(centres_along: np.ndarray, rows: tuple[int, ...], pitches) -> np.ndarray:
    """Per place before, between and after the boxes (reading order, `rows` lengths, each
    row's pitch): how many tiles fit between two neighbours of a row (centre distance /
    pitch - 1, never below 0); NaN before a row's first box and after its last."""
    room = np.full(len(centres_along) + 1, np.nan)
    start = 0
    for n, pitch in zip(rows, pitches):
        for p in range(start + 1, start + n):
            room[p] = max(0.0, (centres_along[p] - centres_along[p - 1]) / pitch - 1.0)
        start += n
    return room


PITCH_SPREAD = 0.25  # of the pitch: how far a neighbour may lie from it and still fit


def on_pitch(centres_along: np.ndarray, rows: tuple[int, ...], pitches) -> np.ndarray:
    """Per box, how well it sits on its row's pitch: a whole number of pitches (at least
    one: tiles may be missing between) from its nearer-fitting neighbour, 1 exactly, falling
    as a Gaussian of the error (PITCH_SPREAD); 0 for a box alone in its row."""
    fit = np.zeros(len(centres_along))
    start = 0
    for n, pitch in zip(rows, pitches):
        steps = np.diff(centres_along[start:start + n]) / pitch
        err = np.abs(steps - np.maximum(1.0, np.round(steps)))
        for i in range(n):
            sides = err[max(0, i - 1):i + 1]
            if len(sides):
                fit[start + i] = np.exp(-float(sides.min()) ** 2 / (2 * PITCH_SPREAD ** 2))
        start += n
    return fit


@dataclass
class Event:
    """One step of an alignment, in reading order: a box under a code, an extra box, or
    codes missed at a place (`photo`, `row`, before box `box` of the chain)."""
    kind: str                      # "match", "extra" or "missed"
    photo: int
    row: int
    box: int = -1                  # position in the photo's chain
    codes: tuple[int, ...] = ()    # indices into CODES
    margin: float = field(default=np.inf)


@dataclass(frozen=True)
class Alignment:
    cost: float
    events: tuple[Event, ...]

    def matches(self) -> list[Event]:
        return [e for e in self.events if e.kind == "match"]


class _Trace:
    """The forward pass's choices, so that the cheapest path can be walked back."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, np.ndarray, int, int, int]] = []

    def add(self, kind: str, src: np.ndarray, photo: int, row: int, box: int) -> None:
        self.steps.append((kind, src, photo, row, box))


def _miss_block(v: np.ndarray, costs_k: np.ndarray, trace, photo, row, box) -> np.ndarray:
    """v'[j] = min over k of v[j - k] + costs_k[k]: k codes missed in one place."""
    best, src = v + costs_k[0], np.arange(len(v))
    for k in range(1, len(costs_k)):
        cand = np.full(len(v), INF)
        cand[k:] = v[:-k] + costs_k[k]
        better = cand < best
        best = np.where(better, cand, best)
        src = np.where(better, np.arange(len(v)) - k, src)
    trace.add("missed", src, photo, row, box)
    return best


def _row_break(v: np.ndarray, bounds, row_cost, trace, photo, row) -> np.ndarray:
    """Between found rows: the codes must be at a typed row's boundary, and whole typed rows
    may have no tile found."""
    if bounds is None:
        return v
    out = np.full(len(v), INF)
    out[bounds] = v[bounds]
    src = np.arange(len(v))
    for t in range(len(bounds) - 1):
        a, b = bounds[t], bounds[t + 1]
        if out[a] + row_cost[t] < out[b]:
            out[b], src[b] = out[a] + row_cost[t], src[a]
    trace.add("missed", src, photo, row, -1)
    return out


def _forward(chains, code_ids, bounds, costs: Costs, forbid, free: bool):
    m = len(code_ids)
    v = np.full(m + 1, INF)
    if free:
        v[:] = 0.0
    else:
        v[0] = 0.0
    trace = _Trace()
    ks = np.arange(costs.max_missed + 1)
    end_k = ks * (costs.miss + costs.end)
    row_cost = None
    if bounds is not None:
        row_cost = np.diff(bounds) * (costs.miss + costs.end)
    for chain in chains:
        start = 0
        for r, n in enumerate(chain.rows):
            v = _row_break(v, bounds, row_cost, trace, chain.photo, r)
            v = _miss_block(v, end_k, trace, chain.photo, r, start)
            for p in range(start, start + n):
                if p > start:
                    room = chain.room[p]
                    v = _miss_block(v, ks * costs.miss + costs.hole * np.abs(ks - room),
                                    trace, chain.photo, r, p)
                v = _box_step(v, chain, p, code_ids, costs, forbid, trace, r)
            v = _miss_block(v, end_k, trace, chain.photo, r, start + n)
            start += n
    # typed rows left at the end with no tile found: after the last photo's last row
    last = chains[-1] if chains else None
    v = _row_break(v, bounds, row_cost, trace, last.photo if last else -1,
                   len(last.rows) if last else -1)
    if free:
        end = int(np.argmin(v))
    else:
        end = m
    return float(v[end]), end, trace


def _box_step(v, chain: Chain, p: int, code_ids, costs: Costs, forbid, trace, row):
    tile = np.clip(chain.tile[p], costs.tile_clip, 1 - costs.tile_clip)
    read = np.maximum(chain.probs[p, code_ids], costs.read_floor)
    match = -costs.read_weight * np.log(read) - np.log(tile)
    banned = forbid.get((chain.photo, p))
    if banned is not None:
        match = match.copy()
        match[banned] = INF
    # leaving out a box on the row's pitch leaves a hole that no code explains (a box read
    # as face down, likely no row of the sheet at all, half as much)
    extra = v - np.log(1 - tile) + costs.hole * chain.fit[p] * max(chain.tile[p], 0.5)
    cand = np.full(len(v), INF)
    cand[1:] = v[:-1] + match
    take = cand < extra
    trace.add("box", np.where(take, np.arange(len(v)) - 1, np.arange(len(v))), chain.photo, row, p)
    return np.where(take, cand, extra)


def _walk_back(trace: _Trace, end: int) -> list[Event]:
    events, j = [], end
    for kind, src, photo, row, box in reversed(trace.steps):
        prev = int(src[j])
        if kind == "box":
            events.append(Event("match", photo, row, box, (prev,)) if prev == j - 1
                          else Event("extra", photo, row, box))
        elif prev != j:
            events.append(Event("missed", photo, row, box, tuple(range(prev, j))))
        j = prev
    return events[::-1]


def align(chains, code_ids, bounds=None, costs: Costs = COSTS, forbid=None,
          free: bool = False) -> Alignment:
    """The cheapest alignment of the chains (photos in order) with the codes (`code_ids`,
    the reader's class ids); `bounds`: the typed rows' boundaries (0, ..., len(codes)) or
    None; `free`: the chains may take any stretch of the codes (how well one photo fits a
    part of them); `forbid`: {(photo, box): code index} matches not allowed."""
    bounds = None if bounds is None else np.asarray(bounds, np.int64)
    cost, end, trace = _forward(chains, np.asarray(code_ids, np.int64), bounds, costs,
                                forbid or {}, free)
    return Alignment(cost, tuple(_walk_back(trace, end)))


def margins(chains, code_ids, bounds, best: Alignment, costs: Costs = COSTS) -> Alignment:
    """`best` with each match's margin: how much more the cheapest alignment costs that does
    not put that code on that box."""
    events = []
    for e in best.events:
        if e.kind == "match":
            other = align(chains, code_ids, bounds, costs, {(e.photo, e.box): e.codes[0]})
            e = Event(e.kind, e.photo, e.row, e.box, e.codes, other.cost - best.cost)
        events.append(e)
    return Alignment(best.cost, tuple(events))


def labels(alignment: Alignment) -> dict[tuple[int, int], int]:
    """{(photo, box): code index} of an alignment's matches."""
    return {(e.photo, e.box): e.codes[0] for e in alignment.matches()}
