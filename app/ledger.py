"""The night's ledger: players by seat, each scored hand with what every player got, totals.

One SQLite file in the data folder (`--data-dir`, else `$MAHJONG_LENS_DATA`, else
`~/.mahjong-lens`). Write-ahead logging, a busy timeout and `BEGIN IMMEDIATE` transactions
let two browser tabs (two Streamlit sessions, two threads) write without corrupting it; a
connection is opened per operation, so nothing is shared between threads. Each hand carries
a token, so a double tap or a second tab adds a scored hand once; undo names the hand it
removes, so two tabs cannot undo two hands with one intent. `schema_version` in `meta` says
which layout the file has; a file from a newer version is refused, not rewritten.
"""
from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from scoring.payments import SEATS

SCHEMA_VERSION = 1
FILE_NAME = "ledger.sqlite3"
ENV_DATA = "MAHJONG_LENS_DATA"
DEFAULT_NAMES = ("East", "South", "West", "North")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nights (
    id INTEGER PRIMARY KEY, started REAL NOT NULL, label TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS seats (
    night_id INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    name TEXT NOT NULL,
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
    PRIMARY KEY (hand_id, player));
CREATE INDEX IF NOT EXISTS hands_by_night ON hands(night_id, id);
"""


class LedgerError(ValueError):
    """The ledger cannot be used or the change was refused; one line for the player."""


def data_dir(flag: str | os.PathLike | None = None) -> Path:
    """The data folder: the flag, else $MAHJONG_LENS_DATA, else ~/.mahjong-lens."""
    chosen = flag or os.environ.get(ENV_DATA) or Path.home() / ".mahjong-lens"
    return Path(chosen).expanduser()


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
    winner: str
    discarder: str | None
    amounts: dict[str, float]        # player name → amount


class Ledger:
    def __init__(self, folder: str | os.PathLike | None = None, timeout: float = 10.0) -> None:
        self.folder = data_dir(folder)
        self.path = self.folder / FILE_NAME
        self.timeout = timeout
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LedgerError(f"cannot create the data folder {self.folder}: {exc.strerror or exc}") from None
        self._migrate()

    # --- plumbing ------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            conn.execute("PRAGMA busy_timeout = %d" % int(self.timeout * 1000))
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"cannot open the ledger {self.path}: {exc}") from None
        return conn

    def _write(self, fn):
        """Run fn(conn) in one BEGIN IMMEDIATE transaction."""
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
            raise LedgerError(f"ledger {self.path}: {exc}") from None
        finally:
            conn.close()

    def _read(self, sql: str, args=()) -> list[tuple]:
        conn = self._connect()
        try:
            return conn.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"ledger {self.path}: {exc}") from None
        finally:
            conn.close()

    def _migrate(self) -> None:
        def migrate(conn):
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "meta" in tables:
                row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
                version = int(row[0]) if row else 0
                if version > SCHEMA_VERSION:
                    raise LedgerError(f"{self.path} was written by a newer mahjong-lens "
                                      f"(schema {version}, this one knows {SCHEMA_VERSION})")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        self._write(migrate)

    # --- nights and seats ----------------------------------------------------------------
    def current_night(self) -> int:
        """The latest night, started if there is none."""
        rows = self._read("SELECT id FROM nights ORDER BY id DESC LIMIT 1")
        return rows[0][0] if rows else self.new_night(DEFAULT_NAMES)

    def new_night(self, names=DEFAULT_NAMES, label: str = "") -> int:
        names = _clean_names(names)

        def start(conn):
            night = conn.execute("INSERT INTO nights (started, label) VALUES (?, ?)",
                                 (time.time(), label)).lastrowid
            conn.executemany("INSERT INTO seats VALUES (?, ?, ?)",
                             [(night, i, n) for i, n in enumerate(names)])
            return night
        return self._write(start)

    def names(self, night: int) -> list[str]:
        got = dict(self._read("SELECT seat, name FROM seats WHERE night_id=?", (night,)))
        return [got.get(i, DEFAULT_NAMES[i]) for i in range(4)]

    def set_names(self, night: int, names) -> None:
        names = _clean_names(names)
        self._write(lambda conn: conn.executemany(
            "INSERT OR REPLACE INTO seats VALUES (?, ?, ?)", [(night, i, n) for i, n in enumerate(names)]))

    def setting(self, key: str) -> str | None:
        """A table-wide setting kept beside the names (the page's language), or None."""
        rows = self._read("SELECT value FROM meta WHERE key=?", (f"setting.{key}",))
        return rows[0][0] if rows else None

    def set_setting(self, key: str, value: str) -> None:
        self._write(lambda conn: conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                              (f"setting.{key}", str(value))))

    # --- hands ---------------------------------------------------------------------------
    def add_hand(self, night: int, entry: HandEntry, token: str) -> int:
        """Record a hand with the night's current names; refuses the same token twice."""
        if abs(sum(entry.amounts.values())) > 1e-6:
            raise LedgerError(f"payments do not sum to zero: {dict(entry.amounts)}")

        def add(conn):
            if conn.execute("SELECT 1 FROM hands WHERE token=?", (token,)).fetchone():
                raise LedgerError("this hand is already in the ledger")
            names = dict(conn.execute("SELECT seat, name FROM seats WHERE night_id=?", (night,)))
            hand_id = conn.execute(
                "INSERT INTO hands (night_id, token, created, rules, preset, notation, total, "
                "winner, discarder, detail) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (night, token, time.time(), entry.rules, entry.preset, entry.notation,
                 float(entry.total), entry.winner, entry.discarder,
                 json.dumps(entry.detail, ensure_ascii=False, default=str))).lastrowid
            conn.executemany("INSERT INTO amounts VALUES (?, ?, ?, ?)", [
                (hand_id, names.get(SEATS.index(s), DEFAULT_NAMES[SEATS.index(s)]), s, float(a))
                for s, a in entry.amounts.items()])
            return hand_id
        return self._write(add)

    def hands(self, night: int) -> list[HandRow]:
        rows = self._read("SELECT id, created, rules, notation, total, winner, discarder FROM hands "
                          "WHERE night_id=? ORDER BY id", (night,))
        amounts: dict[int, dict[str, float]] = {}
        for hand_id, player, amount in self._read(
                "SELECT a.hand_id, a.player, a.amount FROM amounts a JOIN hands h ON h.id=a.hand_id "
                "WHERE h.night_id=? ORDER BY a.hand_id, a.seat", (night,)):
            amounts.setdefault(hand_id, {})[player] = amount
        return [HandRow(r[0], i + 1, r[1], r[2], r[3], r[4], r[5], r[6], amounts.get(r[0], {}))
                for i, r in enumerate(rows)]

    def undo(self, night: int, hand_id: int) -> None:
        """Remove hand `hand_id` if it is still the night's last hand."""
        def undo(conn):
            last = conn.execute("SELECT MAX(id) FROM hands WHERE night_id=?", (night,)).fetchone()[0]
            if last != hand_id:
                raise LedgerError("the ledger changed (another tab?): nothing was undone")
            conn.execute("DELETE FROM hands WHERE id=?", (hand_id,))
        self._write(undo)

    def totals(self, night: int) -> dict[str, float]:
        """Running total per player, players in seat order of the night, then others."""
        out = {name: 0.0 for name in self.names(night)}
        for player, amount in self._read(
                "SELECT a.player, SUM(a.amount) FROM amounts a JOIN hands h ON h.id=a.hand_id "
                "WHERE h.night_id=? GROUP BY a.player ORDER BY MIN(a.rowid)", (night,)):
            out[player] = amount
        return out

    def to_csv(self, night: int, delimiter: str = ",", decimal: str = ".",
               labels: Mapping[str, str] | None = None) -> str:
        """The night as CSV. A spreadsheet whose decimal mark is a comma (Polish, German) wants
        `delimiter=";", decimal=","`; `labels` renames the header words (times stay ISO)."""
        rows = self.hands(night)
        players = list(self.totals(night))
        word = (lambda w: labels.get(w, w)) if labels else (lambda w: w)
        num = (lambda x: _num(x).replace(".", decimal))
        out = io.StringIO()
        writer = csv.writer(out, delimiter=delimiter)
        writer.writerow([*map(word, ("hand", "time", "rules", "notation", "total", "winner", "discarder")),
                         *players])
        for r in rows:
            writer.writerow([r.number, time.strftime("%Y-%m-%d %H:%M", time.localtime(r.created)),
                             r.rules, r.notation, num(r.total), r.winner, r.discarder or "",
                             *[num(r.amounts.get(p, 0)) for p in players]])
        totals = self.totals(night)
        writer.writerow([word("total"), "", "", "", "", "", "", *[num(totals[p]) for p in players]])
        return out.getvalue()


def _clean_names(names) -> list[str]:
    names = [str(n or "").strip() or DEFAULT_NAMES[i] for i, n in enumerate(list(names)[:4])]
    if len(names) != 4:
        raise LedgerError("a table has four players")
    if len(set(n.casefold() for n in names)) != 4:
        raise LedgerError("the four players need four different names")
    return names


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
