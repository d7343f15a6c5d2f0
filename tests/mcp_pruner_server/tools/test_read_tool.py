from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent

from mcp_pruner_server.tools.outcome import RawOutput
from mcp_pruner_server.tools.read_tool import ReadArgs, run_read, source_type_for
from tests.mcp_pruner_server.server_fixtures import READY_TIMEOUT_S, child_server
from tests.mcp_pruner_server.tools.tool_context import tool_context


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("src/app.py", "code"),
        ("Makefile", "code"),
        ("config/settings.toml", "code"),
        ("docs/GUIDE.md", "docs"),
        ("README", "docs"),
        ("notes.txt", "docs"),
        ("logs/build.log", "logs"),
        ("out/test.out", "logs"),
    ],
)
def test_the_source_type_follows_the_extension(path: str, expected: str) -> None:
    assert source_type_for(path) == expected


@pytest.mark.anyio
async def test_the_read_output_carries_the_file_path_for_the_language(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.go").write_text("package main\n\nfunc main() {\n}\n")
    async with tool_context(tmp_path) as context:
        raw = await run_read(context, ReadArgs("src/main.go", None, None, 1 << 20, "main"))
    assert isinstance(raw, RawOutput)
    assert raw.path == "src/main.go"


def _model_text(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


@pytest.mark.anyio
async def test_a_latin1_file_read_through_the_server_says_its_bytes_are_not_utf8(tmp_path: Path) -> None:
    lines = [f"Zeile {n}: Größe über Maß, café" for n in range(300)] + ["FEHLER: Prüfsumme falsch"]
    (tmp_path / "bericht.log").write_bytes("\n".join(lines).encode("latin-1"))
    (tmp_path / "clean.log").write_text("all UTF-8: Größe \ufffd\n", encoding="utf-8")
    bad_bytes = 300 * 5 + 1  # ö ß ü ß é per line, the ü of the last
    with child_server(tmp_path) as server, anyio.fail_after(READY_TIMEOUT_S * 2):
        async with (
            httpx2.AsyncClient(timeout=30) as http,
            Client(streamable_http_client(server.ready["url"], http_client=http), mode="legacy") as client,
        ):
            whole = await client.call_tool("read", {"path": "bericht.log"})
            pruned = await client.call_tool(
                "read", {"path": "bericht.log", "context_focus_question": "which check failed?"}
            )
            clean = await client.call_tool("read", {"path": "clean.log"})
    assert whole.structured_content is not None
    assert whole.structured_content["invalid_utf8_bytes"] == bad_bytes
    assert "Gr\ufffd\ufffde" in whole.structured_content["content"]
    note = f"[not UTF-8: {bad_bytes} bytes shown as \ufffd]"
    assert _model_text(whole).splitlines()[-1] == note
    assert pruned.structured_content is not None
    assert pruned.structured_content["invalid_utf8_bytes"] == bad_bytes
    assert _model_text(pruned).splitlines()[-1].endswith(f" · {note[1:]}")
    assert clean.structured_content is not None
    assert "invalid_utf8_bytes" not in clean.structured_content
    assert _model_text(clean) == "all UTF-8: Größe \ufffd"
