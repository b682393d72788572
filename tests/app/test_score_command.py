"""`mahjong-lens score`: the command-line contract of docs/architecture.md, bad input included."""
import json
import subprocess
import sys
import threading

import pytest

from app.cli import main


def run(argv, stdin=None, capsys=None, monkeypatch=None):
    if stdin is not None:
        import io
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv, total, payments", [
    (["--hand", "[EEE1][SSS1][WWW1]99m99s9m", "--discarder", "S"], 49, {"E": 73, "S": -57, "W": -8, "N": -8}),
    (["--hand", "[678s1]678p345m78m99p6m", "--self-drawn", "--flowers", "2f"], 13, {"E": 63, "S": -21, "W": -21, "N": -21}),
    (["--hand", "[678s1][678m1]123p78p99s6p", "--flowers", "1f"], 11, None),  # discarder unknown
])
def test_score_json(argv, total, payments, capsys):
    code, out, err = run(["score", "--rules", "mcr", *argv, "--json"], capsys=capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["total"] == total and result["valid"] and result["error"] is None
    assert result["payments"] == payments
    for fan in result["fans"]:
        assert {"name", "name_zh", "points", "count", "sets"} <= set(fan)


@pytest.mark.parametrize("hand, message", [
    ("[123m", "bracket"),
    ("11111m234p678sEE5m", "5 copies of 1m"),
    ("123m456p789s111zEE9p", "got 15"),
    ("0x", "'0' is not a tile number"),
    ("[ESW]123m456p789s1p1p", "not a chow"),
    ("[1112m]123m456p789s1p", "not a kong"),
])
def test_bad_hand_is_one_line_and_status_2(hand, message, capsys):
    code, out, err = run(["score", "--hand", hand, "--json"], capsys=capsys)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv, message", [
    (["--hand", "123m456p789s1122zE", "--option", "nope=1"], "unknown option"),
    (["--hand", "123m456p789s1122zE", "--option", "minimum"], "KEY=VALUE"),
    (["--hand", "123m456p789s1122zE", "--preset", "osaka"], "unknown preset"),
    (["--hand", "123m456p789s1122zE", "--seat", "X"], "wind"),
    (["--hand", "123m456p789s1122zE", "--discarder", "E"], "own discard"),
    (["--hand", "123m456p789s1122zE", "--flowers", "1f,1f"], "twice"),
    (["--hand", "123m456p789s1122zE", "--flowers", "3m"], "not a bonus tile"),
])
def test_bad_flags(argv, message, capsys):
    code, out, err = run(["score", *argv], capsys=capsys)
    assert code == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize("hand, valid, reason", [
    ("[123s1][789m1]123m789s5s5s", False, "below"),        # M-04: 7 points
    ("123m456p789s1357zE", False, "not a complete hand"),
    ("123m456p789s1122zE", True, None),
])
def test_validity_and_reason(hand, valid, reason, capsys):
    code, out, _ = run(["score", "--hand", hand, "--json"], capsys=capsys)
    result = json.loads(out)
    assert code == 0 and result["valid"] is valid
    if reason:
        assert reason in result["reason"]


def test_batch_mode_goes_on_after_a_bad_line(capsys, monkeypatch):
    lines = "\n".join([
        "[EEE1][SSS1][WWW1]99m99s9m",
        '{"hand": "[678s1]678p345m78m99p6m", "self_drawn": true, "flowers": ["2f"]}',
        "[123m",
        '{"hand": "11111m234p678sEE5m"}',
        "{not json",
        '{"hand": "1133m2277p99sEENN", "self_drawn": true, "options": {"fully_concealed_with_special_hands": false}}',
        '{"hand": "[CCC1][FFF1]234p56pPP7p", "rules": "hk001", "discarder": "S", "seat": "N"}',
    ]) + "\n"
    code, out, _ = run(["score", "-", "--json"], stdin=lines, capsys=capsys, monkeypatch=monkeypatch)
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == 7 and code == 2
    assert [r["error"] is None for r in results] == [True, True, False, False, False, True, True]
    assert results[0]["total"] == 49 and results[1]["total"] == 13
    assert "5 copies" in results[3]["error"] and "malformed JSON" in results[4]["error"]
    assert results[5]["total"] == 25          # D-04 under PyMahjongGB's choice
    assert results[6]["total"] == 9            # H-03 under hk001


