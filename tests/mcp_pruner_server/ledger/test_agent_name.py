"""The ledger's agent is the MCP client's `clientInfo.name`, however the client sends it over `/mcp`:
in a 2025 `initialize` (stateless: the tool call comes in another request) or in the `_meta`
envelope of every 2026-07-28 request (Claude Code 2.1.33x)."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from tests.mcp_pruner_server.server_fixtures import JSON_HEADERS, in_process

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
READ = {"name": "read", "arguments": {"path": "a.py"}}


def agents(ledger: Path) -> list[str | None]:
    with contextlib.closing(sqlite3.connect(ledger)) as conn:
        return [r[0] for r in conn.execute("SELECT agent FROM calls ORDER BY id")]


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
