"""The Hong Kong practice game: a state, its legal moves, and `apply(state, move)`.

How a hand runs (rules of the table in `game.rules`):
- The wall is shuffled from the seed. East, the dealer, is dealt 14 tiles and the others 13.
  Flowers and seasons are laid aside at once and replaced from the wall's end, at the deal
  and whenever one is drawn; they never count as part of the hand's sets.
- On a turn the player holds a full hand: discard one tile, declare a win (self-drawn), or
  declare a kong: concealed from four in hand, or promoted from an exposed pung and its fourth
  tile. A kong is followed by a replacement draw from the wall's end, then the turn goes on.
  Just after claiming a chow or pung the player must discard first.
- A promoted kong may be robbed: any player whom that tile completes may win on it, and the
  promoting player pays as a discarder. A concealed kong cannot be robbed.
- After a discard the others may claim it (priority in `game.rules`); if nobody does, the
  next player draws. When the wall is empty and nobody wins on the last discard, the hand is
  a draw and nobody pays.
- A win is legal only when the scorer (`scoring`, preset hk001) says the hand is complete and
  worth the 3-fan minimum; its fan (limit 13) and payments are the scorer's.

Every move, the table's own (deal, draws, bonus tiles, replacements) included, is in the log.
"""
from __future__ import annotations

from dataclasses import replace

from scoring.hand import Hand, MeldKind, WinContext
from scoring.result import ScoreResult
from scoring.rules import RuleSet, make_options, score

from . import shanten
from .rules import DEALT, claim_rank
from .state import DEALER, ROUND_WIND, SEATS, Action, Move, Outcome, Phase, Player, Set, State
from .tiles import codes, counts, is_bonus, shuffled_wall

OPTIONS = make_options(RuleSet.HK001)


class IllegalMove(ValueError):
    """A move that is not among the legal moves of the state."""


# --- scoring ------------------------------------------------------------------------------

def win_hand(player: Player, seat: int, tile: int, self_drawn: bool) -> Hand:
    """The scorer's hand of `seat` winning on `tile` (in hand already when self-drawn)."""
    concealed = list(player.concealed)
    if self_drawn:
        concealed.remove(tile)
    return Hand(codes(concealed), tuple(m.to_meld(seat) for m in player.melds), codes((tile,))[0],
                codes(player.bonus))


def score_win(state: State, seat: int, tile: int, *, self_drawn: bool, robbed: bool = False,
              discarder: int | None = None) -> ScoreResult | None:
    """The scorer's result for `seat` winning on `tile`; None when the tiles are not a winning
    shape (checked here first, quickly, so most calls never reach the scorer)."""
    player = state.players[seat]
    c = counts(player.concealed)
    if not self_drawn:
        c[tile >> 2] += 1
    if not shanten.is_complete(c, len(player.melds)):
        return None
    hand = win_hand(player, seat, tile, self_drawn)
    ctx = WinContext(self_drawn=self_drawn, discarder=discarder, seat=seat, round=ROUND_WIND,
                     dealer=DEALER, last_tile=state.wall_left == 0 and not robbed,
                     kong=robbed or (self_drawn and state.after_kong))
    return score(hand, ctx, RuleSet.HK001, OPTIONS)


def _valid(result: ScoreResult | None) -> bool:
    return result is not None and result.valid


# --- a working copy of the table ----------------------------------------------------------

