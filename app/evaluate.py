"""From what the page holds (a draft, the answers to what the photo cannot show, the rule
choice) to what it shows: a `ScoreResult` or a plain reason, the waits, payments by name.

Pure functions over plain values; no Streamlit here. A hand that cannot be scored gives a
message, never an exception.
"""
from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass

from scoring.decompose import waits
from scoring.errors import InvalidHandError
from scoring.hand import WinContext, format_hand
from scoring.payments import SEATS
from scoring.result import ScoreResult
from scoring.rules import RuleSet, make_options, parse_rules

from . import edit

SEAT_NAMES = ("East", "South", "West", "North")


@dataclass(frozen=True)
class Situation:
    """What the photo cannot show, as the page's widgets give it. Seats are 0..3 = E S W N;
    `winner` is the winner's seat (their seat wind)."""
    winner: int = 0
    self_drawn: bool = False
    discarder: int | None = None
    round: int = 0
    dealer: int = 0
    last_tile: bool = False
    kong: bool = False
    fourth_tile: bool = False
    blessing: str | None = None

    def context(self) -> WinContext:
        return WinContext(self_drawn=self.self_drawn,
                          discarder=None if self.self_drawn else self.discarder,
                          seat=self.winner, round=self.round, dealer=self.dealer,
                          last_tile=self.last_tile, kong=self.kong, fourth_tile=self.fourth_tile,
                          blessing=self.blessing)


@dataclass(frozen=True)
class Outcome:
    result: ScoreResult | None = None  # None: nothing to score yet (see message)
    message: str | None = None         # why there is no result, or why it is not valid
    waits: tuple[str, ...] = ()        # what the hand (less its winning tile) waits on
    notation: str | None = None
    players: dict | None = None        # Classical: seat letter → ScoreResult | None (not given)
    transfers: tuple = ()              # Classical: (from seat, to seat, amount)

    @property
    def valid(self) -> bool:
        return self.result is not None and self.result.valid


def presets(rules: RuleSet | str) -> list[str]:
    return list(parse_rules(rules).module.PRESETS)


@dataclass(frozen=True)
class OptionField:
    """One rule option as a widget needs it: `kind` is bool, int, float, choice or text."""
    name: str
    kind: str
    value: object
    choices: tuple = ()
    optional: bool = False  # None is allowed
    bounds: tuple[float, float] | None = None  # the rule set's range (scoring optcheck RANGES)


def option_fields(rules: RuleSet | str, preset: str | None) -> list[OptionField]:
    """The option fields of a rule set, valued as in `preset` (generic over its Options)."""
    options = make_options(rules, preset)
    hints = typing.get_type_hints(type(options))
    out = []
    for f in dataclasses.fields(options):
        hint = hints.get(f.name, f.type)
        args = typing.get_args(hint)
        optional = type(None) in args
        base = [a for a in args if a is not type(None)] if args else [hint]
        value = getattr(options, f.name)
        bounds = type(options).RANGES.get(f.name)
        listed = getattr(parse_rules(rules).module, f.name.upper() + "S", None)  # MULTIPLIERS ...
        allowed = type(options).CHOICES.get(f.name)
        if allowed and value in allowed:
            out.append(OptionField(f.name, "choice", value, tuple(allowed), optional))
        elif isinstance(listed, (dict, tuple, list, frozenset, set)) and value in listed:
            out.append(OptionField(f.name, "choice", value, tuple(listed), optional))
        elif typing.get_origin(hint) is typing.Literal or (base and typing.get_origin(base[0]) is typing.Literal):
            literal = hint if typing.get_origin(hint) is typing.Literal else base[0]
            out.append(OptionField(f.name, "choice", value, typing.get_args(literal), optional))
        elif bool in base or isinstance(value, bool):
            out.append(OptionField(f.name, "bool", value))
        elif int in base or (isinstance(value, int) and float not in base):
            out.append(OptionField(f.name, "int", value, optional=optional, bounds=bounds))
        elif float in base or isinstance(value, float):
            out.append(OptionField(f.name, "float", value, optional=optional, bounds=bounds))
        else:
            out.append(OptionField(f.name, "text", value, optional=optional))
    return out


def changed_options(fields: list[OptionField], values: dict) -> dict:
    """Only the options the player changed from the preset (the ledger stores these)."""
    return {f.name: values[f.name] for f in fields if f.name in values and values[f.name] != f.value}


def draft_waits(draft: edit.Draft) -> tuple[str, ...]:
    """The tiles a 13-tile draft (or a 14-tile one, less its winning tile) waits on."""
    try:
        if draft.winning is not None:
            hand = edit.to_hand(draft).without_winning()
        else:
            hand = edit.to_hand(draft, need_winning=False)
        return waits(hand)
    except (InvalidHandError, ValueError):
        return ()


NO_HAND = {False: "No hand yet: take or upload a photo, or choose Manual to type the hand or tap its tiles.",
           True: "No hand yet: type the hand, or tap its tiles in the palette."}  # by Manual chosen


