"""`/mcp` with the official `mcp` client (`streamable_http_client`) against the real server process."""

import json
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from mcp_pruner_server.protocol import text_block_setting
from tests.mcp_pruner_server.server_fixtures import READY_TIMEOUT_S, child_server

pytestmark = pytest.mark.anyio
TOKEN = "tok-sdk-client"
QUESTION = "where is the tax computed?"


def write_workspace(root: Path) -> str:
    lines = ["import math", ""]
    for n in range(200):
        lines += [f"def helper_{n:04d}(value):", f"    return value * {n}", ""]
    lines += [
        "def compute_tax(subtotal, rate):",
        "    tax = subtotal * rate  # the tax is computed here",
        "    return tax",
        "",
    ]
    source = "\n".join(lines)
    (root / "billing.py").write_text(source)
    return source


async def test_the_sdk_client_initializes_lists_and_calls_every_tool(tmp_path: Path) -> None:
    source = write_workspace(tmp_path)
    with child_server(tmp_path, env={"JEEVES_MCP_PRUNER_TOKEN": TOKEN}) as server:
        url = server.ready["url"]
        headers = {"Authorization": f"Bearer {TOKEN}"}
        with anyio.fail_after(READY_TIMEOUT_S * 2):
            async with (
                httpx2.AsyncClient(headers=headers, timeout=30) as http,
                Client(streamable_http_client(url, http_client=http), mode="legacy") as client,
            ):
                assert client.server_info is not None
                assert client.server_info.name == "jeeves-mcp-pruner"
                listing = await client.list_tools()
                names = {tool.name for tool in listing.tools}

                async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
                    result = await client.call_tool(name, arguments)
                    assert result.structured_content is not None
                    structured: dict[str, Any] = result.structured_content
                    return structured

                read = await call("read", {"path": "billing.py", "context_focus_question": QUESTION})
                bash = await call(
                    "bash",
                    {"cmd": "seq 1 300; echo 'tax mismatch ERROR'", "context_focus_question": "error?"},
                )
                grep = await call(
                    "grep", {"pattern": "return", "paths": ["."], "context_focus_question": QUESTION}
                )
                options = {
                    "max_prune_ratio": 0.9,
                    "min_keep_lines": 1,
                    "timeout_ms": 1500,
                    "annotate_lines": True,
                    "include_markers": True,
                }
                pruned = await call(
                    "prune_text",
                    {"text": source, "goal_hint": QUESTION, "source_type": "code", "options": options},
                )
                whole = [{"start_line": 1, "end_line": 10**6}]
                recover = {
                    "prune_id": read["pruning"]["prune_id"],
                    "ranges": whole,
                    "include_line_numbers": False,
                }
                recovered = await call("recover_text", recover)
                aliased = await call("recover_range", recover)
                health = await call("health", {})
                with pytest.raises(MCPError) as invalid:
                    await client.call_tool("read", {"path": ""})
    assert names == {"read", "bash", "grep", "prune_text", "recover_text", "recover_range", "health"}
    assert read["pruning"]["applied"] is True
    assert "tax = subtotal * rate" in read["content"]
    assert "tax mismatch ERROR" in bash["stdout"]
    assert bash["pruning"]["attempted"] is True
    assert grep["match_count"] == 201
    assert "listing" in grep
    assert pruned["stats"]["pruned_lines"] > 0
    assert recovered["raw_text"] == source
    assert aliased == recovered
    assert health["status"] == "healthy"
    assert invalid.value.code == -32602
    assert invalid.value.data["field_errors"][0]["field"] == "path"


async def test_the_sdk_client_reads_back_bytes_that_are_not_utf8_through_every_workspace_tool(
    tmp_path: Path,
) -> None:
    data = b"ok\n\xed\xa0\x80 surrogate\n\xff\xfe\x01 NaN 123456789012345678901234\n\xf0\x9f\x98\n"
    (tmp_path / "blob.bin").write_bytes(data)
    expected = data.decode("utf-8", "replace")
    with child_server(tmp_path) as server, anyio.fail_after(READY_TIMEOUT_S * 2):
        async with (
            httpx2.AsyncClient(timeout=30) as http,
            Client(streamable_http_client(server.ready["url"], http_client=http), mode="legacy") as client,
        ):
            await client.list_tools()  # the client then checks results against outputSchema
            bash = await client.call_tool("bash", {"cmd": "cat blob.bin; exit 1"})
            read = await client.call_tool("read", {"path": "blob.bin"})
            grep = await client.call_tool("grep", {"pattern": "NaN", "paths": ["blob.bin"]})
    assert bash.is_error is True
    assert bash.structured_content is not None
    assert bash.structured_content["stdout"] == expected
    assert bash.structured_content["exit_code"] == 1
    assert read.structured_content is not None
    assert read.structured_content["content"] == expected
    assert grep.structured_content is not None
    assert grep.structured_content["matches"][0]["line"] == 3


async def _text_and_tools(url: str, headers: dict[str, str]) -> tuple[Any, list[Any]]:
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        Client(streamable_http_client(url, http_client=http), mode="legacy") as client,
    ):
        listing = await client.list_tools()
        result = await client.call_tool("read", {"path": "billing.py", "context_focus_question": QUESTION})
    return result, listing.tools


async def test_the_text_block_is_the_pruned_lines_and_the_text_view_header_drops_the_json(
    tmp_path: Path,
) -> None:
    write_workspace(tmp_path)
    with child_server(tmp_path) as server, anyio.fail_after(READY_TIMEOUT_S * 2):
        url = server.ready["url"]
        plain, tools = await _text_and_tools(url, {})
        text_view, text_view_tools = await _text_and_tools(url, {"X-Jeeves-Result-View": "text"})
    text = plain.content[0].text
    assert "tax = subtotal * rate" in text
    assert not text.startswith("{")
    assert text.splitlines()[-1].startswith("[")
    assert "recover_text prune_id=prn_" in text.splitlines()[-1]
    assert plain.structured_content is not None  # programs still get every field
    assert all(tool.output_schema is not None for tool in tools)
    # Claude Code and Codex show their model JSON.stringify(structuredContent) when there is one.
    assert text_view.structured_content is None
    assert all(tool.output_schema is None for tool in text_view_tools)
    assert text_view.content[0].text.split("prune_id=")[0] == text.split("prune_id=")[0]


async def test_the_json_text_block_is_kept_behind_a_setting(tmp_path: Path) -> None:
    write_workspace(tmp_path)
    with (
        child_server(tmp_path, env={"JEEVES_MCP_PRUNER_TEXT_BLOCK": "json"}) as server,
        anyio.fail_after(READY_TIMEOUT_S * 2),
    ):
        result, _ = await _text_and_tools(server.ready["url"], {})
    assert json.loads(result.content[0].text) == result.structured_content


def test_the_text_block_setting_is_plain_unless_json_is_asked_for() -> None:
    assert text_block_setting({}) == "plain"
    assert text_block_setting({"JEEVES_MCP_PRUNER_TEXT_BLOCK": " JSON "}) == "json"
    assert text_block_setting({"JEEVES_MCP_PRUNER_TEXT_BLOCK": "xml"}) == "plain"  # logged, not fatal
