"""A read sheet, shown to be checked before it is saved (the Tile sets page's teach flow).

Each found tile is its crop above a code menu. First come the tiles the alignment of the
codes could not place surely (`SheetTile.doubt`), framed, their menus unchosen until the
player picks a code; then the boxes likely no tile of the sheet (`Sheet.extras`), their menus
on "not a tile"; then the tiles the reader alone reads otherwise. The rest lie folded below,
a code with no tile found shown as an empty slot where it was typed, so that no code slides
along. Save stores what is sure and what the player chose (`chosen`): a menu counts as chosen
when its value differs from the one first shown.
"""
from __future__ import annotations

import io

import streamlit as st
from PIL import Image, ImageOps

from app.i18n import N_, _, ngettext
from scoring.tiles import TILES
from vision.tileset.sheet import parse_codes

NOT_A_TILE = ""     # a menu's first choice for a box that may be no tile
UNPICKED = "?"      # an unsure tile's menu before a pick: no word fits its cell in every language
CROP_SIDE = 56      # a found tile as shown above its code: four to a row on a phone
CELL_WIDTH = 76     # its code menu still shows the code whole ("1m")
EXTRA_WIDTH = 120   # and "not a tile" whole
WAY_SIDE = 160      # the photo turned each way it may lie, when the player is asked
# unsure tiles framed in the page's doubtful orange, extra boxes dashed, a missing tile's
# slot an empty dashed cell of a tile's size
CSS = """<style>
div[class*="st-key-teach_cell__dbt"] img { outline: 3px solid #ff8c00; }
div[class*="st-key-teach_cell__xtr"] img { outline: 2px dashed #888; }
.teach-gap { width: 52px; height: 68px; border: 2px dashed #888; border-radius: 4px; }
</style>"""
DOUBTS = {"unsure": N_("unsure"), "part": N_("part of a tile"), "far": N_("unlike its copy")}


def crops(image: bytes, items, side: int = CROP_SIDE) -> list[bytes]:
    """Each box of `items` (tiles or extras: full-resolution `box`, `turns`) cut from the
    photo, stood upright, small."""
    photo = ImageOps.exif_transpose(Image.open(io.BytesIO(image))).convert("RGB")
    return [_png(photo.crop(tuple(round(v) for v in item.box)), item.turns, side)
            for item in items]


def turned(image: bytes, ways, side: int = WAY_SIDE) -> list[bytes]:
    """The photo turned each of `ways` (vision.tileset.sheet.Way) round, small."""
    photo = ImageOps.exif_transpose(Image.open(io.BytesIO(image))).convert("RGB")
    return [_png(photo, way.turns, side) for way in ways]


def _png(picture: Image.Image, turns: int, side: int) -> bytes:
    out = picture.rotate(90 * turns, expand=True)  # counter-clockwise, as Way.turns counts
    out.thumbnail((side, side))
    buf = io.BytesIO()
    out.save(buf, format="PNG")
    return buf.getvalue()


def groups(sheet) -> tuple[list[int], list[int], list[int]]:
    """The tiles to pick (not placed surely), to check (the reader alone reads another
    code), and the rest, each in sheet order."""
    unsure = [i for i, t in enumerate(sheet.tiles) if t.doubt]
    check = [i for i, t in enumerate(sheet.tiles) if not t.doubt and t.read_as != t.code]
    rest = [i for i, t in enumerate(sheet.tiles) if not t.doubt and t.read_as == t.code]
    return unsure, check, rest


def in_place(codes_text: str, sheet) -> list[tuple[str, int]]:
    """The tiles ("tile", i) and the codes with no tile ("gap", j) in the order of the codes:
    a gap where its code was, the tiles' codes never slid along (the alignment keeps the
    tiles in the codes' order). A gap's place is its `Gap.index` in the codes as aligned;
    without one, it is found among the codes typed (`codes_text`), and anything not placed
    so goes at the end."""
    if all(g.index >= 0 for g in sheet.gaps):
        at = {g.index: j for j, g in enumerate(sheet.gaps)}
        tiles = iter(range(len(sheet.tiles)))
        return [("gap", at[p]) if p in at else ("tile", next(tiles))
                for p in range(len(sheet.tiles) + len(sheet.gaps))]
    try:
        typed, _rows = parse_codes(codes_text)
    except ValueError:
        typed = []
    out, t, gaps = [], 0, list(range(len(sheet.gaps)))
    for code in typed:
        if t < len(sheet.tiles) and sheet.tiles[t].code == code:
            out.append(("tile", t))
            t += 1
            continue
        j = next((j for j in gaps if sheet.gaps[j].code == code), None)
        if j is not None:
            gaps.remove(j)
            out.append(("gap", j))
    return out + [("tile", i) for i in range(t, len(sheet.tiles))] + [("gap", j) for j in gaps]


