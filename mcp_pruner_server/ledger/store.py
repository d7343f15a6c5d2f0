"""The ledger's SQLite file: its schema, and how a writer or a reader opens it.

WAL mode: one writer at a time (each server's writer thread, in short batched transactions)
and any number of readers (`jeeves gain`) that never block it. Many servers share the file —
every stdio session is its own process — so a writer waits for the lock (`WRITER_BUSY_TIMEOUT_S`)
in its own thread, never in a tool call.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Final

# Version of the schema below (`PRAGMA user_version`); a file written by a newer version is left alone.
SCHEMA_VERSION: Final = 1
# A batch waits this long for another server's transaction; twenty writers' batches of a few
# ms each clear in well under a second.
WRITER_BUSY_TIMEOUT_S: Final = 10.0
# `jeeves gain` waits less: it is a person at a terminal.
READER_BUSY_TIMEOUT_S: Final = 5.0
# The questions and paths are the user's: the file is theirs alone.
FILE_MODE: Final = 0o600
DIR_MODE: Final = 0o700

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS calls (
    id INTEGER PRIMARY KEY,
    ts REAL NOT NULL,               -- unix seconds the call started
    session TEXT NOT NULL,          -- one server process, or one `jeeves run`
    project TEXT NOT NULL,          -- the server's root
    agent TEXT,                     -- the MCP client's clientInfo name
    tool TEXT NOT NULL,
    outcome TEXT NOT NULL,          -- record.py: pruned, kept_whole, raw, fallback, tool_error, refused
    reason TEXT,
    question TEXT,                  -- NULL when absent or not stored
    has_question INTEGER NOT NULL,
    target TEXT,                    -- a file, a command, a search
    target_kind TEXT,
    raw_tokens INTEGER NOT NULL,    -- what the model would have received unpruned
    sent_tokens INTEGER NOT NULL,   -- what it received
    latency_ms REAL NOT NULL,
    prune_id TEXT,                  -- pruned: its (first) id; recover_text: the id it recovered
    prune_ids TEXT,                 -- pruned: every id, space-separated (bash: stdout, stderr)
    recovers INTEGER,               -- recover_text: the id of the call row it recovered from
    reread INTEGER NOT NULL DEFAULT 0,
    removed TEXT                    -- pruned: JSON list of {field, original_lines, removed: [[a, b]]}
);
CREATE INDEX IF NOT EXISTS calls_ts ON calls (ts);
CREATE INDEX IF NOT EXISTS calls_session ON calls (session, id);
CREATE INDEX IF NOT EXISTS calls_prune_id ON calls (prune_id);
"""

COLUMNS: Final = (
    "ts", "session", "project", "agent", "tool", "outcome", "reason", "question", "has_question",
    "target", "target_kind", "raw_tokens", "sent_tokens", "latency_ms", "prune_id", "prune_ids",
    "recovers", "reread", "removed",
)  # fmt: skip
INSERT_SQL: Final = f"INSERT INTO calls ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"


class LedgerVersionError(sqlite3.DatabaseError):
    """Raised when the file was written by a newer schema than this version knows."""


def _create_private(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, FILE_MODE))


def open_for_writing(path: Path) -> sqlite3.Connection:
    """Open (creating it, WAL, schema) the ledger for a writer thread.

    Raises:
        OSError: the directory or the file cannot be created.
        sqlite3.Error: the file is not a database, is locked past the timeout, the disk is full.
        LedgerVersionError: a newer schema.
    """
    _create_private(path)
    conn = sqlite3.connect(path, timeout=WRITER_BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a power cut may lose the last batches, never corrupts; no fsync per batch.
        conn.execute("PRAGMA synchronous=NORMAL")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise LedgerVersionError(f"ledger schema {version} is newer than {SCHEMA_VERSION}")
        if version < SCHEMA_VERSION:
            # one transaction: twenty servers starting at once each run it, and it is idempotent
            conn.executescript(f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
    except BaseException:
        conn.close()
        raise
    return conn


def open_for_reading(path: Path) -> sqlite3.Connection:
    """Open an existing ledger to query it (rows as `sqlite3.Row`).

    Raises:
        FileNotFoundError: there is no ledger at `path` yet.
        sqlite3.Error: the file is not a ledger.
    """
    if not path.is_file():
        raise FileNotFoundError(path)
    conn = sqlite3.connect(path, timeout=READER_BUSY_TIMEOUT_S, isolation_level=None)
    conn.row_factory = sqlite3.Row
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            conn.executescript(SCHEMA)  # created by a writer that has not written its schema yet
    except BaseException:
        conn.close()
        raise
    return conn
