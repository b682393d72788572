"""Computer players: each decision picks one of the engine's legal moves.

How a computer plays:
- Win whenever the engine allows it: the engine offers a win only when the scorer says the
  hand is worth the 3-fan minimum, so a computer never declares a smaller one.
- Discard the tile that leaves the hand nearest a win (`game.shanten`); among equals, keep the
  hand whose waits are worth a legal win (the scorer is asked about each wait), then the one
  that more unseen tiles improve, then lean towards a flush when most tiles are of one suit.
  A ready hand whose every wait is worth less than 3 fan counts as one step further away.
- Claim a pung, kong or chow only when it brings the hand nearer a win and keeps a way to
  3 fan: a pung of dragons or of the own seat's or the round's wind, a hand heading for a
  flush, or (pungs only) a hand of pairs and pungs heading for all pungs. Otherwise stay
  concealed, which is worth a fan of its own.
- Declare a kong when it does not take the hand further from a win.
- Stay clear of an opponent who looks close: against a player with two or more exposed sets
  (or anybody late in the wall) prefer tiles that player has just discarded or that are
  mostly visible, and avoid the suit of their exposed flush and honours still unseen.
"""
from __future__ import annotations

from functools import lru_cache

from scoring.hand import Hand, MeldKind, WinContext
from scoring.rules import RuleSet, score
from scoring.tiles import PLAYING

from . import shanten
from .engine import OPTIONS, legal_moves
from .state import DEALER, ROUND_WIND, Action, Move, Phase, State
from .tiles import codes, counts

DRAGONS = (31, 32, 33)
LATE_WALL = 16           # from here on every opponent counts as close to a win
DISCARD_FAN_WEIGHT = 1.0
SELF_DRAW_ONLY_WEIGHT = 0.35


def choose(state: State) -> Move:
    """The computer's move for the seat the state waits on."""
    moves = legal_moves(state)
    win = next((m for m in moves if m.action is Action.WIN), None)
    if win is not None:
        return win
    if state.phase is Phase.ACT:
        return _act(state, moves)
    if state.phase is Phase.CLAIM:
        return _claim(state, moves)
    return next(m for m in moves if m.action is Action.PASS)


# --- what a seat can see ------------------------------------------------------------------

def unseen(state: State, seat: int) -> list[int]:
    """Copies of each kind the seat cannot see (not in its hand, any meld or any pool)."""
    left = [4] * 34
    for t in state.players[seat].concealed:
        left[t >> 2] -= 1
    for p in state.players:
        for t in p.discards:
            left[t >> 2] -= 1
        for m in p.melds:
            for t in m.tiles:
                left[t >> 2] -= 1
    return left


def value_honours(seat: int) -> tuple[int, ...]:
    """Kinds whose pung is worth a fan to this seat: dragons, its seat wind, the round wind."""
    return DRAGONS + tuple({27 + seat, 27 + ROUND_WIND})


# --- discarding ---------------------------------------------------------------------------

def _act(state: State, moves: tuple[Move, ...]) -> Move:
    seat = state.turn
    player = state.players[seat]
    c = counts(player.concealed)
    n = len(player.melds)
    left = unseen(state, seat)
    ranked = _rank_discards(state, seat, c, n, left)
    best_kind = ranked[0][0]
    nearest = min(d for _, d in ranked)
    for m in moves:
        k = m.tile >> 2
        if m.action is Action.CONCEALED_KONG:
            c[k] -= 4
            keep = shanten.shanten(c, n + 1) <= nearest
            c[k] += 4
            if keep:
                return m
        elif m.action is Action.PROMOTED_KONG:
            c[k] -= 1
            keep = shanten.shanten(c, n) <= nearest
            c[k] += 1
            if keep:
                return m
    tile = state.drawn if state.drawn is not None and state.drawn >> 2 == best_kind else \
        next(t for t in player.concealed if t >> 2 == best_kind)
    return Move(seat, Action.DISCARD, tile)


