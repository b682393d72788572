"""`mahjong-lens app`: start the Streamlit page on this machine (offline, no set-up)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from app.i18n import _

PAGE = Path(__file__).resolve().parent.parent / "page.py"


def add_parser(sub) -> None:
    p = sub.add_parser("app", help=_("start the page (open the printed address on a phone or here)"))
    p.add_argument("--server.port", dest="port", type=int, default=8501,
                   help=_("port to listen on (default 8501)"))
    p.add_argument("--server.address", dest="address", default=None,
                   help=_("address to listen on (default: all; 127.0.0.1 for this machine only)"))
    p.add_argument("--data-dir", default=None,
                   help=_("folder of the ledger (default $MAHJONG_LENS_DATA or ~/.mahjong-lens)"))
    p.add_argument("--model", default=None, help=_("detector ONNX file (default: the committed model)"))
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


def command(args, lan: str | None = None) -> list[str]:
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
    specific = args.address if args.address not in (None, "", "0.0.0.0", "::") else None
    cmd += ["--browser.serverAddress", specific or lan or "localhost"]
    if args.data_dir:
        cmd += ["--", "--data-dir", str(Path(args.data_dir).expanduser().resolve())]
    return cmd


def where(args, lan: str | None) -> str:
    """What the page is open to, said where its address is printed."""
    if args.address and args.address not in ("0.0.0.0", "::"):
        return _("mahjong-lens app: the page listens on {address} only.").format(address=args.address)
    on_lan = f" (http://{lan}:{args.port})" if lan else ""
    return _("mahjong-lens app: the page listens on every network interface{on_lan}: anyone on "
             "this network can open it and use its ledger. For this machine only: "
             "mahjong-lens app --server.address 127.0.0.1").format(on_lan=on_lan)


def run(args) -> int:
    env = dict(os.environ)
    if getattr(args, "lang", None):  # the page's language for browsers that ask for none of its own
        env["MAHJONG_LENS_LANG"] = args.lang
    if args.model:
        env["MAHJONG_LENS_MODEL"] = str(Path(args.model).expanduser().resolve())
    lan = lan_address() if args.address in (None, "", "0.0.0.0", "::") else None
    cmd = command(args, lan)
    print(where(args, lan), flush=True)
    if hasattr(os, "execve") and os.name == "posix":
        os.execve(cmd[0], cmd, env)  # the page server becomes this process: signals reach it
    try:
        return subprocess.call(cmd, env=env)
    except KeyboardInterrupt:
        return 0
