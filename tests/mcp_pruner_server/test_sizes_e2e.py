"""Issue 13's "Done when", through the real server: a 120k-line (9 MB) log whose failure is its
last line reaches the agent as its failure, with or without a question."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx

from tests.mcp_pruner_server.server_fixtures import child_server

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
from build_log import FAILURE_LINE, QUESTION, build_log

LOG_LINES = 120_000
PRUNED_REPLY_MAX = 128 << 10  # what a question's answer may cost at most
MAX_OUTPUT_BYTES = 1 << 20  # the tools' default
MARKER_MAX = 200  # one `⟦TRUNCATED: …⟧` line
# Generous: the engine needs ~0.2 s on this log; a loaded 2-core machine may need many times that.
PRUNER_TIMEOUT_MS = "20000"


def _call(base_url: str, tool: str, arguments: dict[str, object]) -> dict[str, object]:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }
    answer = httpx.post(f"{base_url}/rpc", json=body, timeout=50).json()
    structured: dict[str, object] = answer["result"]["structuredContent"]
    return structured


def _reply(result: dict[str, object]) -> str:
    return str(result["content"]) if "content" in result else f"{result['stdout']}{result['stderr']}"


def test_a_huge_log_reaches_the_agent_as_its_failure(tmp_path: Path) -> None:
    (tmp_path / "build.log").write_text(build_log(LOG_LINES))
    assert (tmp_path / "build.log").stat().st_size > 8_000_000
    with child_server(tmp_path, env={"JEEVES_PRUNER_TIMEOUT_MS": PRUNER_TIMEOUT_MS}) as server:
        asked = {
            "bash": _call(
                server.base_url, "bash", {"cmd": "cat build.log", "context_focus_question": QUESTION}
            ),
            "read": _call(server.base_url, "read", {"path": "build.log", "context_focus_question": QUESTION}),
        }
        plain = {
            "bash": _call(server.base_url, "bash", {"cmd": "cat build.log"}),
            "read": _call(server.base_url, "read", {"path": "build.log"}),
        }
    for tool, result in asked.items():
        reply = _reply(result)
        assert FAILURE_LINE in reply, tool
        assert len(reply.encode()) <= PRUNED_REPLY_MAX, tool
        pruning = result["pruning"]
        assert isinstance(pruning, dict)
        assert pruning["applied"] is True, (tool, pruning)
        assert pruning["raw_bytes"] == (tmp_path / "build.log").stat().st_size  # all of it was pruned
    for tool, result in plain.items():
        reply = _reply(result)
        assert reply.endswith(FAILURE_LINE + "\n"), tool  # the tail is kept
        assert len(reply.encode()) <= MAX_OUTPUT_BYTES + MARKER_MAX, tool
        assert reply.count("⟦TRUNCATED: lines ") == 1, tool
        assert result["truncated"] is True
