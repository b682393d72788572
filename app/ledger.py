"""The night's ledger: four players, the winds they sit at, each scored hand with what every
player got, totals, and the nights before tonight.

One SQLite file in the data folder (`--data-dir`, else `$MAHJONG_LENS_DATA`, else
`~/.mahjong-lens`). Write-ahead logging, a busy timeout and `BEGIN IMMEDIATE` transactions
let two browser tabs (two Streamlit sessions, two threads) or two processes write without
corrupting it; a connection is opened per operation, so nothing is shared between threads.
Each hand carries a token, so a double tap or a second tab adds a scored hand once; undo
names the hand it removes, so two tabs cannot undo two hands with one intent.

A night has four players, numbered 0-3 for the night; a name belongs to a player and each
amount to the player who got it, so renaming a player carries the hands already played and
moving seats ("the winds move on") carries each player's total with them. Tonight is the
night the file points at: a new night or a reopened past one; a hand sent for another
night (a tab opened before "New night") is refused, never hidden in a night not shown.

Viewing never writes: a file on a full disk or a read-only one is shown as it is; only a
change needs write access. `schema_version` in `meta` says which layout the file has; an
older file is brought up to date in one transaction (a read-only one is read through an
up-to-date copy in memory), a file from a newer version is refused, not rewritten.
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from scoring.payments import SEATS, amount, money_sum, money_text
from vision.runtime import data_dir

SCHEMA_VERSION = 2
FILE_NAME = "ledger.sqlite3"
DEFAULT_NAMES = ("East", "South", "West", "North")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nights (
    id INTEGER PRIMARY KEY, started REAL NOT NULL, label TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS seats (
    night_id INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    name TEXT NOT NULL,
    player_no INTEGER NOT NULL CHECK (player_no BETWEEN 0 AND 3),
    PRIMARY KEY (night_id, seat));
CREATE TABLE IF NOT EXISTS hands (
    id INTEGER PRIMARY KEY,
    night_id INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
    token TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    rules TEXT NOT NULL, preset TEXT, notation TEXT NOT NULL,
    total REAL NOT NULL, winner TEXT NOT NULL, discarder TEXT,
    detail TEXT NOT NULL DEFAULT '{}');
CREATE TABLE IF NOT EXISTS amounts (
    hand_id INTEGER NOT NULL REFERENCES hands(id) ON DELETE CASCADE,
    player TEXT NOT NULL, seat TEXT NOT NULL, amount REAL NOT NULL,
    player_no INTEGER NOT NULL CHECK (player_no BETWEEN 0 AND 3),
    PRIMARY KEY (hand_id, player));
CREATE INDEX IF NOT EXISTS hands_by_night ON hands(night_id, id);
"""
# version 1 → 2: players numbered for the night; an amount belongs to the player with that
# name tonight, else (a name since changed) to the player numbered by the seat it was won at
UPGRADE_1 = """
ALTER TABLE seats ADD COLUMN player_no INTEGER NOT NULL DEFAULT 0;
UPDATE seats SET player_no = seat;
ALTER TABLE amounts ADD COLUMN player_no INTEGER NOT NULL DEFAULT 0;
UPDATE amounts SET player_no = COALESCE(
    (SELECT s.player_no FROM seats s JOIN hands h ON h.night_id = s.night_id
     WHERE h.id = amounts.hand_id AND s.name = amounts.player),
    instr('ESWN', amounts.seat) - 1);
"""
# what a failed write says: a full disk, a read-only file or folder
_NO_WRITE = ("readonly", "read-only", "disk is full", "unable to open", "disk i/o")


class LedgerError(ValueError):
    """The ledger cannot be used or the change was refused; one line for the player."""


@dataclass(frozen=True)
class HandEntry:
    """One scored hand as the ledger keeps it. `amounts`: seat letter → amount (zero-sum)."""
    rules: str
    notation: str
    total: float
    winner: str                      # seat letter
    amounts: Mapping[str, float]
    discarder: str | None = None
    preset: str | None = None
    detail: dict = field(default_factory=dict)  # fans, options, context: for the CSV and review


@dataclass(frozen=True)
class HandRow:
    id: int
    number: int                      # 1.. within the night
    created: float
    rules: str
    notation: str
    total: float
    winner: str                      # seat letter
    discarder: str | None
    amounts: dict[str, float]        # player name (tonight's) → amount
    winner_name: str = ""            # the winner's name tonight


