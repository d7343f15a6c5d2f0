"""Claude Code spawns the stdio server (after `jeeves install claude`, or from a `"type": "stdio"`
`--mcp-config` entry) and a model's call of its `read` comes back pruned.

The model is scripted: a local Anthropic Messages endpoint (the SSE shapes of AGENT_FACTS.md)
answers the first turn with a `tool_use` of `mcp__jeeves_pruner__read` carrying a focus
question, and records the `tool_result` Claude Code sends back on the next turn — which must
be our pruned `read`, verbatim.
"""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from interop_claude import CLAUDE_ENV, claude_executable
from interop_support import (
    CLIENT_TIMEOUT_S,
    FOCUS_QUESTION,
    SAMPLE_FILE,
    SERVER_NAME_IN_CLIENTS,
    TARGET_FUNCTION,
    client_env,
    jeeves_executable,
    run_client,
    sample_code,
    write_sample_tree,
)

from runner.install import server_argv

pytestmark = pytest.mark.real_client

TOOL_NAME = f"mcp__{SERVER_NAME_IN_CLIENTS}__read"
TOOL_INPUT = {"path": SAMPLE_FILE, "context_focus_question": FOCUS_QUESTION}


def _sse(events: list[dict[str, Any]]) -> bytes:
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


def _message(block: dict[str, Any], delta: dict[str, Any], stop_reason: str) -> bytes:
    usage = {"input_tokens": 10, "output_tokens": 1}
    message = {"id": "msg_scripted", "type": "message", "role": "assistant", "model": "claude-scripted"}
    return _sse(
        [
            {
                "type": "message_start",
                "message": {**message, "content": [], "stop_reason": None, "usage": usage},
            },
            {"type": "content_block_start", "index": 0, "content_block": block},
            {"type": "content_block_delta", "index": 0, "delta": delta},
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": stop_reason}, "usage": {"output_tokens": 5}},
            {"type": "message_stop"},
        ]
    )


class ScriptedModel(ThreadingHTTPServer):
    """Turn 1: call our `read`; any turn carrying its result: record it and end."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.tool_results: list[Any] = []
        self.requests = 0


class _Handler(BaseHTTPRequestHandler):
    server: ScriptedModel

    def log_message(self, *_args: object) -> None:  # the test's output, not the server's
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        self.server.requests += 1
        if "count_tokens" in self.path:
            self._send(b'{"input_tokens": 10}', "application/json")
            return
        results = [
            block
            for message in body.get("messages", [])
            if isinstance(message.get("content"), list)
            for block in message["content"]
            if block.get("type") == "tool_result"
        ]
        tools = {tool.get("name") for tool in body.get("tools", [])}
        if results:
            self.server.tool_results += results
            answer = _message(
                {"type": "text", "text": ""}, {"type": "text_delta", "text": "done"}, "end_turn"
            )
        elif TOOL_NAME in tools:
            block = {"type": "tool_use", "id": "toolu_scripted", "name": TOOL_NAME, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(TOOL_INPUT)}
            answer = _message(block, delta, "tool_use")
        else:  # a side request (title, summary): a plain answer
            answer = _message({"type": "text", "text": ""}, {"type": "text_delta", "text": "ok"}, "end_turn")
        self._send(answer, "text/event-stream")

    def _send(self, payload: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


@pytest.fixture
def scripted_model() -> Iterator[ScriptedModel]:
    server = ScriptedModel()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=CLIENT_TIMEOUT_S)


def _text_of(result: dict[str, Any]) -> str:
    content = result.get("content")
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content or [] if isinstance(block, dict))


@pytest.mark.parametrize("registered_by", ["jeeves install", "--mcp-config stdio entry"])
def test_claude_p_calls_the_stdio_servers_read_and_gets_the_pruned_text(
    tmp_path: Path, client_home: Path, scripted_model: ScriptedModel, registered_by: str
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    write_sample_tree(project)
    env = client_env(
        client_home,
        {
            **CLAUDE_ENV,
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{scripted_model.server_address[1]}",
            "ANTHROPIC_API_KEY": "sk-scripted",
            "ENABLE_TOOL_SEARCH": "false",  # every tool's schema in the request, ours included
        },
    )
    claude = [str(claude_executable()), "-p", "Where is the tax applied?"]
    claude += ["--allowedTools", f"mcp__{SERVER_NAME_IN_CLIENTS}"]
    if registered_by == "jeeves install":
        installed = subprocess.run(
            [str(jeeves_executable()), "install", "claude"],
            env=env,
            cwd=project,
            capture_output=True,
            text=True,
            timeout=CLIENT_TIMEOUT_S,
        )
        assert installed.returncode == 0, installed.stderr
    else:
        argv = server_argv()  # what `jeeves install` registers
        entry = {"type": "stdio", "command": argv[0], "args": argv[1:]}
        config = client_home / "mcp.json"
        config.write_text(json.dumps({"mcpServers": {SERVER_NAME_IN_CLIENTS: entry}}), encoding="utf-8")
        claude += ["--mcp-config", str(config), "--strict-mcp-config"]

    run = run_client(claude, env=env, cwd=project)

    assert run.returncode == 0, run.describe()
    assert scripted_model.tool_results, run.describe()
    result = scripted_model.tool_results[0]
    assert result.get("is_error") is not True, result
    # Our plain text block, verbatim (`--result-view text`): the kept lines, numbered, and markers.
    text = _text_of(result)
    assert f"│ def {TARGET_FUNCTION}(lines, tax_rate):" in text, text
    assert "⟦PRUNÉ: prune_id=" in text
    assert not text.lstrip().startswith("{"), "the model must not get the result's JSON"
    assert len(text) < len(sample_code()) / 2
