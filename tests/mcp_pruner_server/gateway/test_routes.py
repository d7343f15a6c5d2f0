"""The gateway route on the real app (in-process) against real upstream sockets, well- and ill-behaved."""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from mcp_pruner_server.gateway.service import MAX_PRUNED_STRINGS
from tests.mcp_pruner_server.server_fixtures import call_tool, in_process

from . import upstreams as up

pytestmark = pytest.mark.anyio

MARKER = re.compile(r"\[KIMI_PROXY_OBSERVATION_MASKED original_chars=(\d+) head=(\d+) tail=(\d+) id=(\S+)\]")
CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "read", "arguments": {}}}
TIMEOUT_MS = 300
# Scheduling slack on a loaded 2-core machine. Still meaningful: the upstream never answers
# and the test client waits 30 s, so only the gateway's own bound ends the call this early.
MARGIN_S = 5.0
PRUNE_TIMEOUT_MS = 60_000


@asynccontextmanager
async def gateway(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    servers: Mapping[str, str],
    *,
    env: Mapping[str, str] | None = None,
    token: str | None = None,
) -> AsyncIterator[httpx.AsyncClient]:
    monkeypatch.setenv("JEEVES_GATEWAY_SERVERS", json.dumps(dict(servers)))
    for key, value in (env or {}).items():
        monkeypatch.setenv(key, value)
    # The engine's own 2 s bound let a loaded machine turn a prune into a mask (7 of 8 pruned once,
    # at load 7): these tests judge what is pruned and masked, not the engine's speed.
    server_env = {"JEEVES_PRUNER_TIMEOUT_MS": str(PRUNE_TIMEOUT_MS)}
    async with in_process(tmp_path, token=token, env=server_env) as client:
        yield client


async def post(client: httpx.AsyncClient, server: str, body: object, **headers: str) -> httpx.Response:
    return await client.post(f"/api/mcp-gateway/{server}/rpc", json=body, headers=headers)


async def error_of(client: httpx.AsyncClient, server: str, body: object = CALL) -> dict[str, Any]:
    response = await post(client, server, body)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["jsonrpc"] == "2.0"
    assert answer["id"] == (body["id"] if isinstance(body, dict) else None)
    assert "result" not in answer
    error: dict[str, Any] = answer["error"]
    return error


def text_result(text: str) -> Callable[[dict[str, object]], object]:
    return lambda _message: {"content": [{"type": "text", "text": text}], "isError": False}


async def recover_all(client: httpx.AsyncClient, prune_id: str) -> str:
    ranges = [{"start_line": 1, "end_line": 10**9}]
    answer = await call_tool(
        client, "recover_text", {"prune_id": prune_id, "ranges": ranges, "include_line_numbers": False}
    )
    raw_text: str = answer["result"]["structuredContent"]["raw_text"]
    return raw_text


async def test_a_long_dict_key_is_masked_like_any_string_and_recovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A 10,000-character key came back whole; the README says every string at any depth.
    key = "".join(f"k{i:05d}" for i in range(1667))[:10_000]
    async with (
        up.serve(up.echo_result(lambda _: {"files": {key: 1, "short": 2}})) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        response = await post(client, "fs", CALL)
        files = response.json()["result"]["files"]
        masked_key = next(k for k in files if k != "short")
        marker = MARKER.search(masked_key)
        assert marker is not None
        assert len(masked_key) < 4000 + 200
        middle = await recover_all(client, marker.group(4))
    assert files[masked_key] == 1
    assert key[:2000] + middle + key[-2000:] == key


async def test_a_small_call_is_forwarded_unchanged_and_answered_as_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with (
        up.serve(up.echo_result(lambda m: {"echo": m["params"]})) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}, token="s3cret") as client,
    ):
        body = {"jsonrpc": "2.0", "id": "a-1", "method": "tools/call", "params": {"name": "x", "é": "ü"}}
        response = await post(
            client, "fs", body, authorization="Bearer s3cret", **{"mcp-protocol-version": "2025-06-18"}
        )
    assert response.status_code == 200
    assert response.json() == {"jsonrpc": "2.0", "id": "a-1", "result": {"echo": body["params"]}}
    sent = upstream.requests[0]
    assert json.loads(sent.body) == body
    assert sent.headers["accept"] == "application/json, text/event-stream"
    assert sent.headers["content-type"] == "application/json"
    assert sent.headers["mcp-protocol-version"] == "2025-06-18"
    assert "authorization" not in sent.headers  # our bearer token never leaves the server


