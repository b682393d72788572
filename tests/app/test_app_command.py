"""`mahjong-lens app`: the streamlit command line it runs (offline, headless, flags passed)."""
from __future__ import annotations

import argparse

from app.commands import app as app_command


def _args(*argv):
    parser = argparse.ArgumentParser()
    app_command.add_parser(parser.add_subparsers())
    return parser.parse_args(["app", *argv])


def test_command_is_headless_offline_and_passes_port_and_data_dir(tmp_path):
    cmd = app_command.command(_args("--server.port", "8765", "--data-dir", str(tmp_path)))
    assert cmd[1:4] == ["-m", "streamlit", "run"] and cmd[4].endswith("app/page.py")
    flags = dict(zip(cmd[5::2], cmd[6::2]))
    assert flags["--server.headless"] == "true"
    assert flags["--browser.gatherUsageStats"] == "false"
    assert flags["--server.port"] == "8765"
    assert flags["--server.enableStaticServing"] == "true"
    assert flags["--client.showErrorDetails"] == "none"
    assert cmd[-3:] == ["--", "--data-dir", str(tmp_path.resolve())]


def test_run_execs_streamlit_with_the_model_in_the_environment(monkeypatch, tmp_path):
    seen = {}

    def fake_execve(path, argv, env):
        seen.update(path=path, argv=argv, env=env)
        raise SystemExit(0)
    monkeypatch.setattr(app_command.os, "execve", fake_execve)
    try:
        app_command.run(_args("--model", str(tmp_path / "m.onnx")))
    except SystemExit:
        pass
    assert seen["argv"][2:4] == ["streamlit", "run"]
    assert seen["env"]["MAHJONG_LENS_MODEL"] == str((tmp_path / "m.onnx").resolve())
