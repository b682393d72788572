"""Where the tiles lie: detections grouped into the player's hand, its exposed sets and its
bonus tiles (table.py), from rows and their geometry (geometry.py), the sets a row can make
(sets.py), their grouping into a complete hand (grouping.py) and the bonus tiles (bonus.py)."""
from vision.layout.table import LaidMeld, LaidTile, TableLayout, hand_tiles, read_layout

__all__ = ["LaidMeld", "LaidTile", "TableLayout", "hand_tiles", "read_layout"]
