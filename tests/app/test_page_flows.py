"""The page's flows in AppTest: manual entry, correction, what the photo cannot show, rule
options, the result, and the ledger (add, totals, undo, CSV, reload)."""
from __future__ import annotations

import csv
import io

from streamlit.testing.v1 import AppTest

from app import edit
from app_fixtures import PAGE, click, keys, tap_palette, texts, tile_key

HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]


def build(at, codes=HAND):
    at.segmented_control(key="mode__win").set_value("Manual").run()
    for code in codes:
        tap_palette(at, code)
    return at


def draft(at, who="win"):
    return at.session_state["drafts"][who]


def test_manual_mode_builds_a_hand_from_the_palette_and_scores_it(page):
    build(page)
    assert draft(page).winning.code == "2z" and draft(page).size == 14
    said = texts(page)
    assert "a valid hand" in page.success[0].value
    assert "Mixed Straight" in said and "花龙" in said and "Total:" in said
    assert len(page.image) >= 2  # tiles of the fans


def test_typed_notation_fills_the_hand(page):
    page.segmented_control(key="mode__win").set_value("Manual").run()
    page.text_input(key="notation__win__0").set_value("[123m][EEE1]456p789sSS").run()
    d = draft(page)
    assert [m.kind for m in d.melds] == ["chow", "pung"] and d.winning.code == "2z"
    page.text_input(key="notation__win__0").set_value("[12m]nonsense").run()
    assert "Could not read" in texts(page) and not page.exception


def test_correction_replace_remove_add_move_kind_and_winning_tile(page):
    build(page)
    # replace: 1m → 4m, then back
    click(page, tile_key(page, "win", "hand", 0))
    assert any("__sel__" in k for k in keys(page, "tile__win__hand__0__"))
    tap_palette(page, "4m")
    assert "4m" in draft(page).codes() and "1m" not in draft(page).codes()
    click(page, tile_key(page, "win", "hand", [s.code for s in draft(page).hand].index("4m")))
    tap_palette(page, "1m")
    # move 1m 2m 3m into a new set: a chow, exposed
    for code in ("1m", "2m", "3m"):
        index = [s.code for s in draft(page).hand].index(code)
        click(page, tile_key(page, "win", "hand", index))
        page.selectbox(key=f"moveto__win__hand__{index}").set_value(
            "new_meld" if code == "1m" else "meld0").run()
    assert draft(page).melds[0].kind == "chow" and len(draft(page).melds[0].tiles) == 3
    assert "Set 1" in [s.label for s in page.selectbox]
    assert "Chow, exposed" in [s.value and edit.KIND_LABELS.get(s.value) for s in page.selectbox]
    # change its kind: back to the concealed tiles
    kind = next(s for s in page.selectbox if s.key.startswith("kind__win__meld0__"))
    kind.set_value("loose").run()
    assert not draft(page).melds and len(draft(page).hand) == 13
    # remove a tile, add it back through the "+" of the concealed group
    click(page, tile_key(page, "win", "hand", 0))
    click(page, "act__win__remove")
    assert len(draft(page).hand) == 12
    click(page, keys(page, "add__win__hand__")[0])
    tap_palette(page, "1m")
    assert len(draft(page).hand) == 13
    # choose another winning tile: the old one goes back to the hand
    click(page, tile_key(page, "win", "hand", [s.code for s in draft(page).hand].index("9s")))
    click(page, "act__win__winning")
    assert draft(page).winning.code == "9s" and draft(page).codes().count("2z") == 2
    # a bonus tile goes to the bonus group whatever the target
    tap_palette(page, "6f")
    assert [s.code for s in draft(page).bonus] == ["6f"]
    # a refused edit is a plain warning
    click(page, tile_key(page, "win", "bonus", 0))
    tap_palette(page, "5p")
    assert "not a flower" in texts(page) or "bonus" in texts(page)


def test_what_the_photo_cannot_show_changes_the_score_and_payments(page):
    build(page)
    said = texts(page)
    assert "tap who discarded" in said  # no payments before 'how'
    page.pills(key="how__0__0").set_value(1).run()  # South discarded
    table = next(m.value for m in page.markdown if m.value.startswith("| Player | Seat"))
    assert "| East | E | **+39** |" in table and "| South | S | **−23** |" in table
    total_discard = page.success[0].value
    page.pills(key="how__0__0").set_value("self").run()
    assert page.success[0].value != total_discard  # self-drawn scores differently
    page.segmented_control(key="round").set_value(1).run()  # round wind South: no Prevalent Wind
    assert "Prevalent Wind" not in texts(page)
    page.toggle(key="last_tile__0").set_value(True).run()
    assert "Last Tile Draw" in texts(page)
    page.selectbox(key="winner").set_value(2).run()  # West won: seat wind changes
    assert "Seat Wind" not in texts(page)


