"""The result: valid or not and why, what the hand waits on, every fan with its points, its
name in the player's language and in Chinese and the tiles that made it, the total, and who
pays whom."""
from __future__ import annotations

import streamlit as st

from app import evaluate, tiles_art
from app.i18n import N_, _, current, format_amount, format_number, ngettext
from app.i18n.fans import FAMILIES, fan_definition, fan_label, fan_name
from app.i18n.messages import translate

# what a hand's value is counted in; Hong Kong counts fan
FAN_RULES = {"hk001", "hk002"}
# the words of a result's details, said in the player's language
DETAIL_WORDS = {"shape": N_("shape"), "winning_set": N_("winning set"),
                "points_without_flowers": N_("points without flowers"), "flowers": N_("flowers"),
                "fan": N_("fan"), "limit": N_("limit"), "minimum": N_("minimum"), "base": N_("base"),
                "role": N_("role"), "basic": N_("basic points"), "doubles": N_("doubles"),
                "raw": N_("before the limit"), "limit_hand": N_("limit hand")}
DETAIL_VALUES = {"standard": N_("standard"), "seven_pairs": N_("seven pairs"),
                 "thirteen_orphans": N_("thirteen orphans"), "honours_knitted": N_("honours and knitted tiles"),
                 "knitted_straight": N_("knitted straight"), "winner": N_("winner"), "loser": N_("loser")}


def value_text(total: float, rules: str) -> str:
    """'12 points', '9 fan' in the player's language."""
    n = int(total) if float(total).is_integer() else 2  # a fraction takes the plural
    amount = format_number(total)
    if rules in FAN_RULES:
        return ngettext("{n} fan", "{n} fan", n).format(n=amount)
    return ngettext("{n} point", "{n} points", n).format(n=amount)


def _amount(x: float) -> str:
    return format_amount(x) or "0"


def render_waits(waits: tuple[str, ...]) -> None:
    if not waits:
        return
    with st.container(horizontal=True, vertical_alignment="center", key="waits"):
        st.markdown(ngettext("Waits on **{n}** tile:", "Waits on **{n}** tiles:", len(waits)).format(
            n=len(waits)))
        st.image(tiles_art.strip_png(tuple(waits), height=40))


def render_fans(result, rules: str) -> None:
    for i, fan in enumerate(result.fans):
        count = f" × {fan.count}" if fan.count > 1 else ""
        kind = " " + ngettext("(double)", "(doubles)", fan.value) if fan.kind == "doubles" else ""
        with st.container(horizontal=True, vertical_alignment="center", key=f"fan__{i}"):
            st.markdown(f"**{format_number(fan.value)}** · {fan_label(rules, fan.name, fan.name_zh)}{count}{kind}",
                        help=fan_definition(rules, fan.name) or None)  # what the fan is, one line
            tiles = evaluate.sets_tiles(fan.sets)
            if tiles:
                st.image(tiles_art.strip_png(tiles, height=30))


def render_payments(payments, names: list[str], stake: float = 1.0) -> None:
    """Who gets what, in points; at the table's value of a point (Settle up) also in money,
    when one is set."""
    rows = evaluate.payments_by_name(payments, names)
    if not rows:
        return
    money = stake != 1
    heads = [_("Player"), _("Seat"), _("Gets (points)")] + (
        [_("At {value} a point").format(value=format_number(stake))] if money else [])
    lines = [f"| {name} | {seat} | **{_amount(amount)}** |"
             + (f" {_amount(amount * stake)} |" if money else "") for name, seat, amount in rows]
    st.markdown("| " + " | ".join(heads) + " |\n|---|---|---:|" + ("---:|" if money else "") + "\n"
                + "\n".join(lines))


def sentence(text: str) -> str:
    """A message as a sentence: capital first letter, one full stop (。 in Chinese)."""
    text = " ".join(str(text).split()).rstrip(".。")
    stop = "。" if current() == "zh" else "."
    return (text[:1].upper() + text[1:] + stop) if text else ""


def render_tally(outcome: evaluate.Outcome, entry, rules: str) -> None:
    """The running total in one or two lines (the phone keeps it in view under the hand):
    the score, or why there is none yet; what the ledger still needs."""
    result = outcome.result
    if result is None:
        st.info(sentence(translate(outcome.message) or _("nothing scored yet")), icon=":material/pending:")
    elif result.valid and isinstance(entry, str):
        todo = sentence(translate(entry))
        st.success(_("**{value}**: a valid hand; {todo}").format(
            value=value_text(result.total, rules), todo=todo[:1].lower() + todo[1:]),
            icon=":material/check_circle:")
    elif result.valid:
        st.success(_("**{value}**: a valid hand").format(value=value_text(result.total, rules)),
                   icon=":material/check_circle:")
    else:
        reason = translate(result.reason) or _("not a winning hand")
        st.warning(_("Not valid: {reason}.").format(reason=reason.rstrip(".")), icon=":material/cancel:")


