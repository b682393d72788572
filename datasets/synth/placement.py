"""Where tiles lie on the table (world cm): the winner's hand and the rest of the game.

The winner sits at y < 0 and reads tiles upright (yaw 0). A finished hand at a real table: the
concealed tiles in a row (lying or standing), exposed melds apart from them (front, right or
left), claimed tiles often turned sideways, concealed kongs with face-down tiles, bonus tiles
set aside, the winning tile sometimes pushed apart. Around it: the opponents' hands, walls and
discards (distractors), which leave room for the hand.
"""
from __future__ import annotations

import numpy as np

from datasets.classes import BONUS_CODES, SUIT_CODES
from datasets.synth.hands import DrawnHand, KongRates
from datasets.synth.render import Tile
from scoring.tiles import sort_key

Z = np.array([0.0, 0.0, 1.0])


def lying(code, x, y, yaw_deg, dims, *, face_up=True, z0=0.0, **kw) -> Tile:
    w, h, d = dims
    ff = kw.pop("ff", 0.55)
    a = np.deg2rad(yaw_deg)
    u0, v = np.array([np.cos(a), np.sin(a), 0.0]), np.array([-np.sin(a), np.cos(a), 0.0])
    n = Z if face_up else -Z
    u = np.cross(v, n)  # keeps u x v = n: a face is never mirrored
    return Tile(code, np.array([x, y, z0 + d / 2]), u if face_up else -u0, v, n, dims, face_up=face_up,
                meta={"yaw": yaw_deg % 360, "ff": ff}, **kw)


def standing(code, x, y, yaw_deg, dims, *, upside_down=False, lean_deg=0.0, **kw) -> Tile:
    """Standing on its bottom edge, face towards -y rotated by yaw (towards its owner)."""
    w, h, d = dims
    ff = kw.pop("ff", 0.55)
    a, lean = np.deg2rad(yaw_deg), np.deg2rad(lean_deg)
    n = np.array([np.sin(a) * np.cos(lean), -np.cos(a) * np.cos(lean), np.sin(lean)])
    v = np.array([-np.sin(a) * np.sin(lean), np.cos(a) * np.sin(lean), np.cos(lean)])
    if upside_down:
        v = -v
    u = np.cross(v, n)
    c = np.array([x, y, 0.0]) + Z * (h / 2) * np.cos(lean) + n * (-d / 2)
    return Tile(code, c, u, v, n, dims, standing=True, meta={"yaw": yaw_deg % 360, "ff": ff}, **kw)


def _order_concealed(rng, hand: DrawnHand) -> list[str]:
    tiles = list(hand.concealed)
    r = rng.random()
    if r < 0.7:
        return sorted(tiles, key=sort_key)
    if r < 0.9:
        return tiles  # in set order, as some players arrange them
    return [tiles[i] for i in rng.permutation(len(tiles))]


