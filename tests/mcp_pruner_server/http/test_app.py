"""The HTTP routes other than /rpc, in-process: health, /prune, /stats, /mcp's HTTP rules."""

from pathlib import Path

import pytest

from tests.mcp_pruner_server.server_fixtures import JSON_HEADERS, call_tool, in_process
from tests.rpc_examples import initialize

pytestmark = pytest.mark.anyio
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}


async def test_healthz_has_the_runner_shape(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        body = (await client.get("/healthz")).json()
    assert body["ok"] is True
    assert body["status"] == "ok"
    assert body["server"] == {"name": "jeeves-mcp-pruner", "version": "0.1.0"}
    assert set(body["time"]) == {"started_at", "uptime_ms"}
    assert body["time"]["uptime_ms"] >= 0


async def test_health_has_the_documented_shape(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        body = (await client.get("/health")).json()
    assert body["status"] == "healthy"
    assert {"prune_text", "recover_text", "annotations", "markers"} <= set(body["capabilities"])
    assert {"server", "version", "timestamp"} <= set(body)


async def test_prune_speaks_swe_pruner_and_its_prune_id_recovers(tmp_path: Path) -> None:
    code = "\n".join(
        [f"def helper_{n}():\n    return {n}\n" for n in range(60)] + ["def tax_rate():\n    return 0.2"]
    )
    async with in_process(tmp_path) as client:
        body = (
            await client.post("/prune", json={"query": "tax_rate", "code": code, "threshold": 0.5})
        ).json()
        bad = await client.post("/prune", json={"query": 1, "code": "x"})
        recovered = await call_tool(
            client,
            "recover_text",
            {
                "prune_id": body["prune_id"],
                "ranges": [{"start_line": 1, "end_line": 10**6}],
                "include_line_numbers": False,
            },
        )
    assert set(body) >= {"pruned_code", "kept_frags", "score", "origin_token_cnt", "left_token_cnt"}
    assert "def tax_rate():" in body["pruned_code"]
    assert body["left_token_cnt"] < body["origin_token_cnt"]
    lines = code.split("\n")
    assert lines.index("def tax_rate():") + 1 in body["kept_frags"]
    assert 0 < body["score"] < 1
    assert bad.status_code == 422
    assert recovered["result"]["structuredContent"]["raw_text"] == code


async def test_stats_count_calls_and_bytes_saved(tmp_path: Path) -> None:
    (tmp_path / "run.log").write_text(
        "".join(f"INFO step {n} ok\n" for n in range(500)) + "ERROR disk full\n"
    )
    async with in_process(tmp_path) as client:
        await call_tool(client, "read", {"path": "run.log", "context_focus_question": "why did it fail?"})
        await call_tool(client, "read", {"path": "run.log"})
        await call_tool(client, "read", {"path": "nope.log"})
        await call_tool(client, "read", {})
        stats = (await client.get("/stats")).json()
    assert stats["tool_calls"] == {"read": 4}
    assert stats["tool_errors"] == {"read": 1}
    assert stats["invalid_requests"] == 1
    assert stats["pruning"]["applied"] == 1
    assert stats["pruning"]["skipped"] == {"no_focus_question": 1}
    assert stats["bytes"]["saved"] > 0
    assert stats["tokens_est"]["after"] < stats["tokens_est"]["before"]


async def test_mcp_refuses_get_and_delete_with_405_and_an_empty_accept_with_406(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        get = await client.get("/mcp", headers={"accept": "text/event-stream"})
        delete = await client.delete("/mcp")
        no_accept = await client.post(
            "/mcp", json=LIST, headers={"content-type": "application/json", "accept": ""}
        )
        ok = await client.post("/mcp", json=LIST, headers=JSON_HEADERS)
    assert get.status_code == 405
    assert get.headers["allow"] == "POST"
    assert delete.status_code == 405
    assert no_accept.status_code == 406
    assert ok.status_code == 200


async def test_an_mcp_notification_is_202_and_a_tool_call_is_answered_in_json(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    call = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "read", "arguments": {"path": "a.txt"}},
    }
    async with in_process(tmp_path) as client:
        note = await client.post(
            "/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=JSON_HEADERS
        )
        answer = await client.post("/mcp", json=call, headers=JSON_HEADERS)
        invalid = await client.post(
            "/mcp",
            json={**call, "params": {"name": "read", "arguments": {"path": ""}}},
            headers=JSON_HEADERS,
        )
    assert note.status_code == 202
    assert answer.headers["content-type"].startswith("application/json")
    result = answer.json()["result"]
    assert result["structuredContent"]["content"] == "alpha\n"
    assert result["isError"] is False
    error = invalid.json()["error"]
    assert error["code"] == -32602
    assert error["data"]["field_errors"] == [{"field": "path", "message": "must not be empty"}]


async def test_an_unexpected_bug_in_a_route_is_a_json_rpc_500_and_the_server_keeps_serving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcp_pruner_server.pipeline.stats import ServerStats

    def broken(_self: ServerStats) -> dict[str, object]:
        raise RuntimeError("a bug")  # no real input makes a route raise: the bug is injected

    monkeypatch.setattr(ServerStats, "snapshot", broken)
    async with in_process(tmp_path, raise_app_exceptions=False) as client:
        failed = await client.get("/stats")
        healthz = await client.get("/healthz")
    assert failed.status_code == 500
    assert failed.json() == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32603, "message": "Internal error"},
    }
    assert healthz.status_code == 200


