"""The night's ledger (app/ledger.py): add, totals, undo, CSV, names, schema version, and
two writers at once (two browser tabs are two sessions: two threads, or two processes)."""
from __future__ import annotations

import csv
import io
import multiprocessing
import sqlite3
import threading

import pytest

from app.ledger import SCHEMA_VERSION, HandEntry, Ledger, LedgerError, data_dir

WIN = HandEntry("mcr", "123m456p789sEEESS", 15, "E", {"E": 47, "S": -23, "W": -8, "N": -16},
                discarder="S", preset="wmo")
SELF = HandEntry("mcr", "[EEE]123m456p789sSS", 10, "W", {"E": -18, "S": -18, "W": 54, "N": -18})


def test_data_dir_flag_then_env_then_home(monkeypatch, tmp_path):
    monkeypatch.setenv("MAHJONG_LENS_DATA", str(tmp_path / "env"))
    assert data_dir(tmp_path / "flag") == tmp_path / "flag"
    assert data_dir() == tmp_path / "env"
    monkeypatch.delenv("MAHJONG_LENS_DATA")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_dir() == tmp_path / "home" / ".mahjong-lens"


def test_add_totals_undo_and_csv(tmp_path):
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    ledger.set_names(night, ["Ann", "Bo", "Cy", "Di"])
    first = ledger.add_hand(night, WIN, "t1")
    second = ledger.add_hand(night, SELF, "t2")
    assert ledger.totals(night) == {"Ann": 29, "Bo": -41, "Cy": 46, "Di": -34}
    assert sum(ledger.totals(night).values()) == 0
    rows = list(csv.reader(io.StringIO(ledger.to_csv(night))))
    assert rows[0] == ["hand", "time", "rules", "notation", "total", "winner", "discarder",
                       "Ann", "Bo", "Cy", "Di"]
    assert rows[1][0] == "1" and rows[1][3] == WIN.notation and rows[1][7:] == ["47", "-23", "-8", "-16"]
    assert rows[-1] == ["total", "", "", "", "", "", "", "29", "-41", "46", "-34"]
    with pytest.raises(LedgerError, match="another tab"):
        ledger.undo(night, first)  # not the last hand any more
    ledger.undo(night, second)
    assert [h.id for h in ledger.hands(night)] == [first]


def test_the_same_hand_goes_in_once(tmp_path):
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    ledger.add_hand(night, WIN, "same")
    with pytest.raises(LedgerError, match="already in the ledger"):
        ledger.add_hand(night, WIN, "same")
    assert len(ledger.hands(night)) == 1


def test_seats_move_on_and_amounts_follow_the_names(tmp_path):
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    ledger.set_names(night, ["Ann", "Bo", "Cy", "Di"])
    ledger.add_hand(night, WIN, "a")          # Ann is East
    ledger.set_names(night, ["Bo", "Cy", "Di", "Ann"])
    ledger.add_hand(night, WIN, "b")          # now Bo is East
    assert ledger.totals(night) == {"Bo": 47 - 23, "Cy": -23 - 8, "Di": -8 - 16, "Ann": -16 + 47}


@pytest.mark.parametrize("names, message", [
    (["Ann", "ann", "Cy", "Di"], "four different names"),
    (["Ann", "Bo", "Cy"], "four players"),
])
def test_bad_names_are_refused(tmp_path, names, message):
    ledger = Ledger(tmp_path)
    with pytest.raises(LedgerError, match=message):
        ledger.set_names(ledger.current_night(), names)


def test_unbalanced_payments_are_refused(tmp_path):
    ledger = Ledger(tmp_path)
    bad = HandEntry("mcr", "x", 1, "E", {"E": 3, "S": -1, "W": -1, "N": 0})
    with pytest.raises(LedgerError, match="zero"):
        ledger.add_hand(ledger.current_night(), bad, "t")


def test_survives_a_restart_and_keeps_the_schema_version(tmp_path):
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    ledger.add_hand(night, WIN, "t")
    again = Ledger(tmp_path)
    assert again.current_night() == night and len(again.hands(night)) == 1
    with sqlite3.connect(again.path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_newer_or_corrupt_file_is_refused_with_a_message(tmp_path):
    Ledger(tmp_path / "new")
    with sqlite3.connect(tmp_path / "new" / "ledger.sqlite3") as conn:
        conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    with pytest.raises(LedgerError, match="newer"):
        Ledger(tmp_path / "new")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "ledger.sqlite3").write_bytes(b"not a database at all" * 100)
    with pytest.raises(LedgerError, match="not a database"):
        Ledger(tmp_path / "bad")


def test_two_tabs_writing_at_once_lose_nothing(tmp_path):
    """Two sessions (threads, each with its own connections) add 40 hands each."""
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    errors = []

    def tab(name):
        try:
            other = Ledger(tmp_path)
            for i in range(40):
                other.add_hand(night, WIN if i % 2 else SELF, f"{name}-{i}")
                other.totals(night)
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)
    threads = [threading.Thread(target=tab, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(ledger.hands(night)) == 80 and sum(ledger.totals(night).values()) == 0
    with sqlite3.connect(ledger.path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def _writer(folder, night, name):
    ledger = Ledger(folder)
    for i in range(25):
        ledger.add_hand(night, WIN, f"{name}-{i}")


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(tmp_path, night, n)) for n in ("p", "q")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0]
    assert len(ledger.hands(night)) == 50


@pytest.mark.parametrize("under_home, shown", [
    (".mahjong-lens/ledger.sqlite3", "~/.mahjong-lens/ledger.sqlite3"),
    (None, None),  # elsewhere: the path as it is
])
def test_the_page_shows_the_ledger_path_home_relative(tmp_path, monkeypatch, under_home, shown):
    from app.ui.ledger_view import home_relative
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    path = tmp_path / "home" / under_home if under_home else tmp_path / "elsewhere" / "l.sqlite3"
    assert home_relative(path) == (shown or str(path))
