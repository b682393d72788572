"""The Tile sets page: teach the table's own set from one photo of it, and keep the sets.

The sheet to lay out is shown in the page's tile pictures (five rows: characters, dots,
bamboo, honours, flowers then seasons); the photo is matched to the codes the player says
it shows (vision.tileset.read_sheet, which aligns the codes with what is read), each found
tile is shown beside the code it will be stored under, with a menu to fix it (sheet_check.py),
and Save stores the sure tiles and those the player chose (save_sheet), saying what was not
taught. A photo that fits two ways round asks which way is up; one that cannot be matched is
one line; either way nothing is stored.
"""
from __future__ import annotations

import datetime as dt
import io

import streamlit as st
from PIL import Image

from app import i18n, recognise
from app.i18n import N_, _, ngettext
from app.i18n.messages import translate
from app.tiles_art import strip_png, tile_png
from scoring.errors import one_line
from vision.tileset import (TileSetError, WayInDoubt, check_name, delete_set, forget_correction,
                            list_sets, read_sheet, save_sheet)
from vision.tileset.sheet import codes_text, parse_codes, split_rows

from . import ledger_view, photo, sheet_check, tileset
from .args import data_folder
from .hand import tile_name
from .language import said
from .literal import literal

SHEET_ROWS = ("123456789m", "123456789p", "123456789s", "1234567z", "12345678f")
SHEET_CODES = " ".join(SHEET_ROWS)
MODES = (N_("Camera"), N_("Upload"))
MAX_CODES = 400     # the longest CODES typed on the page (a 144-tile grid in rows is ~200)
DRAWN_ROWS, DRAWN_ROW = 12, 18  # typed rows up to this many, this long, are drawn as the sheet
STATE = "teach"     # {"sheet", "moved" (Sheet.in_row_order), "codes" (as aligned), "crops",
                    # "extra_crops", "rev"} while a read sheet waits to be saved
ASK = "teach_ask"   # {"data", "codes", "photo", "ways", "shown"} while the page asks which
                    # way is up


def typed_rows(text: str) -> tuple[tuple[str, ...], ...]:
    """The rows the player typed (CODES as `read_sheet` reads them), to draw as the sheet to
    lay out; the suggested sheet when they are not tiles yet or too many to draw."""
    try:
        codes, lengths = parse_codes(text)
    except TileSetError:
        codes, lengths = [], None
    rows = tuple(tuple(r) for r in split_rows(codes, lengths or (len(codes),)))
    if not codes or len(rows) > DRAWN_ROWS or max(map(len, rows)) > DRAWN_ROW:
        return typed_rows(SHEET_CODES)
    return rows


@st.cache_data(show_spinner=False, max_entries=64)
def sheet_picture(rows: tuple[tuple[str, ...], ...], width: int = 40) -> bytes:
    """The sheet to lay out, drawn with the page's own tile pictures."""
    faces = [[Image.open(io.BytesIO(tile_png(c))).convert("RGBA") for c in r] for r in rows]
    height = round(width * faces[0][0].height / faces[0][0].width)
    gap = 4
    canvas = Image.new("RGBA", (max(map(len, faces)) * (width + gap), len(rows) * (height + gap)),
                       (0, 0, 0, 0))
    for r, row in enumerate(faces):
        for c, face in enumerate(row):
            canvas.paste(face.resize((width, height), Image.LANCZOS),
                         (c * (width + gap), r * (height + gap)))
    out = io.BytesIO()
    canvas.save(out, format="PNG")
    return out.getvalue()


@st.cache_resource(show_spinner=False)
def _sheet_reader(path: str, mtime: float, settings: tuple[str | None, ...]):
    from vision.tileset.learn import sheet_reader
    return sheet_reader()


def sheet_reader():
    """The reader of sheet photos, cached like the page's reader."""
    return _sheet_reader(*recognise.reader_key())


# --- callbacks -----------------------------------------------------------------------------

def on_read(photo_key: str) -> None:
    ss = st.session_state
    upload = ss.get(photo_key)
    ss.pop(STATE, None)
    ss.pop(ASK, None)
    if upload is None:
        ss["teach_flash"] = ("error", _("Take or choose a photo of the sheet first."))
        return
    _read(upload.getvalue(), ss.get("teach_codes") or SHEET_CODES)


def on_way(choice: int) -> None:
    """The photo read again the way the player said is up."""
    ask = st.session_state.pop(ASK, None)
    if ask:
        _read(ask["data"], ask["codes"], {ask["photo"]: ask["ways"][choice]})


