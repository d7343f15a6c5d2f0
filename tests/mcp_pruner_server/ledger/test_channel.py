"""The pipe to the ledger's writer process: a stuck writer never holds a call (what overflows is
dropped, with one warning; the rest is written in order), and the writer writes what reached it
and exits when its server is killed (real processes)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path

import psutil
import pytest

from mcp_pruner_server.ledger import channel as channel_module
from mcp_pruner_server.ledger import writer as writer_module
from mcp_pruner_server.ledger.channel import WriterChannel
from mcp_pruner_server.ledger.config import LedgerConfig
from mcp_pruner_server.ledger.record import RAW, CallRecord
from mcp_pruner_server.ledger.wire import WriterSetup
from tests.mcp_pruner_server.ledger.writer_process import (
    WAIT_STEP_S,
    WAIT_TIMEOUT_S,
    read_call,
    suspend,
    until_dead,
    writer_of,
)
from tests.mcp_pruner_server.stdio_process import stdio_server

# A result of ~64 KiB: sixteen fill the 1 MiB pipe, 32 more the backlog allowed below.
RESULT_TEXT = json.dumps({"ok": " ".join(f"word{n}" for n in range(9000))})
SMALL_BACKLOG_BYTES = 2 << 20
RECORDS = 120
# A flush answered late fails in this long (the writer answers two at once within milliseconds).
FLUSH_AT_ONCE_TIMEOUT_S = 20.0
# Records of the starved-writer test: sixteen fill the pipe, the rest wait in the backlog.
BACKLOGGED_RECORDS = 24
# Its close: the writer is stopped, so close() gives up waiting (the test's time, not a bound).
STARVED_CLOSE_TIMEOUT_S = 1.0
# Calls a stdio server answers while its writer is stopped: their results (~150 KB) overflow the pipe.
STARVED_SERVER_CALLS = 12
CODE = "".join(f"def helper_{n}(x):\n    return x + {n}\n\n" for n in range(40))


def record(number: int) -> CallRecord:
    return CallRecord(
        started_at=time.time(),
        tool="health",
        outcome=RAW,
        latency_ms=1.0,
        question=str(number),
        result_text=RESULT_TEXT,
    )


def questions(ledger: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(ledger)) as conn:
        return [str(q) for (q,) in conn.execute("SELECT question FROM calls ORDER BY id")]


def rows_written(ledger: Path) -> int:
    """Rows in the ledger so far (0 while its file or table is being created)."""
    if not ledger.exists():  # connecting would create it
        return 0
    try:
        return len(questions(ledger))
    except sqlite3.Error:
        return 0


def test_a_stopped_writer_holds_no_send_and_what_overflows_is_dropped_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(channel_module, "MAX_BACKLOG_BYTES", SMALL_BACKLOG_BYTES)
    ledger = tmp_path / "ledger.sqlite3"
    channel = WriterChannel(WriterSetup(LedgerConfig(path=ledger), "s", str(tmp_path)))
    channel.send(record(0))
    assert channel.flush(WAIT_TIMEOUT_S)
    assert channel.process is not None
    writer = psutil.Process(channel.process.pid)
    suspend(writer)  # SIGSTOP: it reads nothing more, the pipe fills
    try:
        for number in range(1, RECORDS):
            channel.send(record(number))  # returns: this test would hang at the pipe otherwise
        dropped = channel.dropped
    finally:
        writer.resume()
    assert channel.flush(WAIT_TIMEOUT_S)
    channel.close()

    kept = RECORDS - dropped
    assert 0 < dropped < RECORDS - 16  # the pipe and the backlog took some, the rest was dropped
    assert questions(ledger) == [str(n) for n in range(kept)]  # in order, none lost but the dropped
    assert capfd.readouterr().err.count("ledger.unavailable") == 1


def test_the_writer_writes_what_reached_it_and_exits_when_its_server_is_killed(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "billing.py").write_text(CODE, encoding="utf-8")
    ledger = tmp_path / "ledger.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")} | {
        "JEEVES_LEDGER_PATH": str(ledger)
    }
    with stdio_server(root, env=env) as server:
        server.handshake()
        server.send(read_call(2))
        assert "result" in server.answer_to(2)
        writer = writer_of(server)
        deadline = time.monotonic() + WAIT_TIMEOUT_S
        while not rows_written(ledger):  # the writer runs, its pipe is open
            assert time.monotonic() < deadline, server.stderr()[-2000:]
            time.sleep(WAIT_STEP_S)
        for request_id in range(3, 8):
            server.send(read_call(request_id))
            assert "result" in server.answer_to(request_id)
        os.kill(server.process.pid, signal.SIGKILL)  # no shutdown: only the pipe's EOF tells it
        until_dead(writer)

    assert rows_written(ledger) == 6


def test_a_writer_that_starts_after_close_gave_up_waiting_is_ended_not_left_running(
    tmp_path: Path,
) -> None:
    channel = WriterChannel(WriterSetup(LedgerConfig(path=tmp_path / "l.sqlite3"), "s", str(tmp_path)))
    channel.send(record(0))  # starts the spawn in a thread
    channel.close(timeout=0)  # gives up before the writer runs
    spawner = channel._spawner
    assert spawner is not None
    spawner.join(WAIT_TIMEOUT_S)
    writers = [
        child
        for child in psutil.Process().children(recursive=True)
        if channel_module.WRITER_MODULE in " ".join(child.cmdline())
    ]
    assert channel.process is None
    assert writers == []  # before: a writer waiting on a pipe nobody would close
    channel.send(record(1))
    assert channel.dropped >= 1  # what comes after close is counted, not kept


def test_two_flushes_at_once_each_return_once_their_records_are_written(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    channel = WriterChannel(WriterSetup(LedgerConfig(path=ledger), "s", str(tmp_path)))
    channel.send(record(0))
    assert channel.flush(WAIT_TIMEOUT_S)
    assert channel.process is not None
    writer = psutil.Process(channel.process.pid)
    suspend(writer)  # both requests wait in the pipe: the writer answers them together
    results: list[bool] = []
    try:
        flushes = [
            threading.Thread(target=lambda: results.append(channel.flush(FLUSH_AT_ONCE_TIMEOUT_S)))
            for _ in range(2)
        ]
        for flush in flushes:
            flush.start()
        deadline = time.monotonic() + WAIT_TIMEOUT_S
        while channel._flushes < 3:  # both requests sent
            assert time.monotonic() < deadline
            time.sleep(WAIT_STEP_S)
    finally:
        writer.resume()
    for flush in flushes:
        flush.join()
    channel.close()

    assert results == [True, True]  # before: one read both answers, the other waited for nothing


def test_a_backlog_the_writer_could_not_read_before_close_is_written_after_it_in_order(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    channel = WriterChannel(WriterSetup(LedgerConfig(path=ledger), "s", str(tmp_path)))
    channel.send(record(0))
    assert channel.flush(WAIT_TIMEOUT_S)
    assert channel.process is not None
    writer = psutil.Process(channel.process.pid)
    suspend(writer)  # as on busy cores: it reads nothing, the pipe fills, the rest waits in memory
    try:
        for number in range(1, BACKLOGGED_RECORDS):
            channel.send(record(number))
        assert channel._backlog  # what the pipe could not take
        channel.close(timeout=STARVED_CLOSE_TIMEOUT_S)  # returns, the writer still stopped
        assert writer.status() == psutil.STATUS_STOPPED  # before: killed, the backlog dropped
    finally:
        writer.resume()
    until_dead(writer)

    assert questions(ledger) == [str(n) for n in range(BACKLOGGED_RECORDS)]  # every one, in order
    err = capfd.readouterr().err
    assert "ledger.writer_left_running" in err
    assert "ledger.unavailable" not in err


def test_the_writer_runs_at_the_lowest_priority_and_reports_its_rows_and_cpu_at_exit(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    channel = WriterChannel(WriterSetup(LedgerConfig(path=tmp_path / "ledger.sqlite3"), "s", str(tmp_path)))
    for number in range(3):
        channel.send(record(number))
    assert channel.flush(WAIT_TIMEOUT_S)
    assert channel.process is not None

    assert os.getpriority(os.PRIO_PROCESS, channel.process.pid) == writer_module.WRITER_NICENESS == 19
    channel.close()
    events = [json.loads(line) for line in capfd.readouterr().err.splitlines() if line.startswith("{")]
    stopped = [e["data"] for e in events if e["event"] == "ledger.writer_stopped"]
    assert len(stopped) == 1
    assert stopped[0]["written"] == 3
    assert stopped[0]["dropped"] == 0
    assert 0 < stopped[0]["rows_cpu_s"] <= stopped[0]["cpu_s"]


def test_a_sessions_last_rows_are_written_after_its_server_exited_while_its_writer_waited_for_a_core(
    tmp_path: Path,
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "big.py").write_text(CODE * 60, encoding="utf-8")  # ~150 KB: a few fill the pipe
    ledger = tmp_path / "ledger.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")} | {
        "JEEVES_LEDGER_PATH": str(ledger)
    }
    calls = [read_call(request_id) for request_id in range(2, 3 + STARVED_SERVER_CALLS)]
    for call in calls:
        call["params"]["arguments"] = {"path": "big.py"}  # type: ignore[index]
    with stdio_server(root, env=env) as server:
        server.handshake()
        server.send(calls[0])
        assert "result" in server.answer_to(2)
        writer = writer_of(server)
        deadline = time.monotonic() + WAIT_TIMEOUT_S
        while not rows_written(ledger):  # the writer runs
            assert time.monotonic() < deadline, server.stderr()[-2000:]
            time.sleep(WAIT_STEP_S)
        suspend(writer)  # as on cores kept busy by other work: it gets none of them
        try:
            for call in calls[1:]:
                server.send(call)
                assert "result" in server.answer_to(call["id"])
            server.stdin.close()  # the agent ends the session
            assert server.process.wait(WAIT_TIMEOUT_S) == 0
            assert writer.status() == psutil.STATUS_STOPPED  # before: killed at the server's exit
        finally:
            writer.resume()
        until_dead(writer)
        stderr = server.stderr()

    assert rows_written(ledger) == len(calls), stderr[-2000:]
    assert "ledger.writer_left_running" in stderr
