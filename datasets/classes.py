"""The detector's class list, read from datasets/classes.yaml (the one source of truth)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

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


TILE_CODES = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(
    f"{n}z" for n in range(1, 8)) + tuple(f"{n}f" for n in range(1, 9))
SUIT_CODES = TILE_CODES[:34]
BONUS_CODES = TILE_CODES[34:]
