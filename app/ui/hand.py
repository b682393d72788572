"""The hand editor: tile pictures grouped as the layout read them, the tiles the layout set
aside (one tap brings one back), and a palette that opens right under the tile being fixed.
Every button calls `state` callbacks; all the editing itself is `app.edit`.
"""
from __future__ import annotations

import streamlit as st

from app import edit
from app.i18n import N_, _, format_number, ngettext, pgettext
from app.i18n.messages import translate
from app.recognise import LOW_CONFIDENCE
from app.ui.language import said
from scoring.tiles import BACK, BONUS, NAMES, PLAYING, is_bonus

from . import state

PALETTE_ROWS = (("m", PLAYING[0:9]), ("p", PLAYING[9:18]), ("s", PLAYING[18:27]),
                ("z", PLAYING[27:34]), ("f", BONUS))
# a wind tile said as the wind it is ("North wind"), where its short name ("North") is a seat
WIND_TILES = {"1z": N_("East wind"), "2z": N_("South wind"), "3z": N_("West wind"),
              "4z": N_("North wind")}


def group_label(draft: edit.Draft, ref: str) -> str:
    if ref == edit.HAND:
        return _("Concealed tiles: {n}").format(n=len(draft.hand))
    if ref == edit.WIN:
        return _("Winning tile (guessed)") if draft.guessed else _("Winning tile")
    if ref == edit.BONUS_GROUP:
        return _("Flowers and seasons")
    return _("Set {n}: {kind}").format(n=int(ref[4:]) + 1, kind=kind_label(draft.melds[int(ref[4:])].kind))


def kind_label(kind: str) -> str:
    return _(edit.KIND_LABELS[kind]) if kind in edit.KIND_LABELS else kind


def short_label(ref: str) -> str:
    return {edit.HAND: _("Hand"), edit.WIN: _("Winning tile"), edit.BONUS_GROUP: _("Flowers"),
            edit.NEW_MELD: _("New set")}.get(ref) or _("Set {n}").format(n=int(ref[4:]) + 1)


def tile_name(code: str) -> str:
    english, chinese = NAMES.get(code, (code, ""))
    local = pgettext("tile", english)
    return chinese if local == chinese else f"{local} {chinese}".strip()


def spoken_name(code: str) -> str:
    """A tile button's label: the tile's name in the page's language, as a screen reader says
    it; the code is drawn on the button by the page's CSS (`style.tile_rules`)."""
    if code in WIND_TILES:
        return _(WIND_TILES[code])
    english = NAMES.get(code, (None,))[0]
    return pgettext("tile", english) if english else _("face-down tile") if code == BACK else code


def complete_size(need_winning: bool) -> int:
    return 14 if need_winning else 13


def read_line(tiles: int, seconds: float, doubtful: int) -> str:
    """'14 tiles read in 0.3 s; 1 doubtful, framed in orange: check it.' (hand tiles only; a
    fixed or confirmed tile is no longer doubtful)"""
    read = ngettext("{tiles} tile read in {seconds} s.", "{tiles} tiles read in {seconds} s.",
                    tiles).format(tiles=tiles, seconds=format_number(round(seconds, 1)))
    if doubtful:
        return read + " " + ngettext("{n} is doubtful, framed in orange: check it.",
                                     "{n} are doubtful, framed in orange: check them.",
                                     doubtful).format(n=doubtful)
    return read


def _tile_key(who: str, ref: str, i: int, slot: edit.Slot, selected: bool, guessed: bool) -> str:
    key = f"tile__{who}__{ref}__{i}__{slot.code}__"
    if slot.confidence is not None and slot.confidence < LOW_CONFIDENCE:
        key += "dbt__"
    if guessed:
        key += "gss__"
    if selected:
        key += "sel__"
    return key


def _tiles(who: str, draft: edit.Draft, ref: str, sel) -> None:
    for i, slot in enumerate(edit.group_slots(draft, ref)):
        guessed = ref == edit.WIN and draft.guessed
        st.button(spoken_name(slot.code), key=_tile_key(who, ref, i, slot, sel == (who, ref, i), guessed),
                  on_click=state.on_tile, args=(who, ref, i))


def _plus(who: str, ref: str, sel, target: str, adding: bool) -> None:
    on = adding and target == ref and not sel
    st.button("＋", key=f"add__{who}__{ref}__{'on__' if on else ''}",
              help=_("Add tiles here: tap ＋, then tiles of the palette"),
              on_click=state.on_target, args=(who, ref))


