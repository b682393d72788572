"""What the photo cannot show: the rule set and its options, who won and how, winds, dealer,
special conditions. Widgets return plain values; `evaluate.Situation` holds them.
"""
from __future__ import annotations

import streamlit as st

from app import evaluate
from app.evaluate import SEAT_NAMES as SEAT_WORDS
from app.evaluate import SEATS, Situation
from app.i18n import N_, _
from app.ledger import LedgerError
from app.ui.language import said
from scoring.rules import RuleSet

from . import state

RULE_SHORT = {"mcr": "MCR", "hk001": "HK001", "hk002": "HK002", "classical": N_("Classical")}
# the catalogue's words for the seats (app.evaluate.SEAT_NAMES, shown through `_`)
SEAT_MSGIDS = (N_("East"), N_("South"), N_("West"), N_("North"))
RULE_LINES = {
    "mcr": N_("MCR: the Chinese Official rules (81 fans, 8 points to win)."),
    "hk001": N_("HK001: Hong Kong old style as one table plays it: limit 13 fan, seven pairs allowed, "
                "Great Three Dragons a limit hand."),
    "hk002": N_("HK002: Hong Kong old style as another table plays it: limit 10 fan, no seven pairs, "
                "Little Four Winds and flower hands are limit hands."),
    "classical": N_("Classical: the older Chinese rules; every player's hand scores."),
}
PRESET_LABELS = {"wmo": N_("World Mahjong Organisation rules"), "china": N_("As played in China"),
                 "hk001": N_("HK001 table"), "hk002": N_("HK002 table"), "seed003": N_("Standard")}
OPTION_LABELS = {
    "two_concealed_kongs_points": N_("Points for two concealed kongs"),
    "mixed_kongs_points": N_("Points for one concealed and one exposed kong"),
    "fully_concealed_with_special_hands": N_("Fully concealed also counts with special hands"),
    "all_terminals_excludes_double_pung": N_("All terminals leaves out double pung"),
    "lesser_honors_with_knitted_straight": N_("Lesser honours and knitted straight count together"),
    "knitted_straight_wait_fans": N_("Wait fans count with a knitted straight"),
    "seven_pairs_allow_four_of_a_kind": N_("Seven pairs may hold four of a kind"),
    "last_tile_auto_from_melds": N_("Last copy of a tile: count it from the exposed sets"),
    "waits_count_exhausted_tiles": N_("A wait on tiles all in sight still counts as a wait"),
    "nine_gates_excludes_terminal_pungs": N_("Nine gates leaves out the terminal pungs"),
    "minimum": N_("Minimum to win"),
    "limit": N_("Limit"),
    "flowers_count_toward_minimum": N_("Flowers count toward the minimum"),
    "allow_seven_pairs": N_("Seven pairs allowed"),
    "seven_pairs_fan": N_("Fan for seven pairs"),
    "seven_pairs_adds_concealed": N_("Seven pairs also scores fully concealed"),
    "great_three_dragons_limit": N_("Great Three Dragons is a limit hand"),
    "great_three_dragons_fan": N_("Fan for Great Three Dragons"),
    "little_four_winds_limit": N_("Little Four Winds is a limit hand"),
    "four_concealed_pungs_self_drawn_only": N_("Four concealed pungs only when self-drawn"),
    "mixed_terminals": N_("Mixed terminals scores"),
    "last_discard_fan": N_("Winning on the last discard scores"),
    "all_chows_pair_must_be_suited": N_("All chows needs a suit pair"),
    "blessings_limit": N_("Heavenly, earthly and human hands are limit hands"),
    "flower_hands_limit": N_("Flower hands are limit hands"),
    "multiplier": N_("How fan become points"),
    "discard_split": N_("Who pays for a discard"),
    "self_draw_each": N_("Each loser pays on a self-draw, times"),
    "unit": N_("Points per unit"),
    "mahjong_points": N_("Points for going out"),
    "only_possible_tile": N_("Only possible tile scores"),
    "east_pays_receives_double": N_("East pays and receives double"),
    "discarder_pays_all": N_("The discarder pays for everyone"),
    "losers_settle": N_("Losers settle among themselves"),
    "loser_pairs": N_("Points for a loser's pair"),
    "limit_hands": N_("Limit hands are played"),
    "pure_straight_double": N_("A pure straight doubles"),
    "concealed_double": N_("A concealed hand doubles"),
}
CHOICE_LABELS = {"spicy": N_("Doubling each fan"), "half_spicy": N_("Half doubling"), "tiers": N_("By tiers"),
                 "seed001": N_("The discarder pays three shares"),
                 "full_responsibility": N_("The discarder pays two shares"),
                 "half_responsibility": N_("The discarder pays one, the others a half"),
                 "classic_modifier": N_("The discarder pays two, the others one")}