@dataclass(frozen=True)
class NightRow:
    """One night in the list of nights."""
    id: int
    started: float
    names: list[str]                 # by seat, as the night last stood
    hands: int
    label: str = ""


class Ledger:
    def __init__(self, folder: str | os.PathLike | None = None, timeout: float = 10.0) -> None:
        self.folder = data_dir(folder)
        self.path = self.folder / FILE_NAME
        self.timeout = timeout
        self.read_only = False
        self._snapshot: sqlite3.Connection | None = None  # an old read-only file, brought up to date
        self._snapshot_lock = threading.Lock()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            if not self.path.is_file():
                raise LedgerError(f"cannot create the data folder ({exc.strerror or exc})") from None
        self._open()

    # --- plumbing ------------------------------------------------------------------------
    def _open(self) -> None:
        """Bring the file up to date if it needs it; view it read-only if that cannot be written."""
        version = self._version()
        if version > SCHEMA_VERSION:
            raise LedgerError(f"the ledger was written by a newer mahjong-lens "
                              f"(schema {version}, this one knows {SCHEMA_VERSION})")
        if version == SCHEMA_VERSION:
            return
        try:
            self._set_wal()
            self._write(self._migrate)
        except LedgerError as exc:
            if version == 0 or not (self.read_only or _is_write_failure(exc)):
                raise
            self.read_only = True
            self._snapshot = self._upgraded_copy()

    def _connect(self) -> sqlite3.Connection:
        if self.read_only:
            return self._connect_read_only()
        try:
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            conn.execute("PRAGMA busy_timeout = %d" % int(self.timeout * 1000))
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"cannot open the ledger ({exc})") from None
        return conn

    def _connect_read_only(self) -> sqlite3.Connection:
        """Read-only; a write-ahead-logged file in a folder that cannot be written (no -shm
        file can be made) is read as it stands on disk (`immutable`)."""
        uri = self.path.resolve().as_uri()
        error = None
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            conn = sqlite3.connect(uri + query, uri=True, timeout=self.timeout, isolation_level=None)
            try:
                conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
                return conn
            except sqlite3.DatabaseError as exc:
                conn.close()
                error = exc
        raise LedgerError(f"cannot open the ledger ({error})")

    def _write(self, fn):
        """Run fn(conn) in one BEGIN IMMEDIATE transaction."""
        if self.read_only:
            raise LedgerError("the ledger is read-only here (a read-only file or a full disk): "
                              "it can be viewed, not changed")
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                out = fn(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return out
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"cannot write the ledger ({exc})") from None
        finally:
            conn.close()

    def _read(self, sql: str, args=()) -> list[tuple]:
        """A query; a file that cannot even be opened for writing is read read-only."""
        if self._snapshot is not None:
            with self._snapshot_lock:
                return self._snapshot.execute(sql, args).fetchall()
        try:
            return self._query(sql, args)
        except LedgerError as exc:
            if self.read_only or not _is_write_failure(exc):
                raise
            self.read_only = True
            return self._query(sql, args)

    def _query(self, sql: str, args) -> list[tuple]:
        conn = self._connect()
        try:
            return conn.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"cannot read the ledger ({exc})") from None
        finally:
            conn.close()

    def _version(self) -> int:
        """The file's schema version, read without writing anything (0: no ledger yet)."""
        if not self.path.is_file() or self.path.stat().st_size == 0:
            return 0
        if not self._read("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'"):
            return 0
        row = self._read("SELECT value FROM meta WHERE key='schema_version'")
        return _schema_number(row[0][0]) if row else 0

    def _set_wal(self) -> None:
        """Write-ahead logging, once per file (it stays set); several processes may try at once."""
        for attempt in range(50):
            conn = self._connect()
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise LedgerError(f"cannot write the ledger ({exc})") from None
                time.sleep(0.02 * (attempt + 1))
            finally:
                conn.close()

    def _migrate(self, conn) -> None:
        """Create or upgrade the tables (inside the write transaction, so once)."""
        row = None
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name='meta'").fetchone():
            row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        version = _schema_number(row[0]) if row else 0
        if version == SCHEMA_VERSION:
            return  # another process did it first
        if version == 1:  # statement by statement: executescript would commit half-way
            for statement in UPGRADE_1.split(";"):
                if statement.strip():
                    conn.execute(statement)
        for statement in SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))

    def _upgraded_copy(self) -> sqlite3.Connection:
        """An old read-only file copied into memory and upgraded there, for viewing."""
        source = self._connect()
        try:
            memory = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            source.backup(memory)
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"cannot read the ledger ({exc})") from None
        finally:
            source.close()
        memory.execute("BEGIN")
        self._migrate(memory)
        memory.execute("COMMIT")
        return memory

    # --- nights and seats ----------------------------------------------------------------
    def current_night(self) -> int:
        """Tonight: the night last started or reopened; the first night is started once, however
        many tabs or processes open a new ledger at the same moment."""
        night = self._tonight()
        return night if night is not None else self._write(self._first_night)

    def _tonight(self) -> int | None:
        row = self._read("SELECT CAST(value AS INTEGER) FROM meta WHERE key='tonight' "
                         "AND CAST(value AS INTEGER) IN (SELECT id FROM nights)")
        if row:
            return row[0][0]
        latest = self._read("SELECT MAX(id) FROM nights")
        return latest[0][0] if latest else None

    def _first_night(self, conn) -> int:
        latest = conn.execute("SELECT MAX(id) FROM nights").fetchone()[0]
        return latest if latest is not None else self._start(conn, _clean_names(DEFAULT_NAMES), "")

    @staticmethod
    def _start(conn, names: list[str], label: str) -> int:
        night = conn.execute("INSERT INTO nights (started, label) VALUES (?, ?)",
                             (time.time(), label)).lastrowid
        conn.executemany("INSERT INTO seats (night_id, seat, name, player_no) VALUES (?, ?, ?, ?)",
                         [(night, i, n, i) for i, n in enumerate(names)])
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('tonight', ?)", (str(night),))
        return night

    def new_night(self, names=DEFAULT_NAMES, label: str = "") -> int:
        """Start a new night, which becomes tonight; the nights before are kept."""
        names = _clean_names(names)
        return self._write(lambda conn: self._start(conn, names, label))

    def reopen(self, night: int) -> None:
        """Make a past night tonight again (to go on with it)."""
        def reopen(conn):
            if not conn.execute("SELECT 1 FROM nights WHERE id=?", (night,)).fetchone():
                raise LedgerError(f"there is no night {night} in the ledger")
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('tonight', ?)", (str(night),))
        self._write(reopen)

    def nights(self) -> list[NightRow]:
        """Every night, the latest first."""
        counts = dict(self._read("SELECT night_id, COUNT(*) FROM hands GROUP BY night_id"))
        seats: dict[int, list[str]] = {}
        for night, name in self._read("SELECT night_id, name FROM seats ORDER BY night_id, seat"):
            seats.setdefault(night, []).append(name)
        return [NightRow(i, started, seats.get(i, list(DEFAULT_NAMES)), counts.get(i, 0), label)
                for i, started, label in self._read(
                    "SELECT id, started, label FROM nights ORDER BY id DESC")]

    def mark(self) -> tuple:
        """What every phone at the table shows of the ledger, in one cheap read: equal marks,
        nothing to redraw (tonight, the settings, the seats, the hands; an undone hand and a new
        one in its place differ by their token)."""
        return tuple(self._read(
            "SELECT (SELECT group_concat(key || '=' || value, ';') FROM meta),"
            " (SELECT group_concat(night_id || seat || name || player_no, ';') FROM seats),"
            " (SELECT COUNT(*) FROM hands),"
            " (SELECT id || token FROM hands ORDER BY id DESC LIMIT 1)")[0])

    def names(self, night: int) -> list[str]:
        """The names by seat (E, S, W, N)."""
        got = dict(self._read("SELECT seat, name FROM seats WHERE night_id=?", (night,)))
        return [got.get(i, DEFAULT_NAMES[i]) for i in range(4)]

    def _players(self, night: int) -> dict[int, str]:
        """Player number → name, in seat order."""
        rows = self._read("SELECT player_no, name FROM seats WHERE night_id=? ORDER BY seat", (night,))
        players = {p: str(n) for p, n in rows if p in range(4) and not isinstance(p, bool)}
        return _distinct(players or dict(enumerate(DEFAULT_NAMES)))

    def set_names(self, night: int, names) -> None:
        """Names by seat. A name already at the table is that player (moved to this seat, with
        their total); a new name renames the player sitting there, who keeps their hands."""
        names = _clean_names(names)

        def seat(conn):
            now = conn.execute("SELECT seat, name, player_no FROM seats WHERE night_id=? ORDER BY seat",
                               (night,)).fetchall()
            if len(now) != 4:
                raise LedgerError(f"there is no night {night} in the ledger")
            conn.executemany("UPDATE seats SET name=?, player_no=? WHERE night_id=? AND seat=?",
                             [(n, p, night, i) for i, (n, p) in enumerate(zip(names, _seating(now, names)))])
        self._write(seat)

    def rotate(self, night: int) -> None:
        """The winds move on: the South player becomes East, and so on; totals go with them."""
        names = self.names(night)
        self.set_names(night, names[1:] + names[:1])

    def setting(self, key: str) -> str | None:
        """A table-wide setting kept beside the names (the page's language), or None."""
        rows = self._read("SELECT value FROM meta WHERE key=?", (f"setting.{key}",))
        return rows[0][0] if rows else None

    def set_setting(self, key: str, value: str) -> None:
        self._write(lambda conn: conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                              (f"setting.{key}", str(value))))

    # --- hands ---------------------------------------------------------------------------
    def add_hand(self, night: int, entry: HandEntry, token: str) -> int:
        """Record a hand for tonight's players at their seats; refuses the same token twice
        and a hand meant for a night that is not tonight any more."""
        if money_sum(entry.amounts.values()) != 0:
            raise LedgerError(f"payments do not sum to zero: {dict(entry.amounts)}")

        def add(conn):
            if conn.execute("SELECT 1 FROM hands WHERE token=?", (token,)).fetchone():
                raise LedgerError("this hand is already in the ledger")
            tonight = conn.execute("SELECT value FROM meta WHERE key='tonight'").fetchone() \
                or conn.execute("SELECT MAX(id) FROM nights").fetchone()
            if tonight[0] is not None and int(tonight[0]) != night:
                raise LedgerError("tonight changed in another tab (a new night, or a past one "
                                  "reopened): this hand was not added; add it again to put it in tonight")
            seats = {s: (n, p) for s, n, p in conn.execute(
                "SELECT seat, name, player_no FROM seats WHERE night_id=?", (night,))}
            hand_id = conn.execute(
                "INSERT INTO hands (night_id, token, created, rules, preset, notation, total, "
                "winner, discarder, detail) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (night, token, time.time(), entry.rules, entry.preset, entry.notation,
                 float(entry.total), entry.winner, entry.discarder,
                 json.dumps(entry.detail, ensure_ascii=False, default=str))).lastrowid
            rows = []
            for letter, paid in entry.amounts.items():
                i = SEATS.index(letter)
                name, player = seats.get(i, (DEFAULT_NAMES[i], i))
                rows.append((hand_id, name, letter, amount(paid), player))
            conn.executemany("INSERT INTO amounts (hand_id, player, seat, amount, player_no) "
                             "VALUES (?, ?, ?, ?, ?)", rows)
            return hand_id
        return self._write(add)

    def hands(self, night: int) -> list[HandRow]:
        """The night's hands; a row a hand-edited or damaged file holds that is no hand (a
        time or an amount that is not a number, a player who is not at the table) is left
        out, and counted by `off_rows`."""
        return self._checked_hands(night)[0]

    def off_rows(self, night: int) -> int:
        """How many of the night's rows `hands` and `totals` leave out."""
        return self._checked_hands(night)[1]

    def _checked_hands(self, night: int) -> tuple[list[HandRow], int]:
        players = self._players(night)
        rows = self._read("SELECT id, created, rules, notation, total, winner, discarder FROM hands "
                          "WHERE night_id=? ORDER BY id", (night,))
        good = [r for r in rows if _is_time(r[1]) and _is_amount(r[4])]
        amounts: dict[int, dict[str, float]] = {}
        off = len(rows) - len(good)
        for hand_id, player, paid in self._read(
                "SELECT a.hand_id, a.player_no, a.amount FROM amounts a JOIN hands h "
                "ON h.id=a.hand_id WHERE h.night_id=? ORDER BY a.hand_id, a.player_no", (night,)):
            if player not in players or not _is_amount(paid):
                off += 1
                continue
            mine = amounts.setdefault(hand_id, {})
            name = players[player]
            mine[name] = amount(money_sum((mine.get(name, 0), paid)))
        won_by = {hand_id: players.get(p, "") for hand_id, p in self._read(
            "SELECT a.hand_id, a.player_no FROM amounts a JOIN hands h ON h.id=a.hand_id "
            "WHERE h.night_id=? AND a.seat=h.winner", (night,))}
        return [HandRow(r[0], i + 1, r[1], str(r[2]), str(r[3]), r[4], str(r[5]),
                        None if r[6] is None else str(r[6]), amounts.get(r[0], {}),
                        won_by.get(r[0], ""))
                for i, r in enumerate(good)], off

    def undo(self, night: int, hand_id: int) -> None:
        """Remove hand `hand_id` if it is still the night's last hand."""
        def undo(conn):
            last = conn.execute("SELECT MAX(id) FROM hands WHERE night_id=?", (night,)).fetchone()[0]
            if last != hand_id:
                raise LedgerError("the ledger changed (another tab?): nothing was undone")
            conn.execute("DELETE FROM hands WHERE id=?", (hand_id,))
        self._write(undo)

    def totals(self, night: int) -> dict[str, float]:
        """Running total per player, in seat order, under tonight's names, summed exactly
        (SQL's SUM adds binary floats: 0.1 + 0.2 is not 0.3 there)."""
        rows = self.hands(night)
        return {name: amount(money_sum(r.amounts.get(name, 0) for r in rows))
                for name in self._players(night).values()}

    def to_csv(self, night: int, delimiter: str = ",", decimal: str = ".",
               labels: Mapping[str, str] | None = None) -> str:
        """The night as CSV. A spreadsheet whose decimal mark is a comma (Polish, German) wants
        `delimiter=";", decimal=","`; `labels` renames the header words (times stay ISO).
        Text cells that a spreadsheet would run as a formula are written as text."""
        rows = self.hands(night)
        totals = self.totals(night)
        players = list(totals)
        word = (lambda w: labels.get(w, w)) if labels else (lambda w: w)
        num = (lambda x: money_text(x).replace(".", decimal))
        out = io.StringIO()
        writer = csv.writer(out, delimiter=delimiter)
        writer.writerow([_cell(word(w)) for w in ("hand", "time", "rules", "notation", "total",
                                                  "winner", "discarder")] + [_cell(p) for p in players])
        for r in rows:
            writer.writerow([r.number, time.strftime("%Y-%m-%d %H:%M", time.localtime(r.created)),
                             _cell(r.rules), _cell(r.notation), num(r.total),
                             _cell(r.winner_name or r.winner), _cell(r.discarder or ""),
                             *[num(r.amounts.get(p, 0)) for p in players]])
        writer.writerow([_cell(word("total")), "", "", "", "", "", "", *[num(totals[p]) for p in players]])
        return out.getvalue()


