"""Computer-only hands: play one to the end, its result as plain data, and a summary."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .engine import apply, new_game
from .players import choose
from .state import SEATS, State
from .tiles import codes


def play_hand(seed: int, chooser: Callable[[State], object] = choose, check: Callable | None = None) -> State:
    """Play the hand of `seed` to its end; `check(before, move, after)` sees every move."""
    state = new_game(seed)
    while not state.over:
        move = chooser(state)
        after = apply(state, move)
        if check is not None:
            check(state, move, after)
        state = after
    return state


def hand_record(state: State) -> dict:
    """The result of a finished hand as the command line prints it with --json; `moves`
    counts the entries of the move log (the table's draws and bonus tiles included)."""
    o = state.outcome
    record = {"seed": state.seed, "winner": None, "self_drawn": False, "discarder": None,
              "hand": None, "bonus": [], "total": 0, "fans": [],
              "payments": {s: 0 for s in SEATS}, "moves": len(state.log)}
    if o.winner is None:
        return record
    r = o.result
    record.update(
        winner=SEATS[o.winner], self_drawn=o.self_drawn,
        discarder=SEATS[o.discarder] if o.discarder is not None else None,
        hand=r.hand, bonus=list(codes(state.players[o.winner].bonus)), total=r.total,
        fans=r.to_dict()["fans"], payments=dict(zip(SEATS, o.payments)))
    return record


@dataclass(frozen=True)
class Summary:
    hands: int
    won: int
    wins_by_seat: tuple[int, int, int, int]
    self_drawn: int
    fan_total: int

    @property
    def win_share(self) -> float:
        return self.won / self.hands if self.hands else 0.0

    @property
    def average_fan(self) -> float:
        return self.fan_total / self.won if self.won else 0.0

    def text(self) -> str:
        seats = ", ".join(f"{s} {n}" for s, n in zip(SEATS, self.wins_by_seat))
        return (f"{self.hands} hand{'s' if self.hands != 1 else ''}: {self.won} won ({self.win_share:.1%}), "
                f"{self.hands - self.won} drawn; average fan of a win {self.average_fan:.2f}; "
                f"self-drawn {self.self_drawn}; wins by seat: {seats}")


def summarise(records: Iterable[dict]) -> Summary:
    hands = won = self_drawn = fan = 0
    by_seat = [0, 0, 0, 0]
    for r in records:
        hands += 1
        if r["winner"] is not None:
            won += 1
            by_seat[SEATS.index(r["winner"])] += 1
            self_drawn += r["self_drawn"]
            fan += r["total"]
    return Summary(hands, won, tuple(by_seat), self_drawn, fan)
