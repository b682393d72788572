"""The hand editor: tile pictures grouped as the layout read them, a palette to replace or
add tiles, and the few actions a selected tile needs. Every button calls `state` callbacks;
all the editing itself is `app.edit`.
"""
from __future__ import annotations

import streamlit as st

from app import edit
from app.recognise import LOW_CONFIDENCE
from scoring.tiles import BONUS, NAMES, PLAYING

from . import state

PALETTE_ROWS = (("m", PLAYING[0:9]), ("p", PLAYING[9:18]), ("s", PLAYING[18:27]),
                ("z", PLAYING[27:34]), ("f", BONUS))


def group_label(draft: edit.Draft, ref: str) -> str:
    if ref == edit.HAND:
        return f"Concealed tiles ({len(draft.hand)})"
    if ref == edit.WIN:
        return "Winning tile"
    if ref == edit.BONUS_GROUP:
        return "Bonus tiles (flowers, seasons)"
    i = int(ref[4:])
    return f"Set {i + 1}: {edit.KIND_LABELS[draft.melds[i].kind]}"


def short_label(ref: str) -> str:
    return {edit.HAND: "Hand", edit.WIN: "Winning", edit.BONUS_GROUP: "Bonus",
            edit.NEW_MELD: "New set"}.get(ref) or f"Set {int(ref[4:]) + 1}"


def tile_name(code: str) -> str:
    english, chinese = NAMES.get(code, (code, ""))
    return f"{english} {chinese}".strip()


def _tile_key(who: str, ref: str, i: int, slot: edit.Slot, selected: bool) -> str:
    key = f"tile__{who}__{ref}__{i}__{slot.code}__"
    if slot.confidence is not None and slot.confidence < LOW_CONFIDENCE:
        key += "dbt__"
    if selected:
        key += "sel__"
    return key


def _group(who: str, draft: edit.Draft, ref: str, sel, target: str, need_winning: bool) -> None:
    slots = edit.group_slots(draft, ref)
    if ref.startswith("meld"):
        meld = draft.melds[int(ref[4:])]
        key = f"kind__{who}__{ref}__{meld.kind}__{st.session_state['generation']}"
        st.selectbox(f"Set {int(ref[4:]) + 1}", list(edit.MELD_KINDS) + ["loose"],
                     index=edit.MELD_KINDS.index(meld.kind), key=key,
                     format_func=edit.KIND_LABELS.get, on_change=state.on_kind,
                     args=(who, ref, key))
    else:
        st.caption(group_label(draft, ref))
    with st.container(horizontal=True, key=f"grp__{who}__{ref}"):
        for i, slot in enumerate(slots):
            selected = sel == (who, ref, i)
            st.button(slot.code, key=_tile_key(who, ref, i, slot, selected),
                      on_click=state.on_tile, args=(who, ref, i))
        full = (ref == edit.WIN and slots) or (ref.startswith("meld") and len(slots) >= 4)
        if not full:
            on = target == ref and not sel
            st.button("＋", key=f"add__{who}__{ref}__{'on__' if on else ''}",
                      help=f"tap tiles below to add them to: {short_label(ref)}",
                      on_click=state.on_target, args=(who, ref))


def _actions(who: str, draft: edit.Draft, sel) -> None:
    _, ref, index = sel
    slots = edit.group_slots(draft, ref)
    if index >= len(slots):
        st.session_state["sel"] = None
        return
    code = slots[index].code
    st.markdown(f"**{tile_name(code)}** selected: tap a tile below to replace it, or")
    with st.container(horizontal=True, key=f"acts__{who}"):
        if ref != edit.WIN:
            st.button("Winning tile", key=f"act__{who}__winning", icon=":material/emoji_events:",
                      on_click=state.on_action, args=(who, "winning"))
        st.button("Remove", key=f"act__{who}__remove", icon=":material/delete:",
                  on_click=state.on_action, args=(who, "remove"))
        st.button("Cancel", key=f"act__{who}__cancel", on_click=state.on_action, args=(who, "cancel"))
    dests = [r for r in edit.group_refs(draft) if r not in (ref, edit.WIN)]
    if len(draft.melds) < edit.MAX_MELDS:
        dests.append(edit.NEW_MELD)
    with st.container(horizontal=True, key=f"moves__{who}"):
        st.caption("Move to:")
        for dest in dests:
            st.button(short_label(dest), key=f"move__{who}__{dest}", on_click=state.on_action,
                      args=(who, "move", dest))


def _palette(who: str, sel, target: str, need_winning: bool, show_bonus: bool) -> None:
    draft = state.draft(who)
    if sel:
        st.caption("Replace with:")
    else:
        where = short_label(target)
        if target == edit.HAND and need_winning and draft.winning is None and draft.size >= 13:
            where = "Winning"
        st.caption(f"Tap to add to: **{where}**")
    with st.container(key=f"palette__{who}"):
        for suit, codes in PALETTE_ROWS:
            if suit == "f" and not show_bonus:
                continue
            with st.container(horizontal=True, key=f"palrow__{who}__{suit}"):
                for code in codes:
                    st.button(code, key=f"pal__{code}__{who}",
                              on_click=state.on_palette, args=(who, code, need_winning))


def render(who: str, *, need_winning: bool = True, show_bonus: bool = True) -> edit.Draft:
    """The editor for one player's hand; returns the draft as it stands."""
    draft = state.draft(who)
    sel = st.session_state["sel"]
    sel = sel if sel and sel[0] == who else None
    target = state.target(who)
    if target.startswith("meld") and int(target[4:]) >= len(draft.melds):
        target = edit.HAND
    refs = [r for r in edit.group_refs(draft)
            if (r != edit.WIN or need_winning) and (r != edit.BONUS_GROUP or show_bonus)]
    for ref in refs:
        _group(who, draft, ref, sel, target, need_winning)
    with st.container(horizontal=True, key=f"handbar__{who}"):
        if len(draft.melds) < edit.MAX_MELDS:
            st.button("New set", key=f"newset__{who}", icon=":material/add_box:",
                      on_click=state.on_new_set, args=(who,))
        doubtful = edit.doubtful(draft, LOW_CONFIDENCE)
        if doubtful:
            st.button(f"All {doubtful} orange tiles are right", key=f"confirm__{who}",
                      icon=":material/done_all:", on_click=state.on_confirm_all, args=(who,))
        st.button("Clear", key=f"clear__{who}", icon=":material/backspace:",
                  on_click=state.on_clear, args=(who,))
    too_many = [c for c, n in edit.tile_counts(draft).items() if n > 4]
    if too_many:
        st.warning(f"More than 4 of {', '.join(too_many)}: one of them is misread.")
    message = state.take_flash()
    if message:
        st.warning(message)
    if sel:
        _actions(who, draft, sel)
    _palette(who, sel, target, need_winning, show_bonus)
    return state.draft(who)
