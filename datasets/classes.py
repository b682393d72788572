"""The detector's class list, read from datasets/classes.yaml (the one source of truth)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from scoring.tiles import BONUS, PLAYING

CLASSES_YAML = Path(__file__).with_name("classes.yaml")


@lru_cache(maxsize=1)
def class_names() -> tuple[str, ...]:
    """Names in YOLO id order. Parsed with a regex so that PyYAML is not needed at run time."""
    pairs = re.findall(r"^\s+(\d+):\s*(\S+)\s*$", CLASSES_YAML.read_text(), flags=re.M)
    names = [name for _, name in sorted(pairs, key=lambda p: int(p[0]))]
    assert [int(i) for i, _ in sorted(pairs, key=lambda p: int(p[0]))] == list(range(len(names)))
    return tuple(names)


@lru_cache(maxsize=1)
def class_index() -> dict[str, int]:
    return {name: i for i, name in enumerate(class_names())}


SUIT_CODES = PLAYING     # the 34 playing tiles, 1m..9s then 1z..7z
BONUS_CODES = BONUS      # 1f..8f
TILE_CODES = PLAYING + BONUS
