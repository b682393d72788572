"""The command line in each language: the fan table of one hand of each rule set, the JSON
contract (name and name_zh unchanged, name_local only with --lang), the one-line errors."""
from __future__ import annotations

import json

import pytest

from app import i18n
from app.cli import main
from app.i18n import fans, messages

HANDS = {
    "mcr": ["--hand", "[EEE1][SSS1][WWW1]99m99s9m", "--discarder", "S"],
    "hk001": ["--hand", "[CCC1][FFF1]234p56pPP7p", "--discarder", "S", "--seat", "N"],
    "hk002": ["--hand", "[CCC1][FFF1]234p56pPP7p", "--discarder", "S", "--seat", "N"],
    "classical": ["--hand", "[CCC1][789s1]555m666pEE", "--self-drawn", "--flowers", "1f"],
}
# one fan line per language and rule set, as the table's players say it
EXPECTED = {
    ("pl", "mcr"): "Same Skrajne i Honory 混幺九", ("pl", "hk001"): "Małe Trzy Smoki 小三元",
    ("pl", "hk002"): "Półkolor 混一色", ("pl", "classical"): "Ukryty Pung Małych Kamieni 暗刻（中張） x2",
    ("uk", "mcr"): "Великі три вітри 三风刻", ("uk", "hk001"): "Маленькі три дракони 小三元",
    ("uk", "hk002"): "Без квітів 無花", ("uk", "classical"): "Пара вітру кола 圈風對",
    ("de", "mcr"): "Eine Farbe fehlt 缺一门", ("de", "hk001"): "Kleine drei Drachen 小三元",
    ("de", "hk002"): "Gemischte Farbe 混一色", ("de", "classical"): "Offener Pung hoher Steine 明刻（么九）",
    ("zh", "mcr"): "  三风刻  ←", ("zh", "hk001"): "  小三元  ←", ("zh", "hk002"): "  無花\n",
    ("zh", "classical"): "  和牌\n",
    ("en", "mcr"): "All Terminals and Honors 混幺九", ("en", "hk001"): "Half Flush 混一色",
    ("en", "hk002"): "No Flowers 無花", ("en", "classical"): "Concealed Pung of Simples 暗刻（中張） x2",
}
VALID = {"en": "(valid)", "pl": "(ważna)", "uk": "(дійсна)", "de": "(gültig)", "zh": "(有效)"}