def _schema_number(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise LedgerError(f"the ledger is off: its schema version is {str(value)[:20]!r}, not a "
                          f"number (the file was left as it is)") from None


LATEST_TIME = 253402300799.0  # 9999-12-31
MAX_AMOUNT = 1e15  # past the exact decimals of a float's cents


def _is_time(value) -> bool:
    return _is_amount(value) and 0 <= value <= LATEST_TIME


def _is_amount(value) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and abs(value) < MAX_AMOUNT)


def _distinct(players: dict[int, str]) -> dict[int, str]:
    """Names as shown: a name two players share (a hand-edited file) gets the player's
    number, so that neither player's total hides the other's."""
    seen = Counter(name.casefold() for name in players.values())
    return {p: f"{name} ({p + 1})" if seen[name.casefold()] > 1 else name
            for p, name in players.items()}


def _seating(now: list[tuple[int, str, int]], names: list[str]) -> list[int]:
    """The player number for each seat of `names`: a name at the table keeps its player; the
    other seats take the players left, the one sitting there first."""
    by_name = {name.casefold(): player for _, name, player in now}
    chosen = [by_name.get(n.casefold()) for n in names]
    left = [p for _, _, p in now if p not in chosen]
    for seat, player in enumerate(chosen):
        if player is None:
            here = now[seat][2]
            player = here if here in left else left[0]
            left.remove(player)
            chosen[seat] = player
    return chosen


def _is_write_failure(exc: Exception) -> bool:
    text = str(exc).lower()
    return any(words in text for words in _NO_WRITE)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A text cell a spreadsheet will not run: one starting like a formula gets a leading
    apostrophe (the spreadsheet guidance for CSV injection)."""
    text = str(text)
    return "'" + text if text.startswith(_FORMULA_START) else text


def _clean_names(names) -> list[str]:
    names = [str(n or "").strip() or DEFAULT_NAMES[i] for i, n in enumerate(list(names)[:4])]
    if len(names) != 4:
        raise LedgerError("a table has four players")
    if len(set(n.casefold() for n in names)) != 4:
        raise LedgerError("the four players need four different names")
    return names