def test_rule_sets_presets_and_options(page):
    build(page)
    page.pills(key="how__0__0").set_value("self").run()
    page.segmented_control(key="rules").set_value("hk001").run()
    assert "fan" in page.success[0].value
    page.selectbox(key="preset__hk001").set_value("hk002").run()
    assert not page.exception
    minimum = next(n for n in page.number_input if n.key.endswith("__minimum"))
    minimum.set_value(13).run()
    assert "Not valid" in texts(page)
    page.segmented_control(key="rules").set_value("mcr").run()
    assert "points" in page.success[0].value


def test_classical_takes_the_other_players_hands(page):
    build(page)
    page.segmented_control(key="rules").set_value("classical").run()
    page.pills(key="how__0__0").set_value("self").run()
    page.segmented_control(key="whose__0").set_value("o1").run()
    page.segmented_control(key="mode__o1").set_value("Manual").run()
    for code in ["5z", "5z", "5z", "9m", "9m", "3p", "4p"]:
        tap_palette(page, code, who="o1")
    assert draft(page, "o1").winning is None and len(draft(page, "o1").hand) == 7
    said = texts(page)
    assert "Every player's hand" in said and "hand not given" in said
    south = next(m.value for m in page.markdown if m.value.startswith("South (S)"))
    assert "nothing scores" not in south


def _add(at):
    at.pills(key="how__0__0").set_value(1).run()
    click(at, "ledger_add")
    return at


def test_ledger_add_undo_export_and_reload(page, data_dir):
    names = [t for t in page.text_input if t.key.startswith("name__")]
    names[0].set_value("Ann").run()
    build(page)
    _add(page)
    assert "In the ledger as hand 1" in texts(page)
    assert not keys(page, "ledger_add")  # added once: the button is gone
    totals = next(m.value for m in page.markdown if m.value.startswith("| Player | Total"))
    assert "| Ann | **+39** | 4 |" in totals and "Table points" in totals
    row = page.dataframe[0].value.iloc[0]  # in words, not codes; columns by position
    assert (row["2"], row["3"], row["4"]) == ("123m 456p 789s EEE S · won on S", "MCR", "Ann")
    assert page.download_button(key="csv").label == "CSV"
    rows = list(csv.reader(io.StringIO(_csv(data_dir))))  # what the CSV button serves
    assert rows[1][3] == "123m456p789sEEESS" and rows[-1][0] == "total" and "Ann" in rows[0]
    # reload: a new session on the same data folder sees the ledger
    again = AppTest.from_file(PAGE, default_timeout=30)
    again.run()
    totals = next(m.value for m in again.markdown if m.value.startswith("| Player | Total"))
    assert "| Ann | **+39** |" in totals
    click(again, "undo")
    totals = next(m.value for m in again.markdown if m.value.startswith("| Player | Total"))
    assert "| Ann | **0** |" in totals and not keys(again, "undo")
    # next hand: the page forgets the hand, keeps the players
    click(page, "next_hand")
    assert draft(page).codes() == [] and "Ann" in [t.value for t in page.text_input]


def _csv(folder):
    from app.ledger import Ledger
    ledger = Ledger(folder)
    return ledger.to_csv(ledger.current_night())


def test_an_impossible_hand_is_a_plain_message(page):
    build(page, ["5p"] * 5 + HAND[5:])
    said = texts(page)
    assert "More than 4 of 5p" in said and "5 copies of 5p" in said
    assert not page.exception and not page.error


def test_an_unexpected_failure_is_one_line_and_the_page_goes_on(page, monkeypatch):
    from app import evaluate

    def broken(*args, **kwargs):
        raise RuntimeError("scorer fell over\nwith a second line")
    monkeypatch.setattr(evaluate, "score_draft", broken)
    build(page)
    assert not page.exception
    message = page.error[0].value
    assert message.startswith("Something went wrong in the score") and "\n" not in message
    assert page.subheader[-1].value == "Tonight"  # the ledger still drew


def test_each_tap_leaves_the_import_path_as_it_was(page):
    """Streamlit runs the page file again at every tap; over a night of taps nothing may pile
    up on sys.path (each entry slows every later import)."""
    import sys

    before = list(sys.path)
    for code in HAND[:3]:
        tap_palette(page.segmented_control(key="mode__win").set_value("Manual").run(), code)
    assert sys.path == before