async def test_mcp_initialize_carries_the_jeeves_schema_version_like_rpc(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        answer = await client.post("/mcp", json=initialize(), headers=JSON_HEADERS)
        listing = await client.post("/mcp", json=LIST, headers=JSON_HEADERS)
    result = answer.json()["result"]
    assert result["jeeves"] == {"schemaVersion": 1}
    assert result["serverInfo"]["name"] == "jeeves-mcp-pruner"
    assert result["protocolVersion"] == "2025-06-18"
    assert int(answer.headers["content-length"]) == len(answer.content)
    assert "jeeves" not in listing.json()["result"]


async def test_an_initialize_nested_too_deeply_is_the_sdks_parse_error_not_a_500(tmp_path: Path) -> None:
    body = b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"x": ' + b"[" * 100_000
    async with in_process(tmp_path, raise_app_exceptions=False) as client:
        answer = await client.post("/mcp", content=body, headers=JSON_HEADERS)
        listing = await client.post("/mcp", json=LIST, headers=JSON_HEADERS)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == -32700
    assert listing.status_code == 200


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/rpc", 405),
        ("POST", "/healthz", 405),
        ("DELETE", "/stats", 405),
        ("GET", "/api/mcp-gateway/files/rpc", 405),
        ("GET", "/nowhere", 404),
        ("POST", "/rpc/extra", 404),
    ],
)
async def test_a_wrong_method_or_an_unknown_path_is_a_json_rpc_error(
    tmp_path: Path, method: str, path: str, status: int
) -> None:
    async with in_process(tmp_path) as client:
        response = await client.request(method, path)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert body["jsonrpc"] == "2.0"
    assert body["id"] is None
    assert body["error"]["code"] == (-32600 if status == 405 else -32601)
    if status == 405:
        assert response.headers["allow"]
        assert body["error"]["message"].startswith("Method Not Allowed: use ")


async def test_the_rest_routes_answer_their_own_json_shape_for_a_wrong_method(tmp_path: Path) -> None:
    from mcp_pruner_server.http.routes import http_refusal_response

    async with in_process(tmp_path) as client:
        tools = await client.post("/tools")
        execute = await client.get("/execute")
    unknown = http_refusal_response("/tools", 404, None)  # no real request reaches this branch
    assert (tools.status_code, tools.json()["error"]["code"]) == (405, "method_not_allowed")
    assert (execute.status_code, execute.json()["ok"]) == (405, False)
    assert unknown.status_code == 404
    assert (
        unknown.body
        == b'{"ok": false, "error": {"code": "not_found", "message": "Not Found: no route \'/tools\'"}}'
    )


async def test_a_request_cancelled_at_shutdown_gets_503_with_its_id_and_its_trace_ends(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio
    import json
    import os

    import anyio
    from starlette.types import Message, Scope

    from mcp_pruner_server.http.app import build_app
    from mcp_pruner_server.logs import configure_logging
    from mcp_pruner_server.server_parts import build_parts
    from mcp_pruner_server.settings import ServerSettings

    configure_logging("json")
    started = tmp_path / "started.fifo"
    os.mkfifo(started)
    call = {
        "jsonrpc": "2.0",
        "id": 2**60,  # echoed exactly, as every JSON-RPC answer's id
        "method": "tools/call",
        "params": {"name": "bash", "arguments": {"cmd": "echo running > started.fifo; sleep 60"}},
    }
    body = json.dumps(call).encode()
    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/rpc",
        "raw_path": b"/rpc",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    messages: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]
    sent: list[Message] = []

    async def receive() -> Message:
        if messages:
            return messages.pop()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    async def send(message: Message) -> None:
        sent.append(message)

    app = build_app(build_parts(ServerSettings(root=tmp_path), env={}, engine_processes=False))
    async with app.router.lifespan_context(app):
        # What uvicorn does when the SIGTERM grace runs out: cancel the request's task.
        task = asyncio.create_task(app(scope, receive, send))
        with anyio.fail_after(15):
            assert await anyio.to_thread.run_sync(started.read_text) == "running\n"
            task.cancel()
            await task
    start, payload = sent
    assert start["status"] == 503
    answer = json.loads(payload["body"])
    assert answer["id"] == 2**60
    assert answer["error"]["code"] == -32603
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    names = [e["event"] for e in events]
    assert names.index("tool.exec_start") < names.index("tool.internal_error")
    internal = next(e for e in events if e["event"] == "tool.internal_error")
    assert internal["data"]["error"] == "cancelled"
    assert internal["data"]["state"] == "req:executing_tool"


@pytest.mark.parametrize(
    ("workspace", "event"),
    [
        ('[mcp_pruner]\nbackend = "deepinfra"\n', "mcp_pruner.config_ignored"),
        ("not = [toml", "mcp_pruner.config_invalid"),
    ],
)
def test_the_server_reads_its_toml_once_so_each_config_warning_is_logged_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workspace: str, event: str
) -> None:
    import json

    from mcp_pruner_server.http.app import build_app
    from mcp_pruner_server.logs import configure_logging
    from mcp_pruner_server.server_parts import build_parts
    from mcp_pruner_server.settings import ServerSettings

    configure_logging("json")
    (tmp_path / "jeeves.toml").write_text(workspace)
    env = {"HOME": str(tmp_path / "home")}
    build_app(build_parts(ServerSettings(root=tmp_path), env=env, engine_processes=False))
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    assert [e["event"] for e in events if e["event"].startswith("mcp_pruner.config_")] == [event]
