"""What the photo cannot show: the rule set and its options, who won and how, winds, dealer,
special conditions. Widgets return plain values; `evaluate.Situation` holds them.
"""
from __future__ import annotations

import streamlit as st

from app import evaluate
from app.evaluate import SEAT_NAMES as SEAT_WORDS
from app.evaluate import SEATS, Situation
from scoring.rules import RuleSet

RULE_SHORT = {"mcr": "MCR", "hk001": "HK001", "hk002": "HK002", "classical": "Classical"}
RULE_LINES = {
    "mcr": "MCR: the Chinese Official rules (81 fans, 8 points to win).",
    "hk001": "HK001: Hong Kong old style as one table plays it: limit 13 fan, seven pairs allowed, "
             "Great Three Dragons a limit hand.",
    "hk002": "HK002: Hong Kong old style as another table plays it: limit 10 fan, no seven pairs, "
             "Little Four Winds and flower hands are limit hands.",
    "classical": "Classical: the older Chinese rules; every player's hand scores.",
}
PRESET_LABELS = {"wmo": "World Mahjong Organisation rules", "china": "As played in China",
                 "hk001": "HK001 table", "hk002": "HK002 table", "seed003": "Standard"}
OPTION_LABELS = {
    "two_concealed_kongs_points": "Points for two concealed kongs",
    "mixed_kongs_points": "Points for one concealed and one exposed kong",
    "fully_concealed_with_special_hands": "Fully concealed also counts with special hands",
    "all_terminals_excludes_double_pung": "All terminals leaves out double pung",
    "lesser_honors_with_knitted_straight": "Lesser honours and knitted straight count together",
    "knitted_straight_wait_fans": "Wait fans count with a knitted straight",
    "seven_pairs_allow_four_of_a_kind": "Seven pairs may hold four of a kind",
    "last_tile_auto_from_melds": "Last copy of a tile: count it from the exposed sets",
    "waits_count_exhausted_tiles": "A wait on tiles all in sight still counts as a wait",
    "nine_gates_excludes_terminal_pungs": "Nine gates leaves out the terminal pungs",
    "minimum": "Minimum to win",
    "limit": "Limit",
    "flowers_count_toward_minimum": "Flowers count toward the minimum",
    "allow_seven_pairs": "Seven pairs allowed",
    "seven_pairs_fan": "Fan for seven pairs",
    "seven_pairs_adds_concealed": "Seven pairs also scores fully concealed",
    "great_three_dragons_limit": "Great Three Dragons is a limit hand",
    "great_three_dragons_fan": "Fan for Great Three Dragons",
    "little_four_winds_limit": "Little Four Winds is a limit hand",
    "four_concealed_pungs_self_drawn_only": "Four concealed pungs only when self-drawn",
    "mixed_terminals": "Mixed terminals scores",
    "last_discard_fan": "Winning on the last discard scores",
    "all_chows_pair_must_be_suited": "All chows needs a suit pair",
    "blessings_limit": "Heavenly, earthly and human hands are limit hands",
    "flower_hands_limit": "Flower hands are limit hands",
    "multiplier": "How fan become points",
    "discard_split": "Who pays for a discard",
    "self_draw_each": "Each loser pays on a self-draw, times",
    "unit": "Points per unit",
    "mahjong_points": "Points for going out",
    "only_possible_tile": "Only possible tile scores",
    "east_pays_receives_double": "East pays and receives double",
    "discarder_pays_all": "The discarder pays for everyone",
    "losers_settle": "Losers settle among themselves",
    "loser_pairs": "Points for a loser's pair",
    "limit_hands": "Limit hands are played",
    "pure_straight_double": "A pure straight doubles",
    "concealed_double": "A concealed hand doubles",
}
CHOICE_LABELS = {"spicy": "Doubling each fan", "half_spicy": "Half doubling", "tiers": "By tiers",
                 "seed001": "The discarder pays three shares",
                 "full_responsibility": "The discarder pays two shares",
                 "half_responsibility": "The discarder pays one, the others a half",
                 "classic_modifier": "The discarder pays two, the others one"}
