"""`mahjong-lens play`: computer-only hands as text or JSON lines; bad arguments in one line."""
from __future__ import annotations

import json

import pytest

from app.cli import main


def test_json_lines_one_per_hand(capsys):
    assert main(["play", "--seed", "3", "--auto", "--hands", "3", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["seed"] for r in lines] == [3, 4, 5]
    for r in lines:
        assert sum(r["payments"].values()) == 0 and r["moves"] > 50
        if r["winner"] is None:
            assert r["total"] == 0 and r["fans"] == [] and r["discarder"] is None
        else:
            assert r["winner"] in "ESWN" and r["total"] >= 3
            assert sum(f["points"] * f["count"] for f in r["fans"]) >= r["total"]
            assert (r["discarder"] is None) == r["self_drawn"]


def test_text_summary(capsys):
    assert main(["play", "--seed", "1", "--auto", "--hands", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("seed 1: ") and out[-1].startswith("2 hands: ")


@pytest.mark.parametrize("args, message", [
    (["--hands", "2"], "add --auto"),
    (["--auto", "--hands", "0"], "--hands must be 1.."),
    (["--auto", "--hands", "x"], "--hands takes a whole number"),
    (["--auto", "--seed", "-1"], "--seed must be 0.."),
])
def test_bad_arguments_one_line(capsys, args, message):
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mahjong-lens play: ") and message in err
