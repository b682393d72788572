"""The table's tile set on the page: chosen or created from the photo row and remembered,
photos read with it (a damaged one said in one line and read without), each added hand's
tiles learnt under their final codes and forgotten on undo, and the Tile sets page that
teaches a set from a sheet photo, refuses one that does not match, lists and deletes."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from app import edit
from app.ledger import Ledger
from app_fixtures import HAND, PAGE, click, table_photo, texts, tile_key, write_model
from vision.tileset import list_sets, load_set

SHEET = "123456789m 123456789p 123456789s 1234567z 12345678f"
TEACH_PAGE = """
import sys
from app.ui import language, teach
language.install()
teach.render()
"""


@pytest.fixture
def learner_model(tmp_path, monkeypatch):
    """The stub detector of the page's tests with the committed crop reader behind it (a
    set learns with the reader's features): it reads the 8 of bamboo of `table_photo` as 9s."""
    from vision.runtime import DEFAULT_CLASSIFIER_PATH
    if not DEFAULT_CLASSIFIER_PATH.is_file():
        pytest.skip("the committed crop reader is not there")
    monkeypatch.setenv("MAHJONG_LENS_MODEL", str(write_model(tmp_path / "stub.onnx", HAND)))
    monkeypatch.delenv("MAHJONG_LENS_CLASSIFIER", raising=False)
    monkeypatch.setenv("MAHJONG_LENS_CONF", "0.25")


def menu(at):
    found = [s for s in at.selectbox if s.key and s.key.startswith("tileset_menu")]
    assert len(found) == 1
    return found[0]


