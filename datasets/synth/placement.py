"""Where tiles lie on the table (world cm): the winner's hand and the rest of the game.

The winner sits at y < 0 and reads tiles upright (yaw 0). A finished hand at a real table: the
concealed tiles in a row (lying or standing), exposed melds apart from them (front, right or
left), claimed tiles often turned sideways, concealed kongs with face-down tiles, bonus tiles
set aside, the winning tile sometimes pushed apart. Around it: the opponents' hands, walls and
discards (distractors), which leave room for the hand.
"""
from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class _Untidy:
    """How one player lays tiles out: tile size, the share turned upside down, and how untidily
    (the small random gaps, shifts and turns between tiles)."""
    rng: np.random.Generator
    dims: tuple[float, float, float]
    p_flip: float
    ff: float
    mess: float

    def gap(self) -> float:
        return self.dims[0] * self.rng.uniform(0.0, 0.08)

    def shift(self) -> float:
        return self.rng.normal(0, self.dims[0] * 0.03)

    def turn(self, scale: float = 1.0) -> float:
        return self.rng.normal(0, 1.2 * (self.mess * scale))

    def flip(self) -> float:
        return 180.0 if self.rng.random() < self.p_flip else 0.0

    def lie(self, code: str, x: float, y: float, yaw_deg: float, **kw) -> Tile:
        return lying(code, x, y, yaw_deg, self.dims, ff=self.ff, **kw)


def layout_hand(rng: np.random.Generator, hand: DrawnHand, dims, *, standing_ok: bool, p_flip: float, ff: float,
                stacked_kong: float = KongRates.stacked) -> list[Tile]:
    lay = _Untidy(rng, dims, p_flip, ff, mess=rng.uniform(0.5, 3.0))
    row, apart = _concealed_row(rng, hand)
    out, row_end = _place_row(lay, row, stand=standing_ok and rng.random() < 0.35)
    if apart:
        winning, row_end = _place_apart(lay, hand.winning, row_end)
        out.append(winning)
    melds, melds_end, melds_y = _place_melds(lay, hand.melds, row_end, stacked_kong)
    out += melds
    if hand.bonus:
        out += _place_bonus(lay, hand.bonus, max(melds_end, row_end), melds_y)
    _turn_together(rng, out)
    assert apart or any(c == hand.winning for c in row)
    return out


def _concealed_row(rng, hand: DrawnHand) -> tuple[list[str], bool]:
    """The concealed tiles in their order, with the winning tile among them unless it lies apart."""
    row = _order_concealed(rng, hand)
    apart = rng.random() < 0.45
    if not apart:
        pos = len(row) if rng.random() < 0.5 else sum(sort_key(c) <= sort_key(hand.winning) for c in row)
        row.insert(pos, hand.winning)
    return row, apart


def _place_row(lay: _Untidy, row: list[str], stand: bool) -> tuple[list[Tile], float]:
    """The row from x = 0 rightwards, standing or lying; with the x where it ends."""
    rng, (w, h, _) = lay.rng, lay.dims
    out, x = [], 0.0
    for code in row:
        if stand:
            t = standing(code, x + w / 2 + lay.shift(), lay.shift(), lay.turn(), lay.dims,
                         upside_down=rng.random() < lay.p_flip * 0.5, lean_deg=rng.uniform(-8, 12), group="concealed",
                         ff=lay.ff)
        else:
            t = lay.lie(code, x + w / 2 + lay.shift(), h / 2 + lay.shift(), lay.turn() + lay.flip(), group="concealed")
        out.append(t)
        x += w + lay.gap()
    return out, x


def _place_apart(lay: _Untidy, code: str, row_end: float) -> tuple[Tile, float]:
    """The winning tile pushed a little right of the row, now and then sideways; with the new row end."""
    rng, (w, h, _) = lay.rng, lay.dims
    wx = row_end + rng.uniform(1.0, 5.0) + w / 2
    wy = h / 2 + rng.normal(0, 1.0)
    if rng.random() < 0.15:
        t = lay.lie(code, wx + (h - w) / 2, wy - (h - w) / 2, 90 + lay.flip(), group="winning")
    else:
        t = lay.lie(code, wx, wy, lay.turn() + lay.flip(), group="winning")
    return t, wx + w