def layout_hand(rng: np.random.Generator, hand: DrawnHand, dims, *, standing_ok: bool, p_flip: float, ff: float,
                stacked_kong: float = KongRates.stacked) -> list[Tile]:
    w, h, d = dims
    gap = lambda: w * rng.uniform(0.0, 0.08)  # noqa: E731
    jit = lambda s=1.0: rng.normal(0, w * 0.03 * s)  # noqa: E731
    ang = lambda s=1.0: rng.normal(0, 1.2 * s)  # noqa: E731
    mess = rng.uniform(0.5, 3.0)
    out: list[Tile] = []
    flip = lambda: 180.0 if rng.random() < p_flip else 0.0  # noqa: E731

    row = _order_concealed(rng, hand)
    apart = rng.random() < 0.45
    if not apart:
        pos = len(row) if rng.random() < 0.5 else sum(sort_key(c) <= sort_key(hand.winning) for c in row)
        row.insert(pos, hand.winning)
    stand = standing_ok and rng.random() < 0.35
    x = 0.0
    win_marked = False
    for code in row:
        grp = "concealed"
        if stand:
            t = standing(code, x + w / 2 + jit(), jit(), ang(mess), dims, upside_down=rng.random() < p_flip * 0.5,
                         lean_deg=rng.uniform(-8, 12), group=grp, ff=ff)
        else:
            t = lying(code, x + w / 2 + jit(), h / 2 + jit(), ang(mess) + flip(), dims, group=grp, ff=ff)
        out.append(t)
        x += w + gap()
    row_end = x
    if apart:
        wx = row_end + rng.uniform(1.0, 5.0) + w / 2
        wy = h / 2 + rng.normal(0, 1.0)
        if rng.random() < 0.15:
            out.append(lying(hand.winning, wx + (h - w) / 2, wy - (h - w) / 2, 90 + flip(), dims, group="winning", ff=ff))
        else:
            out.append(lying(hand.winning, wx, wy, ang(mess) + flip(), dims, group="winning", ff=ff))
        row_end = wx + w
        win_marked = True

    # Exposed melds: in front of the row (towards the table centre), or beside it.
    mode = rng.choice(["front", "right", "left"], p=[0.5, 0.3, 0.2])
    if mode == "front":
        mx, my0 = rng.uniform(-2 * w, 4 * w), h + rng.uniform(0.6, 4.0)
    elif mode == "right":
        mx, my0 = row_end + rng.uniform(1.5, 5.0), 0.0
    else:
        mx, my0 = -rng.uniform(1.5, 5.0), 0.0
    placed_melds = []
    for i, m in enumerate(hand.melds):
        tiles = _meld_tiles(rng, m, i, dims, p_flip, ff, mess, stacked_kong)
        width = max(t.center[0] + e for t, e in tiles) if tiles else 0
        placed_melds.append((tiles, width))
    if mode == "left":
        mx -= sum(wd + 2.5 for _, wd in placed_melds)
    for tiles, width in placed_melds:
        for t, _ in tiles:
            t.center = t.center + np.array([mx, my0, 0.0])
            out.append(t)
        mx += width + rng.uniform(1.2, 4.0)

    # Bonus tiles set aside: after the melds or in a corner of their own.
    if hand.bonus:
        if rng.random() < 0.6:
            bx, by = max(mx, row_end) + rng.uniform(2, 6), (my0 if mode == "front" else 0) + rng.normal(0, 1)
        else:
            bx, by = rng.uniform(-6 * w, 0) - rng.uniform(3, 6), rng.uniform(-h * 1.5, h * 2.5)
        for b in hand.bonus:
            out.append(lying(b, bx + w / 2, by + h / 2, ang(mess * 2) + flip(), dims, group="bonus", ff=ff))
            bx += w + gap() + (rng.uniform(0.5, 2) if rng.random() < 0.3 else 0)
    # One small rigid motion of the whole hand: people do not align it with the table edge.
    ctr = np.mean([t.center for t in out], axis=0) * np.array([1, 1, 0])
    a = np.deg2rad(rng.normal(0, 4))
    Rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    for t in out:
        t.center, t.u, t.v, t.n = Rz @ (t.center - ctr), Rz @ t.u, Rz @ t.v, Rz @ t.n
        t.meta["yaw"] = (t.meta["yaw"] + np.rad2deg(a)) % 360
    assert win_marked or any(c == hand.winning for c in row)
    return out


def _meld_tiles(rng, m, i, dims, p_flip, ff, mess, stacked_kong: float = KongRates.stacked):
    """Tiles of one declared set at local x >= 0, y from 0 (the near edge); with their half-extent in x."""
    w, h, d = dims
    grp = f"meld:{i}"
    claimed = m.claimed_index if rng.random() < 0.75 else None   # often the claimed tile is not turned
    down = set()
    if m.kind == "concealed_kong":
        down = [{0, 3}, {1, 2}, {0, 1, 2, 3}][rng.choice(3, p=[0.6, 0.25, 0.15])]
    stack_on = None
    codes = list(m.tiles)
    if m.kind == "kong" and (m.offer >= 5 or rng.random() < stacked_kong):
        stack_on = claimed if claimed is not None else 1  # the fourth tile lies on top
        codes = codes[:3]
    out, x = [], 0.0
    flip = 180.0 if rng.random() < p_flip else 0.0   # a meld is usually turned as a whole
    for k, code in enumerate(codes):
        g = w * rng.uniform(0.0, 0.06)
        if k == claimed:
            yaw = 90.0 if rng.random() < 0.5 else -90.0
            t = lying(code, x + h / 2, w / 2, yaw + rng.normal(0, mess), dims, group=grp, ff=ff)
            out.append((t, h / 2))
            x += h + g
        else:
            t = lying(code, x + w / 2, h / 2, rng.normal(0, mess) + flip, dims, face_up=k not in down, group=grp, ff=ff)
            out.append((t, w / 2))
            x += w + g
    if stack_on is not None:
        base = out[min(stack_on, len(out) - 1)][0]
        yaw = base.meta["yaw"]
        out.append((lying(m.tiles[3], base.center[0], base.center[1], yaw + rng.normal(0, 2), dims, z0=d, group=grp, ff=ff), 0))
    return out


class Occupancy:
    """Footprints already used on the table, so that distractors do not pile into the hand."""

    def __init__(self, tiles: list[Tile], pad: float = 0.4):
        self.c = np.array([t.center[:2] for t in tiles]).reshape(-1, 2)
        self.r = np.array([max(t.size[:2]) / 2 + pad for t in tiles])

    def free(self, xy, r) -> bool:
        return not len(self.c) or bool((np.hypot(*(self.c - xy).T) >= self.r + r).all())

    def add(self, xy, r):
        self.c = np.vstack([self.c, xy])
        self.r = np.append(self.r, r)