def first_shown(tile) -> str | None:
    """The code a tile's menu shows before the player touches it: none when unsure."""
    return None if tile.doubt else tile.code


def chosen(sheet, values: dict[int, str | None], extras: dict[int, str]):
    """The sheet as the player left it: `values` {tile: menu value}, `extras` {extra box:
    menu value}. A menu whose value differs from the one first shown was chosen: that tile
    is confirmed; an unsure tile left unpicked has no code (not taught)."""
    codes, picked = [], []
    for i, tile in enumerate(sheet.tiles):
        value = values.get(i, first_shown(tile))
        codes.append(value or "")
        if value != first_shown(tile):
            picked.append(i)
    named = {k: c for k, c in extras.items() if c}
    return sheet.with_codes(codes, confirmed=picked).with_extras(named)


def untaught(sheet) -> list[str]:
    """What a save of `sheet` (as `chosen` left it) does not teach, said in a few words:
    each code with no tile found, and the unsure tiles left unpicked."""
    said = [_("{code} not found").format(code=g.code) for g in sheet.gaps]
    left = _unpicked(sheet)
    if left:
        said.append(ngettext("{count} unsure tile not picked", "{count} unsure tiles not picked",
                             left).format(count=left))
    return said


def untaught_count(sheet) -> int:
    return len(sheet.gaps) + _unpicked(sheet)


def _unpicked(sheet) -> int:
    """Unsure tiles the player did not pick a code (or "not a tile") for."""
    return sum(bool(t.doubt) and not t.confirmed for t in sheet.tiles)


# --- drawing -------------------------------------------------------------------------------

def tile_cells(pending: dict, indices: list[int], flag: str) -> None:
    """The found tiles `indices` (in sheet order), each its crop above its code menu: an
    unsure tile's menu unchosen, with why it is unsure under it."""
    tiles = pending["sheet"].tiles
    with st.container(horizontal=True, gap="small", key=f"teach_tiles__{flag}"):
        for i in indices:
            with st.container(width=CELL_WIDTH, gap=None, key=f"teach_cell__{flag}__{i}"):
                _tile_cell(pending, i, tiles[i])


def _tile_cell(pending: dict, i: int, tile) -> None:
    st.image(pending["crops"][i], width=CROP_SIDE)
    key = f"teach_code__{pending['rev']}__{i}"
    label = _("Tile {number}").format(number=i + 1)
    if tile.doubt:
        st.selectbox(label, (NOT_A_TILE,) + TILES, index=None, key=key,
                     placeholder=UNPICKED, format_func=_choice, label_visibility="collapsed")
        st.caption(_(DOUBTS.get(tile.doubt, "unsure")))
    else:
        st.selectbox(label, TILES, index=TILES.index(tile.code), key=key,
                     label_visibility="collapsed")


def extra_cells(pending: dict) -> None:
    """The boxes likely no tile of the sheet, each its crop above a menu on "not a tile"."""
    extras = pending["sheet"].extras
    with st.container(horizontal=True, gap="small", key="teach_tiles__xtr"):
        for k, _extra in enumerate(extras):
            with st.container(width=EXTRA_WIDTH, gap=None, key=f"teach_cell__xtr__{k}"):
                st.image(pending["extra_crops"][k], width=CROP_SIDE)
                st.selectbox(_("Box {number}").format(number=k + 1), (NOT_A_TILE,) + TILES,
                             index=0, key=f"teach_extra__{pending['rev']}__{k}",
                             format_func=_choice, label_visibility="collapsed")


def folded_cells(pending: dict, indices: list[int]) -> None:
    """The tiles `indices` and the codes with no tile, in the order typed: a gap is an empty
    slot with its code under it."""
    sheet, keep = pending["sheet"], set(indices)
    with st.container(horizontal=True, gap="small", key="teach_tiles__ok"):
        for kind, n in in_place(pending["codes"], sheet):
            if kind == "gap":
                with st.container(width=CELL_WIDTH, gap=None, key=f"teach_gap__{n}"):
                    st.html('<div class="teach-gap"></div>')
                    st.caption(_("{code}: not found").format(code=sheet.gaps[n].code))
            elif n in keep:
                with st.container(width=CELL_WIDTH, gap=None, key=f"teach_cell__ok__{n}"):
                    _tile_cell(pending, n, sheet.tiles[n])


def _choice(code: str) -> str:
    return _("not a tile") if code == NOT_A_TILE else code
