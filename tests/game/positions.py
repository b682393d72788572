"""Positions for the game's rule tests: hands written in notation, physical tiles assigned.

`table()` builds a State where `turn` holds its tiles and is to act. Tiles that a shortened
wall leaves over lie in North's discard pool, so that all 144 tiles are still accounted for
and the wall holds exactly what a test says.
"""
from __future__ import annotations

from dataclasses import replace

from scoring.hand import MeldKind
from scoring.tiles import BONUS, INDEX, parse_tiles

from game.state import Phase, Player, Set, State
from game.tiles import PLAYING_COUNT, TILE_COUNT, kind


class _Ids:
    """Hands out the unused copies of each tile face."""

    def __init__(self) -> None:
        self.free = {t: True for t in range(TILE_COUNT)}

    def take(self, code: str) -> int:
        if code in BONUS:
            t = PLAYING_COUNT + BONUS.index(code)
            assert self.free[t], f"{code} used twice"
            self.free[t] = False
            return t
        for t in range(TILE_COUNT):
            if self.free[t] and t < PLAYING_COUNT and kind(t) == _kind(code):
                self.free[t] = False
                return t
        raise AssertionError(f"no copy of {code} left")

    def many(self, text: str) -> tuple[int, ...]:
        return tuple(self.take(c) for c in parse_tiles(text, allow_bonus=True))

    def rest(self) -> list[int]:
        return [t for t, ok in self.free.items() if ok]


def _kind(code: str) -> int:
    return INDEX[code]


def table(hands: dict[int, str], *, melds: dict[int, list[tuple[MeldKind, str, int | None]]] | None = None,
          bonus: dict[int, str] | None = None, turn: int = 0, front: str = "", end: str = "",
          wall_left: int | None = None, drawn: str | None = None, after_kong: bool = False) -> State:
    """A position: `hands` seat → concealed tiles; `melds` seat → [(kind, tiles, source seat)];
    the wall starts with `front` (next draws) and ends with `end` (next replacement is its
    last tile); `wall_left` trims the wall (None: every unused tile is in it)."""
    ids = _Ids()
    players = []
    for seat in range(4):
        concealed = ids.many(hands.get(seat, ""))
        sets = []
        for k, text, source in (melds or {}).get(seat, []):
            tiles = ids.many(text)
            claimed = None if k is MeldKind.CONCEALED_KONG else tiles[-1]
            sets.append(Set(k, tiles, claimed, source))
        players.append(Player(tuple(sorted(concealed)), tuple(sets), ids.many((bonus or {}).get(seat, ""))))
    first, last = ids.many(front), ids.many(end)
    middle = [t for t in ids.rest() if t < PLAYING_COUNT] + [t for t in ids.rest() if t >= PLAYING_COUNT]
    for t in middle:
        ids.free[t] = False
    live = list(first) + middle + list(last)
    if wall_left is not None:
        keep = list(first) + middle[:max(0, wall_left - len(first) - len(last))] + list(last)
        spare = [t for t in live if t not in keep]
        live = keep[:wall_left] if len(keep) > wall_left else keep
        spare += [t for t in keep if t not in live]
        players[3] = Player(players[3].concealed, players[3].melds, players[3].bonus, tuple(spare))
    dead = [t for t in range(TILE_COUNT) if t not in set(live)]
    wall = tuple(dead) + tuple(live)
    state = State(0, wall, len(dead), TILE_COUNT, tuple(players), turn, Phase.ACT, after_kong=after_kong)
    hand = state.players[turn].concealed
    if drawn is not None:
        pick = next(t for t in reversed(hand) if kind(t) == _kind(drawn))
    else:
        pick = hand[-1] if hand else None
    return replace(state, drawn=pick)