def _hand_row(who: str, draft: edit.Draft, sel, target: str, need_winning: bool,
              adding: bool) -> None:
    """The concealed tiles and, last in the same row, the winning tile (gold frame)."""
    facts = st.session_state.get("read_facts", {}).get(who)  # the photo's counts, said once here
    read = read_line(*facts, edit.doubtful(draft, LOW_CONFIDENCE)) if facts else None
    if need_winning and draft.winning is not None:
        line = _("Concealed tiles: {n}, then the winning tile in gold.").format(n=len(draft.hand))
    else:
        line = group_label(draft, edit.HAND) + "."
    st.caption(f"{read} {line}" if read else line)
    with st.container(horizontal=True, key=f"grp__{who}__{edit.HAND}"):
        _tiles(who, draft, edit.HAND, sel)
        _plus(who, edit.HAND, sel, target, adding)
        if need_winning:
            _tiles(who, draft, edit.WIN, sel)
            if draft.winning is None and adding:
                _plus(who, edit.WIN, sel, target, adding)
    if need_winning and draft.guessed:
        st.caption(_("The winning tile (marked ?) was guessed: the photo set no tile apart. If you "
                     "won on another tile, tap it, then 'Winning tile': it changes fans such as "
                     "Single Wait."))


def _group(who: str, draft: edit.Draft, ref: str, sel, target: str, adding: bool) -> None:
    """A declared set (its kind chosen in its menu) or the flowers, in one row."""
    slots = edit.group_slots(draft, ref)
    with st.container(horizontal=True, key=f"grp__{who}__{ref}", vertical_alignment="center"):
        if ref.startswith("meld"):
            meld = draft.melds[int(ref[4:])]
            key = f"kind__{who}__{ref}__{meld.kind}__{st.session_state['generation']}"
            st.selectbox(short_label(ref), list(edit.MELD_KINDS) + ["loose"],
                         index=edit.MELD_KINDS.index(meld.kind), key=key, width=150,
                         format_func=said([*edit.MELD_KINDS, "loose"], kind_label), on_change=state.on_kind,
                         args=(who, ref, key), label_visibility="collapsed")
        else:
            st.caption(group_label(draft, ref))
        _tiles(who, draft, ref, sel)
        if not (ref.startswith("meld") and len(slots) >= 4):
            _plus(who, ref, sel, target, adding)


def _aside(who: str, draft: edit.Draft) -> None:
    """The photo's tiles the layout left out of the hand, one tap each to bring back."""
    if not draft.aside:
        return
    count = len(draft.aside)
    st.caption(ngettext("{n} tile of the photo was set aside as not part of the hand: tap it to bring it back.",
                        "{n} tiles of the photo were set aside as not part of the hand: tap one to bring "
                        "it back.", count).format(n=count))
    with st.container(horizontal=True, key=f"asidegrp__{who}"):
        for i, slot in enumerate(draft.aside):
            st.button(spoken_name(slot.code), key=f"aside__{who}__{i}__{slot.code}__",
                      on_click=state.on_bring_back, args=(who, i))
        if count > 1:
            st.button(_("Bring all back"), key=f"asideall__{who}", icon=":material/undo:",
                      on_click=state.on_bring_back, args=(who, None))


def _actions(who: str, draft: edit.Draft, sel) -> None:
    """What else a tapped tile can do, in one row under the palette."""
    _who, ref, index = sel
    dests = [r for r in edit.group_refs(draft) if r not in (ref, edit.WIN, edit.BONUS_GROUP)]
    if len(draft.melds) < edit.MAX_MELDS:
        dests.append(edit.NEW_MELD)
    with st.container(horizontal=True, key=f"acts__{who}", gap="small", vertical_alignment="center"):
        if ref != edit.WIN:
            st.button(_("Winning tile"), key=f"act__{who}__winning", icon=":material/emoji_events:",
                      on_click=state.on_action, args=(who, "winning"))
        st.button(_("Remove"), key=f"act__{who}__remove", icon=":material/delete:",
                  on_click=state.on_action, args=(who, "remove"))
        key = f"moveto__{who}__{ref}__{index}"
        st.selectbox(_("Move to"), dests, index=None, key=key, placeholder=_("Move to…"), width=130,
                     format_func=said(dests, short_label), label_visibility="collapsed",
                     on_change=state.on_move, args=(who, key))
        st.button(_("Cancel"), key=f"act__{who}__cancel", on_click=state.on_action, args=(who, "cancel"))