async def test_a_huge_result_is_masked_and_the_middle_recovers_with_recover_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = "\n".join(f"line {n}: " + "x" * 40 for n in range(2000))
    async with (
        up.serve(up.echo_result(text_result(original))) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        answer = (await post(client, "fs", CALL)).json()
        masked = answer["result"]["content"][0]["text"]
        marker = MARKER.search(masked)
        assert marker is not None
        middle = await recover_all(client, marker.group(4))
    assert (answer["jsonrpc"], answer["id"], answer["result"]["isError"]) == ("2.0", 7, False)
    assert marker.group(1, 2, 3) == (str(len(original)), "2000", "2000")
    head, tail = masked.split(marker.group(0))
    assert head.removesuffix("\n... ") + middle + tail.removeprefix(" ...\n") == original
    assert len(masked) < 4200


async def test_error_data_is_masked_but_the_error_code_and_message_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trace = "Traceback\n" + "frame\n" * 3000
    reply = {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {"code": -32000, "message": "boom", "data": {"trace": trace}},
    }
    async with (
        up.serve(up.raw(200, json.dumps(reply).encode())) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        answer = (await post(client, "fs", CALL)).json()
    assert answer["error"]["code"] == -32000
    assert answer["error"]["message"] == "boom"
    assert MARKER.search(answer["error"]["data"]["trace"]) is not None


async def test_a_json_rpc_error_sent_with_http_400_is_passed_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reply = {"jsonrpc": "2.0", "id": 7, "error": {"code": -32602, "message": "bad params"}}
    async with (
        up.serve(up.raw(400, json.dumps(reply).encode())) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        response = await post(client, "fs", CALL)
    assert (response.status_code, response.json()) == (200, reply)


async def test_an_unknown_server_names_the_known_ones_and_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with gateway(tmp_path, monkeypatch, {"fs": "http://127.0.0.1:9/rpc"}) as client:
        error = await error_of(client, "nope")
    assert error["code"] == -32010
    assert error["data"]["code"] == "gateway_unknown_server"
    assert error["data"]["known_servers"] == ["fs"]
    assert "'nope'" in error["message"]
    assert "JEEVES_GATEWAY_SERVERS" in error["message"]


async def test_an_upstream_that_is_down_is_unreachable_with_its_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = up.refused_url()
    async with gateway(tmp_path, monkeypatch, {"fs": url}) as client:
        error = await error_of(client, "fs")
    assert error["code"] == -32011
    assert (error["data"]["server"], error["data"]["url"]) == ("fs", url)
    assert url in error["message"]


async def test_a_slow_upstream_times_out_at_the_configured_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with (
        up.serve(up.never_answer) as upstream,
        gateway(
            tmp_path, monkeypatch, {"slow": upstream.url}, env={"JEEVES_GATEWAY_TIMEOUT_MS": str(TIMEOUT_MS)}
        ) as client,
    ):
        started = time.monotonic()
        with anyio.fail_after(TIMEOUT_MS / 1000 + MARGIN_S):  # a hang guard: the upstream never answers
            error = await error_of(client, "slow")
        waited_s = time.monotonic() - started
    assert error["code"] == -32012
    assert error["data"]["timeout_ms"] == TIMEOUT_MS
    assert "JEEVES_GATEWAY_TIMEOUT_MS" in error["message"]
    assert waited_s >= TIMEOUT_MS / 1000  # the configured bound, not a shorter one


@pytest.mark.parametrize("behaviour", [up.hang_up, up.hang_up_mid_body])
async def test_an_upstream_dropping_the_connection_is_reported_as_disconnected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, behaviour: up.Behaviour
) -> None:
    async with (
        up.serve(behaviour) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        error = await error_of(client, "fs")
    assert error["code"] == -32013
    assert error["data"]["code"] == "gateway_upstream_disconnected"


async def test_an_http_500_page_is_an_http_status_error_with_an_excerpt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = b"<html><body>Internal Server Error</body></html>"
    async with (
        up.serve(up.raw(500, page, "text/html")) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        error = await error_of(client, "fs")
    assert error["code"] == -32014
    assert error["data"]["http_status"] == 500
    assert "Internal Server Error" in error["data"]["body_excerpt"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"\x89PNG garbage", -32015),
        (b"", -32015),
        (b'{"hello": "world"}', -32016),
        (b'{"jsonrpc": "2.0", "id": 7, "result": 1, "error": {"code": 1, "message": "x"}}', -32016),
        (b'{"jsonrpc": "2.0", "id": 7, "error": "boom"}', -32016),
        (b"[1, 2]", -32016),
        # Ids: not a JSON-RPC id, or not the request's (issue 16: these reached the caller).
        (b'{"jsonrpc": "2.0", "id": [7], "result": {}}', -32016),
        (b'{"jsonrpc": "2.0", "id": true, "result": {}}', -32016),
        (b'{"jsonrpc": "2.0", "id": 8, "result": {}}', -32016),
        (b'{"jsonrpc": "2.0", "id": "7", "result": {}}', -32016),
        (b'{"jsonrpc": "2.0", "id": null, "result": {}}', -32016),
    ],
)
async def test_a_reply_that_is_not_json_rpc_has_its_own_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: bytes, code: int
) -> None:
    async with (
        up.serve(up.raw(200, body)) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        error = await error_of(client, "fs")
    assert error["code"] == code
    assert "'fs'" in error["message"]


@pytest.mark.parametrize("bad_id", [[7], {"a": 1}, True])
async def test_an_sse_response_with_an_invalid_id_is_not_json_rpc_not_an_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad_id: object
) -> None:
    # `{"id": [1]}` raised TypeError (unhashable) in the SSE reader: -32603 and a traceback.
    async with (
        up.serve(up.sse(lambda _: [{"jsonrpc": "2.0", "id": bad_id, "result": {}}])) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        with anyio.fail_after(MARGIN_S):
            error = await error_of(client, "fs")
    assert error["code"] == -32016
    assert error["data"]["code"] == "gateway_upstream_not_jsonrpc"


async def test_a_null_id_error_answers_the_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    body = b'{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}'
    async with (
        up.serve(up.raw(200, body)) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        response = await post(client, "fs", CALL)
    assert response.json()["error"]["code"] == -32700


@pytest.mark.parametrize("path", ["json", "sse"])
async def test_a_reply_of_millions_of_small_values_is_refused_before_decoding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    # Under the byte cap, but decoded it is ~50 bytes a value: 64 MB of numbers took RSS from
    # 77 to 674 MiB (issue 16). 1.5 million zeros: 4.5 MB of JSON, ~75 MB of Python objects.
    reply = {"jsonrpc": "2.0", "id": 7, "result": {"items": [0] * 1_500_000}}
    behaviour = up.raw(200, json.dumps(reply).encode()) if path == "json" else up.sse(lambda _: [reply])
    async with (
        up.serve(behaviour) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        error = await error_of(client, "fs")
    assert error["code"] == -32017
    assert error["data"]["json_values"] >= 1_500_000


async def test_a_reply_over_the_byte_cap_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"JEEVES_GATEWAY_MAX_REPLY_BYTES": "2048"}
    async with (
        up.serve(up.echo_result(text_result("y" * 5000))) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}, env=env) as client,
    ):
        error = await error_of(client, "fs")
    assert error["code"] == -32017
    assert error["data"]["limit_bytes"] == 2048


async def test_an_sse_reply_yields_its_response_even_if_the_stream_stays_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def events(request: dict[str, object]) -> list[object]:
        progress = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}}
        return [progress, {"jsonrpc": "2.0", "id": request["id"], "result": {"text": "s" * 9000}}]

    async with (
        up.serve(up.sse(events), path="/mcp") as upstream,
        gateway(tmp_path, monkeypatch, {"mcp": upstream.url}) as client,
    ):
        answer = (await post(client, "mcp", CALL)).json()
    assert answer["id"] == 7
    assert MARKER.search(answer["result"]["text"]) is not None