BLESSINGS = {None: N_("None"), "heavenly": N_("Heavenly hand"), "earthly": N_("Earthly hand"),
             "human": N_("Human hand")}


def rules_key(night: int | None) -> str:
    """The ledger setting that keeps a night's rule set."""
    return f"rules.night.{night}"


def kept_rules(ledger, night: int | None) -> str:
    """The rule set the table chose for this night (kept in the ledger, for every phone and
    after a reload); else the one it chose last; else MCR."""
    values = [r.value for r in RuleSet]
    if isinstance(ledger, str) or ledger is None:
        return "mcr"
    try:
        return next((v for v in (ledger.setting(rules_key(night)), ledger.setting("rules"))
                     if v in values), "mcr")
    except LedgerError:
        return "mcr"


def on_rules(ledger, night: int | None) -> None:
    if isinstance(ledger, str) or ledger is None:
        return
    try:
        ledger.set_setting(rules_key(night), st.session_state["rules"])
        ledger.set_setting("rules", st.session_state["rules"])
    except LedgerError:
        pass  # it holds in this browser session; the ledger says why it is off


def render_rules(ledger=None, night: int | None = None) -> str:
    """The rule set, one tap, with one line saying what it is (MCR, the default, needs none);
    the night's choice comes from the ledger."""
    if "rules" not in st.session_state:
        st.session_state["rules"] = kept_rules(ledger, night)
    with st.container(horizontal=True, vertical_alignment="center", key="rulesrow", gap="small"):
        st.markdown("#### 🀄")
        values = [r.value for r in RuleSet]
        rules = st.segmented_control(_("Rules"), values, key="rules", required=True,
                                     format_func=said(values, lambda r: _(RULE_SHORT.get(r, r))),
                                     label_visibility="collapsed", on_change=on_rules,
                                     args=(ledger, night))
    if rules != "mcr":
        st.caption(_(RULE_LINES[rules]) if rules in RULE_LINES else "")
    return rules


def render_options(rules: str) -> tuple[str | None, dict]:
    """The preset and the options changed from it, folded away."""
    presets = evaluate.presets(rules)
    default = RuleSet(rules).default_preset
    preset = default
    with st.expander(_("Rule options: {rules}").format(rules=_(RULE_SHORT.get(rules, rules))),
                     icon=":material/tune:"):
        if len(presets) > 1:
            preset = st.selectbox(_("Preset"), presets, key=f"preset__{rules}",
                                  index=presets.index(default) if default in presets else 0,
                                  format_func=said(presets, lambda p: _(PRESET_LABELS[p]) if p in PRESET_LABELS else p))
        fields = evaluate.option_fields(rules, preset)
        values = {f.name: _option_widget(rules, preset, f) for f in fields}
    return preset, evaluate.changed_options(fields, values)


