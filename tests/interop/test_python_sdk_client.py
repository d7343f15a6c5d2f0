"""The official `mcp` Python SDK client over a real socket: every tool, pruning and recovery.

Run twice: with the legacy `initialize` handshake (what Codex and the Inspector do) and with
the SDK's `auto` mode, which probes `server/discover` and speaks 2026-07-28 like Claude Code.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.interop.interop_support import (
    CLIENT_TIMEOUT_S,
    EXPECTED_TOOLS,
    FOCUS_QUESTION,
    SAMPLE_FILE,
    SMALL_FILE,
    SMALL_TEXT,
    TARGET_FUNCTION,
    RunningServer,
    sample_code,
)

pytestmark = [pytest.mark.real_client, pytest.mark.anyio]

WHOLE_FILE = [{"start_line": 1, "end_line": 1_000_000}]  # clamped to the last line by the server
PRUNE_ID_NOT_FOUND = -32004  # docs/http.md#json-rpc-error-codes


@pytest.fixture(params=["legacy", "auto"])
def mode(request: pytest.FixtureRequest) -> str:
    """How the client negotiates: the `initialize` handshake, or a `server/discover` probe first."""
    value: str = request.param
    return value


@contextlib.asynccontextmanager
async def connect(server: RunningServer, mode: str) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {server.token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=CLIENT_TIMEOUT_S) as http,
        Client(streamable_http_client(server.url, http_client=http), mode=mode) as client,
    ):
        yield client


def arrays_without_items(schema: object, path: str) -> list[str]:
    """Where a schema declares an array without `items` (strict schema dialects reject those)."""
    found: list[str] = []
    if isinstance(schema, dict):
        if schema.get("type") == "array" and "items" not in schema:
            found.append(path)
        for key, value in schema.items():
            found += arrays_without_items(value, f"{path}.{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            found += arrays_without_items(value, f"{path}[{index}]")
    return found


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result
    return result.structured_content


async def test_sdk_client_lists_every_tool_with_closed_input_schemas(
    pruner_server: RunningServer, mode: str
) -> None:
    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with connect(pruner_server, mode) as client:
            listing = await client.list_tools()

    tools = {tool.name: tool for tool in listing.tools}
    assert set(EXPECTED_TOOLS) <= set(tools)
    for name in EXPECTED_TOOLS:
        assert tools[name].input_schema.get("additionalProperties") is False, name
        assert tools[name].output_schema is not None, name
        assert arrays_without_items(tools[name].input_schema, name) == [], name


async def test_sdk_client_reads_raw_without_a_question(pruner_server: RunningServer, mode: str) -> None:
    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with connect(pruner_server, mode) as client:
            read = await call(client, "read", {"path": SMALL_FILE})

    assert read["content"] == SMALL_TEXT
    assert read["pruning"]["attempted"] is False
    assert read["pruning"]["reason"] == "no_focus_question"


async def test_sdk_client_reads_pruned_then_recovers_the_original_with_both_tool_names(
    pruner_server: RunningServer, mode: str
) -> None:
    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with connect(pruner_server, mode) as client:
            read = await call(client, "read", {"path": SAMPLE_FILE, "context_focus_question": FOCUS_QUESTION})
            recover = {
                "prune_id": read["pruning"]["prune_id"],
                "ranges": WHOLE_FILE,
                "include_line_numbers": False,
            }
            recovered = await call(client, "recover_text", recover)
            aliased = await call(client, "recover_range", recover)

    assert read["pruning"]["applied"] is True, read["pruning"]
    assert f"def {TARGET_FUNCTION}(lines, tax_rate):" in read["content"]
    assert recovered["raw_text"] == sample_code()
    assert aliased["raw_text"] == recovered["raw_text"]


async def test_sdk_client_runs_bash_and_grep(pruner_server: RunningServer, mode: str) -> None:
    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with connect(pruner_server, mode) as client:
            bash = await call(client, "bash", {"cmd": "printf 'hello\\n'"})
            grep = await call(client, "grep", {"pattern": f"def {TARGET_FUNCTION}", "paths": [SAMPLE_FILE]})

    assert (bash["exit_code"], bash["stdout"]) == (0, "hello\n")
    assert grep["match_count"] == 1
    assert grep["matches"][0]["path"] == SAMPLE_FILE


async def test_sdk_client_prunes_text_and_checks_health(pruner_server: RunningServer, mode: str) -> None:
    options = {
        "max_prune_ratio": 0.9,
        "min_keep_lines": 1,
        "timeout_ms": 1500,
        "annotate_lines": False,
        "include_markers": True,
    }
    arguments = {
        "text": sample_code(),
        "goal_hint": FOCUS_QUESTION,
        "source_type": "code",
        "options": options,
    }
    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with connect(pruner_server, mode) as client:
            pruned = await call(client, "prune_text", arguments)
            health = await call(client, "health", {})

    assert f"def {TARGET_FUNCTION}(lines, tax_rate):" in pruned["pruned_text"]
    assert pruned["stats"]["pruned_lines"] > 0
    assert pruned["prune_id"]
    assert health["status"] in {"healthy", "ok"}


async def test_sdk_client_sees_an_unknown_prune_id_as_a_json_rpc_error(
    pruner_server: RunningServer, mode: str
) -> None:
    unknown = {"prune_id": "prn_unknown", "ranges": WHOLE_FILE, "include_line_numbers": False}
    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with connect(pruner_server, mode) as client:
            # Inside the client's block: leaving it would wrap the error in its task group's.
            with pytest.raises(MCPError) as caught:
                await client.call_tool("recover_text", unknown)

    assert caught.value.code == PRUNE_ID_NOT_FOUND