def _place_melds(lay: _Untidy, melds, row_end: float, stacked_kong: float) -> tuple[list[Tile], float, float]:
    """Exposed melds in a line in front of the row (towards the table centre), or beside it;
    with the x where the line ends and the y of its near edge."""
    rng, (w, h, _) = lay.rng, lay.dims
    mode = rng.choice(["front", "right", "left"], p=[0.5, 0.3, 0.2])
    if mode == "front":
        mx, my0 = rng.uniform(-2 * w, 4 * w), h + rng.uniform(0.6, 4.0)
    elif mode == "right":
        mx, my0 = row_end + rng.uniform(1.5, 5.0), 0.0
    else:
        mx, my0 = -rng.uniform(1.5, 5.0), 0.0
    placed = []
    for i, m in enumerate(melds):
        tiles = _meld_tiles(rng, m, i, lay.dims, lay.p_flip, lay.ff, lay.mess, stacked_kong)
        placed.append((tiles, max(t.center[0] + e for t, e in tiles) if tiles else 0))
    if mode == "left":
        mx -= sum(wd + 2.5 for _, wd in placed)
    out = []
    for tiles, width in placed:
        for t, _ in tiles:
            t.center = t.center + np.array([mx, my0, 0.0])
            out.append(t)
        mx += width + rng.uniform(1.2, 4.0)
    return out, mx, my0


def _place_bonus(lay: _Untidy, bonus, x_free: float, y_melds: float) -> list[Tile]:
    """Bonus tiles set aside: after the melds (right of `x_free`) or in a corner of their own."""
    rng, (w, h, _) = lay.rng, lay.dims
    if rng.random() < 0.6:
        bx, by = x_free + rng.uniform(2, 6), y_melds + rng.normal(0, 1)
    else:
        bx, by = rng.uniform(-6 * w, 0) - rng.uniform(3, 6), rng.uniform(-h * 1.5, h * 2.5)
    out = []
    for b in bonus:
        out.append(lay.lie(b, bx + w / 2, by + h / 2, lay.turn(2) + lay.flip(), group="bonus"))
        bx += w + lay.gap() + (rng.uniform(0.5, 2) if rng.random() < 0.3 else 0)
    return out


def _turn_together(rng, tiles: list[Tile]) -> None:
    """One small rigid motion of the whole hand: people do not align it with the table edge."""
    ctr = np.mean([t.center for t in tiles], axis=0) * np.array([1, 1, 0])
    a = np.deg2rad(rng.normal(0, 4))
    Rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    for t in tiles:
        t.center, t.u, t.v, t.n = Rz @ (t.center - ctr), Rz @ t.u, Rz @ t.v, Rz @ t.n
        t.meta["yaw"] = (t.meta["yaw"] + np.rad2deg(a)) % 360


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


class _Table:
    """The table around the hand as distractors fill it: each goes where nothing lies yet."""

    def __init__(self, hand_tiles: list[Tile], dims, ff: float, centre: np.ndarray):
        self.occ = Occupancy(hand_tiles)
        self.dims, self.ff, self.centre = dims, ff, centre
        self.tiles: list[Tile] = []

    def put(self, t: Tile, check=True) -> bool:
        r = max(t.size[:2]) / 2
        if check and not self.occ.free(t.center[:2], r):
            return False
        self.occ.add(t.center[:2], r)
        self.tiles.append(t)
        return True


def layout_distractors(rng, hand_tiles: list[Tile], pool: dict[str, int], dims, ff: float, centre: np.ndarray) -> list[Tile]:
    """Opponents' hands, walls and discards around the table centre; face-up ones are labelled."""
    table = _Table(hand_tiles, dims, ff, centre)
    R = rng.uniform(26, 42)  # the opponents' distance from the table centre
    _opponents_hands(rng, table, pool, R)
    if rng.random() < 0.5:  # walls: 2-high stacks of face-down tiles, partly taken
        _walls(rng, table)
    if rng.random() < 0.8:  # discards: rows of six in front of each player, faces up
        _discards(rng, table, pool)
    if rng.random() < 0.35:  # other players' bonus tiles, set aside in a row at their own seats
        _others_bonus(rng, table, pool, R)
    for t in table.tiles:
        t.group = "distractor"
    return table.tiles


