"""The MCP Inspector CLI (npm @modelcontextprotocol/inspector) against the real server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_pruner_server.pruning.model_view import MODEL_MARKER
from tests.interop.interop_support import (
    EXPECTED_TOOLS,
    FOCUS_QUESTION,
    SAMPLE_FILE,
    SMALL_FILE,
    SMALL_TEXT,
    TARGET_FUNCTION,
    ClientRun,
    RunningServer,
    client_env,
    node_client,
    run_client,
)

pytestmark = pytest.mark.real_client


def inspector(server: RunningServer, home: Path, *args: str, token: str | None = None) -> ClientRun:
    argv = [str(node_client("mcp-inspector")), "--cli", server.url, "--transport", "http"]
    argv += ["--format", "json", "--stored-auth-only", *args]
    if token is not None:
        argv += ["--header", f"Authorization: Bearer {token}"]
    # The Inspector only talks to the URL it is given, and refuses to start with a proxy set.
    return run_client(argv, env=client_env(home, dead_proxies=False), cwd=server.root)


def result_of(run: ClientRun) -> dict[str, Any]:
    assert run.returncode == 0, run.describe()
    payload: dict[str, Any] = json.loads(run.stdout)
    assert "result" in payload, run.describe()
    result: dict[str, Any] = payload["result"]
    return result


def test_inspector_lists_every_tool_with_portable_schemas(
    pruner_server: RunningServer, client_home: Path
) -> None:
    # `--strict` exits 6 on any error-severity schema portability problem (warnings pass).
    run = inspector(
        pruner_server, client_home, "--method", "tools/list", "--strict", token=pruner_server.token
    )

    result = result_of(run)

    tools = {tool["name"]: tool for tool in result["tools"]}
    assert set(EXPECTED_TOOLS) <= set(tools)
    for name in EXPECTED_TOOLS:
        assert tools[name]["inputSchema"]["type"] == "object", name
        assert "outputSchema" in tools[name], name
    assert "context_focus_question" in tools["read"]["inputSchema"]["properties"]


def test_inspector_reads_a_file_raw_without_a_focus_question(
    pruner_server: RunningServer, client_home: Path
) -> None:
    run = inspector(
        pruner_server,
        client_home,
        "--method",
        "tools/call",
        "--tool-name",
        "read",
        "--tool-arg",
        f"path={SMALL_FILE}",
        token=pruner_server.token,
    )

    result = result_of(run)
    assert result.get("isError") is not True, result
    structured = result["structuredContent"]
    assert structured["content"] == SMALL_TEXT
    assert structured["pruning"]["applied"] is False
    # The text block is what a model reads: the file itself, no JSON envelope.
    assert result["content"][0]["text"] == SMALL_TEXT.rstrip("\n")


# `legacy` is the initialize handshake; `modern` speaks 2026-07-28 (server/discover), as Claude does.
@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_inspector_read_with_a_focus_question_comes_back_pruned(
    pruner_server: RunningServer, client_home: Path, era: str
) -> None:
    run = inspector(
        pruner_server,
        client_home,
        "--protocol-era",
        era,
        "--method",
        "tools/call",
        "--tool-name",
        "read",
        "--tool-arg",
        f"path={SAMPLE_FILE}",
        f"context_focus_question={FOCUS_QUESTION}",
        token=pruner_server.token,
    )

    structured = result_of(run)["structuredContent"]
    assert structured["pruning"]["applied"] is True, structured["pruning"]
    assert structured["pruning"]["prune_id"], structured["pruning"]
    assert f"def {TARGET_FUNCTION}" in structured["content"]
    assert any(MODEL_MARKER.match(line) for line in structured["content"].split("\n"))


def test_inspector_without_the_token_is_refused(pruner_server: RunningServer, client_home: Path) -> None:
    run = inspector(pruner_server, client_home, "--method", "tools/list")

    assert run.returncode != 0, run.describe()
    assert "auth_required" in run.stderr + run.stdout, run.describe()
