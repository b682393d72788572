"""What the photo cannot show: the rule set and its options, who won and how, winds, dealer,
special conditions. Widgets return plain values; `evaluate.Situation` holds them.
"""
from __future__ import annotations

import streamlit as st

from app import evaluate
from app.evaluate import SEATS, Situation
from scoring.rules import RuleSet

RULE_SHORT = {"mcr": "MCR", "hk001": "HK001", "hk002": "HK002", "classical": "Classical"}
BLESSINGS = {None: "None", "heavenly": "Heavenly hand", "earthly": "Earthly hand",
             "human": "Human hand"}


def render_rules() -> tuple[str, str | None, dict]:
    """Rule set, preset and the options changed from the preset."""
    rules = st.segmented_control("Rules", [r.value for r in RuleSet], key="rules", default="mcr",
                                 required=True, format_func=RULE_SHORT.get)
    problem = evaluate.scorer_problem(rules)
    if problem:
        st.info(problem + " Tiles and the ledger still work; scores appear when it lands.")
        return rules, None, {}
    presets = evaluate.presets(rules)
    default = RuleSet(rules).default_preset
    preset = default
    with st.expander("Rule options", icon=":material/tune:"):
        if len(presets) > 1:
            preset = st.selectbox("Preset", presets, key=f"preset__{rules}",
                                  index=presets.index(default) if default in presets else 0)
        fields = evaluate.option_fields(rules, preset)
        values = {f.name: _option_widget(rules, preset, f) for f in fields}
    return rules, preset, evaluate.changed_options(fields, values)


def _option_widget(rules: str, preset: str, f: evaluate.OptionField):
    key = f"opt__{rules}__{preset}__{f.name}"
    label = f.name.replace("_", " ")
    if f.kind == "bool":
        return st.toggle(label, value=bool(f.value), key=key)
    if f.kind == "choice":
        choices = list(f.choices) + ([None] if f.optional else [])
        return st.selectbox(label, choices, index=choices.index(f.value) if f.value in choices else 0,
                            key=key)
    if f.kind in ("int", "float") and f.value is not None:
        if f.kind == "int":
            return st.number_input(label, value=int(f.value), step=1, key=key)
        return st.number_input(label, value=float(f.value), step=0.5, key=key)
    text = st.text_input(label, value="" if f.value is None else str(f.value), key=key,
                         help="empty = none" if f.optional else None)
    if f.optional and not text.strip():
        return None
    return f.value if text == str(f.value) else text


def _seat_label(names: list[str]):
    return lambda i: f"{names[i]} ({SEATS[i]})"


def render_situation(names: list[str], rules: str) -> Situation:
    label = _seat_label(names)
    gen = st.session_state.get("generation", 0)
    winner = st.pills("Who won", [0, 1, 2, 3], key="winner", default=0, required=True,
                      format_func=label)
    how_options = ["self"] + [s for s in range(4) if s != winner]
    how = st.pills("How", how_options, key=f"how__{winner}__{gen}",
                   format_func=lambda v: "Self-drawn" if v == "self" else f"{names[v]} discarded")
    if how is None:
        st.caption("Tap how the hand was won: self-drawn, or who discarded the winning tile.")
    self_drawn = how == "self"
    cols = st.columns(2)
    with cols[0]:
        round_wind = st.segmented_control("Round wind", [0, 1, 2, 3], key="round", default=0,
                                          required=True, format_func=lambda i: SEATS[i])
    with cols[1]:
        dealer = st.segmented_control("Dealer", [0, 1, 2, 3], key="dealer", default=0,
                                      required=True, format_func=lambda i: SEATS[i],
                                      help="East: the player who deals this hand")
    last = st.toggle("Last tile of the wall" if self_drawn else "Last discard (last tile of the game)",
                     key=f"last_tile__{gen}")
    kong = st.toggle("Won on a kong replacement tile" if self_drawn else "Robbed a kong",
                     key=f"kong__{gen}")
    fourth = st.toggle("Last copy: the other three of the winning tile were visible",
                       key=f"fourth_tile__{gen}")
    blessing = None
    if rules in ("hk001", "hk002"):
        blessing = st.selectbox("Special hand", list(BLESSINGS), key=f"blessing__{gen}",
                                format_func=BLESSINGS.get)
    return Situation(winner=winner, self_drawn=self_drawn,
                     discarder=how if isinstance(how, int) else None, round=round_wind,
                     dealer=dealer, last_tile=last, kong=kong, fourth_tile=fourth,
                     blessing=blessing)