BLESSINGS = {None: "None", "heavenly": "Heavenly hand", "earthly": "Earthly hand",
             "human": "Human hand"}


def render_rules() -> str:
    """The rule set, one tap, with one line saying what it is (MCR, the default, needs none)."""
    with st.container(horizontal=True, vertical_alignment="center", key="rulesrow", gap="small"):
        st.markdown("#### 🀄")
        rules = st.segmented_control("Rules", [r.value for r in RuleSet], key="rules", default="mcr",
                                     required=True, format_func=RULE_SHORT.get,
                                     label_visibility="collapsed")
    if rules != "mcr":
        st.caption(RULE_LINES.get(rules, ""))
    return rules


def render_options(rules: str) -> tuple[str | None, dict]:
    """The preset and the options changed from it, folded away."""
    presets = evaluate.presets(rules)
    default = RuleSet(rules).default_preset
    preset = default
    with st.expander("Rule options: {rules}".format(rules=RULE_LINES.get(rules, rules).split(":")[0]),
                     icon=":material/tune:"):
        if len(presets) > 1:
            preset = st.selectbox("Preset", presets, key=f"preset__{rules}",
                                  index=presets.index(default) if default in presets else 0,
                                  format_func=lambda p: PRESET_LABELS.get(p, p))
        fields = evaluate.option_fields(rules, preset)
        values = {f.name: _option_widget(rules, preset, f) for f in fields}
    return preset, evaluate.changed_options(fields, values)


def _option_widget(rules: str, preset: str, f: evaluate.OptionField):
    key = f"opt__{rules}__{preset}__{f.name}"
    label = OPTION_LABELS.get(f.name) or f.name.replace("_", " ").capitalize()
    if f.kind == "bool":
        return st.toggle(label, value=bool(f.value), key=key)
    if f.kind == "choice":
        choices = list(f.choices) + ([None] if f.optional else [])
        return st.selectbox(label, choices, index=choices.index(f.value) if f.value in choices else 0,
                            key=key, format_func=lambda c: "None" if c is None else
                            CHOICE_LABELS.get(str(c), str(c).replace("_", " ")))
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


def render_how(names: list[str]) -> tuple[int, bool, int | None]:
    """Who won and how, as one compact row: the winner (kept from the previous hand) and
    one tap for self-drawn or who discarded. Returns (winner, self_drawn, discarder)."""
    gen = st.session_state.get("generation", 0)
    with st.container(key="howrow", gap="small"):
        winner = st.selectbox("Winner", [0, 1, 2, 3], key="winner", index=0,
                              format_func=lambda i: f"{names[i]} won", width=140,
                              label_visibility="collapsed")
        how_options = ["self"] + [s for s in range(4) if s != winner]
        how = st.pills("How it was won", how_options, key=f"how__{winner}__{gen}",
                       label_visibility="collapsed",
                       format_func=lambda v: "Self-drawn" if v == "self" else f"{names[v]} discarded")
    return winner, how == "self", how if isinstance(how, int) else None


def render_more(rules: str, self_drawn: bool) -> dict:
    """What else the photo cannot show (winds, dealer, special conditions), folded away
    under one line that says how they stand; they stay as set for the next hand."""
    gen = st.session_state.get("generation", 0)
    ss = st.session_state
    round_wind, dealer = ss.get("round", 0) or 0, ss.get("dealer", 0) or 0
    summary = "Round wind {round}, dealer {dealer}: change these, or a special condition".format(
        round=SEAT_WORDS[round_wind], dealer=SEAT_WORDS[dealer])
    with st.expander(summary, icon=":material/more_horiz:"):
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
    return {"round": round_wind, "dealer": dealer, "last_tile": last, "kong": kong,
            "fourth_tile": fourth, "blessing": blessing}


def situation(how: tuple[int, bool, int | None], more: dict) -> Situation:
    winner, self_drawn, discarder = how
    return Situation(winner=winner, self_drawn=self_drawn, discarder=discarder, **more)
