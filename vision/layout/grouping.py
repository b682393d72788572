"""Which segments make the hand, and as what: the search over readings of one row frame.

A segment (vision.layout.geometry) is cut at bonus tiles into *pieces*. A reading gives each piece
one role: concealed tiles (one piece, or two: a hand in two rows), declared sets (the piece
split into consecutive runs of 3 or 4 tiles that are sets: chow, pung, kong, or a concealed
kong shown with face-down tiles), the winning tile (a single tile set apart), or ignored.
Only readings that make a complete hand (scoring.decompose) are kept; among them the
geometry decides, with a score that adds up plain evidence (a claimed tile turned sideways
in each exposed set, no turned tile among concealed ones, the winning tile beside the
concealed row, face-up tiles near the hand left out). The runners-up are the rejected
alternatives that the layout reports.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations

import numpy as np

from scoring.decompose import is_complete
from scoring.errors import InvalidHandError
from scoring.hand import Hand, Meld, MeldKind

from .geometry import RowFrame
from .sets import BACK, MeldChoice, meld_codes, meld_ways, spare_code

NEAR = 4.0               # tile widths: how far a set may lie from the concealed tiles (or the next set)
WIN_NEAR = 3.0           # and the winning tile set apart from the concealed tiles
TURNED_IN_CONCEALED = 2.0
WIN_APART = 1.0          # a single tile right beside the concealed row
WIN_ELSEWHERE = 0.2      # a single tile somewhere near
WIN_GUESS = 0.6          # nothing set apart: the winning tile is a guess
TWO_ROWS = 2.0           # the concealed tiles in two rows
SPLIT_ROW = 3.0          # the concealed tiles in two pieces of one row
IGNORED_NEAR = 0.8       # per face-up tile left out, times exp(-distance / 2)
JOIN_GAP = 0.7           # pieces of a row this close may still be one (a turned tile not seen as such)
JOIN_COST = 0.5          # per narrow gap a reading bridges
ROW_NEAR = 2.5           # tile widths: a piece of a row of the hand this close to it is part of it
HAND_TILES = 14          # a hand's tiles, a kong counted as 3
MAX_READINGS = 2000      # a safety net for a crowded table
ALTERNATIVES_WITHIN = 6.0  # complete readings this much worse than the best are not kept
MAX_ALTERNATIVES = 8


@dataclass(frozen=True)
class Piece:
    tiles: tuple[int, ...]
    row: int
    face_up: bool                                   # every tile a playing tile (no backs)
    ways: tuple[tuple[MeldChoice, ...], ...]        # ways to read it as declared sets
    box: tuple[float, float, float, float]          # u0, v0, u1, v1 in the row frame
    unit: float
    mask: int = 0                                   # the base pieces it covers (bits)
    joins: int = 0                                  # narrow gaps it bridges
    gap_after: float = float("inf")                 # to the next piece of the row


@dataclass(frozen=True)
class Reading:
    concealed: tuple[int, ...]   # without the winning tile
    melds: tuple[MeldChoice, ...]
    winning: int | None
    guessed: bool                # nothing set apart: the winning tile was chosen to complete
    ignored: tuple[int, ...]     # tiles of the frame left out (bonus tiles are decided apart)
    complete: bool
    score: float
    pieces: tuple[int, ...] = ()  # pieces used for the concealed tiles (for notes)


def _piece(tiles: tuple[int, ...], row: int, frame: RowFrame, codes: list[str], chain: tuple[int, ...],
           unit: float, **extra) -> Piece:
    t = list(tiles)
    u, v, a, b = frame.u[t], frame.v[t], frame.along[t], frame.across[t]
    box = (float((u - a / 2).min()), float((v - b / 2).min()), float((u + a / 2).max()),
           float((v + b / 2).max()))
    return Piece(tiles, row, all(codes[i] != BACK for i in tiles), meld_ways(tiles, codes, frame, chain),
                 box, unit, **extra)


def pieces(frame: RowFrame, codes: list[str]) -> tuple[list[Piece], list[int]]:
    """Segments cut at bonus tiles (the bonus tiles are returned apart), then runs of up to
    three neighbouring pieces of a row across narrow gaps, as pieces of their own."""
    out, bonus = [], []
    chains = {r: tuple(t for k in segs for t in frame.segments[k].tiles) for r, segs in enumerate(frame.rows)}
    for seg in frame.segments:
        run: list[int] = []
        for t in list(seg.tiles) + [-1]:
            if t >= 0 and codes[t][1] != "f":
                run.append(t)
                continue
            if t >= 0:
                bonus.append(t)
            if run:
                after = seg.gap_after if t < 0 else float("inf")
                out.append(_piece(tuple(run), seg.row, frame, codes, chains[seg.row], seg.unit,
                                  mask=1 << len(out), gap_after=after))
                run = []
    base = len(out)
    for k in range(base):
        tiles, mask = out[k].tiles, out[k].mask
        for j in range(k + 1, min(k + 3, base)):
            prev = out[j - 1]
            if out[j].row != prev.row or prev.gap_after > JOIN_GAP or len(tiles) + len(out[j].tiles) > 14:
                break
            tiles, mask = tiles + out[j].tiles, mask | out[j].mask
            out.append(_piece(tiles, prev.row, frame, codes, chains[prev.row], prev.unit,
                              mask=mask, joins=j - k, gap_after=out[j].gap_after))
    return out, bonus


def _distances(pcs: list[Piece]) -> np.ndarray:
    """`gap` between every two pieces, at once."""
    if not pcs:
        return np.zeros((0, 0))
    box = np.array([p.box for p in pcs])
    unit = np.array([p.unit for p in pcs])
    du = np.maximum(0, np.maximum(box[:, None, 0], box[None, :, 0]) - np.minimum(box[:, None, 2], box[None, :, 2]))
    dv = np.maximum(0, np.maximum(box[:, None, 1], box[None, :, 1]) - np.minimum(box[:, None, 3], box[None, :, 3]))
    return np.hypot(du, dv) / ((unit[:, None] + unit[None, :]) / 2)


def gap(a: Piece, b: Piece) -> float:
    """Box-to-box distance of two pieces in tile widths."""
    du = max(0.0, max(a.box[0], b.box[0]) - min(a.box[2], b.box[2]))
    dv = max(0.0, max(a.box[1], b.box[1]) - min(a.box[3], b.box[3]))
    return float(np.hypot(du, dv) / ((a.unit + b.unit) / 2))


def _complete(codes: list[str], concealed: list[int], melds: tuple[MeldChoice, ...],
              winning: int) -> bool:
    unknown = spare_code(codes, list(concealed) + [winning] + [t for m in melds for t in m.tiles])
    key_melds = tuple(sorted((m.kind == "concealed_kong", meld_codes(m, codes, unknown)) for m in melds))
    return _complete_codes(tuple(sorted(codes[t] for t in concealed)), key_melds, codes[winning])


@lru_cache(maxsize=65536)
def _complete_codes(concealed: tuple[str, ...], melds: tuple[tuple[bool, tuple[str, ...]], ...],
                    winning: str) -> bool:
    """Is this a complete hand (cached: many readings of a photo hold the same tiles)."""
    try:
        hand = Hand(concealed, tuple(Meld(MeldKind.CONCEALED_KONG, t) if hidden else
                                     Meld(MeldKind.KONG, t, 1) if len(t) == 4 else
                                     Meld(MeldKind.PUNG if len(set(t)) == 1 else MeldKind.CHOW, t)
                                     for hidden, t in melds), winning)
    except (InvalidHandError, ValueError):
        return False
    return is_complete(hand)


def _reach(links: list[list[int]], start: tuple[int, ...]) -> list[int]:
    """Pieces reachable from `start` in steps shorter than NEAR (sets laid in a line)."""
    seen, todo = set(start), list(start)
    while todo:
        for j in links[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return sorted(seen)


def _meld_subsets(cands: list[int], pcs: list[Piece], sets: int, taken: int):
    """Choices of (piece, way) on free base pieces whose set counts add up to `sets`."""
    if sets == 0:
        yield ()
        return
    for k, p in enumerate(cands):
        if pcs[p].mask & taken:
            continue
        for way in pcs[p].ways:
            if len(way) <= sets:
                for rest in _meld_subsets(cands[k + 1:], pcs, sets - len(way), taken | pcs[p].mask):
                    yield ((p, way),) + rest


def search(frame: RowFrame, codes: list[str]) -> list[Reading]:
    """Complete readings of the tiles in `frame`, best first."""
    pcs, _ = pieces(frame, codes)
    dist = _distances(pcs)
    ctx = _context(frame, pcs, dist)
    return _complete_readings(_drafts(frame, ctx, pcs, dist), codes, pcs, ctx)


def _concealed_options(pcs: list[Piece], dist: np.ndarray) -> list[tuple[int, ...]]:
    """The pieces that may be the concealed row: one face-up piece, or two near each other
    (a row broken by a gap), longest first."""
    options = [(k,) for k, p in enumerate(pcs) if p.face_up]
    options += [(a, b) for (a,), (b,) in combinations(options, 2) if dist[a, b] < NEAR
                and not pcs[a].mask & pcs[b].mask and len(pcs[a].tiles) + len(pcs[b].tiles) <= 14
                and min(len(pcs[a].tiles), len(pcs[b].tiles)) > 1]
    options.sort(key=lambda c: -sum(len(pcs[k].tiles) for k in c))  # long rows first
    return options


def _drafts(frame: RowFrame, ctx: _Context, pcs: list[Piece], dist: np.ndarray) -> list[Reading]:
    """Readings scored on geometry, not yet checked for a complete hand: for each concealed
    row, each winning tile set apart near it (or none), the sets near it that make 14."""
    links = [np.flatnonzero(row < NEAR).tolist() for row in dist]
    singles = [k for k, p in enumerate(pcs) if p.face_up and len(p.tiles) == 1]
    drafts: list[Reading] = []
    for conc in _concealed_options(pcs, dist):
        if len(drafts) >= MAX_READINGS:
            break
        n_conc = sum(len(pcs[k].tiles) for k in conc)
        taken = pcs[conc[0]].mask | pcs[conc[-1]].mask
        if n_conc > 14:
            continue
        near = [k for k in _reach(links, conc) if not pcs[k].mask & taken]
        supply = sum(max(len(w) for w in pcs[k].ways) for k in near if pcs[k].ways)
        if 3 * supply < 13 - n_conc:
            continue  # not enough sets nearby to make up a hand with these concealed tiles
        wins = [k for k in singles if k in near and dist[list(conc), k].min() < WIN_NEAR]
        for win in [None] + wins:
            need = 14 - n_conc - (win is not None)
            if need < 0 or need % 3 or need > 12:
                continue
            used = taken | (pcs[win].mask if win is not None else 0)
            cands = [k for k in near if k != win and pcs[k].ways and not pcs[k].mask & used]
            drafts.extend(_evaluate(frame, ctx, conc, win, chosen)
                          for chosen in _meld_subsets(cands, pcs, need // 3, used))
            if len(drafts) >= MAX_READINGS:
                break
    return drafts


def _complete_readings(drafts: list[Reading], codes: list[str], pcs: list[Piece], ctx: _Context
                       ) -> list[Reading]:
    """The drafts that make a complete hand, best first. Completeness is the costly test:
    best geometry first, and stop once the rest could only be alternatives too poor to
    mention."""
    drafts = sorted(drafts, key=lambda r: -r.score)
    out: list[Reading] = []
    for r in drafts:
        if out and (r.score < out[0].score - ALTERNATIVES_WITHIN or len(out) >= MAX_ALTERNATIVES):
            break
        if _complete(codes, list(r.concealed), r.melds, r.winning):
            hand = set(r.concealed) | {r.winning} | {t for m in r.melds for t in m.tiles}
            used = 0
            for p in pcs:
                if not p.joins and hand & set(p.tiles):
                    used |= p.mask
            if not _leaves_row_tiles(ctx, used):
                out.append(replace(r, complete=True, ignored=_ignored(ctx, r, used)))
    return out


def _leaves_row_tiles(ctx: _Context, used: int) -> bool:
    """Whether a reading puts aside face-up tiles of a row of the hand lying next to it (a
    real tile is never dropped to make the rest complete)."""
    pcs = ctx.pcs
    hand = [k for k in ctx.base if pcs[k].mask & used]
    rows = {pcs[k].row for k in hand}
    return any(pcs[k].face_up and pcs[k].row in rows and min(ctx.dist[k, hand]) < ROW_NEAR
               for k in ctx.base if not pcs[k].mask & used)


@dataclass(frozen=True)
class _Context:
    """What scoring a reading needs, computed once per frame."""
    pcs: list[Piece]
    dist: np.ndarray
    turned: np.ndarray        # per piece: its tiles' turned-sideways evidence, summed
    base: np.ndarray          # indices of the base pieces (not bridging a gap)
    base_size: np.ndarray     # their face-up tile counts (0 for pieces with face-down tiles)
    base_mask: np.ndarray     # their bits


def _context(frame: RowFrame, pcs: list[Piece], dist: np.ndarray) -> _Context:
    soft = np.clip((np.nan_to_num(frame.sideways, nan=0.0) - 0.8) / 0.35, 0.0, 1.0)
    base = np.array([k for k, p in enumerate(pcs) if not p.joins], int)
    return _Context(pcs, dist, np.array([soft[list(p.tiles)].sum() for p in pcs]), base,
                    np.array([len(pcs[k].tiles) * pcs[k].face_up for k in base], float),
                    np.array([pcs[k].mask for k in base], dtype=object))


def _evaluate(frame, ctx: _Context, conc, win, chosen) -> Reading:
    """A reading and its geometric score (its completeness is checked by the caller)."""
    pcs, dist = ctx.pcs, ctx.dist
    concealed = [t for k in conc for t in pcs[k].tiles]
    melds = tuple(m for _, way in chosen for m in way)
    winning, guessed = (pcs[win].tiles[0], False) if win is not None else (concealed[-1], True)
    if guessed:
        concealed = concealed[:-1]
    score = sum(m.score for m in melds)
    score -= TURNED_IN_CONCEALED * (sum(ctx.turned[k] for k in conc) + (ctx.turned[win] if win is not None else 0))
    if len(conc) == 2:
        score -= SPLIT_ROW if pcs[conc[0]].row == pcs[conc[1]].row else TWO_ROWS
    if win is None:
        score -= WIN_GUESS
    else:
        beside = any(pcs[k].row == pcs[win].row for k in conc) and dist[list(conc), win].min() < 2.5
        score += WIN_APART if beside else WIN_ELSEWHERE
    used = list(conc) + [p for p, _ in chosen] + ([win] if win is not None else [])
    score -= JOIN_COST * sum(pcs[k].joins for k in used)
    mask = 0
    for k in used:
        mask |= pcs[k].mask
    free = (ctx.base_mask & mask) == 0
    if free.any():
        near = dist[used][:, ctx.base[free]].min(axis=0)
        score -= IGNORED_NEAR * float((ctx.base_size[free] * np.exp(-near / 2)).sum())
    return Reading(tuple(concealed), melds, winning, guessed, (), False, float(score), tuple(conc))


def _ignored(ctx: _Context, r: Reading, used: int) -> tuple[int, ...]:
    return tuple(t for k in ctx.base for t in ctx.pcs[k].tiles if not ctx.pcs[k].mask & used)


def fallback(frame: RowFrame, codes: list[str]) -> Reading | None:
    """The plainest reading when no complete one exists: the piece with most face-up tiles
    is the concealed row, readable sets near it are melds, a single tile beside it the
    winning one; every other face-up tile of a row of the hand near them is a concealed tile
    (a hand that is not complete is shown whole); face-down boxes among them are left out."""
    pcs = [p for p in pieces(frame, codes)[0] if not p.joins]
    # a row counts by its face-up tiles: a stray face-down box at its end (a phantom at the
    # photo's edge) is set aside, and does not hand the hand to a lone tile elsewhere
    shown = [sum(codes[t] != BACK for t in p.tiles) for p in pcs]
    candidates = [k for k in range(len(pcs)) if shown[k]]
    if not candidates:
        return None
    conc = max(candidates, key=lambda k: (shown[k], pcs[k].face_up, pcs[k].unit))
    melds, used, win = [], {conc}, None
    for k, p in enumerate(pcs):
        if k != conc and gap(p, pcs[conc]) < NEAR:
            if p.ways:
                melds.extend(max(p.ways, key=lambda w: sum(m.score for m in w)))
                used.add(k)
            elif shown[k] == 1 and win is None and p.row == pcs[conc].row:
                win = k
                used.add(k)
    room = HAND_TILES - shown[conc] - (win is not None) - 3 * len(melds)
    extra = _rest_of_rows(pcs, shown, used, room)
    used |= set(extra)
    ignored = [t for k, p in enumerate(pcs) if k not in used for t in p.tiles]
    ignored += [t for k in [conc, win] + extra if k is not None for t in pcs[k].tiles
                if codes[t] == BACK]
    winning = next(t for t in pcs[win].tiles if codes[t] != BACK) if win is not None else None
    concealed = [t for k in [conc] + extra for t in pcs[k].tiles if codes[t] != BACK]
    return Reading(tuple(concealed), tuple(melds), winning, False, tuple(ignored), False, -1e9,
                   (conc,))


def _rest_of_rows(pcs: list[Piece], shown: list[int], used: set[int], room: int) -> list[int]:
    """The pieces of two or more face-up tiles in the rows of the hand (`used`) that lie next
    to the hand (ROW_NEAR tile widths, step by step along the row), nearest first, while they
    fit in the `room` a hand has left (more than 14 tiles, a kong counted as 3, are no hand).
    A lone tile beside the hand is more often a flower set apart, misread, than a tile of
    it (chosen so on the development scenes: docs/experiments.md)."""
    rows = {pcs[k].row for k in used}
    extra: list[int] = []
    while True:
        near = [(min(gap(p, pcs[j]) for j in list(used) + extra), k) for k, p in enumerate(pcs)
                if k not in used and k not in extra and shown[k] >= 2 and p.row in rows]
        fits = [(d, k) for d, k in near if d < ROW_NEAR and shown[k] <= room]
        if not fits:
            return extra
        k = min(fits)[1]
        extra.append(k)
        room -= shown[k]