class _Table:
    """Mutable scratch copy of a State for the length of one `apply`."""

    def __init__(self, s: State) -> None:
        self.s = s
        self.head, self.tail = s.head, s.tail
        self.hands = [list(p.concealed) for p in s.players]
        self.melds = [list(p.melds) for p in s.players]
        self.bonus = [list(p.bonus) for p in s.players]
        self.pools = [list(p.discards) for p in s.players]
        self.log = list(s.log)
        self.fields: dict = {}

    def note(self, seat: int, action: Action, tile: int | None = None, tiles=()) -> None:
        self.log.append(Move(seat, action, tile, tuple(tiles)))

    def take(self, seat: int, from_end: bool) -> int | None:
        """Draw one tile into `seat`'s hand, laying bonus tiles aside and replacing them.
        None when the wall ran out."""
        action = Action.REPLACEMENT if from_end else Action.DRAW
        while self.tail > self.head:
            if from_end:
                self.tail -= 1
                tile = self.s.wall[self.tail]
            else:
                tile = self.s.wall[self.head]
                self.head += 1
            self.note(seat, action, tile)
            if not is_bonus(tile):
                self.hands[seat].append(tile)
                self.hands[seat].sort()
                return tile
            self.bonus[seat].append(tile)
            self.note(seat, Action.BONUS, tile)
            action, from_end = Action.REPLACEMENT, True
        return None

    def state(self, **fields) -> State:
        players = tuple(Player(tuple(sorted(h)), tuple(m), tuple(sorted(b)), tuple(d))
                        for h, m, b, d in zip(self.hands, self.melds, self.bonus, self.pools))
        base = dict(head=self.head, tail=self.tail, players=players, log=tuple(self.log),
                    drawn=None, after_kong=False, claimed=False, pending=None, options=(),
                    responses=())
        base.update(fields)
        return replace(self.s, **base)


# --- starting a hand ----------------------------------------------------------------------

def new_game(seed: int) -> State:
    """Shuffle, deal (East 14, the others 13), lay aside and replace bonus tiles; East to act."""
    wall = shuffled_wall(seed)
    empty = State(seed, wall, 0, len(wall), (Player(),) * 4, DEALER, Phase.ACT)
    t = _Table(empty)
    for seat in range(4):
        size = DEALT + (seat == DEALER)
        start = sum(DEALT + (s == DEALER) for s in range(seat))
        t.hands[seat] = list(wall[start:start + size])
        t.note(seat, Action.DEAL, tiles=wall[start:start + size])
    t.head = 4 * DEALT + 1
    last = t.hands[DEALER][-1]
    for seat in range(4):
        for tile in [x for x in t.hands[seat] if is_bonus(x)]:
            t.hands[seat].remove(tile)
            t.bonus[seat].append(tile)
            t.note(seat, Action.BONUS, tile)
            got = t.take(seat, from_end=True)
            if seat == DEALER:
                last = got
    for seat in range(4):
        t.hands[seat].sort()
    return t.state(turn=DEALER, phase=Phase.ACT, drawn=last)


# --- legal moves --------------------------------------------------------------------------

def to_move(state: State) -> int | None:
    """The seat whose decision the state waits for; None when the hand is over."""
    if state.phase is Phase.END:
        return None
    if state.phase is Phase.ACT:
        return state.turn
    return _next_to_ask(state)


def _next_to_ask(state: State) -> int | None:
    """In CLAIM/ROB: the first seat (in turn order after the discarder) that has not answered
    and holds a claim that could still beat the best claim so far."""
    answered = {m.seat for m in state.responses}
    best = max((claim_rank(m, state.turn) for m in state.responses), default=(0, -9))
    for seat, moves in state.options:
        if seat not in answered and any(claim_rank(m, state.turn) > best for m in moves):
            return seat
    return None