@pytest.fixture(autouse=True)
def english_shell(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def _score(capsys, rules, *extra):
    code = main(["score", "--rules", rules, *HANDS[rules], *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
@pytest.mark.parametrize("rules", list(HANDS))
def test_fan_table_in_each_language(capsys, lang, rules):
    code, out, _err = _score(capsys, rules, "--lang", lang)
    assert code == 0
    first, *lines = out.splitlines()
    assert first.endswith(VALID[lang])
    assert EXPECTED[lang, rules] in out
    english = _score(capsys, rules)[1]
    assert len(lines) == len(english.splitlines()) - 1  # the same fans, one line each
    if lang in ("pl", "uk", "de"):  # no English fan name left over
        data = json.loads(_json(capsys, rules))
        with i18n.using(lang):
            for fan in data["fans"]:
                if fans.fan_name(rules, fan["name"]) != fan["name"]:
                    assert f"{fan['name']} " not in out


def _json(capsys, rules, *extra):
    assert main(["score", "--rules", rules, *HANDS[rules], "--json", *extra]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("rules", list(HANDS))
def test_json_adds_name_local_only_with_lang(capsys, rules):
    plain = json.loads(_json(capsys, rules))
    polish = json.loads(_json(capsys, rules, "--lang", "pl"))
    assert all("name_local" not in fan for fan in plain["fans"])
    assert [(f["name"], f["name_zh"]) for f in polish["fans"]] == [(f["name"], f["name_zh"]) for f in plain["fans"]]
    with i18n.using("pl"):
        assert [f["name_local"] for f in polish["fans"]] == [fans.fan_name(rules, f["name"]) for f in plain["fans"]]
    assert {k: v for k, v in polish.items() if k != "fans"} == {k: v for k, v in plain.items() if k != "fans"}


def test_json_from_the_environment_language_has_no_name_local(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert all("name_local" not in fan for fan in json.loads(_json(capsys, "mcr"))["fans"])


@pytest.mark.parametrize("env, argv, want", [
    ({"LANG": "pl_PL.UTF-8"}, ["--hand", "[EEE1]"], "ręka ma 14 kamieni (13 + zwycięski), kong liczy się jako 3; jest 3"),
    ({"LANG": "C.UTF-8"}, ["--hand", "[EEE1]", "--lang", "de"], "eine Hand hat 14 Steine"),
    ({"LANGUAGE": "uk"}, ["--hand", "123m456p789s11111z"], "5 копій 1z (кожної плитки лише 4)"),
    ({"LANG": "zh_CN.UTF-8"}, ["--hand", "12x"], "'12x' 中有意外的字符 'x'"),
    ({"LANG": "de_DE.UTF-8"}, ["--hand", "[EEE1]", "--lang", "en"], "a hand has 14 tiles"),
    ({"LANG": "C.UTF-8"}, ["--hand", "[EEE1]", "--lang", "fr"], "unknown language 'fr'; choose one of en, pl, uk, de, zh"),
])
def test_one_line_errors_in_the_language(capsys, monkeypatch, env, argv, want):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert main(["score", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mahjong-lens score: ") and want in err and err.count("\n") == 1


def test_a_reason_is_said_in_the_language(capsys):
    argv = ["score", "--hand", "123m567p345s678s55p", "--discarder", "S", "--lang", "pl"]
    assert main(argv) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("(nieważna: 5 pkt bez kwiatów, poniżej minimum 8 pkt)")


def test_help_is_translated(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help", "--lang", "de"])
    assert "die Hand in Notation" in capsys.readouterr().out


H = "123m456p789s123pEE"


@pytest.mark.parametrize("request_, rules, preset, options, template", [
    ({"hand": " "}, "mcr", None, {}, "empty hand notation"),
    ({"hand": "12x"}, "mcr", None, {}, "unexpected character {char} in {text}"),
    ({"hand": "[123m"}, "mcr", None, {}, "unbalanced or misplaced bracket in {text}"),
    ({"hand": "123"}, "mcr", None, {}, "numbers {digits} have no suit letter (m, p, s) in {text}"),
    ({"hand": "m123"}, "mcr", None, {}, "suit letter {char} without numbers in {text}"),
    ({"hand": "023m"}, "mcr", None, {}, "'0' is not a tile number in {text} (numbers are 1..9)"),
    ({"hand": "123m[456p]"}, "mcr", None, {}, "declared sets [..] must come before the concealed tiles in {text}"),
    ({"hand": "[EEE1]"}, "mcr", None, {}, "a hand has 14 tiles (13 + the winning tile), counting a kong as 3; got {size}"),
    ({"hand": "123m456p789s11111z"}, "mcr", None, {}, "{count} copies of {tile} (there are only 4 of each tile)"),
    ({"hand": "[124m]456p789s123pEE"}, "mcr", None, {}, "{set} is not a chow (three consecutive tiles of one suit)"),
    ({"hand": "[12m]456p789s123pEEE"}, "mcr", None, {}, "{set} is not a set: a bracket holds 3 or 4 tiles, got {count}"),
    ({"hand": H, "self_drawn": True, "discarder": "S"}, "mcr", None, {}, "a self-drawn win has no discarder"),
    ({"hand": H, "discarder": "E"}, "mcr", None, {}, "the winner cannot win on their own discard"),
    ({"hand": H, "seat": "Q"}, "mcr", None, {}, "wind must be one of E, S, W, N, got {text}"),
    ({"hand": H, "flowers": "9f"}, "mcr", None, {}, "{code} is not a tile or bonus tile (1f..8f)"),
    ({"hand": H, "flowers": "1f,1f"}, "mcr", None, {}, "a bonus tile appears twice in {text} (there is one of each)"),
    ({"hand": H}, "xx", None, {}, "unknown rule set {value}; choose one of {choices}"),
    ({"hand": H}, "mcr", "zz", {}, "unknown preset {preset} for {rules}; choose one of {choices}"),
    ({"hand": H}, "mcr", None, {"nope": "1"}, "unknown option {key} for {rules}; options: {options}"),
    ({"hand": H}, "mcr", None, {"minimum": "1.5"}, "option {key} takes a whole number, got {text}"),
    ({"hand": H}, "mcr", None, {"minimum": "1000"}, "option {key} must be from {low} to {high}, got {value}"),
    ({"hand": H}, "hk001", None, {"allow_seven_pairs": "maybe"}, "option {key} takes true or false, got {text}"),
])
def test_the_scorers_messages_are_recognised_and_translated(request_, rules, preset, options, template):
    """The English templates match what the scorer really says, word for word."""
    from scoring.request import score_request
    with pytest.raises(ValueError) as caught:
        score_request(request_, rules, preset, options)
    text = str(caught.value)
    found = messages.match(text)
    assert found is not None and found[0] == template, text
    with i18n.using("pl"):
        polish = messages.translate(text)
    assert polish != text and all(value in polish for value in found[1].values())


@pytest.mark.parametrize("request_, rules, template", [
    ({"hand": "123m567p345s678s55p", "discarder": "S"}, "mcr",
     "{points} points without flowers, below the {minimum}-point minimum"),
    ({"hand": "123m456p789s12pEE"}, "mcr", "not a complete hand; waits on {tiles}"),
    ({"hand": "234m456p678s345s99m", "discarder": "S", "flowers": "2f"}, "hk001",
     "{fan} fan is below the minimum of {minimum}"),
])
def test_the_scorers_reasons_are_recognised(request_, rules, template):
    from scoring.request import score_request
    reason = score_request(request_, rules, None, {})["reason"]
    assert messages.match(reason)[0] == template, reason


@pytest.mark.parametrize("request_, rules, count", [
    ({"hand": H, "self_drawn": True, "kong": True, "fourth_tile": True}, "hk001", 2),
    ({"hand": H, "discarder": "S", "kong": True}, "classical", 1),
])
def test_the_flags_a_hand_rules_out_are_recognised(request_, rules, count):
    from scoring.request import score_request
    notes = score_request(request_, rules, None, {})["details"]["ignored_flags"]
    assert len(notes) == count and all(messages.match(note) for note in notes)
    with i18n.using("de"):
        assert all(messages.translate(note) != note for note in notes)


def test_practice_hands_in_the_language(capsys):
    assert main(["play", "--auto", "--seed", "1", "--hands", "2", "--lang", "pl"]) == 0
    first, _second, summary = capsys.readouterr().out.splitlines()
    assert first.startswith("rozdanie 1: E wygrywa z muru, ") and "Ukryta Ręka 1" in first
    assert summary.startswith("2 rozdania: wygrane 2 (100,0%), remisy 0; średnio fanów na wygraną 3,00")


@pytest.mark.parametrize("extra, local", [([], False), (["--lang", "uk"], True)])
def test_batch_lines_add_name_local_only_with_lang(capsys, monkeypatch, extra, local):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("[EEE1][SSS1][WWW1]99m99s9m\n"))
    assert main(["score", "-", *extra]) == 0
    fans = json.loads(capsys.readouterr().out)["fans"]
    assert all(("name_local" in f) == local for f in fans)
    if local:
        assert fans[0]["name_local"] == "Усі термінали й почесні" and fans[0]["name"] == "All Terminals and Honors"


def test_app_lang_becomes_the_pages_fallback_language(monkeypatch, capsys):
    seen = {}

    def execve(path, cmd, env):
        seen.update(env)
        raise SystemExit(0)
    monkeypatch.setattr("os.execve", execve)
    with pytest.raises(SystemExit):
        main(["app", "--server.address", "127.0.0.1", "--lang", "pl"])
    assert seen["MAHJONG_LENS_LANG"] == "pl"
    assert "tylko na 127.0.0.1" in capsys.readouterr().out  # what it listens on, in Polish


@pytest.mark.parametrize("lang", [code for code in i18n.LANGUAGES if code != "en"])
def test_argparses_own_words_in_each_language(capsys, lang):
    with pytest.raises(SystemExit):
        main(["--lang", lang, "score", "--help"])
    out = capsys.readouterr().out
    with i18n.using(lang):
        usage, heading, help_line = (i18n._(w) for w in ("usage: ", "options", "show this help message and exit"))
    assert out.startswith(usage + "mahjong-lens score") and f"\n{heading}:\n" in out and help_line in out
    assert "usage:" not in out and "show this help message" not in out


def test_argparses_error_line_in_the_language(capsys):
    with pytest.raises(SystemExit) as done:
        main(["score", "--rules", "xx", "--lang", "de"])
    last = capsys.readouterr().err.splitlines()[-1]
    with i18n.using("de"):
        choice = i18n._("invalid choice: %(value)r (choose from %(choices)s)")
    assert done.value.code == 2 and last.startswith("mahjong-lens score: ")
    assert choice.split("%")[0] in last and "invalid choice" not in last


def test_argparses_words_are_argparses_own():
    """Each word listed for the catalogues is one argparse asks for, word for word."""
    import argparse
    import inspect

    from app.i18n.parser_words import WORDS
    source = inspect.getsource(argparse)
    for word in WORDS:
        assert f"_({word!r})" in source, word
    assert "'expected %s argument'" in source and "'expected %s arguments'" in source
    with i18n.using("pl"):
        from app.i18n.parser_words import expected_arguments
        assert "3" in expected_arguments(3) % 3 and expected_arguments(3) != "expected %s arguments"


@pytest.mark.parametrize("argv", [
    ["--lang", "de", "score", *HANDS["mcr"]],
    ["--lang=de", "score", *HANDS["mcr"]],
    ["score", *HANDS["mcr"], "--lang", "de"],
    ["--lang", "pl", "score", *HANDS["mcr"], "--lang", "de"],  # the command's own wins
])
def test_lang_before_or_after_the_command(capsys, argv):
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("(gültig)")