def test_no_traceback_from_the_real_process():
    proc = subprocess.run([sys.executable, "-m", "app.cli", "score", "--hand", "[123m", "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("mahjong-lens score:") and "Traceback" not in proc.stderr


def test_a_reader_that_goes_away_stops_it_quietly():
    """`mahjong-lens score - < many.jsonl | head -1`: no message, Unix's status for SIGPIPE."""
    hands = "".join(json.dumps({"hand": "[EEE1][SSS1][WWW1]99m99s9m", "discarder": "S"}) + "\n"
                    for _ in range(3000))
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "score", "--rules", "mcr", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    feed = threading.Thread(target=_feed, args=(proc.stdin, hands.encode()))
    feed.start()
    assert proc.stdout.read(10)
    proc.stdout.close()  # gone before it has written 3,000 results
    assert proc.wait(timeout=120) == 141
    assert proc.stderr.read() == b""
    feed.join(timeout=10)


def _feed(pipe, data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except BrokenPipeError:  # the command stopped reading: what this test wants
        pass


BAD_LINES = [  # one bad line each, then a good one that must still be scored
    '{"hand": "[123m][EEE1]456p789sNN", "preset": 1}',
    '{"hand": "[123m][EEE1]456p789sNN", "preset": true}',
    '{"hand": "[123m][EEE1]456p789sNN", "preset": [1]}',
    '{"hand": "[EEE1][SSS1][WWW1]99m99s9m", "discarder": "S", "options": {"minimum": [8]}}',
    '{"hand": "[EEE1][SSS1][WWW1]99m99s9m", "discarder": "S", "options": {"minimum": null}}',
    '{"hand": ' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"hand": "\\ud800"}',
    '{"hand": "\\udc80"}',
    '{"hand": "[CCC1][FFF1][PPP1]234p5p5p", "rules": "hk001", "discarder": "S", "options": {"limit": 1000000000000}}',
]


@pytest.mark.parametrize("bad", BAD_LINES, ids=lambda line: line[:40])
def test_a_bad_line_is_answered_and_the_run_goes_on(bad):
    good = '{"hand": "[EEE1][SSS1][WWW1]99m99s9m", "discarder": "S"}'
    proc = subprocess.run([sys.executable, "-m", "app.cli", "score", "--rules", "mcr", "-"],
                          input=(bad + "\n" + good + "\n").encode("utf-8", "surrogatepass"),
                          capture_output=True, timeout=60)
    lines = proc.stdout.decode("utf-8").splitlines()  # valid UTF-8: never a raw 0x80
    assert proc.returncode == 2 and proc.stderr == b"" and len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["error"] and "\n" not in first["error"]
    assert second["error"] is None and second["total"] == 49


@pytest.mark.parametrize("rules, options, words", [
    ("mcr", {"minimum": 1000}, "minimum must be from 0 to 88"),
    ("hk001", {"limit": 1024}, "limit must be from 1 to 20"),
    ("hk002", {"unit": 1e308}, "unit must be from 0.01 to 1000000"),
    ("classical", {"limit": 10**15}, "limit must be from 1 to 100000"),
])
def test_a_bad_option_in_batch_mode_for_every_rule_set(rules, options, words, capsys, monkeypatch):
    line = json.dumps({"hand": "[CCC1][FFF1][PPP1]234p5p5p", "discarder": "S", "options": options})
    code, out, _ = run(["score", "--rules", rules, "-"], stdin=line + "\n" + line.replace(
        json.dumps(options), "{}") + "\n", capsys=capsys, monkeypatch=monkeypatch)
    first, second = (json.loads(x) for x in out.splitlines())
    assert code == 2 and words in first["error"] and second["error"] is None


def test_a_line_that_is_not_utf8_or_too_long_is_one_error_line():
    lines = b'{"hand":"123m\x80456p"}\n' + b"1" * 100_000 + b"\n" + b"[EEE1][SSS1][WWW1]99m99s9m\n"
    proc = subprocess.run([sys.executable, "-m", "app.cli", "score", "-"], input=lines,
                          capture_output=True, timeout=60)
    results = [json.loads(x) for x in proc.stdout.decode("utf-8").splitlines()]
    assert [bool(r["error"]) for r in results] == [True, True, False]
    assert "UTF-8" in results[0]["error"] and "limit" in results[1]["error"]


@pytest.mark.parametrize("option, words", [
    ("limit=1024", "limit must be from 1 to 20"),
    ("unit=1e308", "unit must be from 0.01 to 1000000"),
    ("limit=1000000000000", "limit must be from 1 to 20"),
])
def test_an_option_out_of_range_is_one_line_on_the_command_line(option, words, capsys):
    code, _, err = run(["score", "--rules", "hk001", "--hand", "[CCC1][FFF1][PPP1]234p5p5p",
                        "--discarder", "S", "--option", option], capsys=capsys)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("rules", ["hk001", "hk002", "classical", "mcr"])
def test_an_impossible_kong_flag_is_said_and_not_scored(rules, capsys):
    code, out, _ = run(["score", "--rules", rules, "--hand", "[123m1]456m789p2355s4s", "--self-drawn",
                        "--seat", "S", "--kong"], capsys=capsys)
    assert code == 0 and "ignored: kong: no kong was declared" in out
    assert "Replacement" not in out