def _palette(who: str, draft: edit.Draft, sel, target: str, need_winning: bool,
             show_bonus: bool) -> None:
    if sel:
        replacing = edit.group_slots(draft, sel[1])[sel[2]].code
        show_bonus = show_bonus and (is_bonus(replacing) or sel[1] == edit.BONUS_GROUP)
        st.caption(_("Replace {name} with:").format(name=tile_name(replacing)))
    else:
        to_winning = (target == edit.HAND and need_winning and draft.winning is None
                      and draft.size == 13)
        st.caption(_("Tap tiles to add them to: {where}").format(
            where=short_label(edit.WIN if to_winning else target)))
    with st.container(key=f"palette__{who}"):
        for suit, codes in PALETTE_ROWS:
            if suit == "f" and not show_bonus:
                continue
            with st.container(horizontal=True, key=f"palrow__{who}__{suit}"):
                for code in codes:
                    st.button(spoken_name(code), key=f"pal__{code}__{who}",
                              on_click=state.on_palette, args=(who, code, need_winning))
    if not sel and draft.size >= complete_size(need_winning):
        st.button(_("Done adding"), key=f"close__{who}", icon=":material/check:",
                  on_click=state.on_close_palette, args=(who,))


def render(who: str, *, need_winning: bool = True, show_bonus: bool = True) -> edit.Draft:
    """The editor for one player's hand; returns the draft as it stands. The palette shows
    while the hand is short of tiles, after ＋, or under the group of a tapped tile."""
    draft = state.draft(who)
    sel = st.session_state["sel"]
    sel = sel if sel and sel[0] == who and _exists(draft, sel) else None
    target = state.target(who)
    if target.startswith("meld") and int(target[4:]) >= len(draft.melds):
        target = edit.HAND
    # the palette shows to build a hand (Manual, or tiles already there and more needed),
    # after a tap on ＋, or under a tapped tile; not over an empty photo box
    started = st.session_state.get(f"mode__{who}") == "Manual" or bool(draft.codes() or draft.bonus)
    short = not need_winning or draft.size < complete_size(need_winning)
    adding = not sel and (state.palette_open(who) or (started and short))
    if started or adding:
        _hand_row(who, draft, sel, target, need_winning, adding)
    if sel and sel[1] in (edit.HAND, edit.WIN):
        _palette(who, draft, sel, target, need_winning, show_bonus)
        _actions(who, draft, sel)
    for ref in edit.group_refs(draft):
        if ref in (edit.HAND, edit.WIN) or (ref == edit.BONUS_GROUP and not show_bonus):
            continue
        if ref == edit.BONUS_GROUP and not (draft.bonus or adding):
            continue
        _group(who, draft, ref, sel, target, adding)
        if sel and sel[1] == ref:
            _palette(who, draft, sel, target, need_winning, show_bonus)
            _actions(who, draft, sel)
    _messages(draft)
    if adding:
        _palette(who, draft, None, target, need_winning, show_bonus)
    _aside(who, draft)
    return state.draft(who)


def _exists(draft: edit.Draft, sel) -> bool:
    try:
        return sel[2] < len(edit.group_slots(draft, sel[1]))
    except edit.EditError:
        return False


def _messages(draft: edit.Draft) -> None:
    too_many = [c for c, n in edit.tile_counts(draft).items() if n > 4]
    if too_many:
        st.warning(_("More than 4 of {tiles}: one of them is misread.").format(tiles=", ".join(too_many)))
    message = state.take_flash()
    if message:
        st.warning(translate(message))


def render_tools(who: str) -> None:
    """The whole-hand buttons: the orange tiles are right, a new set, clear."""
    draft = state.draft(who)
    doubtful = edit.doubtful(draft, LOW_CONFIDENCE)
    if not (doubtful or draft.codes() or draft.bonus):
        return
    with st.container(horizontal=True, key=f"handbar__{who}", gap="small"):
        if doubtful:
            st.button(ngettext("The orange tile is right", "All {n} orange tiles are right",
                               doubtful).format(n=doubtful),
                      key=f"confirm__{who}", icon=":material/done_all:",
                      on_click=state.on_confirm_all, args=(who,))
        if len(draft.melds) < edit.MAX_MELDS:
            st.button(_("New set"), key=f"newset__{who}", icon=":material/add_box:",
                      on_click=state.on_new_set, args=(who,))
        st.button(_("Clear"), key=f"clear__{who}", icon=":material/backspace:",
                  on_click=state.on_clear, args=(who,))