def _read(data: bytes, codes: str, ways=None) -> None:
    """The sheet photo read with CODES (`ways`: {photo: Way} the player said) and kept to be
    checked; a photo that fits two ways round is kept to ask which way is up."""
    ss = st.session_state
    try:
        with recognise.reading_slot():  # a sheet waits its turn like a hand's photo
            sheet = read_sheet([data], codes, reader=sheet_reader(), ways=ways)
            shown = sheet_check.crops(data, sheet.tiles)
            extra = sheet_check.crops(data, sheet.extras)
    except WayInDoubt as exc:
        ss[ASK] = {"data": data, "codes": codes, "photo": exc.photo, "ways": exc.ways,
                   "shown": sheet_check.turned(data, exc.ways)}
        return
    except (ValueError, OSError) as exc:
        ss["teach_flash"] = ("error", translate(one_line(exc)))
        return
    except MemoryError:
        ss["teach_flash"] = ("error", _("The photo is too large to read on this machine."))
        return
    except Exception as exc:  # the reader is a boundary: a model error must not end the page
        ss["teach_flash"] = ("error", _("The tile reader failed on this photo ({reason}).").format(
            reason=one_line(exc)))
        return
    if sheet.moved:  # the typed rows as the tiles lie: the sheet drawn above follows
        ss["teach_codes"] = sheet.moved
    ss[STATE] = {"sheet": sheet, "moved": sheet.in_row_order(), "codes": sheet.moved or codes,
                 "crops": shown, "extra_crops": extra, "rev": ss.get("teach_rev", 0) + 1}
    ss["teach_rev"] = ss[STATE]["rev"]


def on_reorder() -> None:
    """The typed rows put in the order the tiles lie (Sheet.in_row_order), menus and codes."""
    ss = st.session_state
    pending = ss.get(STATE)
    moved = pending.get("moved") if pending else None
    if moved is None:
        return
    ss["teach_rev"] = pending["rev"] + 1
    ss[STATE] = {**pending, "sheet": moved, "moved": None, "codes": moved.rows_text,
                 "rev": ss["teach_rev"]}
    ss["teach_codes"] = moved.rows_text


def on_save(name_key: str) -> None:
    ss = st.session_state
    pending = ss.get(STATE)
    if not pending:
        return
    sheet, rev = pending["sheet"], pending["rev"]
    values = {i: ss[key] for i in range(len(sheet.tiles))
              if (key := f"teach_code__{rev}__{i}") in ss}
    extras = {k: ss.get(f"teach_extra__{rev}__{k}") for k in range(len(sheet.extras))}
    try:
        name = check_name(ss.get(name_key) or "")
        final = sheet_check.chosen(sheet, values, extras)
        saved = save_sheet(final, name, data_folder())
    except (ValueError, OSError) as exc:
        ss["teach_flash"] = ("error", translate(one_line(exc)))
        return
    ss.pop(STATE, None)
    ss["teach_gen"] = ss.get("teach_gen", 0) + 1
    ss["teach_flash"] = ("success", _saved_line(final, saved))
    if not tileset.chosen():  # the set just taught is the one the table plays with
        ledger = ledger_view.open_ledger(data_folder())
        tileset.remember(ledger, saved.name)


def _saved_line(final, saved) -> str:
    """What a save taught, and what it did not (codes not found, unsure tiles not picked)."""
    count = len(final.taught)
    line = ngettext("{count} tile taught to set '{name}' ({total} examples now).",
                    "{count} tiles taught to set '{name}' ({total} examples now).",
                    count).format(count=count, name=saved.name, total=len(saved))
    left = sheet_check.untaught_count(final)
    if not left:
        return line
    return line + " " + ngettext("{count} not taught: {what}.", "{count} not taught: {what}.",
                                 left).format(count=left, what=", ".join(
                                     sheet_check.untaught(final)))


def on_teach_unseen(name: str, rows: list[tuple[str, ...]]) -> None:
    """The form above set to teach the set's unseen tiles: its name, and their rows."""
    ss = st.session_state
    ss.pop(STATE, None)
    ss.pop(ASK, None)
    ss["teach_name"] = name
    ss["teach_codes"] = codes_text(rows)
    ss["teach_unseen"] = name  # said once, under the set, where the tap was


def on_delete(name: str) -> None:
    ss = st.session_state
    try:
        delete_set(name, data_folder())
    except (ValueError, OSError) as exc:
        ss["teach_flash"] = ("error", translate(one_line(exc)))
        return
    if tileset.chosen() == name:
        tileset.remember(ledger_view.open_ledger(data_folder()), tileset.NONE)
    ss["teach_flash"] = ("success", _("Tile set '{name}' deleted.").format(name=name))


