"""The ledger's writer: a queue the tool calls put records on, and one thread that writes them.

A tool call only appends to a `queue.SimpleQueue` (no lock held across I/O, no allocation
beyond the record); the thread, started by the first record, takes what has queued up,
counts its tokens, marks re-reads, links `recover_text` calls, and inserts the batch in one
transaction. So a slow disk, another server's transaction or a broken file never delays or
fails a call: a write that fails logs one `ledger.unavailable` warning per process, the batch
is dropped, and writes are tried again after `RETRY_AFTER_S`.

The thread is a daemon; `close()` (server shutdown, and `atexit` as a backstop) writes what is
queued, bounded by `CLOSE_TIMEOUT_S`.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import queue
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mcp_pruner_server.ledger.config import LedgerConfig
from mcp_pruner_server.ledger.counter import TokenCounter
from mcp_pruner_server.ledger.record import CallRecord
from mcp_pruner_server.logs import log_event, log_exception

if TYPE_CHECKING:  # imported by the thread: `sqlite3` costs ~10 ms, not for the first call to pay
    import sqlite3
    from types import ModuleType

# One transaction per this many records at most: a burst is a few transactions, not hundreds.
BATCH_MAX_RECORDS: Final = 256
# How long the writer lets records gather after the first one woke it.
BATCH_WINDOW_S: Final = 0.05
# Records waiting beyond this are dropped (counted): a writer that cannot keep up must not
# grow the server's memory without bound. 10k is minutes of the busiest agent.
MAX_PENDING_RECORDS: Final = 10_000
# After a failed write, records are dropped for this long before the file is tried again
# (a full disk does not empty itself in milliseconds; retrying each batch would spin).
RETRY_AFTER_S: Final = 30.0
# Rows past the retention are deleted when the file is opened and then this often.
RETENTION_SWEEP_EVERY_S: Final = 3600.0
# Shutdown waits this long for the queue to be written (the first batch loads the tokenizer,
# seconds on a loaded machine); a wedged disk must not hold the exit longer.
CLOSE_TIMEOUT_S: Final = 10.0
# prune_id -> row id of this process's pruned calls, for linking `recover_text` (the ids live
# in this process's recovery store, so older ones can no longer be recovered anyway).
PRUNE_ROWS_KEPT: Final = 4096


@dataclass(frozen=True)
class _Flush:
    """Marker: set `done` once every record queued before it is written (or dropped)."""

    done: threading.Event


_STOP: Final = object()
RECOVER_TOOLS: Final = ("recover_text", "recover_range")
# `store.COLUMNS.index("recovers")` (checked by the tests): `store` imports sqlite3
RECOVERS_COLUMN: Final = 16


class LedgerWriter:
    """Writes one server's calls into the ledger, off the request path."""

    def __init__(self, config: LedgerConfig, *, session: str, project: str) -> None:
        self.config = config
        self.session = session
        self.project = project
        self.agent: str | None = None  # the MCP client, once it has said its name
        self.dropped = 0
        self.written = 0
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._closed = False
        self._warned = False
        self._conn: sqlite3.Connection | None = None
        self._sqlite3: ModuleType
        self._store: ModuleType
        self._counter: TokenCounter
        self._retry_at = 0.0
        self._swept_at = 0.0
        self._recent: deque[str] = deque(maxlen=config.reread_window)
        self._prune_rows: OrderedDict[str, int] = OrderedDict()

    # --- the request path -------------------------------------------------------------------

    def submit(self, record: CallRecord) -> None:
        """Queue one call for writing; never raises, never blocks on I/O."""
        if self._closed:
            return
        if self._queue.qsize() >= MAX_PENDING_RECORDS:
            self.dropped += 1
            return
        self._queue.put(record)
        if self._thread is None:
            self._start()

    def _start(self) -> None:
        with self._start_lock:
            if self._thread is not None:
                return
            thread = threading.Thread(target=self._run, name="jeeves-ledger", daemon=True)
            thread.start()
            self._thread = thread
            atexit.register(self.close)

    # --- lifecycle ------------------------------------------------------------------------

    def flush(self, timeout: float) -> bool:
        """Wait until every record submitted so far is written or dropped; False on timeout."""
        if self._thread is None:
            return True
        marker = _Flush(threading.Event())
        self._queue.put(marker)
        return marker.done.wait(timeout)

    def close(self, timeout: float = CLOSE_TIMEOUT_S) -> None:
        """Write what is queued (up to `timeout`) and stop the thread. Idempotent."""
        if self._closed:
            return
        self._closed = True
        thread = self._thread
        if thread is None:
            return
        self._queue.put(_STOP)
        thread.join(timeout)

    # --- the writer thread ----------------------------------------------------------------

    def _run(self) -> None:
        import sqlite3

        from mcp_pruner_server.ledger import store

        self._sqlite3, self._store = sqlite3, store
        self._counter = TokenCounter()
        while True:
            first = self._queue.get()
            # Gather what comes in the next moments into this batch, and do the work away from
            # the moment a call hands its record over (the put that woke this thread).
            time.sleep(BATCH_WINDOW_S)
            batch: list[CallRecord] = []
            markers: list[_Flush] = []
            stop = False
            item: object = first
            while True:
                if item is _STOP:
                    stop = True
                elif isinstance(item, _Flush):
                    markers.append(item)
                elif isinstance(item, CallRecord):
                    batch.append(item)
                if len(batch) >= BATCH_MAX_RECORDS:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            if batch:
                self._write_batch(batch)
            for marker in markers:
                marker.done.set()
            if stop and self._queue.empty():
                self._close_connection()
                self._counter.close()
                return

    def _write_batch(self, batch: list[CallRecord]) -> None:
        if time.monotonic() < self._retry_at:
            self.dropped += len(batch)
            return
        try:
            rows = [self._row(record) for record in batch]
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE")
            try:
                for record, row in zip(batch, rows, strict=True):
                    # linked here, in order: the pruned call may be in this very batch
                    row[RECOVERS_COLUMN] = self._recovered_row(record)
                    cursor = conn.execute(self._store.INSERT_SQL, row)
                    self._remember_prune_ids(record, cursor.lastrowid)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            self.written += len(batch)
        except (self._sqlite3.Error, OSError) as exc:  # full disk, read-only dir, locked, corrupt
            self._failed(len(batch), exc)
        except Exception as exc:  # a bug here must not kill the thread: the next batch may pass
            if not self._warned:
                log_exception("ledger.internal_error", path=str(self.config.path))
            self._failed(len(batch), exc)

    def _failed(self, count: int, exc: BaseException) -> None:
        self.dropped += count
        self._retry_at = time.monotonic() + RETRY_AFTER_S
        self._close_connection()
        if not self._warned:
            self._warned = True
            log_event(
                "ledger.unavailable",
                level="warning",
                path=str(self.config.path),
                error=f"{type(exc).__name__}: {exc}",
                retry_after_s=RETRY_AFTER_S,
            )

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = self._store.open_for_writing(self.config.path)
            self._swept_at = 0.0
        now = time.monotonic()
        if now - self._swept_at >= RETENTION_SWEEP_EVERY_S or self._swept_at == 0.0:
            cutoff = time.time() - self.config.retention_days * 86_400
            self._conn.execute("DELETE FROM calls WHERE ts < ?", (cutoff,))
            self._swept_at = now
        return self._conn

    def _close_connection(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(self._sqlite3.Error):  # closing a broken file: nothing left to save
                self._conn.close()
            self._conn = None

    def _remember_prune_ids(self, record: CallRecord, row_id: int | None) -> None:
        if row_id is None or record.tool in RECOVER_TOOLS:
            return
        for prune_id in record.prune_ids:
            self._prune_rows[prune_id] = row_id
            if len(self._prune_rows) > PRUNE_ROWS_KEPT:
                self._prune_rows.popitem(last=False)

    def _recovered_row(self, record: CallRecord) -> int | None:
        if record.tool in RECOVER_TOOLS and record.prune_id is not None:
            return self._prune_rows.get(record.prune_id)
        return None

    def _is_reread(self, record: CallRecord) -> bool:
        """The same file, command or search again within the window (this session's calls)."""
        if record.target is None:
            return False
        seen = record.target in self._recent
        self._recent.append(record.target)
        return seen

    def _row(self, record: CallRecord) -> list[object]:
        """The row's values in `COLUMNS` order (`recovers` is set at insert time)."""
        sent = self._counter.count(record.tool, record.result, record.result_text)
        if record.unpruned_result is None:
            raw = sent
        else:
            raw = self._counter.count(record.tool, record.unpruned_result(), record.result_text)
        question = record.question if self.config.store_questions else None
        removed = json.dumps([r.to_dict() for r in record.removed]) if record.removed else None
        return [
            record.started_at,
            self.session,
            self.project,
            record.agent or self.agent,
            record.tool,
            record.outcome,
            record.reason,
            question,
            record.question is not None,
            record.target,
            record.target_kind,
            raw,
            sent,
            record.latency_ms,
            record.prune_id,
            " ".join(record.prune_ids) or None,
            None,  # recovers
            self._is_reread(record),
            removed,
        ]
