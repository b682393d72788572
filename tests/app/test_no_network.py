"""Nothing leaves the machine: the system calls that send (connect, sendto, sendmsg,
sendmmsg) of a process running an ONNX session, and of the served page reading a photo,
watched with strace, so that native libraries are seen as well as Python. Any packet to an
address other than loopback fails. onnxruntime's own telemetry looks up its collector about
9 s after the module is imported, so each watch lasts past that.
"""
from __future__ import annotations

import ipaddress
import re
import shutil
import subprocess
import sys
import time

import pytest

import browser_fixtures as bf
from app_fixtures import table_photo
from vision.runtime import DEFAULT_MODEL_PATH

STRACE = shutil.which("strace")
# -yy names each socket's protocol and ends, so a UDP connect (which sends nothing) is told
# from a TCP one and a send on a connected socket shows where it goes; --seccomp-bpf stops
# the server only at these calls, so it runs at its usual speed
WATCH = ("-f", "--seccomp-bpf", "-qq", "-yy", "-e", "trace=connect,sendto,sendmsg,sendmmsg")
LAST_LOOKUP_S = 15  # past onnxruntime's first telemetry lookup (about 9 s after the import)
ADDRESS = re.compile(r'inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)"'
                     r'|->\[?([0-9a-fA-F.:]+?)\]?:\d+\]>')
UDP_CONNECT = re.compile(r"connect\(\d+<UDPv?6?:")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(STRACE is None, reason="strace is not installed")]


def _local(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback or ip.is_unspecified


def packets_out(log: str) -> list[str]:
    """strace lines that send to an address other than loopback (a UDP connect sends
    nothing: it only picks the route)."""
    out = []
    for line in log.splitlines():
        if UDP_CONNECT.search(line):
            continue
        found = [a for groups in ADDRESS.findall(line) for a in groups if a]
        if any(not _local(a) for a in found):
            out.append(line.strip())
    return out


@pytest.mark.parametrize("line, sends", [
    ('9 connect(9<UDP:[1]>, {sa_family=AF_INET, sin_port=htons(53), '
     'sin_addr=inet_addr("10.255.255.53")}, 16) = 0', False),
    ('9 sendto(9<UDP:[192.0.2.2:41534->10.255.255.53:53]>, "mobile", 50, 0, NULL, 0) = 50', True),
    ('9 connect(5<TCP:[2]>, {sa_family=AF_INET, sin_port=htons(443), '
     'sin_addr=inet_addr("20.42.65.92")}, 16) = -1 EINPROGRESS', True),
    ('9 connect(5<TCPv6:[2]>, {sa_family=AF_INET6, sin6_port=htons(443), '
     'inet_pton(AF_INET6, "2603:1030::1", &sin6_addr)}, 28) = 0', True),
    ('9 connect(5<TCP:[2]>, {sa_family=AF_INET, sin_port=htons(8501), '
     'sin_addr=inet_addr("127.0.0.1")}, 16) = 0', False),
    ('9 sendto(7<TCPv6:[[::1]:8501->[::1]:5000]>, "x", 1, 0, NULL, 0) = 1', False),
])
def test_the_watch_tells_packets_out_from_local_ones(line, sends):
    assert bool(packets_out(line)) is sends


def test_an_onnx_session_sends_nothing(tmp_path):
    log = tmp_path / "strace.log"
    script = ("import time; from vision.runtime import cpu_session; "
              f"cpu_session({str(DEFAULT_MODEL_PATH)!r}); time.sleep({LAST_LOOKUP_S})")
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    subprocess.run([STRACE, *WATCH, "-o", str(log), sys.executable, "-c", script], check=True,
                   env=env, cwd=bf.ROOT, timeout=LAST_LOOKUP_S + 60)
    assert not packets_out(log.read_text())


@pytest.mark.browser
def test_the_served_page_reading_a_photo_sends_nothing(tmp_path, new_page, stub_model):
    from test_browser import score_shown

    log = tmp_path / "strace.log"
    wrap = (STRACE, *WATCH, "-o", str(log))
    with bf.serve(tmp_path / "app", bf.stub_env(stub_model), wrap=wrap) as url:
        page = bf.open_page(new_page, url, viewport={"width": 412, "height": 3600})
        bf.upload(page, table_photo())
        score_shown(page)
        time.sleep(LAST_LOOKUP_S)
    watched = log.read_text()
    assert "127.0.0.1:" in watched  # the watch saw the page being served
    assert not packets_out(watched)