def remaining_pool(hand_tiles: list[str]) -> dict[str, int]:
    pool = {c: 4 for c in SUIT_CODES} | {c: 1 for c in BONUS_CODES}
    for c in hand_tiles:
        pool[c] -= 1
    return pool


def _draw_code(rng, pool, bonus_ok=False):
    keys = [k for k, v in pool.items() if v > 0 and (bonus_ok or k[1] != "f")]
    if not keys:
        return None
    c = keys[rng.integers(len(keys))]
    pool[c] -= 1
    return c


def layout_distractors(rng, hand_tiles: list[Tile], pool: dict[str, int], dims, ff: float, centre: np.ndarray) -> list[Tile]:
    """Opponents' hands, walls and discards around the table centre; face-up ones are labelled."""
    w, h, d = dims
    occ = Occupancy(hand_tiles)
    out: list[Tile] = []

    def put(t: Tile, check=True) -> bool:
        r = max(t.size[:2]) / 2
        if check and not occ.free(t.center[:2], r):
            return False
        occ.add(t.center[:2], r)
        out.append(t)
        return True

    R = rng.uniform(26, 42)
    for seat, (yaw, ox, oy) in enumerate(((180, 0, R), (-90, -R, 0), (90, R, 0))):
        if rng.random() > 0.45:
            continue
        mode = rng.choice(["stand", "down", "up"], p=[0.5, 0.2, 0.3])
        a = np.deg2rad(yaw)
        along, across = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        n = int(rng.integers(7, 14))
        for k in range(n):
            xy = centre[:2] + np.array([ox, oy]) + along * (k - n / 2) * (w * 1.03) - across * 0 + rng.normal(0, 0.1, 2)
            if mode == "stand":  # backs to the winner; a camera on their side sees (and labels) faces
                code = _draw_code(rng, pool)
                if code:
                    put(standing(code, *xy, yaw, dims, ff=ff, lean_deg=rng.uniform(-5, 10)))
            else:
                code = _draw_code(rng, pool) if mode == "up" else "back"
                if code:
                    put(lying(code, *xy, yaw + rng.normal(0, 1.5) + (180 if rng.random() < 0.1 else 0), dims,
                              face_up=mode == "up", labelled=mode == "up", ff=ff))
    if rng.random() < 0.5:  # walls: 2-high stacks of face-down tiles, partly taken
        Rw = rng.uniform(10, 20)
        for yaw, (ox, oy) in zip((0, 90, 180, 270), ((0, -Rw), (Rw, 0), (0, Rw), (-Rw, 0))):
            n = int(rng.integers(0, 12))
            a = np.deg2rad(yaw)
            along = np.array([np.cos(a), np.sin(a)])
            start = rng.uniform(-8, 8) * w / 2
            for k in range(n):
                xy = centre[:2] + np.array([ox, oy]) + along * (start + k * w * 1.01)
                if put(lying("back", *xy, yaw, dims, face_up=False, labelled=False, ff=ff)) and rng.random() < 0.85:
                    put(lying("back", *xy, yaw, dims, face_up=False, labelled=False, z0=d, ff=ff), check=False)
    if rng.random() < 0.8:  # discards: rows of six in front of each player, faces up
        for yaw in (0, 90, 180, 270):
            a = np.deg2rad(yaw)
            along, across = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
            n = int(rng.integers(0, 16))
            base = centre[:2] - across * rng.uniform(6, 14) - along * 3 * w
            for k in range(n):
                code = _draw_code(rng, pool)
                if code is None:
                    break
                xy = base + along * (k % 6) * w * 1.05 - across * (k // 6) * h * 1.05 + rng.normal(0, w * 0.06, 2)
                put(lying(code, *xy, yaw + rng.normal(0, 4) + (180 if rng.random() < 0.15 else 0), dims, ff=ff))
    if rng.random() < 0.35:  # other players' bonus tiles, set aside in a row at their own seats
        for yaw, seat in ((180, (0, 1)), (-90, (-1, 0)), (90, (1, 0))):
            if rng.random() > 0.5:
                continue
            a = np.deg2rad(yaw)
            along = np.array([np.cos(a), np.sin(a)])
            xy0 = centre[:2] + np.array(seat) * (R - rng.uniform(5, 12)) + along * rng.uniform(-12, 12)
            for k in range(int(rng.integers(1, 4))):
                code = _draw_code(rng, {c: n for c, n in pool.items() if c[1] == "f"}, bonus_ok=True)
                if code is None:
                    break
                pool[code] -= 1
                xy = xy0 + along * k * w * 1.04 + rng.normal(0, w * 0.05, 2)
                put(lying(code, *xy, yaw + rng.normal(0, 4), dims, ff=ff))
    for t in out:
        t.group = "distractor"
    return out
