"""The result: valid or not and why, what the hand waits on, every fan with its points, its
English and Chinese names and the tiles that made it, the total, and who pays whom."""
from __future__ import annotations

import streamlit as st

from app import evaluate, tiles_art

UNITS = {"mcr": "points", "hk001": "fan", "hk002": "fan", "classical": "points"}


def _amount(x: float) -> str:
    text = f"{x:+g}" if not float(x).is_integer() else f"{int(x):+d}"
    return text.replace("-", "−")


def render_waits(waits: tuple[str, ...]) -> None:
    if not waits:
        return
    with st.container(horizontal=True, vertical_alignment="center", key="waits"):
        st.markdown(f"Waits on **{len(waits)}** tile{'s' if len(waits) > 1 else ''}:")
        st.image(tiles_art.strip_png(tuple(waits), height=40))


def render_fans(result, rules: str) -> None:
    for i, fan in enumerate(result.fans):
        count = f" × {fan.count}" if fan.count > 1 else ""
        kind = " (double)" if fan.kind == "doubles" else ""
        with st.container(horizontal=True, vertical_alignment="center", key=f"fan__{i}"):
            st.markdown(f"**{fan.value:g}** · {fan.name} {fan.name_zh}{count}{kind}")
            tiles = evaluate.sets_tiles(fan.sets)
            if tiles:
                st.image(tiles_art.strip_png(tiles, height=30))


def render_payments(payments, names: list[str]) -> None:
    rows = evaluate.payments_by_name(payments, names)
    if not rows:
        return
    lines = [f"| {name} | {seat} | **{_amount(amount)}** |" for name, seat, amount in rows]
    st.markdown("| Player | Seat | Gets |\n|---|---|---:|\n" + "\n".join(lines))


def render(outcome: evaluate.Outcome, names: list[str], rules: str) -> None:
    result = outcome.result
    if result is None:
        if outcome.message:
            st.info(outcome.message)
        render_waits(outcome.waits)
        return
    unit = UNITS.get(rules, "points")
    if result.valid:
        st.success(f"**{result.total:g} {unit}**: a valid hand", icon=":material/check_circle:")
    else:
        st.warning(f"Not valid: {result.reason or 'not a winning hand'}", icon=":material/cancel:")
        render_waits(outcome.waits)
    st.caption(f"`{result.hand}`")
    render_fans(result, rules)
    if result.fans:
        st.markdown(f"**Total: {result.total:g} {unit}**")
    extra = {k: v for k, v in (result.details or {}).items() if isinstance(v, (int, float, str))}
    if extra:
        st.caption(" · ".join(f"{k.replace('_', ' ')}: {v}" for k, v in extra.items()))
    if result.valid and result.payments:
        render_payments(result.payments, names)


def render_table(outcome: evaluate.Outcome, names: list[str]) -> None:
    """Classical: every player's score and the transfers among them."""
    st.markdown("**Every player's hand**")
    for i, seat in enumerate(evaluate.SEATS):
        res = (outcome.players or {}).get(seat)
        who = f"{names[i]} ({seat})"
        if res is None:
            st.caption(f"{who}: hand not given (pays the winner, no settlement among losers)")
            continue
        items = ", ".join(f"{f.name} {f.value:g}" for f in res.fans) or "nothing scores"
        st.markdown(f"{who}: **{res.total:g}** — {items}")
    if outcome.transfers:
        lines = [f"{names[evaluate.SEATS.index(a)]} → {names[evaluate.SEATS.index(b)]}: {n:g}"
                 for a, b, n in outcome.transfers]
        st.caption("Transfers: " + " · ".join(lines))
