"""Fuzzing `mahjong-lens score -`: seeded random lines (good hands, wrong types in every field,
out-of-range options, deep nesting, lone surrogates, bad bytes, long lines) through ONE batch
process for the four rule sets. Every line gets exactly one valid-UTF-8 JSON line back, with
`error` set for every bad line, none slower than a second, and the run reaches the end.

MAHJONG_LENS_FUZZ_LINES=100000 runs more lines (default 6000); MAHJONG_LENS_FUZZ_SEED picks
another seed.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time

import pytest

from scoring.rules import RuleSet

LINES = int(os.environ.get("MAHJONG_LENS_FUZZ_LINES", "6000"))
SEED = int(os.environ.get("MAHJONG_LENS_FUZZ_SEED", "20261202"))
SLOWEST_S = 1.0

GOOD = [  # (request, rule sets under which it scores without an error)
    ({"hand": "[EEE1][SSS1][WWW1]99m99s9m", "discarder": "S"}, "all"),
    ({"hand": "[678s1]678p345m78m99p6m", "self_drawn": True, "flowers": ["2f"]}, "all"),
    ({"hand": "[CCC1][FFF1][PPP1]234p5p5p", "discarder": "S"}, "all"),
    ({"hand": "1133m2277p99sEENN", "self_drawn": True}, "all"),
    ({"hand": "[123m1]456m789p2355s4s", "self_drawn": True, "seat": "S", "flowers": "1f"}, "all"),
    ({"hand": "1112345678999m5m", "discarder": "W", "seat": "N", "round": "S", "dealer": "W"}, "all"),
    ({"hand": "19m19p19sESWNCFP1m", "discarder": "E", "seat": "S"}, "all"),
]
JUNK = [True, False, None, 0, 1, -1, 2**70, 1.5, -0.0, 1e308, float("inf"), "", "x", "E", "1f",
        [], [1], ["2f", 3], {}, {"a": 1}, "\ud800", "\udc80", "é字🀄", "[" * 50, "1" * 5000]
OPTIONS = {"mcr": ["minimum", "mixed_kongs_points", "two_concealed_kongs_points",
                   "waits_count_exhausted_tiles"],
           "hk001": ["limit", "minimum", "unit", "multiplier", "self_draw_each", "seven_pairs_fan"],
           "hk002": ["limit", "unit", "discard_split", "great_three_dragons_fan"],
           "classical": ["limit", "mahjong_points", "loser_pairs", "only_possible_tile"]}
NUMBERS = [0, 1, 3, 8, 13, 20, 21, 88, 89, 1000, 1024, 10**12, -5, 0.5, 1e308, "1e308", "nan",
           "inf", "-1", "1000000000000", "13", "2.5"]
FIELDS = ["hand", "self_drawn", "discarder", "seat", "round", "dealer", "flowers", "last_tile",
          "kong", "fourth_tile", "options", "rules", "preset", "others", "blessing", "bogus"]


def _valid_case(rng: random.Random) -> tuple[str, bool]:
    request, _ = rng.choice(GOOD)
    rules = rng.choice([r.value for r in RuleSet])
    return json.dumps({**request, "rules": rules}), False


def _wrong_type(rng: random.Random) -> tuple[str, bool]:
    request, _ = rng.choice(GOOD)
    field = rng.choice(FIELDS)
    value = rng.choice(JUNK)
    return json.dumps({**request, "rules": rng.choice(list(OPTIONS)), field: value}), None


def _option(rng: random.Random) -> tuple[str, bool]:
    request, _ = rng.choice(GOOD)
    rules = rng.choice(list(OPTIONS))
    key = rng.choice(OPTIONS[rules])
    value = rng.choice(NUMBERS + JUNK)
    return json.dumps({**request, "rules": rules, "options": {key: value}}), None


def _nested(rng: random.Random) -> tuple[str, bool]:
    depth = rng.choice([10, 900, 5000, 20000])
    inner = "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "1" + "}" * depth
    return '{"hand":' + inner + "}", True


def _text(rng: random.Random) -> tuple[str, bool]:
    pieces = ["\\ud800", "\\udc80", "\\u0000", '"', "{", "}", "[", "]", ":", ",", "1m", "E", "x",
              "é", "🀄", " ", "\\\\", "hand", "null", "1e999"]
    body = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 40)))
    return rng.choice(['{"hand":"%s"}', "{%s", "%s", " %s ", '{"hand":"1m","rules":"%s"}']) % body, None


def _bytes(rng: random.Random) -> tuple[bytes, bool]:
    bad = rng.choice([b"\x80", b"\xff\xfe", b"\xed\xa0\x80", b"\xc3", b"\x00"])
    return b'{"hand":"123m' + bad + b'456p"}', True


KINDS = [(_valid_case, 3), (_wrong_type, 4), (_option, 4), (_nested, 1), (_text, 2), (_bytes, 1)]


def _cases(n: int, seed: int) -> list[tuple[bytes, bool | None]]:
    """(line, bad?): True: must be an error; False: must score; None: either, but answered."""
    rng = random.Random(seed)
    makers = [maker for maker, weight in KINDS for _ in range(weight)]
    out = []
    for _ in range(n):
        line, bad = rng.choice(makers)(rng)
        out.append((line if isinstance(line, bytes) else line.encode("utf-8", "surrogatepass"), bad))
    out += [(b"x" * 200_000, True), (b"", True), (b" \t ", True)]  # too long; blank lines
    return out


def _run(lines: list[bytes]) -> tuple[list[tuple[float, bytes]], int, bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "score", "--rules", "mcr", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def feed():
        try:
            for line in lines:
                proc.stdin.write(line + b"\n")
            proc.stdin.close()
        except BrokenPipeError:
            pass
    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    got = []
    # the writer keeps the input ahead of the scorer, so the gap between two answers is the
    # time the later line took
    last = time.perf_counter()
    for answer in proc.stdout:
        now = time.perf_counter()
        got.append((now - last, answer))
        last = now
    code = proc.wait(timeout=60)
    return got, code, proc.stderr.read()


@pytest.mark.slow
def test_every_fuzzed_line_gets_one_valid_answer_in_time():
    cases = _cases(LINES, SEED)
    answers, code, err = _run([line for line, _ in cases])
    assert err == b"" and code == 2
    assert len(answers) == len(cases), "the run ended early or a line got no answer"
    slow = []
    for (line, bad), (seconds, answer) in zip(cases, answers):
        text = answer.decode("utf-8")          # valid UTF-8 or this raises
        result = json.loads(text)
        assert "\n" not in text.rstrip("\n") and {"valid", "total", "error"} <= set(result)
        if bad is True:
            assert result["error"], (line[:120], result)
        if bad is False:
            assert result["error"] is None, (line[:120], result)
        assert "could not be scored" not in (result["error"] or ""), (line[:200], result)
        if seconds > SLOWEST_S:
            slow.append((round(seconds, 2), line[:80]))
    assert not slow, slow
