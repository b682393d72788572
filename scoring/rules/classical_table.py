"""Chinese Classical at the table: the losers' hands and the settlement among all four.

A loser's hand is written in the winner's notation but may hold any number of loose tiles
(`PartialHand`; the winner's `Hand` keeps its strict 14-tile check). Scoring a loser
(docs/rules.md §3.2, seed examples 5 and 6): declared sets as declared, bonus tiles count, the
concealed tiles read in the highest-scoring way as concealed pungs and at most
`loser_pairs` pairs; everything else is loose and scores nothing. Chows are never read in a
loser's concealed tiles because a chow scores nothing for anyone and no loser's double
needs one.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from ..decompose import SetKind, TileSet, meld_set
from ..errors import InvalidHandError
from ..hand import Hand, Meld, WinContext, check_copies, format_meld, split_notation
from ..payments import SEATS
from ..result import ScoreResult
from ..tiles import check_code, format_tiles, parse_bonus, parse_wind, sorted_tiles
from .classical import Options, Scored, evaluate, winner_payments
from .classical_items import View
from .reading import label


@dataclass(frozen=True)
class PartialHand:
    """A loser's hand: declared melds, any number of concealed tiles, bonus tiles."""
    concealed: tuple[str, ...]
    melds: tuple[Meld, ...] = ()
    bonus: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", sorted_tiles(check_code(t) for t in self.concealed))
        object.__setattr__(self, "melds", tuple(self.melds))
        object.__setattr__(self, "bonus", parse_bonus(self.bonus))
        if len(self.melds) > 4:
            raise InvalidHandError(f"a hand has at most 4 declared sets, got {len(self.melds)}")
        size = len(self.concealed) + 3 * len(self.melds)
        if size > 14:
            raise InvalidHandError(f"a loser's hand has at most 14 tiles, counting a kong as 3; got {size}")
        check_copies(self.all_tiles)

    @property
    def all_tiles(self) -> tuple[str, ...]:
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)

    @classmethod
    def from_hand(cls, hand: Hand) -> "PartialHand":
        return cls(hand.closed, hand.melds, hand.bonus)


def parse_partial(text: str, bonus=None) -> PartialHand:
    """Loser's notation → PartialHand: `[PPP1]666m147p28sEN` (declared sets first)."""
    if not isinstance(text, str):
        raise InvalidHandError("a loser's hand must be notation text such as [PPP1]666m147p28sEN")
    melds, tiles = split_notation(text)
    return PartialHand(tuple(tiles), tuple(melds), bonus or ())


def format_partial(hand: PartialHand) -> str:
    return "".join(format_meld(m) for m in hand.melds) + format_tiles(hand.concealed)


def _loser_readings(hand: PartialHand, max_pairs: int):
    """Every choice of concealed pungs and ≤ max_pairs pairs → (sets, loose tiles)."""
    declared = tuple(meld_set(m) for m in hand.melds)
    counts = Counter(hand.concealed)
    kinds = sorted((t for t, n in counts.items() if n >= 2), key=hand.concealed.index)
    options = [[None, "pair"] + (["pung"] if counts[t] >= 3 else []) for t in kinds]
    for choice in product(*options):
        if sum(c == "pair" for c in choice) > max_pairs:
            continue
        sets, used = [], Counter()
        for t, c in zip(kinds, choice):
            if c:
                n = 3 if c == "pung" else 2
                sets.append(TileSet(SetKind.PUNG if c == "pung" else SetKind.PAIR, (t,) * n, True))
                used[t] += n
        loose = tuple((counts - used).elements())
        yield declared + tuple(sorted(sets, key=lambda s: s.kind is SetKind.PAIR)), sorted_tiles(loose)


def best_loser(hand: PartialHand, seat: int, round_: int, options: Options) -> tuple[Scored, tuple[str, ...]]:
    best = None
    for sets, loose in _loser_readings(hand, options.loser_pairs):
        scored = evaluate(View(sets, hand.bonus, seat, round_), options, winner=False)
        if best is None or scored.rank > best[0].rank:
            best = (scored, loose)
    return best


def score_loser(hand: PartialHand | str, seat: int, round_: int, options: Options | None = None) -> ScoreResult:
    """A losing player's score (docs/rules.md §3.1-3.5, items for everyone only)."""
    options = options or Options()
    if isinstance(hand, str):
        hand = parse_partial(hand)
    scored, loose = best_loser(hand, seat, round_, options)
    details = {"role": "loser", "seat": SEATS[seat], **scored.details(options),
               "sets": [label(s) for s in scored.view.sets], "loose": format_tiles(loose)}
    return ScoreResult("classical", format_partial(hand), True, scored.total, scored.items, None, None, details)


# --- the table --------------------------------------------------------------------------

