"""Two scripted model endpoints on real loopback sockets: Anthropic Messages and OpenAI Responses.

Each records every request it receives (path and JSON body) and answers as a streamed (SSE)
model turn chosen by a `Brain`: a tool call or a final text. The wire formats are the ones the
real Claude Code 2.1.330 and Codex 0.169.0 accept (`/work/shared/AGENT_FACTS.md`): Claude
POSTs `/v1/messages?beta=true` and reads `message_start … message_stop`; Codex POSTs
`/v1/responses` and reads `response.created`, `response.output_item.added/done`,
`response.completed`. Anything else (a HEAD probe, a models listing) gets an empty 404.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

JsonDict = dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    """The model's turn: call one tool (by its name in our server) with these arguments."""

    tool: str
    arguments: Mapping[str, object]


@dataclass(frozen=True)
class FinalText:
    """The model's turn: answer in text and stop."""

    text: str


Turn = ToolCall | FinalText
# Given a request's JSON body, the turn to stream back.
Brain = Callable[[JsonDict], Turn]


@dataclass(frozen=True)
class Recorded:
    """One request a fake model received."""

    path: str
    body: JsonDict


def _sse(events: list[tuple[str, JsonDict]]) -> bytes:
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events)


def anthropic_events(turn: Turn, server_key: str, number: int) -> list[tuple[str, JsonDict]]:
    """A Messages API stream: one text or one `tool_use` block named `mcp__<server>__<tool>`."""
    message: JsonDict = {
        "id": f"msg_{number:04d}",
        "type": "message",
        "role": "assistant",
        "model": "claude-scripted",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    if isinstance(turn, ToolCall):
        block = {
            "type": "tool_use",
            "id": f"toolu_{number:04d}",
            "name": f"mcp__{server_key}__{turn.tool}",
            "input": {},
        }
        delta = {"type": "input_json_delta", "partial_json": json.dumps(dict(turn.arguments))}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": turn.text}
        stop = "end_turn"
    return [
        ("message_start", {"type": "message_start", "message": message}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]


def responses_events(turn: Turn, server_key: str, number: int) -> list[tuple[str, JsonDict]]:
    """A Responses API stream: one `function_call` item in our namespace, or one message."""
    item: JsonDict
    if isinstance(turn, ToolCall):
        item = {
            "type": "function_call",
            "id": f"fc_{number:04d}",
            "call_id": f"call_{number:04d}",
            "namespace": f"mcp__{server_key}",
            "name": turn.tool,
            "arguments": json.dumps(dict(turn.arguments)),
            "status": "completed",
        }
    else:
        item = {
            "type": "message",
            "id": f"msg_{number:04d}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
        }
    response_id = f"resp_{number:04d}"
    usage = {
        "input_tokens": 1,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 1,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 2,
    }
    return [
        ("response.created", {"type": "response.created", "response": {"id": response_id}}),
        (
            "response.output_item.added",
            {"type": "response.output_item.added", "output_index": 0, "item": item},
        ),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        (
            "response.completed",
            {"type": "response.completed", "response": {"id": response_id, "usage": usage}},
        ),
    ]


class FakeModel:
    """A scripted model behind one loopback port; `requests` grows as the agent calls it."""

    def __init__(self, kind: str, brain: Brain, server_key: str) -> None:
        if kind not in ("anthropic", "responses"):
            raise ValueError(kind)
        self.kind = kind
        self.brain = brain
        self.server_key = server_key
        self.requests: list[Recorded] = []
        self.errors: list[str] = []  # a brain that raised: the agent got a 500, the test says why
        self._lock = threading.Lock()

    def answer(self, path: str, body: JsonDict) -> bytes:
        with self._lock:
            self.requests.append(Recorded(path, body))
            number = len(self.requests)
        turn = self.brain(body)
        if self.kind == "anthropic":
            return _sse(anthropic_events(turn, self.server_key, number))
        return _sse(responses_events(turn, self.server_key, number))

    def wants(self, path: str) -> bool:
        if self.kind == "anthropic":
            return path.split("?")[0] == "/v1/messages"
        return path.split("?")[0] == "/v1/responses"


def _handler(model: FakeModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the test reports from `requests`, not from an access log

        def _empty(self, status: int) -> None:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self) -> None:
            self._empty(404)

        def do_HEAD(self) -> None:
            self._empty(404)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if not model.wants(self.path):
                self._empty(404)
                return
            try:
                payload = model.answer(self.path, json.loads(raw))
            except Exception as exc:  # the boundary: the agent sees a 500, the test sees the reason
                model.errors.append(f"{type(exc).__name__}: {exc}")
                self._empty(500)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler


@contextlib.contextmanager
def serving(model: FakeModel) -> Iterator[str]:
    """Serve `model` on 127.0.0.1 (a free port) in a thread; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(model))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