def on_forget(name: str, read: str, code: str) -> None:
    ss = st.session_state
    try:
        forget_correction(name, read, code, data_folder())
    except (ValueError, OSError) as exc:
        ss["teach_flash"] = ("error", translate(one_line(exc)))
        return
    ss["teach_flash"] = ("success", _("Set '{name}' no longer reads {read} as {code}.").format(
        name=name, read=tile_name(read), code=tile_name(code)))


# --- the page ------------------------------------------------------------------------------

def render() -> None:
    ss = st.session_state
    st.subheader(_("Teach the table's tile set"), anchor=False)
    st.caption(_("Lay the tiles out in these rows, take one photo from above, check the codes, "
                 "save. Photos are then read with the set, and each hand added to the ledger "
                 "teaches it more."))
    st.image(sheet_picture(typed_rows(ss.get("teach_codes", SHEET_CODES))), width="content")
    gen = ss.get("teach_gen", 0)
    name_key = "teach_name"
    if name_key not in ss:
        ss[name_key] = tileset.chosen() or ""
    st.text_input(_("Set name"), key=name_key, max_chars=64, placeholder=_("e.g. Jade"))
    st.text_input(_("Tiles in the photo, row by row"), key="teach_codes", value=SHEET_CODES,
                  max_chars=MAX_CODES,
                  help=_("Change it if your sheet differs: any tiles, any rows; flowers and "
                         "seasons are 1f to 8f."))
    mode = st.segmented_control(_("Photo from"), MODES, key="teach_mode", default="Upload",
                                required=True, format_func=said(MODES, _),
                                label_visibility="collapsed")
    photo_key = f"teach_photo__{gen}"
    if mode == "Camera":
        st.camera_input(_("Photo of the sheet"), key=photo_key, label_visibility="collapsed")
    else:
        st.file_uploader(_("Photo of the sheet"), key=photo_key, label_visibility="collapsed",
                         type=photo.PHOTO_TYPES, max_upload_size=photo.MAX_UPLOAD_MB)
    st.button(_("Read the sheet"), key="teach_read", icon=":material/grid_view:",
              on_click=on_read, args=(photo_key,))
    _flash()
    _render_ways()
    _render_found(name_key)
    render_sets()


def _flash() -> None:
    flash = st.session_state.pop("teach_flash", None)
    if flash:
        kind, line = flash
        (st.success if kind == "success" else st.error)(line)


def _render_ways() -> None:
    """The photo turned each of the two ways it fits, each with a button: which way is up."""
    ask = st.session_state.get(ASK)
    if not ask:
        return
    st.warning(_("The codes fit this photo two ways round almost equally well. Which way is "
                 "up? Choose the picture whose tiles stand upright, the first row at the "
                 "top."), icon=":material/screen_rotation:")
    with st.container(horizontal=True, gap="small", key="teach_ways"):
        for n, shown in enumerate(ask["shown"]):
            with st.container(width=sheet_check.WAY_SIDE, gap=None, key=f"teach_way_cell__{n}"):
                st.image(shown, width=sheet_check.WAY_SIDE)
                st.button(_("This way up"), key=f"teach_way__{n}", icon=":material/north:",
                          on_click=on_way, args=(n,))


def _render_found(name_key: str) -> None:
    """The read sheet to check: the tiles to pick and to check first, then Save, then the
    rest folded away (sheet_check.py); on a phone the whole sheet is three screens."""
    pending = st.session_state.get(STATE)
    if not pending:
        return
    sheet = pending["sheet"]
    _render_summary(pending)
    unsure, check, rest = sheet_check.groups(sheet)
    st.html(sheet_check.CSS)
    if unsure:
        st.caption(_("Framed in orange: the codes could not be put surely on these. Pick what "
                     "each is; one left unpicked is not taught."))
        sheet_check.tile_cells(pending, unsure, "dbt")
    if sheet.extras:
        st.caption(_("Likely not tiles of the sheet: left out unless you pick what they are."))
        sheet_check.extra_cells(pending)
    if check:
        st.caption(_("The reader alone reads these as another tile: check their codes."))
        sheet_check.tile_cells(pending, check, "chk")
    st.button(_("Save the set"), key="teach_save", type="primary", icon=":material/save:",
              on_click=on_save, args=(name_key,))
    if not rest and not sheet.gaps:
        return
    label = (ngettext("The other {count} tile", "The other {count} tiles", len(rest))
             if unsure or check else ngettext("All {count} tile", "All {count} tiles", len(rest)))
    with st.expander(label.format(count=len(rest)), icon=":material/grid_view:"):
        sheet_check.folded_cells(pending, rest)