def _option_widget(rules: str, preset: str, f: evaluate.OptionField):
    key = f"opt__{rules}__{preset}__{f.name}"
    label = _(OPTION_LABELS[f.name]) if f.name in OPTION_LABELS else f.name.replace("_", " ").capitalize()
    if f.kind == "bool":
        return st.toggle(label, value=bool(f.value), key=key)
    if f.kind == "choice":
        choices = list(f.choices) + ([None] if f.optional else [])
        return st.selectbox(label, choices, index=choices.index(f.value) if f.value in choices else 0,
                            key=key, format_func=said(choices, lambda c: _("None") if c is None else
                            _(CHOICE_LABELS[str(c)]) if str(c) in CHOICE_LABELS else str(c).replace("_", " ")))
    if f.kind in ("int", "float") and f.value is not None:
        low, high = f.bounds or (None, None)  # out of range never reaches the scorer
        if f.kind == "int":
            return st.number_input(label, value=int(f.value), step=1, key=key,
                                   min_value=None if low is None else int(low),
                                   max_value=None if high is None else int(high))
        return st.number_input(label, value=float(f.value), step=0.5, key=key,
                               min_value=None if low is None else float(low),
                               max_value=None if high is None else float(high))
    text = st.text_input(label, value="" if f.value is None else str(f.value), key=key,
                         help=_("empty = none") if f.optional else None)
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
        winner = st.selectbox(_("Winner"), [0, 1, 2, 3], key="winner", index=0,
                              format_func=said(range(4), lambda i: _("{name} won").format(name=names[i])),
                              width=140, label_visibility="collapsed",
                              # a Classical night enters the hands by seat, above the hand
                              on_change=state.whole_page)
        how_options = ["self"] + [s for s in range(4) if s != winner]
        how = st.pills(_("How it was won"), how_options, key=f"how__{winner}__{gen}",
                       label_visibility="collapsed",
                       format_func=said(how_options, lambda v: _("Self-drawn") if v == "self" else
                                        _("{name} discarded").format(name=names[v])))
    return winner, how == "self", how if isinstance(how, int) else None


def render_more(rules: str, self_drawn: bool) -> dict:
    """What else the photo cannot show (winds, dealer, special conditions), folded away
    under one line that says how they stand; they stay as set for the next hand."""
    gen = st.session_state.get("generation", 0)
    ss = st.session_state
    round_wind, dealer = ss.get("round", 0) or 0, ss.get("dealer", 0) or 0
    summary = _("Round wind {round}, dealer {dealer}: change these, or a special condition").format(
        round=_(SEAT_WORDS[round_wind]), dealer=_(SEAT_WORDS[dealer]))
    with st.expander(summary, icon=":material/more_horiz:"):
        cols = st.columns(2)
        with cols[0]:
            round_wind = st.segmented_control(_("Round wind"), [0, 1, 2, 3], key="round", default=0,
                                              required=True, format_func=lambda i: SEATS[i])
        with cols[1]:
            dealer = st.segmented_control(_("Dealer"), [0, 1, 2, 3], key="dealer", default=0,
                                          required=True, format_func=lambda i: SEATS[i],
                                          help=_("East: the player who deals this hand"))
        last = st.toggle(_("Last tile of the wall") if self_drawn else _("Last discard (last tile of the game)"),
                         key=f"last_tile__{gen}")
        kong = st.toggle(_("Won on a kong replacement tile") if self_drawn else _("Robbed a kong"),
                         key=f"kong__{gen}")
        fourth = st.toggle(_("Last copy: the other three of the winning tile were visible"),
                           key=f"fourth_tile__{gen}")
        blessing = None
        if rules in ("hk001", "hk002"):
            blessing = st.selectbox(_("Special hand"), list(BLESSINGS), key=f"blessing__{gen}",
                                    format_func=said(BLESSINGS, lambda b: _(BLESSINGS[b])))
    return {"round": round_wind, "dealer": dealer, "last_tile": last, "kong": kong,
            "fourth_tile": fourth, "blessing": blessing}


def situation(how: tuple[int, bool, int | None], more: dict) -> Situation:
    winner, self_drawn, discarder = how
    return Situation(winner=winner, self_drawn=self_drawn, discarder=discarder, **more)
