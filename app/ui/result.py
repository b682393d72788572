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
        st.markdown("Waits on **1** tile:" if len(waits) == 1 else
                    "Waits on **{n}** tiles:".format(n=len(waits)))
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


def sentence(text: str) -> str:
    """A message as a sentence: capital first letter, one full stop."""
    text = " ".join(str(text).split()).rstrip(".")
    return (text[:1].upper() + text[1:] + ".") if text else ""


def render_tally(outcome: evaluate.Outcome, entry, rules: str) -> None:
    """The running total in one or two lines (the phone keeps it in view under the hand):
    the score, or why there is none yet; what the ledger still needs."""
    result = outcome.result
    unit = UNITS.get(rules, "points")
    if result is None:
        st.info(sentence(outcome.message or "nothing scored yet"), icon=":material/pending:")
    elif result.valid and isinstance(entry, str):
        st.success("**{total} {unit}**: a valid hand; {todo}".format(
            total=f"{result.total:g}", unit=unit, todo=sentence(entry)[:1].lower() + sentence(entry)[1:]),
            icon=":material/check_circle:")
    elif result.valid:
        st.success("**{total} {unit}**: a valid hand".format(total=f"{result.total:g}", unit=unit),
                   icon=":material/check_circle:")
    else:
        st.warning("Not valid: {reason}.".format(reason=(result.reason or "not a winning hand").rstrip(".")),
                   icon=":material/cancel:")


def render(outcome: evaluate.Outcome, names: list[str], rules: str) -> None:
    """Everything behind the total: the waits, every fan with its tiles, details, payments."""
    result = outcome.result
    render_waits(outcome.waits)
    if result is None:
        return
    unit = UNITS.get(rules, "points")
    render_fans(result, rules)
    if result.fans:
        st.markdown("**Total: {total} {unit}**".format(total=f"{result.total:g}", unit=unit))
    extra = {k: v for k, v in (result.details or {}).items() if isinstance(v, (int, float, str))}
    if extra:
        st.caption(" · ".join(detail_line(k, v) for k, v in extra.items()))
    if result.valid and result.payments:
        render_payments(result.payments, names)


def detail_line(key: str, value) -> str:
    """'limit_hand', 'great_three_dragons' → 'Limit hand: Great Three Dragons'."""
    words = key.replace("_", " ").capitalize()
    if isinstance(value, str):
        value = value.replace("_", " ").title()
    elif isinstance(value, float):
        value = f"{value:g}"
    return "{what}: {value}".format(what=words, value=value)


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
