"""The "Join this table" panel: the address `mahjong-lens app` printed, as the same QR code,
for the next phone at the table to scan from this screen. Not shown when the page was started
otherwise (the address a phone should open is then unknown)."""
from __future__ import annotations

import streamlit as st

from app import qr
from app.i18n import _


def render() -> None:
    url = qr.page_join_url()
    if not url:
        return
    with st.expander(_("Join this table"), icon=":material/qr_code_2:"):
        st.image(qr.png(url), width=240)
        st.caption(_("Scan this code with a phone's camera, or open {url}.").format(url=url))
