"""A second, real `jeeves-mcp-pruner` process as the upstream, through its `/rpc` and its `/mcp`."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.mcp_pruner_server.server_fixtures import ChildServer, call_tool, child_server, in_process

pytestmark = pytest.mark.anyio

MARKER = re.compile(r"\[KIMI_PROXY_OBSERVATION_MASKED original_chars=(\d+) head=2000 tail=2000 id=(\S+)\]")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("upstream_root")
    (root / "big.log").write_text("".join(f"INFO step {n} done\n" for n in range(3000)) + "ERROR disk full\n")
    return root


@pytest.fixture(scope="module")
def upstream(workspace: Path) -> Iterator[ChildServer]:
    # No token on the upstream: the gateway never forwards the caller's Authorization.
    with child_server(workspace, env={"JEEVES_MCP_PRUNER_TOKEN": ""}) as server:
        yield server


@pytest.mark.parametrize("endpoint", ["rpc", "mcp"])
async def test_a_big_read_through_the_gateway_is_masked_and_recovers_on_the_gateway(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, upstream: ChildServer, workspace: Path, endpoint: str
) -> None:
    monkeypatch.setenv("JEEVES_GATEWAY_SERVERS", json.dumps({"self": f"{upstream.base_url}/{endpoint}"}))
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "read", "arguments": {"path": "big.log"}},
    }
    async with in_process(tmp_path) as client:
        answer = (await client.post("/api/mcp-gateway/self/rpc", json=call)).json()
        assert "result" in answer, answer
        masked = answer["result"]["structuredContent"]["content"]
        marker = MARKER.search(masked)
        assert marker is not None
        recovered = await call_tool(
            client,
            "recover_text",
            {
                "prune_id": marker.group(2),
                "ranges": [{"start_line": 1, "end_line": 10**6}],
                "include_line_numbers": False,
            },
        )
    content = (workspace / "big.log").read_text()
    assert answer["id"] == 1
    assert answer["result"]["structuredContent"]["tool"] == "read"
    assert MARKER.search(answer["result"]["content"][0]["text"]) is not None  # the JSON text too
    assert marker.group(1) == str(len(content))
    middle = recovered["result"]["structuredContent"]["raw_text"]
    head, tail = masked.split(f"\n... {marker.group(0)} ...\n")
    assert head + middle + tail == content
    assert tail.endswith("ERROR disk full\n")


async def test_tools_list_of_the_upstream_comes_back_unmasked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, upstream: ChildServer
) -> None:
    monkeypatch.setenv("JEEVES_GATEWAY_SERVERS", json.dumps({"self": f"{upstream.base_url}/mcp"}))
    async with in_process(tmp_path) as client:
        answer = (
            await client.post(
                "/api/mcp-gateway/self/rpc", json={"jsonrpc": "2.0", "id": "l", "method": "tools/list"}
            )
        ).json()
    names = {tool["name"] for tool in answer["result"]["tools"]}
    assert {"read", "bash", "grep", "recover_text"} <= names
    assert "KIMI_PROXY_OBSERVATION_MASKED" not in json.dumps(answer)


def test_a_real_gateway_process_reads_its_upstreams_from_the_environment_and_wants_its_token(
    tmp_path: Path, upstream: ChildServer
) -> None:
    env = {
        "JEEVES_MCP_PRUNER_TOKEN": "gw-token",
        "JEEVES_GATEWAY_SERVERS": json.dumps({"self": f"{upstream.base_url}/rpc"}),
    }
    call = {
        "jsonrpc": "2.0",
        "id": 9,
        "method": "tools/call",
        "params": {"name": "read", "arguments": {"path": "big.log"}},
    }
    with (
        child_server(tmp_path, env=env) as gateway,
        httpx.Client(base_url=gateway.base_url, timeout=30) as client,
    ):
        anonymous = client.post("/api/mcp-gateway/self/rpc", json=call)
        answer = client.post(
            "/api/mcp-gateway/self/rpc", json=call, headers={"authorization": "Bearer gw-token"}
        ).json()
        marker = MARKER.search(answer["result"]["structuredContent"]["content"])
        assert marker is not None
        recover = {
            "jsonrpc": "2.0",
            "id": 10,
            "method": "tools/call",
            "params": {
                "name": "recover_text",
                "arguments": {
                    "prune_id": marker.group(2),
                    "ranges": [{"start_line": 1, "end_line": 2}],
                    "include_line_numbers": True,
                },
            },
        }
        recovered = client.post("/rpc", json=recover, headers={"authorization": "Bearer gw-token"}).json()
    assert anonymous.status_code == 401
    assert answer["id"] == 9
    lines = recovered["result"]["structuredContent"]["raw_text"].split("\n")
    assert len(lines) == 2
    assert lines[0].startswith("1│ ")


@pytest.fixture(scope="module")
def guarded_upstream(workspace: Path) -> Iterator[ChildServer]:
    with child_server(workspace, env={"JEEVES_MCP_PRUNER_TOKEN": "upstream-secret"}) as server:
        yield server


async def test_an_upstream_that_wants_a_token_gets_the_one_its_env_var_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, guarded_upstream: ChildServer
) -> None:
    url = f"{guarded_upstream.base_url}/rpc"
    servers = {
        "guarded": {"url": url, "bearer_token_env_var": "UPSTREAM_MCP_TOKEN"},
        "bare": url,  # the plain form still works: same URL, no token
    }
    monkeypatch.setenv("UPSTREAM_MCP_TOKEN", "upstream-secret")
    monkeypatch.setenv("JEEVES_GATEWAY_SERVERS", json.dumps(servers))
    listing = {"jsonrpc": "2.0", "id": "l", "method": "tools/list"}
    async with in_process(tmp_path, token="gateway-own-token") as client:
        mine = {"authorization": "Bearer gateway-own-token"}
        with_token = (await client.post("/api/mcp-gateway/guarded/rpc", json=listing, headers=mine)).json()
        without = (await client.post("/api/mcp-gateway/bare/rpc", json=listing, headers=mine)).json()
    assert {tool["name"] for tool in with_token["result"]["tools"]} >= {"read", "recover_text"}
    # The upstream refused the call without its token (and never saw the gateway's own): its
    # 401 JSON-RPC error comes back as is.
    assert "result" not in without
    assert without["error"]["code"] == -32001