def _other(item) -> tuple[int, PartialHand]:
    """(seat, text | Hand | PartialHand, bonus) or {"seat", "hand", "flowers"|"bonus"}."""
    if isinstance(item, Mapping):
        unknown = set(item) - {"seat", "hand", "flowers", "bonus"}
        if unknown:
            raise InvalidHandError(f"unknown key(s) {', '.join(sorted(unknown))} in 'others'; "
                                   "each player is {\"seat\", \"hand\", \"flowers\"}")
        if "seat" not in item or "hand" not in item:
            raise InvalidHandError("each entry of 'others' needs a 'seat' (E/S/W/N) and a 'hand' (notation)")
        seat, hand, bonus = item["seat"], item["hand"], item.get("flowers", item.get("bonus"))
    elif isinstance(item, Sequence) and not isinstance(item, str) and len(item) in (2, 3):
        seat, hand, bonus = (*item, None) if len(item) == 2 else item
    else:
        raise InvalidHandError(f"an entry of 'others' must be {{\"seat\", \"hand\", \"flowers\"}}, got {item!r}")
    seat = parse_wind(seat)
    if isinstance(hand, Hand):
        hand = PartialHand.from_hand(hand)
    if isinstance(hand, PartialHand):
        return seat, (PartialHand(hand.concealed, hand.melds, bonus) if bonus else hand)
    return seat, parse_partial(hand, parse_bonus(bonus))


def parse_others(value, winner_seat: int) -> list[tuple[int, PartialHand]]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise InvalidHandError("'others' must be a list of {\"seat\", \"hand\", \"flowers\"}")
    others = [_other(item) for item in value]
    seats = [s for s, _ in others]
    if winner_seat in seats:
        raise InvalidHandError(f"seat {SEATS[winner_seat]} is the winner's; 'others' holds the other players")
    if len(set(seats)) != len(seats):
        raise InvalidHandError(f"a seat appears twice in 'others': {', '.join(SEATS[s] for s in seats)}")
    return others


def _check_table(winner: Hand, others: list[tuple[int, PartialHand]]) -> None:
    tiles = Counter(winner.all_tiles)
    bonus = Counter(winner.bonus)
    for _, hand in others:
        tiles.update(hand.all_tiles)
        bonus.update(hand.bonus)
    for code, n in tiles.items():
        if n > 4:
            raise InvalidHandError(f"{n} copies of {code} on the table (there are only 4 of each tile)")
    for code, n in bonus.items():
        if n > 1:
            raise InvalidHandError(f"bonus tile {code} is held by {n} players (there is one of each)")


@dataclass(frozen=True)
class TableResult:
    winner: ScoreResult
    players: dict[str, ScoreResult | None]   # seat letter → score; None: hand not given
    net: dict[str, float] | None
    transfers: tuple[tuple[str, str, int], ...]

    def to_dict(self) -> dict:
        out = self.winner.to_dict()
        out["payments"] = self.net
        out["players"] = []
        for seat, res in self.players.items():
            entry = {"seat": seat, "role": "winner" if res is self.winner else "loser", "hand": None,
                     "total": None, "fans": [], "details": {}}
            if res is not None:
                d = res.to_dict()
                entry.update(hand=d["hand"], total=d["total"], fans=d["fans"], details=d["details"])
            out["players"].append(entry)
        out["transfers"] = [{"from": a, "to": b, "amount": n} for a, b, n in self.transfers]
        out["net"] = self.net
        return out


def score_table(winner: Hand, ctx: WinContext, others, options: Options | None = None) -> TableResult:
    """Every player's score and the settlement (docs/rules.md §3.7). `others`: the losers as
    (seat, notation | Hand | PartialHand, bonus) or {"seat", "hand", "flowers"}; a loser not
    given pays the winner but takes no part in the losers' settlement."""
    from .classical import score
    options = options or Options()
    losers = parse_others(others, ctx.seat)
    _check_table(winner, losers)
    win = score(winner, ctx, options)
    players: dict[str, ScoreResult | None] = {s: None for s in SEATS}
    players[SEATS[ctx.seat]] = win
    scores = {}
    for seat, hand in losers:
        players[SEATS[seat]] = score_loser(hand, seat, ctx.round, options)
        scores[seat] = players[SEATS[seat]].total
    if not win.valid:
        return TableResult(win, players, None, ())
    net, transfers = winner_payments(win.total, ctx, options, scores)
    return TableResult(win, players, net, tuple(transfers))


def score_table_request(hand: Hand, ctx: WinContext, others, options: Options | None = None) -> dict:
    """For `scoring.request`: the JSON-ready table result."""
    return score_table(hand, ctx, others, options).to_dict()


__all__ = ["PartialHand", "parse_partial", "format_partial", "score_loser", "parse_others", "score_table",
           "score_table_request", "TableResult"]