def _rank_discards(state: State, seat: int, c: list[int], n: int, left: list[int]):
    """(kind, distance after discarding it) for the kinds worth discarding, best first. The
    distance of a ready hand whose waits are all worth less than 3 fan counts one more."""
    flush_suit = _flush_suit(state, seat, c)
    danger = _danger(state, seat, left)
    player = state.players[seat]
    dist = shanten.after_discards(c, n)
    low = min(dist.values())
    defend = bool(danger) and low >= 2
    keys = {}
    for k, d in dist.items():
        if d > low + (1 if low == 0 or defend else 0):
            continue
        c[k] -= 1
        if d == 0:
            reach = _ready_worth(state, seat, player, c, left)
            d = 0 if reach > 0 else 1
        elif d == 1:
            reach = _improvers(c, n, d, left)
        else:
            reach = -_keep_value(c, k)
        c[k] += 1
        off_suit = 0 if flush_suit is None or (k < 27 and k // 9 != flush_suit) else 1
        risk = danger.get(k, 0.0)
        keys[k] = ((risk, d, off_suit, -reach) if defend else (d, off_suit, -reach, risk), d)
    return [(k, d) for k, (_, d) in sorted(keys.items(), key=lambda kv: kv[1][0])]


def _keep_value(c: list[int], k: int) -> int:
    """How much the rest of the hand (without one `k`) still works with a `k`: copies held and
    neighbours in suit. A far-away tile is the first to go."""
    value = 3 * c[k]
    if k < 27:
        pos = k % 9
        for step, weight in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            if 0 <= pos + step <= 8 and c[k + step]:
                value += weight
        value += 1 if 0 < pos < 8 else 0
    return value


def _improvers(c: list[int], n: int, d: int, left: list[int]) -> int:
    """Unseen tiles that would bring a 13-tile hand one step nearer a win."""
    near = [w for w in _near(c) if left[w] > 0 and c[w] < 4]
    return sum(left[w] for w, after in shanten.after_each(c, n, near).items() if after < d)


def _near(c: list[int]) -> set[int]:
    """Kinds that could help the hand: those held and their neighbours in suit (all terminals
    and honours when the hand could be heading for thirteen orphans)."""
    out = set()
    for k in range(34):
        if c[k]:
            out.add(k)
            if k < 27:
                pos = k % 9
                out.update(k + step for step in (-2, -1, 1, 2) if 0 <= pos + step <= 8)
    if sum(1 for k in shanten.ORPHANS if c[k]) >= 9:
        out.update(shanten.ORPHANS)
    return out


def _ready_worth(state: State, seat: int, player, c: list[int], left: list[int]) -> float:
    """A ready hand's worth: unseen winning tiles, each weighted by whether a win on it would
    reach the 3-fan minimum on a discard (or only when self-drawn)."""
    n = len(player.melds)
    melds = tuple(m.to_meld(seat) for m in player.melds)
    concealed = tuple(codes(_ids_from_counts(c)))
    bonus = codes(player.bonus)
    worth = 0.0
    for w in shanten.waits(c, n):
        if left[w] <= 0:
            continue
        on_discard, self_drawn = _win_fan(concealed, melds, bonus, seat, w)
        if on_discard:
            worth += DISCARD_FAN_WEIGHT * left[w]
        elif self_drawn:
            worth += SELF_DRAW_ONLY_WEIGHT * left[w]
    return worth


def _ids_from_counts(c: list[int]) -> list[int]:
    return [4 * k for k in range(34) for _ in range(c[k])]


@lru_cache(maxsize=100_000)
def _win_fan(concealed: tuple[str, ...], melds, bonus, seat: int, wait: int) -> tuple[bool, bool]:
    """Would a win on `wait` be legal (>= the minimum) on a discard, and self-drawn?"""
    hand = Hand(concealed, melds, PLAYING[wait], bonus)
    other = (seat + 1) % 4
    on_discard = score(hand, WinContext(discarder=other, seat=seat, round=ROUND_WIND, dealer=DEALER),
                       RuleSet.HK001, OPTIONS).valid
    if on_discard:
        return True, True
    drawn = score(hand, WinContext(self_drawn=True, seat=seat, round=ROUND_WIND, dealer=DEALER),
                  RuleSet.HK001, OPTIONS).valid
    return False, drawn


def _flush_suit(state: State, seat: int, c: list[int]) -> int | None:
    """The suit the hand leans to when 9 or more of its suited tiles and melds are in it."""
    per = [sum(c[9 * s:9 * s + 9]) for s in range(3)]
    for m in state.players[seat].melds:
        k = m.kind_index
        if k < 27:
            per[k // 9] += 3
    suit = max(range(3), key=per.__getitem__)
    return suit if per[suit] >= 9 else None


# --- safety -------------------------------------------------------------------------------

def _danger(state: State, seat: int, left: list[int]) -> dict[int, float]:
    """How likely each kind wins for an opponent who looks close (empty: nobody does)."""
    late = state.wall_left <= LATE_WALL
    out: dict[int, float] = {}
    for other in range(4):
        p = state.players[other]
        if other == seat or not (late or len(p.melds) >= 2):
            continue
        recent = {t >> 2 for t in p.discards[-6:]}
        suits = {m.kind_index // 9 for m in p.melds if m.kind_index < 27}
        flush = next(iter(suits)) if len(suits) == 1 and len(p.melds) >= 2 else None
        for k in range(34):
            if k in recent:
                continue
            risk = 1.0 if left[k] >= 1 else 0.2
            if flush is not None and (k >= 27 or k // 9 == flush):
                risk += 2.0
            if k >= 27 and left[k] >= 2:
                risk += 0.5
            out[k] = out.get(k, 0.0) + risk
    return out


# --- claims -------------------------------------------------------------------------------

def _claim(state: State, moves: tuple[Move, ...]) -> Move:
    seat = moves[0].seat
    player = state.players[seat]
    c = counts(player.concealed)
    n = len(player.melds)
    now = shanten.shanten(c, n)
    best, best_d = None, now
    for m in moves:
        if m.action is Action.PASS or not _worth_claiming(state, seat, m, c):
            continue
        after = list(c)
        for t in m.tiles:
            after[t >> 2] -= 1
        if m.action is Action.KONG:
            d = shanten.shanten(after, n + 1)
            better = d <= now
        else:
            d = min(shanten.after_discards(after, n + 1).values())
            better = d < now
        if better and (best is None or d < best_d):
            best, best_d = m, d
    return best or next(m for m in moves if m.action is Action.PASS)


def _worth_claiming(state: State, seat: int, move: Move, c: list[int]) -> bool:
    """Does the hand keep a way to 3 fan after exposing this set?"""
    k = move.tile >> 2
    if move.action in (Action.PUNG, Action.KONG) and k in value_honours(seat):
        return True
    suit = _flush_suit(state, seat, c)
    if suit is not None and (k >= 27 or k // 9 == suit):
        off = sum(sum(c[9 * s:9 * s + 9]) for s in range(3) if s != suit)
        off += sum(1 for m in state.players[seat].melds if m.kind_index < 27 and m.kind_index // 9 != suit) * 3
        if off <= 2:
            return True
    if move.action is Action.PUNG:
        melds = state.players[seat].melds
        if any(m.kind is MeldKind.CHOW for m in melds):
            return False
        pairs = sum(1 for x in c if x >= 2) + len(melds)
        return pairs >= 4
    return False
