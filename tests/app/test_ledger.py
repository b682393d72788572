"""The night's ledger (app/ledger.py): add, totals, undo, CSV, names, schema version, and
two writers at once (two browser tabs are two sessions: two threads, or two processes)."""
from __future__ import annotations

import csv
import io
import multiprocessing
import os
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
    (None, None),  # elsewhere: the file's name, not where it lives
])
def test_the_page_shows_the_ledger_path_home_relative(tmp_path, monkeypatch, under_home, shown):
    from app.ui.ledger_view import home_relative
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    path = tmp_path / "home" / under_home if under_home else tmp_path / "elsewhere" / "l.sqlite3"
    assert home_relative(path) == (shown or "l.sqlite3")


# --- one night however many open a new ledger at once ----------------------------------------

OPEN_AT = """
import sys
from app.ledger import Ledger
print("ready", flush=True)
sys.stdin.readline()  # every process is up and waiting: all open the ledger at once
print(Ledger(sys.argv[1]).current_night())
"""


@pytest.mark.slow
def test_eight_processes_opening_a_fresh_ledger_start_one_night(tmp_path):
    import subprocess
    import sys
    for round_ in range(3):
        folder = tmp_path / f"round{round_}"
        procs = [subprocess.Popen([sys.executable, "-c", OPEN_AT, str(folder)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(8)]
        ready = [p.stdout.readline().strip() for p in procs]
        assert ready == ["ready"] * 8, [p.stderr.read() for p in procs]
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        outs = [p.communicate(timeout=60) for p in procs]
        assert [p.returncode for p in procs] == [0] * 8, [err for _, err in outs]
        assert {out.strip() for out, _ in outs} == {"1"}
        with sqlite3.connect(folder / "ledger.sqlite3") as conn:
            assert conn.execute("SELECT COUNT(*) FROM nights").fetchone() == (1,)


# --- names belong to players; tonight; past nights --------------------------------------------

def test_renaming_the_players_after_a_hand_carries_the_hand(tmp_path):
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    ledger.add_hand(night, WIN, "t1")
    ledger.set_names(night, ["Ann", "Bo", "Cai", "Dee"])
    assert ledger.totals(night) == {"Ann": 47, "Bo": -23, "Cai": -8, "Dee": -16}
    assert ledger.hands(night)[0].amounts == {"Ann": 47, "Bo": -23, "Cai": -8, "Dee": -16}
    assert ledger.hands(night)[0].winner_name == "Ann"
    header, first, total = list(csv.reader(io.StringIO(ledger.to_csv(night))))
    assert header[7:] == ["Ann", "Bo", "Cai", "Dee"] and total[7:] == ["47", "-23", "-8", "-16"]
    ledger.set_names(night, ["Ann", "Zed", "Cai", "Dee"])   # one more rename: Bo is now Zed
    ledger.rotate(night)                                      # Zed moves to East, Ann to North
    assert ledger.names(night) == ["Zed", "Cai", "Dee", "Ann"]
    assert ledger.totals(night) == {"Zed": -23, "Cai": -8, "Dee": -16, "Ann": 47}


def test_a_hand_from_a_tab_opened_before_new_night_is_refused_in_one_line(tmp_path):
    ledger = Ledger(tmp_path)
    old = ledger.current_night()                # the stale tab's night
    new = Ledger(tmp_path).new_night(["Ann", "Bo", "Cai", "Dee"])
    with pytest.raises(LedgerError, match="tonight changed") as info:
        ledger.add_hand(old, WIN, "stale")
    assert "\n" not in str(info.value)
    assert ledger.current_night() == new and ledger.hands(old) == []
    ledger.add_hand(ledger.current_night(), WIN, "stale")   # added again: it goes in tonight
    assert len(ledger.hands(new)) == 1


def test_past_nights_are_kept_and_can_be_reopened(tmp_path):
    ledger = Ledger(tmp_path)
    first = ledger.current_night()
    ledger.add_hand(first, WIN, "a")
    second = ledger.new_night(["Ann", "Bo", "Cai", "Dee"])
    assert [(n.id, n.hands, n.names[0]) for n in ledger.nights()] == [(second, 0, "Ann"), (first, 1, "East")]
    ledger.reopen(first)
    assert ledger.current_night() == first
    ledger.add_hand(first, SELF, "b")
    assert len(ledger.hands(first)) == 2 and "East" in ledger.to_csv(first)
    with pytest.raises(LedgerError, match="no night"):
        ledger.reopen(999)


# --- viewing needs no write access ------------------------------------------------------------

def _no_writes(monkeypatch):
    def refuse(self, fn):
        raise LedgerError("cannot write the ledger (database or disk is full)")
    monkeypatch.setattr(Ledger, "_write", refuse)


def test_a_full_disk_still_shows_the_ledger(tmp_path, monkeypatch):
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    ledger.add_hand(night, WIN, "a")
    _no_writes(monkeypatch)
    viewer = Ledger(tmp_path)                   # opening writes nothing
    assert viewer.current_night() == night and viewer.totals(night)["East"] == 47
    assert len(viewer.hands(night)) == 1 and viewer.nights() and viewer.to_csv(night)
    with pytest.raises(LedgerError, match="disk is full"):
        viewer.add_hand(night, SELF, "b")


VIEW = """
import sys
from app.ledger import Ledger, LedgerError
ledger = Ledger(sys.argv[1])
night = ledger.current_night()
try:
    ledger.new_night()
    print("written")
except LedgerError as exc:
    print(ledger.read_only, len(ledger.hands(night)), sum(ledger.totals(night).values()), exc)
"""


def _as_a_user_without_write_access(script: str, *args: str) -> str:
    """Run a script where file permissions hold (root's override dropped when run as root)."""
    import shutil
    import subprocess
    import sys
    cmd = [sys.executable, "-c", script, *args]
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("root without setpriv writes anything")
        cmd = ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--ambient-caps=-all", *cmd]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="Unix permissions")
@pytest.mark.parametrize("version", [1, SCHEMA_VERSION])
def test_a_read_only_ledger_folder_is_shown(tmp_path, version):
    if version == 1:
        folder = _version_1_folder(tmp_path)
    else:
        folder = tmp_path / "data"
        ledger = Ledger(folder)
        ledger.add_hand(ledger.current_night(), WIN, "a")
    os.chmod(folder / "ledger.sqlite3", 0o444)
    os.chmod(folder, 0o555)
    try:
        shown = _as_a_user_without_write_access(VIEW, str(folder))
    finally:
        os.chmod(folder, 0o755)
    assert shown.startswith("True 1 0 the ledger is read-only here"), shown


# --- a data folder from the version before opens with nothing lost ----------------------------

VERSION_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE nights (id INTEGER PRIMARY KEY, started REAL NOT NULL, label TEXT NOT NULL DEFAULT '');
CREATE TABLE seats (night_id INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3), name TEXT NOT NULL, PRIMARY KEY (night_id, seat));
CREATE TABLE hands (id INTEGER PRIMARY KEY,
    night_id INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE, token TEXT NOT NULL UNIQUE,
    created REAL NOT NULL, rules TEXT NOT NULL, preset TEXT, notation TEXT NOT NULL,
    total REAL NOT NULL, winner TEXT NOT NULL, discarder TEXT, detail TEXT NOT NULL DEFAULT '{}');
CREATE TABLE amounts (hand_id INTEGER NOT NULL REFERENCES hands(id) ON DELETE CASCADE,
    player TEXT NOT NULL, seat TEXT NOT NULL, amount REAL NOT NULL, PRIMARY KEY (hand_id, player));
CREATE INDEX hands_by_night ON hands(night_id, id);
INSERT INTO meta VALUES ('schema_version', '1'), ('setting.language', 'pl');
INSERT INTO nights VALUES (1, 1700000000, ''), (2, 1700100000, '');
INSERT INTO seats VALUES (1, 0, 'Bo', 0), (1, 1, 'Cy', 0), (1, 2, 'Di', 0), (1, 3, 'Ann', 0);
INSERT INTO seats VALUES (2, 0, 'East', 0), (2, 1, 'South', 0), (2, 2, 'West', 0), (2, 3, 'North', 0);
INSERT INTO hands VALUES (1, 1, 'a', 1700000100, 'mcr', 'wmo', '123m456p789sEEESS', 15, 'E', 'S', '{}');
INSERT INTO hands VALUES (2, 1, 'b', 1700000200, 'mcr', 'wmo', '123m456p789sEEESS', 15, 'E', 'S', '{}');
INSERT INTO hands VALUES (3, 2, 'c', 1700100100, 'mcr', 'wmo', '[EEE]123m456p789sSS', 10, 'W', NULL, '{}');
INSERT INTO amounts VALUES (1, 'Ann', 'E', 47, 0), (1, 'Bo', 'S', -23, 0), (1, 'Cy', 'W', -8, 0), (1, 'Di', 'N', -16, 0);
INSERT INTO amounts VALUES (2, 'Bo', 'E', 47, 0), (2, 'Cy', 'S', -23, 0), (2, 'Di', 'W', -8, 0), (2, 'Ann', 'N', -16, 0);
INSERT INTO amounts VALUES (3, 'East', 'E', -18, 0), (3, 'South', 'S', -18, 0), (3, 'West', 'W', 54, 0), (3, 'North', 'N', -18, 0);
"""


def _version_1_folder(tmp_path):
    """A data folder as the version before wrote it: night 1 with the winds moved on once
    (Ann was East, then Bo), night 2 with the default names."""
    folder = tmp_path / "data"
    folder.mkdir()
    with sqlite3.connect(folder / "ledger.sqlite3") as conn:
        conn.executescript(VERSION_1.replace(", 0);", ");").replace(", 0),", "),"))
        conn.execute("PRAGMA journal_mode = WAL")
    return folder


def test_a_version_1_data_folder_opens_with_nothing_lost(tmp_path):
    ledger = Ledger(_version_1_folder(tmp_path))
    assert ledger.current_night() == 2 and ledger.setting("language") == "pl"
    assert ledger.totals(1) == {"Bo": 47 - 23, "Cy": -23 - 8, "Di": -8 - 16, "Ann": -16 + 47}
    assert ledger.totals(2) == {"East": -18, "South": -18, "West": 54, "North": -18}
    assert [h.amounts for h in ledger.hands(1)][0] == {"Ann": 47, "Bo": -23, "Cy": -8, "Di": -16}
    assert [n.hands for n in ledger.nights()] == [1, 2]
    ledger.set_names(1, ["Bob", "Cy", "Di", "Ann"])       # a rename now carries Bo's hands
    assert ledger.totals(1)["Bob"] == 24
    with sqlite3.connect(ledger.path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)


def test_a_version_1_file_that_cannot_be_written_is_viewed_as_it_is(tmp_path, monkeypatch):
    folder = _version_1_folder(tmp_path)
    before = (folder / "ledger.sqlite3").read_bytes()
    _no_writes(monkeypatch)
    ledger = Ledger(folder)
    assert ledger.read_only and ledger.current_night() == 2
    assert ledger.totals(1)["Ann"] == 31 and len(ledger.hands(1)) == 2
    assert (folder / "ledger.sqlite3").read_bytes() == before


# --- CSV for a spreadsheet: no formula from a name --------------------------------------------

def test_names_that_look_like_formulas_are_written_as_text(tmp_path):
    ledger = Ledger(tmp_path)
    night = ledger.current_night()
    names = ['=HYPERLINK("http://x")', "+1", "@SUM(A1)", "-2+3"]
    ledger.set_names(night, names)
    ledger.add_hand(night, WIN, "a")
    header, row, total = list(csv.reader(io.StringIO(ledger.to_csv(night))))
    assert header[7:] == ["'" + n for n in names]
    assert row[7:] == ["47", "-23", "-8", "-16"] and row[5] == "'" + names[0]  # numbers stay numbers


def test_messages_do_not_show_where_the_ledger_lives(tmp_path):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "ledger.sqlite3").write_bytes(b"not a database at all" * 100)
    with pytest.raises(LedgerError) as info:
        Ledger(tmp_path / "bad")
    assert str(tmp_path) not in str(info.value)


@pytest.mark.parametrize("text, written", [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@A1", "'@A1"), ("\tx", "'\tx"),
    ("\rx", "'\rx"), ("Ann", "Ann"), ("a=b", "a=b"), ("", ""),
])
def test_a_text_cell_never_starts_a_formula(text, written):
    from app.ledger import _cell
    assert _cell(text) == written


def test_an_upgraded_file_refuses_a_hand_for_a_night_before_the_last(tmp_path):
    ledger = Ledger(_version_1_folder(tmp_path))        # no 'tonight' yet: the last night is
    with pytest.raises(LedgerError, match="tonight changed"):
        ledger.add_hand(1, WIN, "late")
    ledger.add_hand(2, WIN, "now")
    assert len(ledger.hands(2)) == 2
