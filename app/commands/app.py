"""`mahjong-lens app`: start the Streamlit page on this machine (offline, no set-up)."""
from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
from pathlib import Path

from app import qr
from app.commands import SUMMARIES
from app.i18n import _
from vision.runtime import data_dir

PAGE = Path(__file__).resolve().parent.parent / "page.py"


def add_parser(sub) -> None:
    p = sub.add_parser("app", help=_(SUMMARIES["app"]))
    p.add_argument("--server.port", dest="port", type=int, default=8501,
                   help=_("port to listen on (default 8501)"))
    p.add_argument("--server.address", dest="address", default=None,
                   help=_("address to listen on (default: all; 127.0.0.1 for this machine only)"))
    p.add_argument("--data-dir", default=None,
                   help=_("folder of the ledger (default $MAHJONG_LENS_DATA or ~/.mahjong-lens)"))
    p.add_argument("--model", default=None, help=_("detector ONNX file (default: the committed model)"))
    p.add_argument("--https", action="store_true",
                   help=_("serve the page over https with a certificate of its own, made once in the "
                          "data folder (phones allow the live camera only over https)"))
    p.set_defaults(run=run)


def lan_address() -> str | None:
    """This machine's address on the local network, found without sending anything: a UDP
    socket 'connected' to a private address only asks the kernel for the route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def host(args, lan: str | None) -> str:
    """The host a phone opens: the address listened on, else this machine's on the network."""
    specific = args.address if args.address not in (None, "", "0.0.0.0", "::") else None
    return specific or lan or "localhost"


def command(args, lan: str | None = None, tls: tuple[Path, Path] | None = None) -> list[str]:
    """The streamlit command line: headless, no usage statistics, no tracebacks on the page,
    tile pictures served from app/static. The address to print is given (`browser.serverAddress`),
    so Streamlit does not ask an outside service for this machine's public address, as it
    otherwise does when headless."""
    cmd = [sys.executable, "-m", "streamlit", "run", str(PAGE),
           "--server.headless", "true",
           "--browser.gatherUsageStats", "false",
           "--server.port", str(args.port),
           "--server.enableStaticServing", "true",
           "--server.maxUploadSize", "50",
           "--client.showErrorDetails", "none",
           "--client.toolbarMode", "minimal",
           "--global.developmentMode", "false",
           # the page saves its choices again on every run (app/ui/state.py KEPT)
           "--global.disableWidgetStateDuplicationWarning", "true",
           "--theme.base", "light"]
    if args.address:
        cmd += ["--server.address", args.address]
    if tls:
        cmd += ["--server.sslCertFile", str(tls[0]), "--server.sslKeyFile", str(tls[1])]
    cmd += ["--browser.serverAddress", host(args, lan)]
    if args.data_dir:
        cmd += ["--", "--data-dir", str(Path(args.data_dir).expanduser().resolve())]
    return cmd


def where(args, lan: str | None, url: str | None = None) -> str:
    """What the page is open to, said where its address is printed."""
    if args.address and args.address not in ("0.0.0.0", "::"):
        return _("mahjong-lens app: the page listens on {address} only.").format(address=args.address)
    on_lan = f" ({url or qr.join_url('http', lan, args.port)})" if lan else ""
    return _("mahjong-lens app: the page listens on every network interface{on_lan}: anyone on "
             "this network can open it and use its ledger. For this machine only: "
             "mahjong-lens app --server.address 127.0.0.1").format(on_lan=on_lan)


def tls_files(args, lan: str | None) -> tuple[Path, Path] | None:
    """The page's certificate and key with --https (made once in the data folder), else None."""
    if not getattr(args, "https", False):
        return None
    from app.tls import certificate  # cryptography is loaded only when asked for

    return certificate(data_dir(args.data_dir), lan)


def join_text(url: str, tls: tuple[Path, Path] | None) -> str:
    """The address to open and its QR code, and with https what a phone asks the first time."""
    lines = [_("Open {url} on a phone at the table, or scan this code:").format(url=url),
             qr.terminal_text(url)]
    if tls:
        lines.append(_("The first time, a phone warns that the certificate is not trusted (it is "
                       "this machine's own, {path}): go on to the page, and it asks no more.")
                     .format(path=tls[0]))
    return "\n".join(lines)


def check_listen(port: int, address: str | None) -> None:
    """The port and address, checked before anything is printed: a port outside 1..65535, or
    an address that is not this machine's, is one line rather than Streamlit's traceback. An
    address is an IP address or localhost, never a name to look up (that would ask the
    network's resolver)."""
    if not 1 <= port <= 65535:
        raise ValueError(_("--server.port must be 1..65535, got {port}").format(port=port))
    if address in (None, "", "localhost"):
        return
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        raise ValueError(_("--server.address takes an IP address of this machine or localhost, "
                           "got {address}").format(address=repr(address)[:60])) from None
    with socket.socket(socket.AF_INET6 if ip.version == 6 else socket.AF_INET) as probe:
        try:
            probe.bind((address, 0))
        except OSError:
            raise ValueError(_("--server.address {address} is not an address of this "
                               "machine").format(address=address)) from None


def run(args) -> int:
    check_listen(args.port, args.address)
    env = dict(os.environ)
    if getattr(args, "lang", None):  # the page's language for browsers that ask for none of its own
        env["MAHJONG_LENS_LANG"] = args.lang
    if args.model:
        env["MAHJONG_LENS_MODEL"] = str(Path(args.model).expanduser().resolve())
    lan = lan_address() if args.address in (None, "", "0.0.0.0", "::") else None
    tls = tls_files(args, lan)
    url = qr.join_url("https" if tls else "http", host(args, lan), args.port)
    env[qr.JOIN_ENV] = url  # the page's "Join this table" shows the same address
    cmd = command(args, lan, tls)
    print(where(args, lan, url), flush=True)
    print(join_text(url, tls), flush=True)
    if hasattr(os, "execve") and os.name == "posix":
        os.execve(cmd[0], cmd, env)  # the page server becomes this process: signals reach it
    try:
        return subprocess.call(cmd, env=env)
    except KeyboardInterrupt:
        return 0
