"""The address a phone opens to join the table, as a QR code: drawn in the terminal by
`mahjong-lens app` and shown on the page's "Join this table" panel (segno, made here, no
network). The page learns the address from the command that started it."""
from __future__ import annotations

import functools
import io
import os

JOIN_ENV = "MAHJONG_LENS_JOIN_URL"
QUIET_ZONE = 2  # modules of white around the code: scanners need some, a terminal has little room


def join_url(scheme: str, host: str, port: int) -> str:
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}:{port}/"


def page_join_url() -> str | None:
    """The address `mahjong-lens app` printed, for the page; None when started otherwise."""
    return os.environ.get(JOIN_ENV) or None


def _code(url: str):
    import segno

    return segno.make(url, error="m", micro=False)


def terminal_text(url: str) -> str:
    """The code in text, two rows of modules a line (upper and lower half blocks)."""
    out = io.StringIO()
    _code(url).terminal(out=out, compact=True, border=QUIET_ZONE)
    return out.getvalue()


@functools.lru_cache(maxsize=4)  # one address a night, drawn again at every rerun otherwise
def png(url: str, scale: int = 6) -> bytes:
    """The code as a black-on-white PNG, `scale` pixels a module."""
    out = io.BytesIO()
    _code(url).save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


def matrix(url: str) -> list[list[bool]]:
    """The code's modules, dark True, without the quiet zone."""
    return [[bool(v) for v in row] for row in _code(url).matrix]
