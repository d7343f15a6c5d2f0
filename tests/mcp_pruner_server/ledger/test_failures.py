"""A ledger that cannot be written never costs a tool call: real stdio servers (the SDK client)
with a read-only state directory, a file-size limit (RLIMIT_FSIZE: the disk is "full"), a
corrupt database file, a database another process holds locked, and a killed writer process."""

from __future__ import annotations

import contextlib
import os
import resource
import sqlite3
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.mcp_pruner_server.ledger.writer_process import read_call, until_dead, writer_of
from tests.mcp_pruner_server.stdio_process import stdio_server

pytestmark = pytest.mark.anyio

CLIENT_TIMEOUT_S = 60.0  # a session of a few calls takes ~2 s; two cores shared by several suites
CALLS = 12
# Long enough that a dozen rows outgrow the file-size limit below.
QUESTION = "Where is the tax computed, and which helper rounds the amount? " * 14
FILE_SIZE_LIMIT = 48 * 1024  # the empty ledger (schema, WAL) fits; a dozen long questions do not
CODE = "\n".join(
    [f"def helper_{n}(x):\n    return x + {n}\n" for n in range(40)]
    + ["def compute_tax(amount):\n    return amount * 0.2\n"]
)
UNAVAILABLE = "ledger.unavailable"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "billing.py").write_text(CODE, encoding="utf-8")
    return project


def server_env(ledger: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    return env | {"JEEVES_LEDGER_PATH": str(ledger)}


async def session(root: Path, env: Mapping[str, str], argv_prefix: tuple[str, ...] = ()) -> tuple[int, str]:
    """`CALLS` pruned reads through a real stdio server; (calls answered with the code, its stderr)."""
    argv = [*argv_prefix, sys.executable, "-m", "mcp_pruner_server", "--stdio", "--root", str(root)]
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=dict(env))
    errlog_path = root.parent / "stderr.log"
    answered = 0
    with errlog_path.open("w") as errlog, anyio.fail_after(CLIENT_TIMEOUT_S):
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            for _ in range(CALLS):
                result = await client.call_tool(
                    "read", {"path": "billing.py", "context_focus_question": QUESTION}
                )
                content = (result.structured_content or {}).get("content", "")
                answered += not result.is_error and "def compute_tax(amount):" in str(content)
    return answered, errlog_path.read_text(encoding="utf-8", errors="replace")


def ledger_rows(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("SELECT count(*) FROM calls").fetchone()[0])


@contextlib.contextmanager
def read_only_directory(path: Path) -> Iterator[Path]:
    """`path` as a directory no process of ours can write: a read-only tmpfs as root (root ignores
    file modes), mode 0555 otherwise."""
    path.mkdir()
    if os.geteuid() != 0:
        path.chmod(0o555)
        try:
            yield path
        finally:
            path.chmod(0o755)
        return
    subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(path)], check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


async def test_tool_calls_work_when_the_state_directory_is_read_only(root: Path, tmp_path: Path) -> None:
    with read_only_directory(tmp_path / "state") as state:
        answered, stderr = await session(root, server_env(state / "jeeves" / "ledger.sqlite3"))

        assert not (state / "jeeves").exists()
    assert answered == CALLS
    assert stderr.count(UNAVAILABLE) == 1, stderr[-2000:]


async def test_tool_calls_work_when_the_ledger_outgrows_the_file_size_limit(
    root: Path, tmp_path: Path
) -> None:
    ledger = tmp_path / "state" / "ledger.sqlite3"
    limit = f"import resource, os, sys; resource.setrlimit(resource.RLIMIT_FSIZE, ({FILE_SIZE_LIMIT},) * 2); "
    limit += "os.execv(sys.argv[1], sys.argv[1:])"
    # the limit is set in the child, which then becomes the server (an rlimit survives exec)
    answered, stderr = await session(root, server_env(ledger), (sys.executable, "-c", limit))

    assert answered == CALLS
    assert stderr.count(UNAVAILABLE) == 1, stderr[-2000:]
    assert "disk is full" in stderr or "disk I/O error" in stderr, stderr[-2000:]
    assert 0 <= ledger_rows(ledger) < CALLS  # some rows fitted, then the file could not grow
    assert resource.getrlimit(resource.RLIMIT_FSIZE)[0] == resource.RLIM_INFINITY  # not this process's


async def test_tool_calls_work_when_the_ledger_file_is_corrupt(root: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    garbage = b"this is not a database, it is a note someone saved here\n" * 200
    ledger.write_bytes(garbage)
    answered, stderr = await session(root, server_env(ledger))

    assert answered == CALLS
    assert stderr.count(UNAVAILABLE) == 1, stderr[-2000:]
    assert "file is not a database" in stderr
    assert ledger.read_bytes() == garbage  # the user's file is left as it was


async def test_a_ledger_locked_by_another_process_holds_no_tool_call(root: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    answered, _ = await session(root, server_env(ledger))  # creates the file, in WAL mode
    assert ledger_rows(ledger) == CALLS
    holder = sqlite3.connect(ledger, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # every writer now waits for this process
    try:
        answered, stderr = await session(root, server_env(ledger))
        # all answered while the lock is still held: no call waited for it
        assert answered == CALLS
        assert "database is locked" not in stderr
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_tool_calls_work_after_the_ledger_writer_process_was_killed(root: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    with stdio_server(root, env=server_env(ledger)) as server:
        server.handshake()
        server.send(read_call(2))
        assert "result" in server.answer_to(2)
        writer = writer_of(server)
        writer.kill()
        until_dead(writer)
        answers = []
        for request_id in range(3, 3 + CALLS):
            server.send(read_call(request_id))
            answers.append(server.answer_to(request_id))
        stderr = server.stderr()

    assert all("def compute_tax(amount):" in str(a.get("result")) for a in answers), answers[-1]
    assert stderr.count(UNAVAILABLE) == 1, stderr[-2000:]
    assert "the ledger writer exited (status -9)" in stderr, stderr[-2000:]