def score_draft(draft: edit.Draft, situation: Situation, rules: RuleSet | str,
                preset: str | None = None, overrides: dict | None = None, *,
                manual: bool = False) -> Outcome:
    """Score the winner's hand, or say in one line why it cannot be scored yet (`manual`:
    the hand is being typed or tapped in, so a photo is not asked for)."""
    if not draft.codes() and not draft.bonus:
        return Outcome(message=NO_HAND[manual])
    hand_waits = draft_waits(draft)
    try:
        hand = edit.to_hand(draft)
        ctx = situation.context()
    except InvalidHandError as exc:
        return Outcome(message=str(exc), waits=hand_waits)
    notation = format_hand(hand)
    try:
        options = make_options(rules, preset, overrides)
        result = parse_rules(rules).module.score(hand, ctx, options)
    except InvalidHandError as exc:
        return Outcome(message=str(exc), waits=hand_waits, notation=notation)
    return Outcome(result=result, message=None if result.valid else result.reason,
                   waits=hand_waits if not result.valid else (), notation=notation)


def to_partial(draft: edit.Draft):
    """A loser's draft (Classical) → `PartialHand`: any number of concealed tiles, a
    'winning' tile read from a photo counts as concealed. None for an empty draft."""
    from scoring.rules.classical_table import PartialHand
    if not draft.codes() and not draft.bonus:
        return None
    melds = tuple(edit.to_meld(m, i + 1) for i, m in enumerate(draft.melds))
    concealed = tuple(s.code for s in draft.hand) + ((draft.winning.code,) if draft.winning else ())
    return PartialHand(concealed, melds, tuple(s.code for s in draft.bonus))


def score_table(drafts: dict, situation: Situation, preset: str | None = None,
                overrides: dict | None = None, *, manual: bool = False) -> Outcome:
    """Classical with the other players' hands: `drafts` maps `win` and `o0`..`o3` (seat) to
    drafts; the winner's seat is skipped among the others, empty drafts are not given."""
    outcome = score_draft(drafts.get("win") or edit.Draft(), situation, RuleSet.CLASSICAL, preset,
                          overrides, manual=manual)
    if outcome.result is None:
        return outcome
    from scoring.rules.classical_table import score_table as table
    try:
        others = []
        for seat in range(4):
            draft = drafts.get(f"o{seat}")
            if seat == situation.winner or draft is None:
                continue
            partial = to_partial(draft)
            if partial is not None:
                others.append((seat, partial))
        options = make_options(RuleSet.CLASSICAL, preset, overrides)
        result = table(edit.to_hand(drafts["win"]), situation.context(), others, options)
    except InvalidHandError as exc:
        return dataclasses.replace(outcome, result=None, message=str(exc))
    winner = dataclasses.replace(result.winner, payments=result.net)
    return dataclasses.replace(outcome, result=winner, players=result.players,
                               transfers=tuple(result.transfers))


def payments_by_name(payments: dict | None, names: list[str]) -> list[tuple[str, str, float]]:
    """(name, seat letter, amount) for each seat, largest gain first; [] when unsettled."""
    if not payments:
        return []
    rows = [(names[i] or SEAT_NAMES[i], SEATS[i], payments.get(SEATS[i], 0)) for i in range(4)]
    return sorted(rows, key=lambda r: -r[2])


def sets_tiles(sets: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The tiles of each of a fan's sets ('[123m]', 'EEE', '5p' ...), for pictures."""
    from scoring.tiles import parse_tiles
    out: list[tuple[str, ...]] = []
    for text in sets:
        body = text.strip("[]")
        if text.startswith("[") and len(body) >= 2 and body[-1].isdigit() and body[-2] in "mpszESWNPFC":
            body = body[:-1]  # offer digit of a declared set
        try:
            out.append(tuple(parse_tiles(body, allow_bonus=True)))
        except InvalidHandError:
            continue
    return tuple(g for g in out if g)


def ledger_entry(outcome: Outcome, situation: Situation, rules: str, preset: str | None,
                 overrides: dict | None = None):
    """The ledger's record of a scored hand, or the line saying why it cannot go in yet."""
    from .ledger import HandEntry
    result = outcome.result
    if result is None:
        return outcome.message or "nothing scored yet"
    if not result.valid:
        return "only a valid winning hand goes in the ledger"
    if not result.payments:
        return "tap who discarded, or self-drawn, to settle the payments"
    ctx = situation.context()
    detail = {
        "fans": [{"name": f.name, "name_zh": f.name_zh, "points": f.points, "count": f.count,
                  "sets": list(f.sets), "kind": f.kind} for f in result.fans],
        "options": dict(overrides or {}),
        "context": {"self_drawn": ctx.self_drawn, "round": SEATS[ctx.round],
                    "dealer": SEATS[ctx.dealer], "last_tile": ctx.last_tile, "kong": ctx.kong,
                    "fourth_tile": ctx.fourth_tile, "blessing": ctx.blessing},
        "details": result.details,
    }
    return HandEntry(rules=str(rules), notation=result.hand, total=result.total,
                     winner=SEATS[ctx.seat], amounts=dict(result.payments),
                     discarder=SEATS[ctx.discarder] if ctx.discarder is not None else None,
                     preset=preset, detail=detail)


def entry_token(session_id: str, generation: int, entry) -> str:
    """Same hand, same answers, same session and photo → same token: a double tap or a
    rerun adds the hand once."""
    import hashlib
    import json
    text = json.dumps([session_id, generation, entry.rules, entry.preset, entry.notation,
                       entry.winner, entry.discarder, entry.detail.get("context"),
                       entry.detail.get("options")], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]