def _opponents_hands(rng, table: _Table, pool: dict[str, int], R: float) -> None:
    """Some of the three other players' hands, in a row at distance R: standing, or lying face down or up."""
    dims, ff = table.dims, table.ff
    for yaw, ox, oy in ((180, 0, R), (-90, -R, 0), (90, R, 0)):
        if rng.random() > 0.45:
            continue
        mode = rng.choice(["stand", "down", "up"], p=[0.5, 0.2, 0.3])
        a = np.deg2rad(yaw)
        along = np.array([np.cos(a), np.sin(a)])
        n = int(rng.integers(7, 14))
        for k in range(n):
            xy = table.centre[:2] + np.array([ox, oy]) + along * (k - n / 2) * (dims[0] * 1.03) + rng.normal(0, 0.1, 2)
            if mode == "stand":  # backs to the winner; a camera on their side sees (and labels) faces
                code = _draw_code(rng, pool)
                if code:
                    table.put(standing(code, *xy, yaw, dims, ff=ff, lean_deg=rng.uniform(-5, 10)))
            else:
                code = _draw_code(rng, pool) if mode == "up" else "back"
                if code:
                    table.put(lying(code, *xy, yaw + rng.normal(0, 1.5) + (180 if rng.random() < 0.1 else 0), dims,
                                    face_up=mode == "up", labelled=mode == "up", ff=ff))


def _walls(rng, table: _Table) -> None:
    dims, ff = table.dims, table.ff
    w, d = dims[0], dims[2]
    Rw = rng.uniform(10, 20)
    for yaw, (ox, oy) in zip((0, 90, 180, 270), ((0, -Rw), (Rw, 0), (0, Rw), (-Rw, 0))):
        n = int(rng.integers(0, 12))
        a = np.deg2rad(yaw)
        along = np.array([np.cos(a), np.sin(a)])
        start = rng.uniform(-8, 8) * w / 2
        for k in range(n):
            xy = table.centre[:2] + np.array([ox, oy]) + along * (start + k * w * 1.01)
            if table.put(lying("back", *xy, yaw, dims, face_up=False, labelled=False, ff=ff)) and rng.random() < 0.85:
                table.put(lying("back", *xy, yaw, dims, face_up=False, labelled=False, z0=d, ff=ff), check=False)


def _discards(rng, table: _Table, pool: dict[str, int]) -> None:
    w, h, _ = table.dims
    for yaw in (0, 90, 180, 270):
        a = np.deg2rad(yaw)
        along, across = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        n = int(rng.integers(0, 16))
        base = table.centre[:2] - across * rng.uniform(6, 14) - along * 3 * w
        for k in range(n):
            code = _draw_code(rng, pool)
            if code is None:
                break
            xy = base + along * (k % 6) * w * 1.05 - across * (k // 6) * h * 1.05 + rng.normal(0, w * 0.06, 2)
            table.put(lying(code, *xy, yaw + rng.normal(0, 4) + (180 if rng.random() < 0.15 else 0), table.dims,
                            ff=table.ff))


def _others_bonus(rng, table: _Table, pool: dict[str, int], R: float) -> None:
    w = table.dims[0]
    for yaw, seat in ((180, (0, 1)), (-90, (-1, 0)), (90, (1, 0))):
        if rng.random() > 0.5:
            continue
        a = np.deg2rad(yaw)
        along = np.array([np.cos(a), np.sin(a)])
        xy0 = table.centre[:2] + np.array(seat) * (R - rng.uniform(5, 12)) + along * rng.uniform(-12, 12)
        for k in range(int(rng.integers(1, 4))):
            code = _draw_code(rng, {c: n for c, n in pool.items() if c[1] == "f"}, bonus_ok=True)
            if code is None:
                break
            pool[code] -= 1
            xy = xy0 + along * k * w * 1.04 + rng.normal(0, w * 0.05, 2)
            table.put(lying(code, *xy, yaw + rng.normal(0, 4), table.dims, ff=table.ff))
