"""Where the tiles lie: detections grouped into the player's hand, its exposed sets and its
bonus tiles (table.py), from rows and their geometry (geometry.py), the sets a row can make
(sets.py), their grouping into a complete hand (grouping.py) and the bonus tiles (bonus.py)."""
from __future__ import annotations

__all__ = ["LaidMeld", "LaidTile", "TableLayout", "hand_tiles", "read_layout"]


def __getattr__(name: str):
    """table.py's names, loaded when first asked for: a module that needs only geometry.py
    (the photo reader's second look at the rows) does not load the grouping and the scorer's
    decompositions with it (20-25 ms of CPU of a `detect` command's start)."""
    if name in __all__:
        from vision.layout import table

        return getattr(table, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
