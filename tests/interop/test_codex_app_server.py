"""OpenAI Codex (`codex app-server`, npm @openai/codex) against the real server, over stdio."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_pruner_server.pruning.model_view import MODEL_MARKER
from tests.interop.interop_codex import CodexAppServer, open_codex_app_server
from tests.interop.interop_support import (
    CLIENT_TIMEOUT_S,
    EXPECTED_TOOLS,
    FOCUS_QUESTION,
    SAMPLE_FILE,
    SERVER_NAME_IN_CLIENTS,
    TARGET_FUNCTION,
    RunningServer,
    client_env,
    node_client,
    sample_code,
)

pytestmark = [pytest.mark.real_client, pytest.mark.anyio]

# The variable the runner hands Codex the token in (docs/configuration.md#variables-the-runner-sets).
TOKEN_ENV_VAR = "JEEVES_MCP_TOKEN"


def overrides(server: RunningServer) -> list[str]:
    prefix = f"mcp_servers.{SERVER_NAME_IN_CLIENTS}"
    return ["-c", f'{prefix}.url="{server.url}"', "-c", f'{prefix}.bearer_token_env_var="{TOKEN_ENV_VAR}"']


def start_codex(server: RunningServer, home: Path, token: str) -> AbstractAsyncContextManager[CodexAppServer]:
    """An app-server with its own CODEX_HOME, configured for `server`, sending `token`."""
    codex_home = home / ".codex"
    codex_home.mkdir(exist_ok=True)
    return open_codex_app_server(
        node_client("codex"),
        overrides(server),
        env=client_env(home, {"CODEX_HOME": str(codex_home), TOKEN_ENV_VAR: token}),
        cwd=server.root,
        stderr_path=home / "codex.stderr.log",
    )


async def call_tool(codex: CodexAppServer, thread_id: str, tool: str, arguments: dict[str, Any]) -> Any:
    result = await codex.call_tool(thread_id, SERVER_NAME_IN_CLIENTS, tool, arguments)
    assert result.get("isError") is not True, result
    return result["structuredContent"]


async def test_codex_app_server_lists_every_tool_of_the_server(
    pruner_server: RunningServer, client_home: Path
) -> None:
    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with start_codex(pruner_server, client_home, pruner_server.token) as codex:
            await codex.initialize()
            status = await codex.server_status(SERVER_NAME_IN_CLIENTS)

    assert status["toolsError"] is None, status
    assert set(EXPECTED_TOOLS) <= set(status["tools"]), sorted(status["tools"])
    assert "context_focus_question" in status["tools"]["read"]["inputSchema"]["properties"]
    assert status["serverInfo"]["name"] == "jeeves-mcp-pruner", status["serverInfo"]


async def test_codex_app_server_reads_with_a_focus_question_and_recovers_what_was_pruned(
    pruner_server: RunningServer, client_home: Path
) -> None:
    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with start_codex(pruner_server, client_home, pruner_server.token) as codex:
            await codex.initialize()
            thread_id = await codex.start_thread()
            read = await call_tool(
                codex, thread_id, "read", {"path": SAMPLE_FILE, "context_focus_question": FOCUS_QUESTION}
            )
            prune_id = read["pruning"]["prune_id"]
            recovered = await call_tool(
                codex,
                thread_id,
                "recover_text",
                {
                    "prune_id": prune_id,
                    "ranges": [{"start_line": 1, "end_line": 1_000_000}],
                    "include_line_numbers": False,
                },
            )

    assert read["pruning"]["applied"] is True, read["pruning"]
    assert f"def {TARGET_FUNCTION}(lines, tax_rate):" in read["content"]
    assert any(MODEL_MARKER.match(line) for line in read["content"].split("\n"))
    assert len(read["content"]) < len(sample_code()) / 2, "a one-function question should drop most of it"
    # Ranges past the end are clamped, so this is the whole original, byte for byte.
    assert recovered["raw_text"] == sample_code()


async def test_codex_app_server_with_a_wrong_token_is_refused_by_the_server(
    pruner_server: RunningServer, client_home: Path
) -> None:
    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with start_codex(pruner_server, client_home, "not-" + pruner_server.token) as codex:
            await codex.initialize()
            status = await codex.server_status(SERVER_NAME_IN_CLIENTS)

    assert not status["tools"], status
    # rmcp reports the server's 401 (with its WWW-Authenticate: Bearer challenge) as "Auth required".
    assert "Auth required" in (status["toolsError"] or ""), status
