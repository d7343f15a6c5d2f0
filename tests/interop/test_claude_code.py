"""Claude Code (the `claude` binary bundled in claude-agent-sdk) connecting to the real server.

Claude Code speaks MCP protocol 2026-07-28 first. With no login it prints its `system/init`
event, which reports each MCP server's connection status and the tools it found, then stops.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.interop.interop_claude import CLAUDE_ENV, claude_argv, claude_init_event, mcp_server_status
from tests.interop.interop_support import EXPECTED_TOOLS, SERVER_NAME_IN_CLIENTS, RunningServer, client_env

pytestmark = pytest.mark.real_client


def write_mcp_config(path: Path, url: str, token: str) -> Path:
    server = {"type": "http", "url": url, "headers": {"Authorization": f"Bearer {token}"}}
    path.write_text(json.dumps({"mcpServers": {SERVER_NAME_IN_CLIENTS: server}}), encoding="utf-8")
    return path


def test_claude_code_reports_the_server_connected_with_all_its_tools(
    pruner_server: RunningServer, client_home: Path
) -> None:
    config = write_mcp_config(client_home / "mcp.json", pruner_server.url, pruner_server.token)

    init = claude_init_event(claude_argv(config), client_env(client_home, CLAUDE_ENV), pruner_server.root)

    assert mcp_server_status(init, SERVER_NAME_IN_CLIENTS) == "connected", init["mcp_servers"]
    for tool in EXPECTED_TOOLS:
        assert f"mcp__{SERVER_NAME_IN_CLIENTS}__{tool}" in init["tools"], tool


def test_claude_code_with_a_wrong_token_reports_the_server_failed(
    pruner_server: RunningServer, client_home: Path
) -> None:
    config = write_mcp_config(client_home / "mcp.json", pruner_server.url, "not-" + pruner_server.token)

    init = claude_init_event(claude_argv(config), client_env(client_home, CLAUDE_ENV), pruner_server.root)

    assert mcp_server_status(init, SERVER_NAME_IN_CLIENTS) != "connected", init["mcp_servers"]
    assert not [tool for tool in init["tools"] if tool.startswith(f"mcp__{SERVER_NAME_IN_CLIENTS}__")]
