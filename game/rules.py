"""The table rules of the Hong Kong practice game, as data.

- Claims on a discard: a win beats a pung or kong, which beats a chow. Anyone may claim a win,
  a pung or an exposed kong; only the next player in turn may claim a chow. Equal claims go
  to the player nearest after the discarder in turn order, so when several players could win
  on one discard only the nearest one wins.
- A kong (concealed, promoted or claimed) needs a replacement tile left in the wall.
- The last discard of the hand (the wall is empty) may be claimed only for a win: nobody
  could draw after it.
- Fan, the 3-fan minimum, the 13-fan limit and the payments are the scorer's preset `hk001`:
  base points 2^fan; on a self-draw each of the three others pays the base, on a discard the
  discarder alone pays three bases; a robbed kong is paid by the player who promoted it.
"""
from __future__ import annotations

from .state import Action

RULES = "hk001"
DEALT = 13                   # tiles dealt to each player; the dealer gets one more

# claim priority: higher wins; ties are broken by distance after the discarder
CLAIM_PRIORITY = {Action.WIN: 3, Action.KONG: 2, Action.PUNG: 2, Action.CHOW: 1, Action.PASS: 0}


def distance(discarder: int, seat: int) -> int:
    """1 for the next player in turn, 2 for the one after, 3 for the last."""
    return (seat - discarder) % 4


def claim_rank(move, discarder: int) -> tuple[int, int]:
    """Higher ranks first: priority, then nearness after the discarder."""
    return CLAIM_PRIORITY[move.action], -distance(discarder, move.seat)
