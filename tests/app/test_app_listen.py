"""`mahjong-lens app` with a port or address it cannot listen on: one line, exit 2, before
anything is printed or started (never Streamlit's traceback after the address)."""
from __future__ import annotations

import pytest

from app.cli import main


@pytest.mark.parametrize("argv, said", [
    (["--server.port", "99999"], "--server.port must be 1..65535, got 99999"),
    (["--server.port", "-1"], "--server.port must be 1..65535, got -1"),
    (["--server.address", "not an address"], "takes an IP address of this machine or localhost"),
    (["--server.address", "192.0.2.77"], "192.0.2.77 is not an address of this machine"),
])
def test_a_port_or_address_it_cannot_listen_on_is_one_line(argv, said, capsys, monkeypatch):
    import app.commands.app as app_command

    def started(*_args, **_kwargs):
        raise AssertionError("the server was started")
    monkeypatch.setattr(app_command.os, "execve", started)
    monkeypatch.setattr(app_command.subprocess, "call", started)
    assert main(["app", *argv]) == 2
    out, err = capsys.readouterr()
    assert not out and said in err and err.count("\n") == 1, (out, err)
