"""What this server says about itself in MCP, the same on every transport: `initialize`'s result.

Only the standard library and the package's version: the stdio server answers `initialize` and
`tools/list` before it has imported anything a tool call needs (`stdio.py`), and `/rpc` and
`/mcp` say the same (`http/rpc.py`, `http/mcp_transport.py`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, Literal

from mcp_pruner_server import SERVER_NAME, __version__
from mcp_pruner_server.json_slices import LongText

if TYPE_CHECKING:
    from mcp_pruner_server.pipeline.dispatcher import ToolReply

# The newest MCP revision spoken here; a client asking for an older known one gets its own back
# (the result shapes used by this server are the same in all of them).
LATEST_PROTOCOL_VERSION: Final = "2025-11-25"
KNOWN_PROTOCOL_VERSIONS: Final = frozenset({"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
# The runner and other consumers check this to know which result shapes to expect.
JEEVES_SCHEMA_VERSION: Final = 1
SERVER_INSTRUCTIONS: Final = (
    "read/bash/grep accept context_focus_question: the output is then pruned line by line to "
    "what matters for that question (original line numbers kept, removed blocks marked "
    "[lines a-b pruned], the result's prune_id on its last line). Use recover_text with that "
    "prune_id and range to see any removed lines."
)

# Tools, and resources and prompts with nothing in them, none of which ever change; spelled out
# as the official SDK declares them on `/mcp`, so every transport says the same.
CAPABILITIES: Final[Mapping[str, Mapping[str, bool]]] = {
    "tools": {"listChanged": False},
    "resources": {"subscribe": False, "listChanged": False},
    "prompts": {"listChanged": False},
}


def negotiated_version(params: Mapping[str, object]) -> str:
    """The client's protocol version when it is one spoken here, else the latest."""
    requested = params.get("protocolVersion")
    known = isinstance(requested, str) and requested in KNOWN_PROTOCOL_VERSIONS
    return requested if known and isinstance(requested, str) else LATEST_PROTOCOL_VERSION


def initialize_result(params: Mapping[str, object], *, instructions: bool = False) -> dict[str, object]:
    """`initialize`'s result; `instructions` adds the server's instructions (as `/mcp` does)."""
    result: dict[str, object] = {
        "protocolVersion": negotiated_version(params),
        "capabilities": {name: dict(flags) for name, flags in CAPABILITIES.items()},
        "serverInfo": {"name": SERVER_NAME, "version": __version__},
        "jeeves": {"schemaVersion": JEEVES_SCHEMA_VERSION},
    }
    if instructions:
        result["instructions"] = SERVER_INSTRUCTIONS
    return result


TEXT_BLOCK_ENV: Final = "JEEVES_MCP_PRUNER_TEXT_BLOCK"
TextBlock = Literal["plain", "json"]
TEXT_BLOCKS: tuple[TextBlock, ...] = ("plain", "json")


def text_block_setting(env: Mapping[str, str]) -> TextBlock:
    """`plain` (default) or `json` from the environment; any other value is logged and ignored."""
    raw = env.get(TEXT_BLOCK_ENV, "").strip().lower()
    for choice in TEXT_BLOCKS:
        if raw == choice:
            return choice
    if raw:
        from mcp_pruner_server.logs import log_event

        log_event(
            "mcp_pruner.config_invalid",
            level="warning",
            field_errors=[{"field": TEXT_BLOCK_ENV, "message": f"expected one of {', '.join(TEXT_BLOCKS)}"}],
        )
    return "plain"


def listed_tools(*, text_view: bool) -> list[dict[str, object]]:
    """`tools/list`'s tools; `text_view`: without `outputSchema` (a result without
    structuredContent must not announce one: clients check it)."""
    from mcp_pruner_server.tools.schemas import TOOL_SPECS

    tools: list[dict[str, object]] = [spec.to_dict() for spec in TOOL_SPECS]
    if text_view:
        return [{k: v for k, v in tool.items() if k != "outputSchema"} for tool in tools]
    return tools


async def tool_result_text(tool: str, reply: ToolReply, text_block: TextBlock) -> str:
    """A tool result's text block: what the agent's model reads (`tools/model_text.py`), or the
    result's JSON with `text_block` `json` (the MCP spec's SHOULD, for clients that parse it)."""
    from mcp_pruner_server.offload import run_off_loop_if_large
    from mcp_pruner_server.tools.model_text import model_text

    reply = await run_off_loop_if_large(reply.whole, len(reply.text))  # strings read whole below
    assert isinstance(reply.text, str)
    if text_block == "json":
        return reply.text
    render = functools.partial(model_text, tool, reply.structured)
    rendered: str | None = await run_off_loop_if_large(render, len(reply.text))
    return reply.text if rendered is None else rendered


def answer_text_size(answer: Mapping[str, object]) -> int:
    """Roughly how big a JSON-RPC answer's JSON is: a tool result's text content dominates it,
    and `structuredContent` holds the same data again (decides encoding off the event loop)."""
    result = answer.get("result")
    if isinstance(result, dict):
        content = result.get("content")
        if isinstance(content, list) and content and isinstance(content[0], dict):
            text = content[0].get("text", "")
            return 2 * (len(text) if isinstance(text, str | LongText) else len(str(text)))
    return 0
