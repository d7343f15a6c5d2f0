"""`/mcp` before the SDK has loaded: the handshake answered by the project's core as the SDK answers it,
everything else left to the SDK."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest

from mcp_pruner_server.http.app import build_app
from mcp_pruner_server.http.mcp_transport import McpEndpoint
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
        call = request("tools/call", {"name": "health", "arguments": {}})
        assert (await post(client, call, {}))[0] == 200  # a tool call needs the SDK: it loads
        assert sdk_loaded(mcp)
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
        (request("tools/call", {"name": "no_such_tool", "arguments": {}}), {}),
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