def _render_summary(pending: dict) -> None:
    """How many tiles were found and read right; codes not found; rows found in another
    order than typed (matched as they lie, or offered in one tap when only doubtful)."""
    sheet = pending["sheet"]
    st.markdown(_("**{count} tiles found** in rows {rows}; the reader alone already reads "
                  "{agreed} of them right. Fix any code that is wrong, then save.").format(
        count=len(sheet.tiles), rows=" · ".join(",".join(map(str, r)) for r in sheet.rows),
        agreed=sheet.agreed))
    if sheet.gaps:
        st.markdown(ngettext("No tile found for {codes}: not taught (an empty slot below).",
                             "No tile found for {codes}: not taught (empty slots below).",
                             len(sheet.gaps)).format(codes=", ".join(g.code for g in sheet.gaps)))
    if sheet.moved:
        st.info(_("The rows lie in another order than typed: matched as they lie, {codes}.").format(
            codes=sheet.moved), icon=":material/swap_vert:")
    if sheet.order_doubtful:
        st.warning(_("Only {agreed} of {count} tiles look like their codes: check that the codes "
                     "follow the tiles as they lie, rows top to bottom, each left to right.").format(
            agreed=sheet.agreed, count=len(sheet.tiles)), icon=":material/swap_vert:")
        moved = pending.get("moved")
        if moved is not None:
            st.button(_("Take the rows in the order they lie: {codes}").format(
                codes=moved.rows_text), key="teach_reorder", icon=":material/swap_vert:",
                on_click=on_reorder)


def render_sets() -> None:
    """The sets in the data folder: examples, when last taught, delete (confirmed)."""
    st.subheader(_("Tile sets here"), anchor=False)
    summaries = list_sets(data_folder())
    if not summaries:
        st.caption(_("No tile sets yet."))
    for summary in summaries:
        with st.container(horizontal=True, vertical_alignment="center", key=f"set__{summary.name}"):
            if summary.error:
                st.warning(translate(summary.error))
            else:
                when = (i18n.format_datetime(dt.datetime.fromtimestamp(summary.last_taught))
                        if summary.last_taught else "—")
                total = sum(summary.examples.values())
                st.markdown(f"**{literal(summary.name)}** · " + ngettext(
                    "{count} example of {tiles} tiles", "{count} examples of {tiles} tiles",
                    total).format(count=total, tiles=len(summary.examples)) + f" · {when}")
            if summary.unseen:
                _render_unseen(summary.name, summary.unseen)
            if summary.corrected:
                _render_fixes(summary)
            with st.popover(_("Delete"), icon=":material/delete:"):
                st.write(_("Delete the tile set '{name}' and all it learnt?").format(
                    name=literal(summary.name)))
                st.button(_("Delete it"), key=f"delete__{summary.name}", type="primary",
                          on_click=on_delete, args=(summary.name,))
        if st.session_state.get("teach_unseen") == summary.name:
            st.info(_("The form at the top now teaches these tiles to '{name}': lay them out as "
                      "drawn there, then take the photo.").format(name=literal(summary.name)),
                    icon=":material/arrow_upward:")
            del st.session_state["teach_unseen"]


def _render_unseen(name: str, codes: tuple[str, ...]) -> None:
    """The faces a set has no example of, a suit a row: read as the reader alone reads them
    until a photo of them is taught or a hand holding them is added."""
    with st.popover(ngettext("{count} tile not seen yet", "{count} tiles not seen yet",
                             len(codes)).format(count=len(codes)), icon=":material/help:"):
        st.caption(_("No example of these yet: they are read as without a set until a photo "
                     "of them is taught or a hand with them is added to the ledger."))
        rows = [tuple(c for c in codes if c[1] == suit) for suit in "mpszf"]
        for row in filter(None, rows):
            st.image(strip_png(row, height=36))
        st.button(_("Teach these"), key=f"teach_unseen__{name}", icon=":material/grid_view:",
                  on_click=on_teach_unseen, args=(name, rows))


def _render_fixes(summary) -> None:
    """What a set learnt that the reader alone reads otherwise ("read as>is": examples),
    each with Forget: a fix made by mistake would otherwise mislead every copy of the tile."""
    total = sum(summary.corrected.values())
    with st.popover(ngettext("{count} fix learnt", "{count} fixes learnt", total).format(
            count=total), icon=":material/school:"):
        st.caption(_("What the reader reads → what it is in this set:"))
        for pair, count in summary.corrected.items():
            read, code = pair.split(">")
            with st.container(horizontal=True, vertical_alignment="center",
                              key=f"fix__{summary.name}__{pair}"):
                st.markdown(f"{tile_name(read)} → **{tile_name(code)}** ×{count}")
                st.button(_("Forget"), key=f"forget__{summary.name}__{pair}",
                          on_click=on_forget, args=(summary.name, read, code))