# The last state asked about and its moves, as one tuple so that threads (one per open page)
# never see one state paired with another's moves; a player and `apply` ask in turn.
_last: tuple = (None, ())


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every move the seat to move may make now (empty when the hand is over)."""
    global _last
    cached = _last
    if cached[0] is state:
        return cached[1]
    if state.phase is Phase.ACT:
        moves = _act_moves(state)
    elif state.phase in (Phase.CLAIM, Phase.ROB):
        seat = _next_to_ask(state)
        own = dict(state.options).get(seat, ())
        moves = own + (Move(seat, Action.PASS),) if seat is not None else ()
    else:
        moves = ()
    _last = (state, moves)
    return moves


def _act_moves(state: State) -> tuple[Move, ...]:
    seat = state.turn
    player = state.players[seat]
    moves: list[Move] = []
    if not state.claimed:
        if state.drawn is not None and _valid(score_win(state, seat, state.drawn, self_drawn=True)):
            moves.append(Move(seat, Action.WIN, state.drawn))
        if state.wall_left > 0:
            moves.extend(_kong_moves(player, seat))
    moves.extend(Move(seat, Action.DISCARD, tile) for tile in player.concealed)
    return tuple(moves)


def _kong_moves(player: Player, seat: int) -> list[Move]:
    c = counts(player.concealed)
    out = []
    for k in range(34):
        if c[k] == 4:
            tiles = tuple(t for t in player.concealed if t >> 2 == k)
            out.append(Move(seat, Action.CONCEALED_KONG, tiles[0], tiles))
    for m in player.melds:
        if m.kind is MeldKind.PUNG and c[m.kind_index]:
            tile = next(t for t in player.concealed if t >> 2 == m.kind_index)
            out.append(Move(seat, Action.PROMOTED_KONG, tile, (tile,)))
    return out


def _claim_options(state: State, discarder: int, tile: int) -> tuple[tuple[int, tuple[Move, ...]], ...]:
    """Who may claim the discard `tile`, and for what, in turn order after the discarder."""
    k = tile >> 2
    out = []
    for step in (1, 2, 3):
        seat = (discarder + step) % 4
        player = state.players[seat]
        moves: list[Move] = []
        if _valid(score_win(state, seat, tile, self_drawn=False, discarder=discarder)):
            moves.append(Move(seat, Action.WIN, tile))
        if state.wall_left > 0:
            same = [t for t in player.concealed if t >> 2 == k]
            if len(same) >= 3:
                moves.append(Move(seat, Action.KONG, tile, tuple(same[:3])))
            if len(same) >= 2:
                moves.append(Move(seat, Action.PUNG, tile, tuple(same[:2])))
            if step == 1:
                moves.extend(_chows(player, seat, tile))
        if moves:
            out.append((seat, tuple(moves)))
    return tuple(out)


def _chows(player: Player, seat: int, tile: int) -> list[Move]:
    k = tile >> 2
    if k >= 27:
        return []
    first = {}
    for t in player.concealed:
        first.setdefault(t >> 2, t)
    pos = k % 9
    out = []
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        if 0 <= pos + a and pos + b <= 8 and k + a in first and k + b in first:
            out.append(Move(seat, Action.CHOW, tile, (first[k + a], first[k + b])))
    return out


def _rob_options(state: State, declarer: int, tile: int) -> tuple[tuple[int, tuple[Move, ...]], ...]:
    out = []
    for step in (1, 2, 3):
        seat = (declarer + step) % 4
        if _valid(score_win(state, seat, tile, self_drawn=False, robbed=True, discarder=declarer)):
            out.append((seat, (Move(seat, Action.WIN, tile),)))
    return tuple(out)


# --- applying a move ----------------------------------------------------------------------

def apply(state: State, move: Move) -> State:
    """The state after `move`. Raises IllegalMove for a move not in `legal_moves(state)`."""
    if move not in legal_moves(state):
        raise IllegalMove(f"{move.describe()} is not a legal move now")
    if state.phase is Phase.ACT:
        return _act(state, move)
    if state.phase is Phase.CLAIM:
        return _respond(state, move, _settle_claims)
    return _respond(state, move, _settle_rob)


def _act(state: State, move: Move) -> State:
    seat, t = move.seat, _Table(state)
    t.note(seat, move.action, move.tile, move.tiles)
    if move.action is Action.WIN:
        return _win(state, t, seat, move.tile, self_drawn=True)
    if move.action is Action.DISCARD:
        t.hands[seat].remove(move.tile)
        t.pools[seat].append(move.tile)
        after = t.state(turn=seat, phase=Phase.CLAIM, pending=move.tile)
        options = _claim_options(after, seat, move.tile)
        if not options:
            return _next_turn(after, seat)
        return replace(after, options=options)
    if move.action is Action.CONCEALED_KONG:
        for tile in move.tiles:
            t.hands[seat].remove(tile)
        t.melds[seat].append(Set(MeldKind.CONCEALED_KONG, move.tiles))
        return _replacement(t, seat)
    # promoted kong: the others may rob it before it stands
    after = t.state(turn=seat, phase=Phase.ROB, pending=move.tile)
    options = _rob_options(after, seat, move.tile)
    if not options:
        return _promote(after, seat, move.tile)
    return replace(after, options=options)


def _respond(state: State, move: Move, settle) -> State:
    t = _Table(state)
    t.note(move.seat, move.action, move.tile, move.tiles)
    after = replace(state, log=tuple(t.log), responses=state.responses + (move,))
    if _next_to_ask(after) is not None:
        return after
    return settle(after)


def _best_claim(state: State) -> Move | None:
    claims = [m for m in state.responses if m.action is not Action.PASS]
    return max(claims, key=lambda m: claim_rank(m, state.turn), default=None)


def _settle_claims(state: State) -> State:
    best = _best_claim(state)
    discarder, tile = state.turn, state.pending
    if best is None:
        return _next_turn(state, discarder)
    t = _Table(state)
    t.pools[discarder].remove(tile)
    seat = best.seat
    if best.action is Action.WIN:
        return _win(state, t, seat, tile, self_drawn=False, discarder=discarder)
    for own in best.tiles:
        t.hands[seat].remove(own)
    kind = {Action.CHOW: MeldKind.CHOW, Action.PUNG: MeldKind.PUNG, Action.KONG: MeldKind.KONG}[best.action]
    t.melds[seat].append(Set(kind, tuple(sorted(best.tiles + (tile,))), tile, discarder))
    if kind is MeldKind.KONG:
        return _replacement(t, seat)
    return t.state(turn=seat, phase=Phase.ACT, claimed=True)


def _settle_rob(state: State) -> State:
    best = _best_claim(state)
    declarer, tile = state.turn, state.pending
    if best is None:
        return _promote(state, declarer, tile)
    t = _Table(state)
    t.hands[declarer].remove(tile)
    return _win(state, t, best.seat, tile, self_drawn=False, discarder=declarer, robbed=True)


def _promote(state: State, seat: int, tile: int) -> State:
    t = _Table(state)
    t.hands[seat].remove(tile)
    melds = t.melds[seat]
    i = next(i for i, m in enumerate(melds) if m.kind is MeldKind.PUNG and m.kind_index == tile >> 2)
    old = melds[i]
    melds[i] = Set(MeldKind.PROMOTED_KONG, tuple(sorted(old.tiles + (tile,))), old.claimed, old.source)
    return _replacement(t, seat)


def _replacement(t: _Table, seat: int) -> State:
    """After a kong: draw from the wall's end, then the same player acts again."""
    got = t.take(seat, from_end=True)
    if got is None:
        return _draw_game(t)
    return t.state(turn=seat, phase=Phase.ACT, drawn=got, after_kong=True)


