"""`/mcp` before the SDK has loaded: the handshake and plain tool calls answered by the project's core
as the SDK answers them, everything else left to the SDK."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from mcp_pruner_server.http.app import build_app
from mcp_pruner_server.http.mcp_transport import SDK_READY_TIMEOUT_S, McpEndpoint
from mcp_pruner_server.server_parts import build_parts
from mcp_pruner_server.settings import ServerSettings
from tests.mcp_pruner_server.server_fixtures import BASE_URL, JSON_HEADERS

pytestmark = pytest.mark.anyio
CLIENT_INFO = {"name": "handshake-test", "version": "1"}
TEXT_VIEW = {"X-Jeeves-Result-View": "text"}


def request(
    method: str, params: Mapping[str, object] | None = None, request_id: object = 7
) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = dict(params)
    return message


# What a client sends before its first tool call, each with the headers it comes with.
HANDSHAKE: list[tuple[dict[str, Any], dict[str, str]]] = [
    (request("initialize", {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT_INFO}), {})
    for version in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "1999-01-01")
] + [
    (
        request(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {"x": {}}, "clientInfo": CLIENT_INFO},
        ),
        TEXT_VIEW,
    ),
    ({"jsonrpc": "2.0", "method": "notifications/initialized"}, {"mcp-protocol-version": "2025-06-18"}),
    (request("ping"), {}),
    (request("ping", {"_meta": {"progressToken": 1}}, request_id="p-1"), {}),
    (request("tools/list"), {}),
    (request("tools/list", {}), TEXT_VIEW),
    (
        request("tools/list", {"cursor": "c"}),
        {"mcp-protocol-version": "2025-11-25", "accept": "application/json"},
    ),
    (request("tools/list"), {"accept": "*/*"}),
    (request("resources/list"), {}),
    (request("resources/templates/list"), {}),
    (request("prompts/list"), {}),
]


@contextlib.asynccontextmanager
async def app_client(root: Path) -> AsyncIterator[tuple[httpx.AsyncClient, McpEndpoint]]:
    parts = build_parts(ServerSettings(root=root), env={}, engine_processes=False)
    app = build_app(parts)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL, timeout=30) as client,
    ):
        yield client, app.state.mcp


def sdk_loaded(mcp: McpEndpoint) -> bool:
    return mcp.loaded


async def load_the_sdk(mcp: McpEndpoint) -> None:
    """What a request only the SDK answers does (a tool call did, before the core answered those)."""
    with anyio.fail_after(SDK_READY_TIMEOUT_S):
        assert await mcp.loaded_in_time()


async def post(client: httpx.AsyncClient, body: object, headers: Mapping[str, str]) -> tuple[int, str, Any]:
    response = await client.post("/mcp", json=body, headers={**JSON_HEADERS, **headers})
    return (
        response.status_code,
        response.headers.get("content-type", ""),
        response.json() if response.content else None,
    )


async def test_the_handshake_is_answered_before_the_sdk_loads_as_the_sdk_answers_it(tmp_path: Path) -> None:
    async with app_client(tmp_path) as (client, mcp):
        early = [await post(client, body, headers) for body, headers in HANDSHAKE]
        assert not sdk_loaded(mcp)  # every answer above came from the project's core
        await load_the_sdk(mcp)
        by_the_sdk = [await post(client, body, headers) for body, headers in HANDSHAKE]

    assert early == by_the_sdk
    assert early[0][2]["result"]["jeeves"] == {"schemaVersion": 1}
    tools = {
        (body.get("method"), str(headers)): answer
        for (body, headers), answer in zip(HANDSHAKE, early, strict=True)
    }
    assert any("outputSchema" in tool for tool in tools[("tools/list", "{}")][2]["result"]["tools"])
    assert all(
        "outputSchema" not in tool for tool in tools[("tools/list", str(TEXT_VIEW))][2]["result"]["tools"]
    )


@pytest.mark.parametrize(
    ("body", "headers"),
    [
        (request("tools/call", {"name": "no_such_tool", "arguments": {}, "task": {"ttl": 1}}), {}),
        (request("tools/call", {"name": "health", "arguments": None}), {}),
        (request("tools/call", {"name": 5, "arguments": {}}), {}),
        (request("tools/list"), {"mcp-protocol-version": "2026-07-28"}),  # the SDK's modern entry
        (request("tools/list"), {"accept": "text/event-stream"}),  # the SDK refuses it: 406
        (request("tools/list", {"cursor": 3}), {}),
        (request("initialize", {"protocolVersion": "2025-06-18"}), {}),
        (request("logging/setLevel", {"level": "info"}), {}),
        ([request("ping")], {}),
        ({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}, {}),
    ],
)
async def test_anything_but_the_handshake_waits_for_the_sdk_and_gets_its_answer(
    tmp_path: Path, body: object, headers: Mapping[str, str]
) -> None:
    async with app_client(tmp_path) as (client, mcp):
        first = await post(client, body, headers)
        assert sdk_loaded(mcp)
        again = await post(client, body, headers)

    assert first == again


def _initialize(capabilities: str = "{}", client: str = '"name":"a","version":"1"') -> bytes:
    params = f'{{"protocolVersion":"2025-06-18","capabilities":{capabilities},"clientInfo":{{{client}}}}}'
    return f'{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{params}}}'.encode()


# Bodies Python's `json` and the SDK's parser and types read apart (the first seven once got an
# answer here the SDK would not give), and odd ones they read alike.
ODD_BODIES = [
    b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',  # here: id U+FFFD; the SDK: -32700
    b'\xef\xbb\xbf{"jsonrpc":"2.0","id":1,"method":"ping"}',  # a byte-order mark: -32700 there
    b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"x":' + b"[" * 300 + b"]" * 300 + b"}}}",
    _initialize(client='"name":"\\ud800","version":"1"'),
    _initialize(capabilities='{"roots":{"x":1},"sampling":{"context":5}}'),  # -32602 there
    _initialize(capabilities='{"experimental":{"a":1}}'),
    _initialize(client='"name":"a","version":"1","title":5'),
    b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":1.5}}}',
    _initialize(
        capabilities='{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{}}}',
        client='"name":"a","version":"1","title":"A"',
    ),
    b'{"jsonrpc":"2.0","id":1180591620717411303424,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":"","method":"ping","params":null}',
    b'{"jsonrpc":"2.0","id":"\\ud83d\\ude00","method":"ping"}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","method":"ping","id":2}',  # the last key wins
]


@pytest.mark.parametrize("body", ODD_BODIES, ids=range(len(ODD_BODIES)))
async def test_an_odd_handshake_body_gets_the_answer_the_sdk_gives_it(tmp_path: Path, body: bytes) -> None:
    async with app_client(tmp_path) as (client, mcp):
        early = await client.post("/mcp", content=body, headers=JSON_HEADERS)
        if not sdk_loaded(mcp):  # the core answered: now the SDK's answer to compare with
            await load_the_sdk(mcp)
        by_the_sdk = await client.post("/mcp", content=body, headers=JSON_HEADERS)
    assert (early.status_code, early.json()) == (by_the_sdk.status_code, by_the_sdk.json())


# Tool calls, each with the headers it comes with: results, tool errors, JSON-RPC errors.
TOOL_CALLS: list[tuple[dict[str, Any], dict[str, str]]] = [
    (request("tools/call", {"name": "read", "arguments": {"path": "billing.py"}}), {}),
    (request("tools/call", {"name": "read", "arguments": {"path": "billing.py"}}), TEXT_VIEW),
    (
        request(
            "tools/call",
            {"name": "read", "arguments": {"path": "billing.py", "context_focus_question": "Where is tax?"}},
            request_id="r-1",
        ),
        {"mcp-protocol-version": "2025-06-18"},
    ),
    (request("tools/call", {"name": "read", "arguments": {"path": "no_such.py"}}), {}),
    (request("tools/call", {"name": "read", "arguments": {}}), {}),
    (request("tools/call", {"name": "read"}, request_id=2**70), {}),
    (request("tools/call", {"name": "read"}, request_id="é-\u2028"), {}),
    (request("tools/call", {"name": "no_such_tool", "arguments": {}, "_meta": {"progressToken": "t"}}), {}),
    (request("tools/call", {"name": "bash", "arguments": {"cmd": "printf 'h\\xc3\\xa9\\x01'; exit 3"}}), {}),
    (request("tools/call", {"name": "grep", "arguments": {"pattern": "tax", "paths": ["."]}}), TEXT_VIEW),
]
# What differs between two runs of the same call: how long it took, and the prune id.
_RUN_TO_RUN = re.compile(rb'(?<=duration_ms":)[0-9.e+-]+|prn_[0-9A-Z]+')


def _same_across_runs(body: bytes) -> bytes:
    return _RUN_TO_RUN.sub(b"_", body)


async def test_a_tool_call_before_the_sdk_loads_is_answered_by_the_core_byte_for_byte_as_the_sdk_answers_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "billing.py").write_text(
        "def compute_tax(amount):\n    return amount * 0.00001  # héllo\n" * 40, encoding="utf-8"
    )
    async with app_client(tmp_path) as (client, mcp):
        early = [
            await client.post("/mcp", json=body, headers={**JSON_HEADERS, **headers})
            for body, headers in TOOL_CALLS
        ]
        assert not sdk_loaded(mcp)  # every answer above came from the project's core
        await load_the_sdk(mcp)
        by_the_sdk = [
            await client.post("/mcp", json=body, headers={**JSON_HEADERS, **headers})
            for body, headers in TOOL_CALLS
        ]

    for core, sdk in zip(early, by_the_sdk, strict=True):
        assert (core.status_code, core.headers.get("content-type")) == (
            sdk.status_code,
            sdk.headers.get("content-type"),
        )
        assert sorted(core.headers) == sorted(sdk.headers)  # no session id from either
        assert _same_across_runs(core.content) == _same_across_runs(sdk.content)
    assert [answer.json()["id"] for answer in early] == [body["id"] for body, _ in TOOL_CALLS]
    assert "structuredContent" in early[0].json()["result"]
    assert "structuredContent" not in early[1].json()["result"]
    assert "[lines " in early[2].json()["result"]["content"][0]["text"]  # pruned
    assert early[3].json()["result"]["isError"] is True  # a tool error: a result
    assert early[4].json()["error"]["code"] == -32602  # a JSON-RPC error
    assert early[8].json()["result"]["isError"] is True  # bash exited 3