async def test_a_notification_gets_202_without_a_body(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with (
        up.serve(up.raw(202, b"")) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        response = await post(client, "fs", {"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert (response.status_code, response.content) == (202, b"")


async def test_a_batch_is_forwarded_and_each_response_masked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replies = [{"jsonrpc": "2.0", "id": 1, "result": {}}, {"jsonrpc": "2.0", "id": 2, "result": "b" * 5000}]
    batch = [{"jsonrpc": "2.0", "id": i, "method": "ping"} for i in (1, 2)]
    async with (
        up.serve(up.raw(200, json.dumps(replies).encode())) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        answer = (await post(client, "fs", batch)).json()
        down = (await post(client, "nope", batch)).json()
    assert answer[0] == replies[0]
    assert MARKER.search(answer[1]["result"]) is not None
    assert [(e["id"], e["error"]["code"]) for e in down] == [(1, -32010), (2, -32010)]


async def test_a_body_that_is_not_json_rpc_is_refused_before_forwarding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with (
        up.serve(up.raw(200, b"{}")) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        garbage = await client.post("/api/mcp-gateway/fs/rpc", content=b"{nope")
        scalar = await post(client, "fs", 3)
    assert garbage.json()["error"]["code"] == -32700
    assert scalar.json()["error"]["code"] == -32600
    assert upstream.requests == []


async def test_the_route_requires_the_bearer_token_and_a_loopback_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with (
        up.serve(up.echo_result(lambda _m: {})) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}, token="s3cret") as client,
    ):
        anonymous = await post(client, "fs", CALL)
        wrong = await post(client, "fs", CALL, authorization="Bearer nope")
        rebinding = await post(client, "fs", CALL, authorization="Bearer s3cret", host="evil.example")
        origin = await post(client, "fs", CALL, authorization="Bearer s3cret", origin="http://evil.example")
        allowed = await post(client, "fs", CALL, authorization="Bearer s3cret")
    assert [anonymous.status_code, wrong.status_code, rebinding.status_code, origin.status_code] == [
        401,
        401,
        421,
        403,
    ]
    assert allowed.status_code == 200
    assert len(upstream.requests) == 1


async def test_the_session_id_travels_both_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reply = json.dumps({"jsonrpc": "2.0", "id": 7, "result": {}}).encode()
    async with (
        up.serve(up.raw(200, reply, extra="Mcp-Session-Id: up-42\r\n")) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        response = await post(client, "fs", CALL, **{"mcp-session-id": "client-1"})
    assert response.headers["mcp-session-id"] == "up-42"
    assert upstream.requests[0].headers["mcp-session-id"] == "client-1"


async def test_a_focus_question_prunes_with_the_engine_and_the_original_recovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = "\n".join(
        [f"def helper_{n}(value):\n    return value + {n}\n" for n in range(150)]
        + ["def compute_tax_rate(income):\n    return 0.2 if income > 1000 else 0.1\n"]
    )
    call = {
        **CALL,
        "params": {"name": "read", "_meta": {"context_focus_question": "where is compute_tax_rate?"}},
    }
    async with (
        up.serve(up.echo_result(text_result(code))) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        answer = (await post(client, "fs", call)).json()
        text = answer["result"]["content"][0]["text"]
        prune_id = re.search(r"⟦PRUNÉ: prune_id=(\S+) lignes", text)
        assert prune_id is not None
        recovered = await recover_all(client, prune_id.group(1))
    assert "def compute_tax_rate(income):" in text
    assert len(text) < len(code)
    assert recovered == code


async def test_a_focus_question_prunes_a_bounded_number_of_strings_and_masks_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def module(k: int) -> str:
        helpers = [f"def helper_{k}_{n}(value):\n    return value + {n}\n" for n in range(150)]
        return "\n".join([*helpers, "def compute_tax_rate(income):\n    return 0.2\n"])

    files = [module(k) for k in range(MAX_PRUNED_STRINGS + 2)]
    call = {**CALL, "params": {"name": "read", "_meta": {"context_focus_question": "compute_tax_rate"}}}
    async with (
        up.serve(up.echo_result(lambda _m: {"files": files})) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}) as client,
    ):
        answer = (await post(client, "fs", call)).json()
    shown = answer["result"]["files"]
    pruned = [text for text in shown if "⟦PRUNÉ: prune_id=" in text and not MARKER.search(text)]
    masked = [text for text in shown if MARKER.search(text) and "⟦PRUNÉ" not in text]
    assert (len(pruned), len(masked)) == (MAX_PRUNED_STRINGS, 2)
    assert all("def compute_tax_rate(income):" in text for text in pruned)


@pytest.mark.parametrize("path", ["json", "sse"])
async def test_a_large_csv_in_one_json_string_is_not_counted_as_millions_of_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    # Its commas are inside a string: one value, however many (issue 29: 20 MB -> -32017).
    csv = "id,name,amount,comment\n" + "".join(f'{n},item-{n},{n * 3}.50,"a, b"\n' for n in range(700_000))
    reply = {"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": csv}]}}
    behaviour = up.raw(200, json.dumps(reply).encode()) if path == "json" else up.sse(lambda _: [reply])
    env = {"JEEVES_GATEWAY_MAX_REPLY_BYTES": str(64 << 20)}
    async with (
        up.serve(behaviour) as upstream,
        gateway(tmp_path, monkeypatch, {"fs": upstream.url}, env=env) as client,
    ):
        response = await post(client, "fs", CALL)
    body = response.json()
    assert "error" not in body, body.get("error")
    text = body["result"]["content"][0]["text"]
    assert text.startswith(csv[:1000])  # no question: passed on (masked past the gateway's size)
    assert text.endswith(csv[-1000:])