def _next_turn(state: State, discarder: int) -> State:
    t = _Table(state)
    seat = (discarder + 1) % 4
    got = t.take(seat, from_end=False)
    if got is None:
        return _draw_game(t)
    return t.state(turn=seat, phase=Phase.ACT, drawn=got)


def _draw_game(t: _Table) -> State:
    return t.state(phase=Phase.END, outcome=Outcome(None))


def _win(state: State, t: _Table, seat: int, tile: int, *, self_drawn: bool,
         discarder: int | None = None, robbed: bool = False) -> State:
    result = score_win(state, seat, tile, self_drawn=self_drawn, robbed=robbed, discarder=discarder)
    if not self_drawn:
        t.hands[seat].append(tile)
    payments = tuple(int(result.payments[s]) for s in SEATS)
    outcome = Outcome(seat, self_drawn, discarder, robbed, tile, result, payments)
    return t.state(turn=seat, phase=Phase.END, outcome=outcome,
                   after_kong=state.after_kong and self_drawn)


# --- checks -------------------------------------------------------------------------------

def tile_places(state: State) -> dict[int, str]:
    """Where every tile is: 'wall', or SEAT + 'hand'/'meld'/'bonus'/'pool'. Raises ValueError
    when a tile is in two places or missing, so a test can call it after every move."""
    places: dict[int, str] = {}

    def put(tiles, where: str) -> None:
        for tile in tiles:
            if tile in places:
                raise ValueError(f"tile {tile} is both in {places[tile]} and {where}")
            places[tile] = where

    put(state.live_wall(), "wall")
    for seat, p in enumerate(state.players):
        put(p.concealed, f"{SEATS[seat]} hand")
        put((x for m in p.melds for x in m.tiles), f"{SEATS[seat]} meld")
        put(p.bonus, f"{SEATS[seat]} bonus")
        put(p.discards, f"{SEATS[seat]} pool")
    if len(places) != len(state.wall):
        raise ValueError(f"{len(state.wall) - len(places)} tiles are missing")
    return places