def render(outcome: evaluate.Outcome, names: list[str], rules: str, stake: float = 1.0) -> None:
    """Everything behind the total: the waits, every fan with its tiles, details, payments
    (`stake`: the table's value of a point)."""
    result = outcome.result
    render_waits(outcome.waits)
    if result is None:
        return
    render_fans(result, rules)
    if result.fans:
        st.markdown(_("**Total: {value}**").format(value=value_text(result.total, rules)))
    extra = {k: v for k, v in (result.details or {}).items() if isinstance(v, (int, float, str))}
    if extra:
        st.caption(" · ".join(detail_line(k, v, rules) for k, v in extra.items()))
    if result.valid and result.payments:
        render_payments(result.payments, names, stake)


def detail_line(key: str, value, rules: str = "mcr") -> str:
    """'limit_hand', 'great_three_dragons' → 'Limit hand: Great Three Dragons', in the
    player's language (a limit hand by its fan name)."""
    words = _(DETAIL_WORDS[key]) if key in DETAIL_WORDS else key.replace("_", " ")
    words = words[:1].upper() + words[1:]
    if key == "limit_hand" and isinstance(value, str):
        value = fan_name(rules, limit_hand_name(rules, value))
    elif isinstance(value, str):
        value = _(DETAIL_VALUES[value]) if value in DETAIL_VALUES else value.replace("_", " ")
    elif isinstance(value, (int, float)):
        value = format_number(value)
    return _("{what}: {value}").format(what=words, value=value)


def limit_hand_name(rules: str, key: str) -> str:
    """The English fan name of a limit hand's key ('thirteen_orphans' → 'Thirteen Orphans')."""
    if FAMILIES.get(rules) == "hk":
        from scoring.rules.hk_fans import FANS
        names = {f.key: f.name for f in FANS}
    else:
        from scoring.rules.classical_items import LIMIT_HANDS
        names = {k: name for k, name, _zh, _test in LIMIT_HANDS}
    return names.get(key, key.replace("_", " ").title())


def hand_words(notation: str) -> str:
    """A hand as the ledger lists it: '[123m][EEE1]456p789sSS' → 'exposed 123m EEE ·
    456p 789s S · won on S' (each suit, each honour apart), the notation itself when it does not parse."""
    from itertools import groupby

    from scoring.errors import InvalidHandError
    from scoring.hand import parse_hand
    from scoring.tiles import format_tiles, sorted_tiles, suit
    try:
        hand = parse_hand(notation)
    except (InvalidHandError, ValueError):
        return notation
    parts = []
    if hand.melds:
        parts.append(_("exposed {sets}").format(
            sets=" ".join(format_tiles(list(m.tiles)) for m in hand.melds)))
    by_suit = groupby(sorted_tiles(hand.concealed), key=lambda t: t if suit(t) == "z" else suit(t))
    parts.append(" ".join(format_tiles(list(g)) for _k, g in by_suit))
    if hand.winning:
        parts.append(_("won on {tile}").format(tile=format_tiles([hand.winning])))
    return " · ".join(p for p in parts if p)


def render_table(outcome: evaluate.Outcome, names: list[str]) -> None:
    """Classical: every player's score and the transfers among them."""
    st.markdown(_("**Every player's hand**"))
    for i, seat in enumerate(evaluate.SEATS):
        res = (outcome.players or {}).get(seat)
        who = f"{names[i]} ({seat})"
        if res is None:
            st.caption(_("{who}: hand not given (pays the winner, no settlement among losers)").format(who=who))
            continue
        items = ", ".join(f"{fan_name('classical', f.name)} {format_number(f.value)}" for f in res.fans) \
            or _("nothing scores")
        st.markdown(f"{who}: **{format_number(res.total)}** — {items}")
    if outcome.transfers:
        lines = [f"{names[evaluate.SEATS.index(a)]} → {names[evaluate.SEATS.index(b)]}: {format_number(n)}"
                 for a, b, n in outcome.transfers]
        st.caption(_("Transfers: {list}").format(list=" · ".join(lines)))
