"""Win conditions the hand itself rules out, shared by every rule set.

A flag given with the hand (`kong`, `fourth_tile`) is dropped, with a note in the result's
`ignored_flags`, when the tiles show it cannot be so; a flag is never allowed to turn a hand
into a paid win that the table could not have seen:
  - a win on a kong replacement follows a declared kong, so the hand must hold one;
  - a robbed kong is the fourth copy of a tile, so the winner holds no other copy of it
    (in a set or concealed);
  - the last copy of a tile (the other three visible) leaves no copy in the concealed hand.
"""
from __future__ import annotations

from dataclasses import replace

from ..hand import Hand, WinContext

NO_REPLACEMENT = "kong: no kong was declared, so no replacement tile"
NOT_ROBBED = "kong: the winner holds a copy of the tile, so it cannot be a robbed kong"
NOT_FOURTH = "fourth_tile: a copy of the winning tile is in the concealed hand"


def possible_context(hand: Hand, ctx: WinContext) -> tuple[WinContext, tuple[str, ...]]:
    """`ctx` without the flags the hand rules out, and a note for each one dropped."""
    if hand.winning is None or not (ctx.kong or ctx.fourth_tile):
        return ctx, ()
    in_closed = hand.closed.count(hand.winning)            # the winning tile itself included
    in_sets = sum(m.tiles.count(hand.winning) for m in hand.melds)
    notes = []
    fourth, kong = ctx.fourth_tile, ctx.kong
    if fourth and in_closed != 1:
        fourth = False
        notes.append(NOT_FOURTH)
    if kong and ctx.self_drawn and not any(m.kind.is_kong for m in hand.melds):
        kong = False
        notes.append(NO_REPLACEMENT)
    if kong and not ctx.self_drawn and (in_sets or in_closed != 1):
        kong = False
        notes.append(NOT_ROBBED)
    if not notes:
        return ctx, ()
    return replace(ctx, fourth_tile=fourth, kong=kong), tuple(notes)


def unscored_blessing(ctx: WinContext, scored: bool) -> tuple[str, ...]:
    """A note for `ignored_flags` when a blessing (heavenly, earthly, human hand) is given
    under rules that score none: said, not silently dropped."""
    if not ctx.blessing or scored:
        return ()
    return (f"blessing: these rules score no {ctx.blessing} hand",)