def new_set(at, name: str):
    menu(at).set_value("\x00new").run()
    at.text_input(key="tileset_new").set_value(name).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def upload(at, data: bytes):
    at.file_uploader[0].set_value(("hand.jpg", data, "image/jpeg")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_new_set_is_created_chosen_and_remembered_for_the_night(learner_model, page, data_dir):
    new_set(page, "Jade")
    assert [s.name for s in list_sets(data_dir)] == ["Jade"]
    assert page.session_state["tileset"] == "Jade" and menu(page).value == "Jade"
    told = [i.value for i in page.info if "New tile set 'Jade'" in i.value]
    assert len(told) == 1 and "Tile sets page" in told[0]  # how it learns, said once
    page.run()
    assert not any("New tile set" in i.value for i in page.info)
    assert Ledger(data_dir).setting("tileset") == "Jade"
    from streamlit.testing.v1 import AppTest
    again = AppTest.from_file(PAGE, default_timeout=30)  # another phone at the table
    again.run()
    assert menu(again).value == "Jade"
    menu(again).set_value("").run()
    assert Ledger(data_dir).setting("tileset") == ""


@pytest.mark.parametrize("name, said", [
    ("../x", "is not a tile set name"),
    ("a/b", "is not a tile set name"),
    (" ", "a tile set needs a name"),
])
def test_a_bad_set_name_is_one_line_and_creates_nothing(stub_model, page, data_dir, name, said):
    new_set(page, name)
    errors = [e.value for e in page.error]
    assert len(errors) == 1 and said in errors[0] and "\n" not in errors[0]
    assert not (data_dir / "tilesets").exists() and page.session_state["tileset"] == ""


def test_a_damaged_set_is_said_in_one_line_and_the_photo_read_without_it(learner_model, page,
                                                                         data_dir):
    (data_dir / "tilesets").mkdir(parents=True)
    (data_dir / "tilesets" / "Broken.npz").write_bytes(b"not a set at all")
    page.run()
    menu(page).set_value("Broken").run()
    upload(page, table_photo())
    said = [w.value for w in page.warning]
    assert any("Read without the tile set" in w and "is damaged" in w for w in said), said
    assert len(page.session_state["drafts"]["win"].codes()) == 14  # read all the same


def test_a_photo_is_read_again_when_the_set_changes(learner_model, page, data_dir):
    upload(page, table_photo())
    before = page.session_state["photo_ids"]["win"]
    new_set(page, "Jade")
    after = page.session_state["photo_ids"]["win"]
    assert before.endswith("|") and "|Jade@" in after  # read again, with the set


def test_choosing_a_set_after_fixing_a_tile_keeps_the_fix(learner_model, page, data_dir):
    upload(page, table_photo())
    hand = [s.code for s in page.session_state["drafts"]["win"].hand]
    click(page, tile_key(page, "win", "hand", hand.index("9s")))
    click(page, "pal__8s__win")
    new_set(page, "Jade")
    assert "|Jade@" in page.session_state["photo_ids"]["win"]  # read again, with the set
    assert sorted(page.session_state["drafts"]["win"].codes()) == sorted(HAND)  # fix kept
    assert page.session_state["recog"]["win"].photo is not None  # to learn from on Add


def _fix_and_add(at):
    """The misread 8 of bamboo fixed with two taps, self-drawn, added to the ledger."""
    hand = [s.code for s in at.session_state["drafts"]["win"].hand]
    click(at, tile_key(at, "win", "hand", hand.index("9s")))
    click(at, "pal__8s__win")
    at.pills(key="how__0__0").set_value(1).run()
    click(at, "ledger_add")
    return at


def test_an_added_hand_teaches_the_set_its_corrected_tiles_and_undo_forgets_them(
        learner_model, page, data_dir):
    new_set(page, "Jade")
    upload(page, table_photo())
    _fix_and_add(page)
    assert "14 tiles added to set 'Jade'. Your fix is among them." in texts(page)
    stored = load_set("Jade", data_dir)
    assert sorted(stored.codes) == sorted(HAND) and set(stored.sources) == {"hand:1"}
    assert sum(list_sets(data_dir)[0].examples.values()) == 14
    click(page, "undo")
    assert len(load_set("Jade", data_dir)) == 0


BAMBOO = ["1s", "1s", "1s", "2s", "3s", "4s", "5p", "6p", "7p", "1z", "1z", "1z", "2z", "2z"]


@pytest.fixture
def bamboo_model(learner_model, tmp_path, monkeypatch):
    """The stub detector finding the tiles of `table_photo(BAMBOO)`: the crop reader alone
    reads this set's 1 of bamboo (a bird-less stick) as the 3 of dots."""
    monkeypatch.setenv("MAHJONG_LENS_MODEL", str(write_model(tmp_path / "bamboo.onnx", BAMBOO)))


def test_a_photo_read_with_the_chosen_set_reads_what_the_reader_alone_misreads(
        bamboo_model, page, data_dir):
    from tests.vision.tileset_art import SHEET_ROWS, lay_out
    from vision.tileset import TileSet, save_set, taught_refiner
    rgb, boxes, codes = lay_out(SHEET_ROWS, scale=0.8, seed=0)  # the set's sheet, its true boxes
    reader = taught_refiner()
    seen = reader.features(rgb, boxes)
    save_set(TileSet("Jade", reader.probe()).add(codes, seen.features, seen.turned, "sheet"),
             data_dir)
    upload(page, table_photo(BAMBOO))
    assert page.session_state["drafts"]["win"].codes().count("3p") == 3  # without a set
    page.run()
    menu(page).set_value("Jade").run()  # the same photo, read again with the set
    assert sorted(page.session_state["drafts"]["win"].codes()) == sorted(BAMBOO)
    assert not page.warning or all("tile set" not in w.value for w in page.warning)


def test_a_typed_hand_teaches_nothing(learner_model, page, data_dir):
    new_set(page, "Jade")
    page.segmented_control(key="mode__win").set_value("Manual").run()
    page.text_input(key="notation__win__0").set_value("123m456p789sEEESS").run()
    page.pills(key="how__0__0").set_value(1).run()
    click(page, "ledger_add")
    assert "In the ledger as hand 1" in texts(page) and "added to set" not in texts(page)
    assert len(load_set("Jade", data_dir)) == 0


@pytest.mark.parametrize("slots, learnt", [
    ((edit.Slot("1m", 0.9, (1, 2, 3, 4)), edit.Slot("2m")), ["1m"]),       # from the palette
    ((edit.Slot("back", 0.9, (1, 2, 3, 4)), edit.Slot("3p", None, (5, 6, 7, 8))), ["3p"]),
])
def test_only_tiles_from_the_photo_are_learnt(slots, learnt):
    from app.ui.tileset import boxed_tiles
    codes, boxes = boxed_tiles(edit.Draft(hand=slots))
    assert codes == learnt and len(boxes) == len(learnt)


@pytest.mark.parametrize("codes, fixes", [
    (["9s", "1z", "5f"], [False, False, False]),          # as read
    (["8s", "1z", "5f"], [True, False, False]),           # one tile fixed
    (["8s", "1z", "6f"], [True, False, True]),            # a bonus tile too
    (["9s", "1z", "5f", "7p"], [False] * 4),  # a tile the layout left out, brought back as read
])
def test_the_tiles_a_player_fixed_are_counted_by_where_they_lie(codes, fixes):
    from app.ui.tileset import fixed_tiles
    from vision.layout.table import LaidTile, TableLayout
    boxes = [(0.0, 0.0, 10.0, 14.0), (10.0, 0.0, 20.0, 14.0), (40.0, 0.0, 50.0, 14.0),
             (60.0, 0.0, 70.0, 14.0)][:len(codes)]
    layout = TableLayout(concealed=(LaidTile("9s", boxes[0], 0.4), LaidTile("1z", boxes[1], 0.9)),
                         bonus=(LaidTile("5f", boxes[2], 0.8),),
                         ignored=(LaidTile("7p", (60.0, 0.0, 70.0, 14.0), 0.6),))
    assert fixed_tiles(codes, boxes, layout) == fixes


def test_a_fixed_tile_keeps_its_box_and_compares_by_code():
    draft = edit.Draft(hand=(edit.Slot("9s", 0.3, (1.0, 2.0, 3.0, 4.0)),))
    fixed = edit.replace_tile(draft, "hand", 0, "8s")
    assert fixed.hand[0].box == (1.0, 2.0, 3.0, 4.0) and fixed.hand[0] == edit.Slot("8s")
    assert edit.confirm_all(draft).hand[0].box == (1.0, 2.0, 3.0, 4.0)


# --- the Tile sets page ---------------------------------------------------------------------

@pytest.fixture
def sheet_png():
    from tests.vision.tileset_art import SHEET_ROWS, lay_out
    from vision.runtime import DEFAULT_CLASSIFIER_PATH, DEFAULT_MODEL_PATH
    if not (DEFAULT_MODEL_PATH.is_file() and DEFAULT_CLASSIFIER_PATH.is_file()):
        pytest.skip("the committed models are not there")
    rgb, _, _ = lay_out(SHEET_ROWS, scale=0.8, seed=0)
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def teach_page(data_dir, monkeypatch):
    from streamlit.testing.v1 import AppTest
    monkeypatch.delenv("MAHJONG_LENS_MODEL", raising=False)
    monkeypatch.delenv("MAHJONG_LENS_CLASSIFIER", raising=False)
    at = AppTest.from_string(TEACH_PAGE, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _read_sheet(at, png: bytes, codes: str = SHEET, name: str = "Jade"):
    at.text_input(key="teach_name").set_value(name)
    at.text_input(key="teach_codes").set_value(codes)
    at.file_uploader[0].set_value(("sheet.png", png, "image/png")).run()
    click(at, "teach_read")
    return at


def test_a_fix_made_by_mistake_is_forgotten_from_the_tile_sets_page(data_dir, monkeypatch):
    import numpy as np
    from streamlit.testing.v1 import AppTest
    from vision.tileset import TileSet, save_set
    feats = np.ones((3, 3, 4), np.float32) / 2
    save_set(TileSet("Jade", np.ones(4, np.float32)).add(
        ["8s", "7s", "1m"], feats, feats, "hand:1", reads=["9s", "9s", "1m"]), data_dir)
    at = AppTest.from_string(TEACH_PAGE, default_timeout=60)
    at.run()
    assert keys_of(at, "forget__Jade__9s>8s") and keys_of(at, "forget__Jade__9s>7s")
    click(at, "forget__Jade__9s>7s")
    assert load_set("Jade", data_dir).codes == ("8s", "1m")
    assert any("no longer reads" in s.value for s in at.success)
    assert keys_of(at, "forget__Jade__9s>8s") and not keys_of(at, "forget__Jade__9s>7s")


def test_the_tile_sets_page_says_which_tiles_a_set_has_not_seen_yet(data_dir):
    """A set learnt from hands lacks the faces no hand has held (flowers most of all): the
    page counts them and shows them, a suit a row, so that the player knows what to teach."""
    import numpy as np
    from streamlit.testing.v1 import AppTest
    from vision.tileset import TileSet, save_set
    feats = np.ones((2, 3, 4), np.float32) / 2
    save_set(TileSet("Jade", np.ones(4, np.float32)).add(["8s", "1m"], feats, feats, "hand:1"),
             data_dir)
    at = AppTest.from_string(TEACH_PAGE, default_timeout=60)
    at.run()
    unseen = [p for p in at.get("popover") if p.proto.popover.label == "40 tiles not seen yet"]
    assert len(unseen) == 1
    shown = [type(c).__name__ for c in unseen[0].children.values()]
    assert shown == ["Caption"] + ["Image"] * 5 + ["Button"]  # a suit a row, then Teach these


def test_the_tiles_a_set_has_not_seen_are_taught_in_one_tap(data_dir):
    """Teach these: the form at the top names the set and lists its unseen tiles, a suit a
    row (the sheet drawn there follows), and a line under the set says so, once."""
    import numpy as np
    from streamlit.testing.v1 import AppTest
    from scoring.tiles import TILES
    from vision.tileset import TileSet, save_set
    known = [c for c in TILES if c not in ("4p", "7p", "8p", "6z", "2f", "4f")]
    feats = np.ones((len(known), 3, 4), np.float32) / 2
    save_set(TileSet("Jade", np.ones(4, np.float32)).add(known, feats, feats, "hand:1"), data_dir)
    at = AppTest.from_string(TEACH_PAGE, default_timeout=60)
    at.run()
    click(at, "teach_unseen__Jade")
    assert at.text_input(key="teach_name").value == "Jade"
    assert at.text_input(key="teach_codes").value == "478p 6z 24f"
    assert sum("now teaches these tiles to 'Jade'" in i.value for i in at.info) == 1
    at.run()
    assert not any("now teaches" in i.value for i in at.info)


@pytest.mark.parametrize("typed,drawn", [
    ("478p 6z 24f", "478p 6z 24f"),
    ("123m/456p", "123m 456p"),
    ("EEE", "1z1z1z"),                        # honour letters, as the codes allow
    ("", SHEET),                              # nothing typed yet: the suggested sheet
    ("12x", SHEET),                           # not tiles (yet): the suggested sheet
    ("1m " * 13, SHEET),                      # more rows than a photo's sheet: not drawn
    ("1" * 19 + "m", SHEET),                  # a row too long to draw
])
def test_the_sheet_drawn_is_the_rows_typed(typed, drawn):
    from app.ui.teach import typed_rows
    from scoring.tiles import parse_tiles
    assert typed_rows(typed) == tuple(tuple(parse_tiles(r, allow_bonus=True)) for r in drawn.split())


def test_the_tile_sets_page_teaches_a_set_from_a_sheet_photo(teach_page, sheet_png, data_dir):
    from scoring.tiles import parse_tiles
    at = _read_sheet(teach_page, sheet_png)
    cells = menus(at)
    assert len(cells) == 42 and "42 tiles found" in texts(at)
    from app.ui.sheet_check import groups
    unsure, check, _ = groups(at.session_state["teach"]["sheet"])
    assert unsure + check  # the art the reader misreads: shown first, to check
    assert [cells[i].value for i in range(9)] == [f"{n}m" for n in range(1, 10)]
    assert all(cells[i].value is None for i in unsure)  # picked by the player, or not taught
    typed = parse_tiles(SHEET.replace(" ", ""), allow_bonus=True)
    for i in unsure:
        cells[i].set_value(typed[i])
    cells[0].set_value("2m").run()  # the player's fix is what is stored
    click(at, "teach_save")
    assert "42 tiles taught to set 'Jade'" in texts(at)
    stored = load_set("Jade", data_dir)
    assert len(stored) == 42 and stored.codes.count("2m") == 2 and "1m" not in stored.codes
    assert "Jade" in texts(at) and "42 examples of 41 tiles" in texts(at)
    assert at.session_state["tileset"] == "Jade"  # the set just taught is the night's set
    at.button(key="delete__Jade").click().run()
    assert list_sets(data_dir) == [] and "Tile set 'Jade' deleted." in texts(at)


def test_the_tiles_to_check_come_first_and_save_right_after_them(teach_page, sheet_png):
    from app.ui.sheet_check import groups
    at = _read_sheet(teach_page, sheet_png)
    unsure, check, rest = groups(at.session_state["teach"]["sheet"])
    assert unsure + check and 0 < len(rest) < 42
    assert list(menus(at))[:len(unsure + check)] == unsure + check  # then the rest, folded
    (folded,) = at.expander
    assert folded.label == f"The other {len(rest)} tiles"
    assert list(menus(folded)) == rest


@pytest.mark.parametrize("codes, warned", [
    (SHEET, False),
    ("123456789p 123456789s 123456789m 1234567z 12345678f", True),  # the rows typed in another order
])
def test_codes_in_another_order_than_the_tiles_lie_are_pointed_out(teach_page, sheet_png,
                                                                    codes, warned):
    at = _read_sheet(teach_page, sheet_png, codes=codes)
    said = [i.value for i in at.info] + [w.value for w in at.warning]
    assert any("another order than typed" in s or "look like their codes" in s
               for s in said) is warned
    assert keys_of(at, "teach_save")  # the player may still save: the set may be that unusual


def test_rows_typed_in_another_order_are_put_right_in_one_tap(teach_page, sheet_png, data_dir):
    """Matched as they lie when the alignment is clear about it, else one tap away."""
    at = _read_sheet(teach_page, sheet_png,
                     codes="123456789p 123456789s 123456789m 1234567z 12345678f")
    if keys_of(at, "teach_reorder"):
        click(at, "teach_reorder")
    assert not at.warning and not keys_of(at, "teach_reorder")
    assert at.text_input(key="teach_codes").value == SHEET
    cells = menus(at)
    assert [cells[i].value for i in range(9)] == [f"{n}m" for n in range(1, 10)]
    click(at, "teach_save")
    assert load_set("Jade", data_dir).codes.count("1m") == 1


def test_a_sheet_that_does_not_match_is_refused_in_one_line(teach_page, sheet_png, data_dir):
    at = _read_sheet(teach_page, sheet_png, codes="1234m")
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "\n" not in errors[0]
    assert errors[0].startswith("the codes do not fit this photo either way round (found 42 ")
    assert errors[0].endswith("CODES has 4)")
    assert not keys_of(at, "teach_save") and not (data_dir / "tilesets").exists()


def test_a_tile_laid_but_not_typed_is_offered_as_not_a_tile(teach_page, sheet_png):
    at = _read_sheet(teach_page, sheet_png, codes=SHEET.replace("12345678f", "1234567f"))
    (extra,) = menus(at, "teach_extra__").values()
    assert extra.value == "" and "41 tiles found" in texts(at) and not at.error


def _raise(exc):
    def read_sheet(*args, **kwargs):
        raise exc
    return read_sheet


@pytest.mark.parametrize("exc, said", [
    (MemoryError(), "The photo is too large to read on this machine."),
    (RuntimeError("ONNX session\nbroke"), "The tile reader failed on this photo (ONNX session broke)."),
])
def test_a_reader_failure_on_a_sheet_is_one_line_and_stores_nothing(teach_page, data_dir,
                                                                     monkeypatch, exc, said):
    from app.ui import teach
    monkeypatch.setattr(teach, "read_sheet", _raise(exc))
    at = _read_sheet(teach_page, b"any bytes: the reader is what fails")
    assert not at.exception and [e.value for e in at.error] == [said]
    assert not keys_of(at, "teach_save") and not (data_dir / "tilesets").exists()


def test_a_sheet_is_read_in_one_of_the_servers_reading_slots(teach_page, monkeypatch):
    from app import recognise
    from app.ui import teach
    free = []

    def read_sheet(*args, **kwargs):
        free.append(recognise._READS._value)
        raise ValueError("found 0 tiles")
    monkeypatch.setattr(teach, "read_sheet", read_sheet)
    _read_sheet(teach_page, b"bytes")
    assert free == [recognise.MAX_READS_AT_ONCE - 1]
    assert recognise._READS._value == recognise.MAX_READS_AT_ONCE  # given back


def keys_of(at, prefix: str) -> list[str]:
    return [b.key for b in at.button if b.key and b.key.startswith(prefix)]


# --- checking a read sheet: gaps, extra boxes, unsure tiles, which way is up ------------------

def _box(i: int) -> tuple[float, ...]:
    return (10.0 + 44 * i, 20.0, 50.0 + 44 * i, 76.0)


def built_sheet(codes, unsure=(), gaps=(), extras=0, moved=""):
    """A read sheet as vision.tileset.read_sheet gives it: tiles `codes` read as their codes
    (those at `unsure` not placed surely), codes with no tile, `extras` boxes of no tile."""
    import numpy as np
    from vision.tileset import Extra, Gap, Sheet, SheetTile
    tiles = tuple(SheetTile(0, _box(i), c, c, doubt="unsure" if i in unsure else "")
                  for i, c in enumerate(codes))
    boxes = tuple(Extra(0, 0, _box(len(codes) + k), codes[-1], "", "9p") for k in range(extras))
    feats = np.full((len(codes), 3, 4), 0.5, np.float32)
    extra = np.full((extras, 3, 4), 0.5, np.float32)
    return Sheet(tiles, ((len(codes),),), feats, feats, np.ones(4, np.float32), 0.1,
                 tuple(Gap(0, 0, c) for c in gaps), boxes, moved, extra, extra)


@pytest.fixture
def stub_sheet(teach_page, monkeypatch):
    """The page's sheet reader answering what a test gives (a Sheet, or an exception for
    calls without `ways`), each call's `ways` noted in `calls`."""
    from app.ui import teach
    given = {"calls": [], "page": teach_page}

    def read_sheet(photos, codes, reader=None, ways=None):
        given["calls"].append(ways)
        if isinstance(given.get("raise"), Exception) and ways is None:
            raise given["raise"]
        return given["sheet"]
    monkeypatch.setattr(teach, "read_sheet", read_sheet)
    monkeypatch.setattr(teach, "sheet_reader", lambda: None)
    return given


def _photo() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (800, 100), (40, 120, 60)).save(out, format="PNG")
    return out.getvalue()


def in_order(node) -> list[str]:
    """The menus' values and the captions inside a part of the page, in the order shown."""
    out = []
    for child in getattr(node, "children", {}).values():
        if type(child).__name__ in ("Selectbox", "Caption"):
            out.append(child.value)
        out += in_order(child)
    return out


def menus(at, prefix: str = "teach_code__") -> dict[int, object]:
    return {int(s.key.rsplit("__", 1)[1]): s for s in at.selectbox if s.key.startswith(prefix)}


def test_a_code_with_no_tile_found_is_an_empty_slot_in_its_place(stub_sheet, data_dir):
    stub_sheet["sheet"] = built_sheet(["1m", "2m", "4m", "5m"], gaps=["3m"])
    at = _read_sheet(stub_sheet_page(stub_sheet), _photo(), codes="12345m")
    (folded,) = at.expander
    assert in_order(folded) == ["1m", "2m", "3m: not found", "4m", "5m"]  # nothing slid along
    assert "No tile found for 3m: not taught" in texts(at)
    click(at, "teach_save")
    assert load_set("Jade", data_dir).codes == ("1m", "2m", "4m", "5m")
    assert ("4 tiles taught to set 'Jade' (4 examples now). 1 not taught: 3m not found."
            in texts(at))


@pytest.mark.parametrize("pick, stored, sources", [
    (None, ("1m", "2m", "3m"), {"sheet"}),                       # left as "not a tile"
    ("4m", ("1m", "2m", "3m", "4m"), {"sheet", "sheet:confirmed"}),  # named: taught as named
])
def test_an_extra_box_preselects_not_a_tile(stub_sheet, data_dir, pick, stored, sources):
    stub_sheet["sheet"] = built_sheet(["1m", "2m", "3m"], extras=1)
    at = _read_sheet(stub_sheet_page(stub_sheet), _photo(), codes="123m")
    (extra,) = menus(at, "teach_extra__").values()
    assert extra.options[0] == "not a tile" and extra.value == ""
    if pick:
        extra.set_value(pick).run()
    click(at, "teach_save")
    taught = load_set("Jade", data_dir)
    assert taught.codes == stored and set(taught.sources) == sources


@pytest.mark.parametrize("pick, stored, said", [
    (None, ("1m", "3m"), "2 tiles taught to set 'Jade' (2 examples now). "
                         "1 not taught: 1 unsure tile not picked."),
    ("2m", ("1m", "3m", "2m"), "3 tiles taught to set 'Jade' (3 examples now)."),
    ("", ("1m", "3m"), "2 tiles taught to set 'Jade' (2 examples now)."),  # "not a tile"
])
def test_an_unsure_tile_is_unchosen_first_and_taught_only_when_picked(stub_sheet, data_dir,
                                                                      pick, stored, said):
    stub_sheet["sheet"] = built_sheet(["1m", "2m", "3m"], unsure=[1])
    at = _read_sheet(stub_sheet_page(stub_sheet), _photo(), codes="123m")
    shown = menus(at)
    assert list(shown) == [1, 0, 2] and shown[1].value is None  # first, nothing chosen
    assert "Framed in orange" in texts(at) and "unsure" in [c.value for c in at.caption]
    if pick is not None:
        shown[1].set_value(pick).run()
    click(at, "teach_save")
    assert said in texts(at) and load_set("Jade", data_dir).codes == stored


def test_a_tile_the_player_changed_is_taught_as_confirmed(stub_sheet, data_dir):
    stub_sheet["sheet"] = built_sheet(["1m", "2m", "3m"])
    at = _read_sheet(stub_sheet_page(stub_sheet), _photo(), codes="123m")
    menus(at)[2].set_value("4m").run()
    click(at, "teach_save")
    taught = load_set("Jade", data_dir)
    assert dict(zip(taught.codes, taught.sources)) == {
        "1m": "sheet", "2m": "sheet", "4m": "sheet:confirmed"}


@pytest.mark.parametrize("choice", [0, 1])
def test_a_photo_that_fits_two_ways_asks_which_way_is_up(stub_sheet, data_dir, choice):
    from vision.tileset import Way, WayInDoubt
    ways = (Way(), Way(across=True))
    stub_sheet["raise"] = WayInDoubt(0, ways)
    stub_sheet["sheet"] = built_sheet(["1f", "2f", "3f", "4f"])
    at = _read_sheet(stub_sheet_page(stub_sheet), _photo(), codes="1234f")
    assert any("Which way is up?" in w.value for w in at.warning)
    assert keys_of(at, "teach_way__") == ["teach_way__0", "teach_way__1"]
    assert len(at.get("image")) == 1 + 2  # the sheet to lay out, the photo each way round
    assert not keys_of(at, "teach_save")  # nothing on a guess
    click(at, f"teach_way__{choice}")
    assert stub_sheet["calls"] == [None, {0: ways[choice]}]
    assert not keys_of(at, "teach_way__") and keys_of(at, "teach_save")
    assert not (data_dir / "tilesets").exists()


@pytest.mark.parametrize("way, size, red_at", [
    ({}, (160, 40), (5, 20)),                                # as taken: red on the left
    ({"across": True}, (160, 40), (155, 20)),                 # turned half round
    ({"quarter": True}, (40, 160), (20, 155)),                # a quarter counter-clockwise
    ({"quarter": True, "across": True}, (40, 160), (20, 5)),  # three quarters
])
def test_the_photo_is_shown_turned_the_way_asked_about(way, size, red_at):
    from app.ui.sheet_check import turned
    from vision.tileset import Way
    photo = Image.new("RGB", (400, 100), (40, 120, 60))
    photo.paste((255, 0, 0), (0, 0, 50, 100))
    out = io.BytesIO()
    photo.save(out, format="PNG")
    (shown,) = turned(out.getvalue(), [Way(**way)])
    picture = Image.open(io.BytesIO(shown)).convert("RGB")
    assert picture.size == size and picture.getpixel(red_at)[0] > 200


def test_rows_found_in_another_order_are_matched_as_they_lie_and_said(stub_sheet):
    stub_sheet["sheet"] = built_sheet(["3p", "4p", "1m", "2m"], moved="34p 12m")
    at = _read_sheet(stub_sheet_page(stub_sheet), _photo(), codes="12m 34p")
    assert [i.value for i in at.info] == [
        "The rows lie in another order than typed: matched as they lie, 34p 12m."]
    assert at.text_input(key="teach_codes").value == "34p 12m"


def stub_sheet_page(given):
    """The teach page of the `stub_sheet` fixture (the fixture's AppTest)."""
    return given["page"]


@pytest.mark.parametrize("typed, found, gaps, shown", [
    ("12345m", "1245m", "3m", "1m 2m [3m] 4m 5m"),
    ("12345m", "2345m", "1m", "[1m] 2m 3m 4m 5m"),
    ("12345m", "1234m", "5m", "1m 2m 3m 4m [5m]"),
    ("123m 5z 456p", "123m456p", "5z", "1m 2m 3m [5z] 4p 5p 6p"),   # a whole row not found
    ("1m2m1m2m", "1m2m1m", "2m", "1m 2m 1m [2m]"),                  # codes typed twice
    ("123m", "123m", "", "1m 2m 3m"),
])
def test_a_code_with_no_tile_keeps_its_place_among_the_typed(typed, found, gaps, shown):
    """Gaps told only by their codes (as an older reading gives them) are placed among the
    codes typed; the codes typed twice are where only `Gap.index` is exact (next test)."""
    from app.ui.sheet_check import in_place
    from scoring.tiles import parse_tiles
    sheet = built_sheet(parse_tiles(found), gaps=parse_tiles(gaps) if gaps else ())
    said = [sheet.tiles[n].code if kind == "tile" else f"[{sheet.gaps[n].code}]"
            for kind, n in in_place(typed, sheet)]
    assert " ".join(said) == shown


def test_a_gap_is_placed_by_its_index_in_the_aligned_codes():
    from dataclasses import replace

    from app.ui.sheet_check import in_place
    from vision.tileset.teaching import Gap
    sheet = built_sheet(["1m", "1m", "2m"], gaps=("2m",))
    sheet = replace(sheet, gaps=(Gap(0, 0, "2m", 1),))  # the first 2m was not found
    said = [sheet.tiles[n].code if kind == "tile" else f"[{sheet.gaps[n].code}]"
            for kind, n in in_place("1m2m1m2m", sheet)]
    assert " ".join(said) == "1m [2m] 1m 2m"


def test_a_sheet_with_nothing_sure_or_picked_is_refused_and_waits_for_picks(stub_sheet,
                                                                             data_dir):
    stub_sheet["sheet"] = built_sheet(["1m", "2m"], unsure=[0, 1])
    at = _read_sheet(stub_sheet_page(stub_sheet), _photo(), codes="12m")
    click(at, "teach_save")
    assert [e.value for e in at.error] == [
        "no tile of these photos is sure of its code: nothing was taught"]
    assert not (data_dir / "tilesets").exists()
    menus(at)[1].set_value("2m").run()
    click(at, "teach_save")
    assert load_set("Jade", data_dir).codes == ("2m",)
