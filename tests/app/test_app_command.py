"""`mahjong-lens app`: the streamlit command line it runs (offline, headless, flags passed)."""
from __future__ import annotations

import argparse

import pytest

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


@pytest.mark.parametrize("argv, address", [
    ((), "192.168.1.20"), (("--server.address", "127.0.0.1"), "127.0.0.1"),
    (("--server.address", "0.0.0.0"), "192.168.1.20"),
])
def test_the_address_to_print_is_given_so_streamlit_looks_up_nothing(argv, address):
    cmd = app_command.command(_args(*argv), lan="192.168.1.20")
    flags = dict(zip(cmd[5::2], cmd[6::2]))
    assert flags["--browser.serverAddress"] == address and flags["--browser.gatherUsageStats"] == "false"


def test_where_says_every_interface_and_how_to_keep_it_local():
    said = app_command.where(_args(), "192.168.1.20")
    assert "every network interface" in said and "http://192.168.1.20:8501" in said
    assert "--server.address 127.0.0.1" in said
    assert "127.0.0.1 only" in app_command.where(_args("--server.address", "127.0.0.1"), None)


# every outside contact of the started server, from inside its process
NETWORK_LOG = """
import os, socket, sys
def _hook(event, args):
    if event == "socket.getaddrinfo":
        line = f"lookup {args[0]}"
    elif event == "socket.connect" and args[0].type == socket.SOCK_STREAM:
        address = args[1]
        line = f"connect {address[0] if isinstance(address, tuple) else address}"
    else:
        return
    with open(os.environ["NETWORK_LOG"], "a") as log:
        log.write(line + "\\n")
sys.addaudithook(_hook)
"""


@pytest.mark.slow
@pytest.mark.parametrize("scheme, argv", [("http", ()), ("https", ("--https",))])
def test_the_started_page_contacts_no_outside_address(tmp_path, scheme, argv):
    import os
    import socket
    import ssl
    import subprocess
    import sys
    import time
    import urllib.request
    (tmp_path / "hook").mkdir()
    (tmp_path / "hook" / "sitecustomize.py").write_text(NETWORK_LOG)
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    log = tmp_path / "network.log"
    env = {**os.environ, "NETWORK_LOG": str(log),
           "PYTHONPATH": os.pathsep.join([str(tmp_path / "hook"), os.getcwd()])}
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "app", *argv, "--server.port", str(port),
                             "--data-dir", str(tmp_path / "data")], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"{scheme}://127.0.0.1:{port}/_stcore/health", timeout=2,
                                            context=ssl._create_unverified_context()):
                    break
            except OSError:
                time.sleep(0.3)
        time.sleep(2.5)  # the address banner (and any lookup it makes) follows the health check
    finally:
        proc.terminate()
        out = proc.communicate(timeout=30)[0].decode("utf-8", "replace")
    seen = log.read_text().splitlines() if log.exists() else []
    local = {"localhost", "127.0.0.1", "::1", "0.0.0.0", "None", ""}
    outside = [line for line in seen if line.split(" ", 1)[1] not in local]
    assert not outside, outside
    assert "every network interface" in out and f"{scheme}://" in out


def test_the_page_language_reaches_the_server(monkeypatch):
    from app.cli import build_parser
    seen = {}

    def fake_execve(path, argv, env):
        seen.update(env=env)
        raise SystemExit(0)
    monkeypatch.setattr(app_command.os, "execve", fake_execve)
    with pytest.raises(SystemExit):
        app_command.run(build_parser().parse_args(["app", "--lang", "pl"]))
    assert seen["env"]["MAHJONG_LENS_LANG"] == "pl"
