"""The ledger as the dispatcher fills it: one row per call, tokens counted as the demo counts them,
re-reads and recovers marked, questions optional, old rows deleted (engine in threads, the
writer its own process)."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import pytest

from mcp_pruner_server.errors import DomainRpcError
from mcp_pruner_server.ledger import writer as writer_module
from mcp_pruner_server.ledger.config import LedgerConfig
from mcp_pruner_server.ledger.record import RAW, CallRecord
from mcp_pruner_server.ledger.store import INSERT_SQL, open_for_writing
from mcp_pruner_server.ledger.wire import FrameReader, encode
from mcp_pruner_server.ledger.writer import LedgerWriter
from mcp_pruner_server.pipeline.dispatcher import ToolDispatcher
from mcp_pruner_server.server_parts import build_parts
from mcp_pruner_server.settings import ServerSettings
from mcp_pruner_server.tools.model_text import model_text
from runner.bench.tokens import count_tokens

pytestmark = pytest.mark.anyio

QUESTION = "Where is the tax computed?"
# The first batch loads the tokenizer: seconds on two shared cores, never a minute.
LEDGER_FLUSH_TIMEOUT_S = 60.0
# The streaming tests: a record every 20 ms for 0.6 s, the writer's quiet time raised to 2 s so
# that a stall of the test's thread on a loaded machine does not read as the server being quiet.
STREAMED_RECORDS = 30
STREAM_PACE_S = 0.02
STREAM_QUIET_S = 2.0
WRITTEN_TIMEOUT_S = 30.0
CODE = "\n".join(
    [f"def helper_{n}(x):\n    return x + {n}\n" for n in range(40)]
    + ["def compute_tax(amount):\n    return amount * 0.2\n"]
    + [f"def other_{n}(x):\n    return x - {n}\n" for n in range(40)]
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    for name in ("billing.py", "a.py", "b.py"):
        (project / name).write_text(CODE, encoding="utf-8")
    return project


@asynccontextmanager
async def dispatcher(root: Path, ledger: Path, **env: str) -> AsyncIterator[ToolDispatcher]:
    settings = {"JEEVES_LEDGER_PATH": str(ledger), "JEEVES_RUN_ID": "run-test", **env}
    parts = build_parts(ServerSettings(root=root), env=settings, engine_processes=False)
    try:
        yield parts.dispatcher
    finally:
        await parts.service.aclose()
        if parts.ledger is not None:
            assert parts.ledger.flush(LEDGER_FLUSH_TIMEOUT_S)
        parts.close_ledger()


def rows(ledger: Path) -> list[Mapping[str, object]]:
    with sqlite3.connect(ledger) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(r) for r in conn.execute("SELECT * FROM calls ORDER BY id")]


async def test_each_call_is_one_row_with_the_tokens_the_model_read(root: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "state" / "ledger.sqlite3"
    async with dispatcher(root, ledger) as d:
        d.client_initialized("claude-code")
        pruned = await d.call("read", {"path": "billing.py", "context_focus_question": QUESTION})
        whole = await d.call("read", {"path": "a.py"})

    first, second = rows(ledger)
    assert (first["tool"], first["outcome"], second["outcome"]) == ("read", "pruned", "raw")
    assert first["sent_tokens"] == count_tokens(model_text("read", pruned.structured) or "")
    assert (
        second["sent_tokens"]
        == second["raw_tokens"]
        == count_tokens(model_text("read", whole.structured) or "")
    )
    # unpruned, the model would have read the whole file (with line numbers): what `a.py` cost
    assert first["raw_tokens"] == second["raw_tokens"] > 3 * first["sent_tokens"]
    assert first["prune_id"] == pruned.structured["pruning"]["prune_id"]  # type: ignore[index]
    assert (first["session"], first["agent"], first["project"]) == ("run-test", "claude-code", str(root))
    assert first["question"] == QUESTION
    assert second["question"] is None
    assert first["target"] == str(root / "billing.py")


async def test_the_same_file_through_bash_within_the_window_is_a_reread_and_later_is_not(
    root: Path, tmp_path: Path
) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    async with dispatcher(root, ledger, JEEVES_LEDGER_REREAD_WINDOW="2") as d:
        await d.call("read", {"path": "billing.py"})
        await d.call("bash", {"cmd": "sed -n '1,$p' billing.py"})  # the same file, printed
        await d.call("read", {"path": "a.py"})
        await d.call("read", {"path": "b.py"})
        await d.call("read", {"path": "./billing.py"})  # three calls later: outside the window of 2

    assert [r["reread"] for r in rows(ledger)] == [0, 1, 0, 0, 0]


async def test_recover_text_is_linked_to_the_call_whose_prune_id_it_recovers(
    root: Path, tmp_path: Path
) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    async with dispatcher(root, ledger) as d:
        await d.call("read", {"path": "a.py"})
        read = await d.call("read", {"path": "billing.py", "context_focus_question": QUESTION})
        prune_id = read.structured["pruning"]["prune_id"]  # type: ignore[index]
        ranges = [{"start_line": 1, "end_line": 4}]
        await d.call("recover_text", {"prune_id": prune_id, "ranges": ranges, "include_line_numbers": True})
        with pytest.raises(DomainRpcError):
            await d.call(
                "recover_text", {"prune_id": "prn_gone", "ranges": ranges, "include_line_numbers": True}
            )

    _, pruned, recover, refused = rows(ledger)
    assert (recover["tool"], recover["prune_id"], recover["recovers"]) == (
        "recover_text",
        prune_id,
        pruned["id"],
    )
    assert (refused["outcome"], refused["reason"], refused["recovers"]) == (
        "refused",
        "prune_id_not_found",
        None,
    )


async def test_the_question_text_is_not_stored_when_turned_off(root: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    async with dispatcher(root, ledger, JEEVES_LEDGER_QUESTIONS="off") as d:
        await d.call("read", {"path": "billing.py", "context_focus_question": QUESTION})

    (row,) = rows(ledger)
    assert (row["question"], row["has_question"], row["outcome"]) == (None, 1, "pruned")


async def test_rows_older_than_the_retention_are_deleted(root: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    conn = open_for_writing(ledger)
    old = time.time() - 3 * 86_400
    values = (
        old,
        "old",
        "/p",
        None,
        "read",
        "raw",
        None,
        None,
        0,
        None,
        None,
        1,
        1,
        1.0,
        None,
        None,
        None,
        0,
        None,
    )
    conn.execute(INSERT_SQL, values)
    conn.close()
    async with dispatcher(root, ledger, JEEVES_LEDGER_RETENTION_DAYS="2") as d:
        await d.call("read", {"path": "a.py"})

    assert [r["session"] for r in rows(ledger)] == ["run-test"]


async def test_the_ledger_turned_off_writes_nothing(root: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    async with dispatcher(root, ledger, JEEVES_LEDGER="0") as d:
        assert d.ledger is None
        await d.call("read", {"path": "a.py"})

    assert not ledger.exists()


async def test_no_file_is_opened_before_the_first_tool_call(root: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    async with dispatcher(root, ledger) as d:
        d.list_tools()
        assert d.ledger is not None
        assert d.ledger.channel is None
        assert not ledger.exists()


def _health_record(result_text: str = '{"ok": true}') -> CallRecord:
    return CallRecord(
        started_at=time.time(), tool="health", outcome=RAW, latency_ms=1.0, result_text=result_text
    )


def _old_row(ts: float) -> tuple[object, ...]:
    return (
        ts,
        "old",
        "/p",
        None,
        "read",
        "raw",
        None,
        None,
        0,
        None,
        None,
        1,
        1,
        1.0,
        None,
        None,
        None,
        0,
        None,
    )


def test_a_record_whose_row_cannot_be_built_is_dropped_alone_and_the_next_batch_is_written(
    tmp_path: Path,
) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    writer = LedgerWriter(LedgerConfig(path=ledger), session="s", project="p")
    good, bad = _health_record(), _health_record("{not json")
    writer.write_batch([good, bad, good])
    writer.write_batch([good])
    writer.close()

    # before: the whole batch dropped, and the next one too (the 30 s pause after a failed write)
    assert (writer.written, writer.dropped) == (3, 1)
    assert len(rows(ledger)) == 3


def test_the_retention_sweep_deletes_a_chunk_of_old_rows_after_each_batch_until_none_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer_module, "SWEEP_CHUNK_ROWS", 10)
    ledger = tmp_path / "ledger.sqlite3"
    conn = open_for_writing(ledger)
    conn.executemany(INSERT_SQL, [_old_row(time.time() - 3 * 86_400)] * 25)
    conn.close()
    writer = LedgerWriter(LedgerConfig(path=ledger, retention_days=2), session="s", project="p")
    old_left = []
    for _ in range(4):
        writer.write_batch([_health_record()])
        old_left.append(sum(1 for r in rows(ledger) if r["session"] == "old"))
    writer.close()

    # one transaction never holds the file for all of them: the other writers wait a chunk at most
    assert old_left == [15, 5, 0, 0]
    assert writer.written == 4


class BatchLog(LedgerWriter):
    """A writer that keeps the sizes of the batches it is given instead of writing them."""

    def __init__(self, tmp_path: Path) -> None:
        super().__init__(LedgerConfig(path=tmp_path / "unused.sqlite3"), session="s", project="p")
        self.batches: list[int] = []
        self.written_all = threading.Event()

    def write_batch(self, batch: list[CallRecord]) -> None:
        self.batches.append(len(batch))
        if sum(self.batches) == STREAMED_RECORDS:
            self.written_all.set()


@contextmanager
def write_loop(writer: LedgerWriter) -> Iterator[int]:
    """`write_frames` over a pipe, in a thread; the pipe's write end (closed at the end: EOF)."""
    read_end, write_end = os.pipe()
    loop = threading.Thread(target=writer_module.write_frames, args=(writer, FrameReader(read_end)))
    loop.start()
    try:
        yield write_end
    finally:
        os.close(write_end)
        loop.join()
        os.close(read_end)


def stream_records(pipe: int) -> None:
    for _ in range(STREAMED_RECORDS):
        os.write(pipe, encode(_health_record()))
        time.sleep(STREAM_PACE_S)  # the calls' pace (load shaping, not synchronization)


def test_records_are_held_while_the_server_sends_them_and_written_together_once_it_is_quiet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer_module, "QUIET_S", STREAM_QUIET_S)
    writer = BatchLog(tmp_path)
    with write_loop(writer) as pipe:
        stream_records(pipe)
        held_while_sending = list(writer.batches)
        assert writer.written_all.wait(WRITTEN_TIMEOUT_S)

    assert held_while_sending == []  # before: a batch every 50 ms, within the burst
    assert writer.batches == [STREAMED_RECORDS]


def test_the_records_a_writer_holds_never_exceed_the_memory_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer_module, "QUIET_S", STREAM_QUIET_S)
    monkeypatch.setattr(writer_module, "HOLD_MAX_CHARS", len(_health_record().result_text) * 10)
    writer = BatchLog(tmp_path)
    with write_loop(writer) as pipe:
        stream_records(pipe)

    assert max(writer.batches) == 10  # written as the tenth came, not held until the quiet
    assert sum(writer.batches) == STREAMED_RECORDS
