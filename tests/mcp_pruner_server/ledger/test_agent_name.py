"""The ledger's agent is the MCP client's `clientInfo.name`, however the client sends it: over `/mcp`
in a 2025 `initialize` (stateless: the tool call comes in another request) or in the `_meta`
envelope of every 2026-07-28 request (Claude Code 2.1.33x); over stdio in `initialize`, which is
answered before the tools (and the ledger) load."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

import pytest

from tests.mcp_pruner_server.server_fixtures import JSON_HEADERS, in_process
from tests.mcp_pruner_server.stdio_process import stdio_server
from tests.rpc_examples import initialize

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
READ = {"name": "read", "arguments": {"path": "a.py"}}
# The writer process writes the row; its server's stop waits for it only so long (`CLOSE_TIMEOUT_S`)
# and then leaves it to finish alone, so on busy cores the row may land after the server is gone.
ROW_TIMEOUT_S = 30.0
POLL_S = 0.05  # how often the ledger file is looked at (a file has no event to wait on)


def agents(ledger: Path) -> list[str | None]:
    """The agent of each call in the ledger, once the writer has written the one call made."""
    deadline = time.monotonic() + ROW_TIMEOUT_S
    while not (written := _agents_written(ledger)):
        assert time.monotonic() < deadline, f"no row in {ledger} within {ROW_TIMEOUT_S} s"
        time.sleep(POLL_S)
    return written


def _agents_written(ledger: Path) -> list[str | None]:
    if not ledger.exists():
        return []
    with contextlib.closing(sqlite3.connect(ledger)) as conn:
        try:
            return [r[0] for r in conn.execute("SELECT agent FROM calls ORDER BY id")]
        except sqlite3.OperationalError:  # the writer has not created its table yet
            return []


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    return project


async def test_the_agent_is_the_name_a_2025_client_gave_in_initialize(root: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    init = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "codex", "version": "1"},
    }
    async with in_process(root, env={"JEEVES_LEDGER_PATH": str(ledger)}) as client:
        first = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}
        assert (await client.post("/mcp", json=first, headers=JSON_HEADERS)).status_code == 200
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": READ}
        assert (await client.post("/mcp", json=call, headers=JSON_HEADERS)).status_code == 200

    assert agents(ledger) == ["codex"]


async def test_the_agent_is_the_name_in_a_2026_requests_envelope(root: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "claude-code", "version": "2.1.332"},
        "io.modelcontextprotocol/clientCapabilities": {"roots": {"listChanged": True}},
    }
    headers = JSON_HEADERS | {"mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "read"}
    async with in_process(root, env={"JEEVES_LEDGER_PATH": str(ledger)}) as client:
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {**READ, "_meta": meta}}
        assert (await client.post("/mcp", json=call, headers=headers)).status_code == 200

    assert agents(ledger) == ["claude-code"]


def test_the_agent_is_what_a_stdio_client_said_before_the_tools_loaded(root: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    env = {**os.environ, "JEEVES_LEDGER_PATH": str(ledger)}
    with stdio_server(root, env=env) as server:
        server.send(initialize(client_name="opencode"))
        server.answer_to(1)
        server.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": READ})
        assert "result" in server.answer_to(2)
        assert server.process.stdin is not None
        server.process.stdin.close()  # EOF: the server writes its queued calls and exits
        server.process.wait(timeout=30)

    assert agents(ledger) == ["opencode"]
