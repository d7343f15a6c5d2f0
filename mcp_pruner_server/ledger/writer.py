"""The ledger's writer process: `python -m mcp_pruner_server.ledger.writer`, one per server.

The server (`channel.py`) starts it with its first tool call and sends it frames on its stdin
(`wire.py`): the `WriterSetup`, then one `CallRecord` per call. Everything the ledger costs
happens here, in another process, so none of it waits for or holds the server's GIL: building
a pruned call's unpruned result (`unpruned_result`), rendering the model's text and counting its tokens
(`counter.py`), marking re-reads, linking `recover_text` calls, and inserting each batch in one
SQLite transaction (WAL). A write that fails (a full disk, a read-only directory, a locked or
corrupt file) logs one `ledger.unavailable` warning per process, drops the batch, and the file
is tried again after `RETRY_AFTER_S`. A record whose row cannot be built (a bug) is dropped
alone, with one `ledger.internal_error`. Rows past the retention are deleted after a batch is
committed, `SWEEP_CHUNK_ROWS` a transaction, so that the other servers' writers never wait
behind a long delete.

It holds the records it reads until its server is quiet (`write_frames`: no frame for
`QUIET_S`, between an agent's calls), and runs at the lowest priority (`_yield_to_others`), so
that its work does not take the cores from a burst of calls; it may still be writing after its
server exited. At EOF on its stdin (the server closed it, exited or died; a frame it cannot
read ends it too, after writing the records read before it) it writes what it read, then the
frames its server could not get into the pipe at shutdown (the handover file,
`WriterSetup.handover_fd`: a memory file the server writes its backlog into before closing the
pipe), and exits. It runs in its own session, out of its server's process group, and SIGINT
and SIGTERM do not end it either: the writer must outlive its server's stop (a Ctrl-C in the
terminal, `jeeves run` signalling the server's group) by what is left to write; the pipe's EOF
always comes. It gets no secret
(`channel.py` passes it a minimal environment) and writes its log lines to the server's stderr.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import sqlite3
import sys
import time
from collections import OrderedDict, deque
from collections.abc import Mapping
from typing import Final

from mcp_pruner_server.ledger import store
from mcp_pruner_server.ledger.config import LedgerConfig
from mcp_pruner_server.ledger.counter import count_model_tokens, load_counter
from mcp_pruner_server.ledger.record import CallRecord, JsonObject
from mcp_pruner_server.ledger.wire import EndOfStream, FlushRequest, FrameReader, WriterSetup
from mcp_pruner_server.logs import configure_logging, log_event, log_exception

# One transaction per this many records at most: a burst is a few transactions, not hundreds.
BATCH_MAX_RECORDS: Final = 256
# The records the writer holds are written once no frame came for this long: the server is
# between calls (an agent's turn, the model answering, takes seconds; the calls of one turn
# come milliseconds apart, and the next call of a script within a second even on two loaded
# cores), so the writer's work does not compete with a burst of calls. While it holds records
# it looks at its pipe this often, letting the next ones gather there: the server's writes
# meanwhile wake nobody, and a look costs a loaded machine ~0.1 ms (at 20 a second, the
# writers of twenty servers took more CPU looking than writing).
QUIET_S: Final = 1.0
# ... or once the oldest is this old (a server that is never quiet: rows a minute late at most),
HOLD_MAX_S: Final = 60.0
# ... or once they hold this many characters of results (the writer's memory stays bounded).
HOLD_MAX_CHARS: Final = 16 << 20
# After a failed write, records are dropped for this long before the file is tried again
# (a full disk does not empty itself in milliseconds; retrying each batch would spin).
RETRY_AFTER_S: Final = 30.0
# Rows past the retention are deleted when the file is opened and then this often.
RETENTION_SWEEP_EVERY_S: Final = 3600.0
# Rows one retention transaction deletes at most: the first sweep after months may find
# hundreds of thousands, and every other writer waits while one transaction holds the file.
SWEEP_CHUNK_ROWS: Final = 2000
# prune_id -> row id of this server's pruned calls, for linking `recover_text` (the ids live
# in the server's recovery store, so older ones can no longer be recovered anyway).
PRUNE_ROWS_KEPT: Final = 4096
# The writer's niceness: the lowest priority, a few percent of a core against busy tool calls.
WRITER_NICENESS: Final = 19
RECOVER_TOOLS: Final = ("recover_text", "recover_range")
RECOVERS_COLUMN: Final = store.COLUMNS.index("recovers")


class LedgerWriter:
    """Writes one server's calls into the ledger, a batch at a time."""

    def __init__(self, config: LedgerConfig, *, session: str, project: str) -> None:
        self.config = config
        self.session = session
        self.project = project
        self.dropped = 0
        self.written = 0
        self._warned = False
        self._bad_record_logged = False
        self._conn: sqlite3.Connection | None = None
        self._retry_at = 0.0
        self._swept_at = 0.0  # 0: sweep after the next batch
        self._recent: deque[str] = deque(maxlen=config.reread_window)
        self._prune_rows: OrderedDict[str, int] = OrderedDict()

    def write_batch(self, batch: list[CallRecord]) -> None:
        """Insert `batch` in one transaction; on failure drop it (one warning per process)."""
        if not batch:
            return
        if time.monotonic() < self._retry_at:
            self.dropped += len(batch)
            return
        built = [(record, row) for record in batch if (row := self._row_or_none(record)) is not None]
        if not built:
            return
        try:
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE")
            try:
                for record, row in built:
                    # linked here, in order: the pruned call may be in this very batch
                    row[RECOVERS_COLUMN] = self._recovered_row(record)
                    cursor = conn.execute(store.INSERT_SQL, row)
                    self._remember_prune_ids(record, cursor.lastrowid)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            self.written += len(built)
        except (sqlite3.Error, OSError) as exc:  # full disk, read-only dir, locked, corrupt
            self._failed(len(built), exc)
            return
        except Exception as exc:  # a bug here must not end the writer: the next batch may pass
            if not self._warned:
                log_exception("ledger.internal_error", path=str(self.config.path))
            self._failed(len(built), exc)
            return
        self._sweep(conn)

    def _row_or_none(self, record: CallRecord) -> list[object] | None:
        """The record's row; None, the record dropped, when building it fails (a bug, not the
        file's fault: the other records of the batch are written, and no retry pause)."""
        try:
            return self._row(record)
        except Exception:
            self.dropped += 1
            if not self._bad_record_logged:
                self._bad_record_logged = True
                log_exception("ledger.internal_error", path=str(self.config.path), tool=record.tool)
            return None

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):  # closing a broken file: nothing left to save
                self._conn.close()
            self._conn = None

    def _failed(self, count: int, exc: BaseException) -> None:
        self.dropped += count
        self._retry_at = time.monotonic() + RETRY_AFTER_S
        self.close()
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
            self._conn = store.open_for_writing(self.config.path)
            self._swept_at = 0.0
        return self._conn

    def _sweep(self, conn: sqlite3.Connection) -> None:
        """Delete up to `SWEEP_CHUNK_ROWS` rows past the retention when a sweep is due; a full
        chunk leaves the next one due after the next batch. Its failure (the file locked by
        another writer past the timeout) only delays it: the batch is written."""
        now = time.monotonic()
        if self._swept_at != 0.0 and now - self._swept_at < RETENTION_SWEEP_EVERY_S:
            return
        cutoff = time.time() - self.config.retention_days * 86_400
        try:
            deleted = conn.execute(
                "DELETE FROM calls WHERE id IN (SELECT id FROM calls WHERE ts < ? ORDER BY ts LIMIT ?)",
                (cutoff, SWEEP_CHUNK_ROWS),
            ).rowcount
        except sqlite3.Error:
            return
        self._swept_at = 0.0 if deleted >= SWEEP_CHUNK_ROWS else now

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
        result: JsonObject | None = json.loads(record.result_text) if record.result_text else None
        sent = count_model_tokens(record.tool, result, record.result_text)
        if result is None or record.raw_texts is None:
            raw = sent
        else:
            raw = count_model_tokens(
                record.tool, unpruned_result(result, record.raw_texts), record.result_text
            )
        question = record.question if self.config.store_questions else None
        removed = json.dumps([r.to_dict() for r in record.removed]) if record.removed else None
        return [
            record.started_at,
            self.session,
            self.project,
            record.agent,
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


def unpruned_result(result: JsonObject, raw_texts: Mapping[str, str]) -> JsonObject:
    """The result a pruned call would have answered unpruned: the same, over the texts before
    pruning, with no pruning (so no trailer) — as the tools' finish functions build it; grep's
    listing then stands for its matches, as in the model's text (`tools/model_text.py`)."""
    unpruned = {**result, **raw_texts}
    unpruned["pruning"] = {"attempted": False, "applied": False, "fallback": False}
    return unpruned


def _yield_to_others() -> None:
    """Take little of the CPU the tool calls want: the lowest priority (`WRITER_NICENESS`), and
    `SCHED_BATCH` (no wake-up preemption: the server that just wrote a frame is in a tool call).
    At the default priority the writer had a server's share of the cores, and when twenty
    servers kept both cores busy that share was the calls' (`benchmarks/bench_ledger.py`).
    Not `SCHED_IDLE` (measured: it halved the writers' CPU during such a load), because an
    unprivileged process cannot leave it (RLIMIT_NICE is 0 by default) and it gets no CPU while
    other work keeps the cores busy: on a machine at a load average of ~37, writers did not
    even create the ledger's table within the 10 s their servers' shutdown waited, and a
    reader right after a server's exit (`jeeves run`'s session line, a test) found no rows.
    Their rows were not lost (the handover; the writer is not killed), only late."""
    with contextlib.suppress(OSError, AttributeError):  # not Linux, or refused: still correct
        os.setpriority(os.PRIO_PROCESS, 0, WRITER_NICENESS)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


def _acknowledge(request: FlushRequest) -> None:
    with contextlib.suppress(OSError):  # the server stopped waiting (or exited): nobody to tell
        os.write(sys.stdout.fileno(), f"{request.number}\n".encode())


def write_frames(writer: LedgerWriter, frames: FrameReader) -> bool:
    """Write the records of `frames` until its end (or a frame it cannot read): held until the
    server is quiet (no frame for `QUIET_S`), a flush request asks for them, or `HOLD_MAX_S` /
    `HOLD_MAX_CHARS` say they have waited enough; then in batches. Answers each flush request
    once the records before it are written. False when a frame could not be read (nothing after
    it can be framed)."""
    held = _Held(writer)
    while True:
        flushes: list[FlushRequest] = []
        ended = readable = arrived = False
        try:
            item = frames.next(0.0 if held.records else None)  # holding none: sleep until a frame
            while item is not None:
                arrived = True
                if isinstance(item, CallRecord):
                    held.add(item)
                elif isinstance(item, FlushRequest):
                    flushes.append(item)
                item = frames.next(0.0)
        except EndOfStream:
            ended = readable = True
        except Exception:  # a frame it cannot read (a bug): what follows it cannot be framed
            log_exception("ledger.internal_error", path=str(writer.config.path))
            ended = True
        # not `arrived`: nothing came while it slept `QUIET_S` (below) holding records
        if ended or flushes or not arrived or time.monotonic() - held.since >= HOLD_MAX_S:
            held.write()
        for request in flushes:
            _acknowledge(request)
        if ended:
            return readable
        if held.records:
            time.sleep(QUIET_S)


class _Held:
    """The records a writer holds until its server is quiet, bounded by `HOLD_MAX_CHARS`."""

    def __init__(self, writer: LedgerWriter) -> None:
        self.writer = writer
        self.records: list[CallRecord] = []
        self.chars = 0
        self.since = 0.0  # when the oldest came

    def add(self, record: CallRecord) -> None:
        if not self.records:
            self.since = time.monotonic()
        self.records.append(record)
        raw = sum(len(text) for text in record.raw_texts.values()) if record.raw_texts else 0
        self.chars += len(record.result_text) + raw
        if self.chars >= HOLD_MAX_CHARS:
            self.write()

    def write(self) -> None:
        for start in range(0, len(self.records), BATCH_MAX_RECORDS):
            self.writer.write_batch(self.records[start : start + BATCH_MAX_RECORDS])
        self.records, self.chars = [], 0


def write_handover(writer: LedgerWriter, frames: FrameReader, fd: int) -> None:
    """Write the frames the server put in the handover file `fd` at its shutdown, before it
    closed the pipe `frames` read to its end: the rest of the same stream (the pipe may end
    inside a frame). Empty when the server had no backlog; a frame cut short (the server died
    writing it) ends it."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)  # the server's writes moved the offset both share
    except OSError:  # not a file we can read: nothing was handed over that we could write
        return
    frames.follow(fd)
    write_frames(writer, frames)
    with contextlib.suppress(OSError):
        os.close(fd)


def serve(fd: int) -> LedgerWriter | None:
    """Read frames from `fd` until EOF (or a frame it cannot read), writing records in batches;
    the writer, for its counts."""
    frames = FrameReader(fd)
    try:
        setup = frames.next(None)
    except EndOfStream:
        return None
    if not isinstance(setup, WriterSetup):
        raise TypeError(f"the first frame is a {type(setup).__name__}, not the writer's setup")
    configure_logging(setup.log_format)
    writer = LedgerWriter(setup.config, session=setup.session, project=setup.project)
    _yield_to_others()
    for signum in (signal.SIGINT, signal.SIGTERM):  # bound by its pipe: see the module's docstring
        signal.signal(signum, signal.SIG_IGN)
    load_counter()
    started_cpu = time.process_time()  # what the rows cost from here: reading, counting, SQLite
    if write_frames(writer, frames) and setup.handover_fd is not None:
        write_handover(writer, frames, setup.handover_fd)
    writer.close()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    log_event(
        "ledger.writer_stopped",
        written=writer.written,
        dropped=writer.dropped,
        rows_cpu_s=round(time.process_time() - started_cpu, 4),
        cpu_s=round(usage.ru_utime + usage.ru_stime, 4),  # start-up (imports, tokenizer) included
    )
    return writer


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):  # a Ctrl-C before `serve` ignores it
        serve(sys.stdin.fileno())
