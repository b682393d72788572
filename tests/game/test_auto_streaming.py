"""`play --auto --hands K` keeps one hand's record at a time (only the summary's counts
grow), so the allowed maximum of hands needs no more memory than one."""
from __future__ import annotations

import contextlib
import os
import tracemalloc

import pytest

import game.auto
from app.cli import main

RECORD_BYTES = 1_000_000  # a stand-in record far larger than a real one (about 40 KB)


def peak_bytes(hands: int, json_lines: bool) -> int:
    argv = ["play", "--seed", "1", "--auto", "--hands", str(hands)] + (["--json"] if json_lines else [])
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        tracemalloc.start()
        try:
            assert main(argv) == 0
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()


@pytest.mark.parametrize("json_lines", [True, False])
def test_the_records_of_many_hands_are_not_kept(monkeypatch, json_lines):
    monkeypatch.setattr(game.auto, "play_hand", lambda seed: seed)
    monkeypatch.setattr(game.auto, "hand_record", lambda seed: {
        "seed": seed, "winner": None, "moves": "x" * RECORD_BYTES})  # drawn hands
    assert peak_bytes(40, json_lines) < 8 * RECORD_BYTES  # kept, 40 records: 40 MB
