"""`GET /tools` and `POST /execute` in-process: the same pipeline as `tools/call`, REST errors."""

from pathlib import Path
from typing import Any

import httpx
import pytest

from mcp_pruner_server.http.openai_tools import openai_function_specs
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.settings import MAX_REQUEST_BODY_BYTES
from mcp_pruner_server.tools.schemas import TOOL_SPECS
from tests.mcp_pruner_server.server_fixtures import call_tool, in_process, strict_json

pytestmark = pytest.mark.anyio
TOKEN = "s3cret"
AUTH = {"authorization": f"Bearer {TOKEN}"}


async def execute(
    client: httpx.AsyncClient, tool: str, params: dict[str, Any], *, status: int = 200
) -> dict[str, Any]:
    response = await client.post("/execute", json={"tool": tool, "params": params}, headers=AUTH)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body: dict[str, Any] = strict_json(response.content)
    return body


def without_timing(result: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in result.items() if k != "duration_ms"}
    out["pruning"] = {k: v for k, v in result["pruning"].items() if k != "pruner_duration_ms"}
    return out


async def test_tools_lists_every_tool_as_an_openai_function_in_tools_list_order(tmp_path: Path) -> None:
    async with in_process(tmp_path, token=TOKEN) as client:
        response = await client.get("/tools", headers=AUTH)
    assert response.status_code == 200
    tools = strict_json(response.content)["tools"]
    assert tools == openai_function_specs()
    assert [t["function"]["name"] for t in tools] == [spec.name for spec in TOOL_SPECS]
    assert all(t["type"] == "function" for t in tools)


async def test_execute_read_answers_the_same_structured_result_as_tools_call(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    async with in_process(tmp_path, token=TOKEN) as client:
        body = await execute(client, "read", {"path": "a.py"})
        mcp = await call_tool(client, "read", {"path": "a.py"}, headers=AUTH)
    assert body["ok"] is True
    assert body["is_error"] is False
    assert body["result"]["content"] == "def f():\n    return 1\n"
    assert without_timing(body["result"]) == without_timing(mcp["result"]["structuredContent"])


async def test_a_focus_question_prunes_through_execute_with_pruning_metadata(tmp_path: Path) -> None:
    lines = [f"INFO step {n} ok" for n in range(400)] + ["ERROR disk full on /var"]
    (tmp_path / "run.log").write_text("\n".join(lines) + "\n")
    params = {"path": "run.log", "context_focus_question": "why did the run fail with a disk error?"}
    async with in_process(tmp_path, token=TOKEN) as client:
        body = await execute(client, "read", params)
    pruning = body["result"]["pruning"]
    assert pruning["attempted"] is True
    assert pruning["applied"] is True
    assert pruning["prune_id"]
    assert "ERROR disk full on /var" in body["result"]["content"]
    assert len(body["result"]["content"]) < len("\n".join(lines))


async def test_a_nonzero_exit_is_a_result_with_is_error_and_its_output(tmp_path: Path) -> None:
    async with in_process(tmp_path, token=TOKEN) as client:
        body = await execute(client, "bash", {"cmd": "echo failing; exit 3"})
    assert body["ok"] is True
    assert body["is_error"] is True
    assert body["result"]["exit_code"] == 3
    assert body["result"]["stdout"] == "failing\n"
    assert body["result"]["error"]["code"] == "nonzero_exit"


async def test_a_tool_timeout_is_a_504_that_carries_the_partial_output(tmp_path: Path) -> None:
    async with in_process(tmp_path, token=TOKEN) as client:
        body = await execute(client, "bash", {"cmd": "echo started; sleep 30", "timeout_ms": 300}, status=504)
    assert body["ok"] is False
    assert body["error"]["code"] == "timeout"
    assert body["error"]["message"]
    assert body["result"]["tool"] == "bash"
    assert body["result"]["error"]["code"] == "timeout"


async def test_invalid_params_are_a_400_with_every_field_error(tmp_path: Path) -> None:
    async with in_process(tmp_path, token=TOKEN) as client:
        body = await execute(client, "grep", {"pattern": "", "bogus": 1}, status=400)
    assert body["ok"] is False
    assert body["error"]["code"] == "invalid_params"
    fields = {e["field"] for e in body["error"]["field_errors"]}
    assert {"pattern", "paths", "bogus"} <= fields


async def test_an_unknown_tool_is_a_404_naming_the_tool_field(tmp_path: Path) -> None:
    async with in_process(tmp_path, token=TOKEN) as client:
        body = await execute(client, "rm_rf", {}, status=404)
    assert body["error"]["code"] == "unknown_tool"
    assert body["error"]["field_errors"][0]["field"] == "tool"
    assert "GET /tools" in body["error"]["message"]


async def test_an_unknown_prune_id_is_a_404_with_its_data(tmp_path: Path) -> None:
    params: dict[str, object] = {"prune_id": "prn_missing", "ranges": [{"start_line": 1, "end_line": 2}]}
    params["include_line_numbers"] = False
    async with in_process(tmp_path, token=TOKEN) as client:
        body = await execute(client, "recover_text", params, status=404)
    assert body["error"]["code"] == "prune_id_not_found"
    assert body["error"]["data"] == {"prune_id": "prn_missing"}


@pytest.mark.parametrize(
    ("content", "code", "fields"),
    [
        (b"{not json", "invalid_json", None),
        (b'{"tool": "health", "params": {"x": NaN}}', "invalid_json", None),
        (b"[1, 2]", "invalid_request", None),
        (b'{"tool": "health", "params": [], "extra": 1}', "invalid_request", {"params", "extra"}),
        (b'{"params": {}}', "invalid_request", {"tool"}),
    ],
)
async def test_a_malformed_envelope_is_a_400_saying_what_is_wrong(
    tmp_path: Path, content: bytes, code: str, fields: set[str] | None
) -> None:
    async with in_process(tmp_path) as client:
        response = await client.post("/execute", content=content)
    assert response.status_code == 400
    error = strict_json(response.content)["error"]
    assert error["code"] == code
    if fields is not None:
        assert {e["field"] for e in error["field_errors"]} == fields


async def test_params_may_be_left_out_for_a_tool_without_arguments(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        response = await client.post("/execute", json={"tool": "health"})
    assert response.status_code == 200
    assert strict_json(response.content)["result"]["status"] == "healthy"


async def test_both_routes_want_the_token_and_refuse_in_their_own_error_shape(tmp_path: Path) -> None:
    async with in_process(tmp_path, token=TOKEN) as client:
        tools = await client.get("/tools")
        run = await client.post("/execute", json={"tool": "health", "params": {}})
        wrong = await client.post("/execute", json={"tool": "health"}, headers={"authorization": "Bearer x"})
    for response in (tools, run, wrong):
        assert response.status_code == 401
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert strict_json(response.content) == {
            "ok": False,
            "error": {"code": "unauthorized", "message": response.json()["error"]["message"]},
        }


async def test_a_foreign_host_or_origin_is_refused_as_on_mcp(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        host = await client.get("/tools", headers={"host": "evil.example"})
        origin = await client.post(
            "/execute", json={"tool": "health"}, headers={"origin": "http://evil.example"}
        )
    assert host.status_code == 421
    assert host.json()["error"]["code"] == "misdirected"
    assert origin.status_code == 403
    assert origin.json()["error"]["code"] == "forbidden"


async def test_a_wrong_method_is_a_405_in_json(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        get = await client.get("/execute")
        post = await client.post("/tools", json={})
    assert get.status_code == 405
    assert get.headers["allow"] == "POST"
    assert get.json()["error"]["code"] == "method_not_allowed"
    assert post.status_code == 405
    assert post.headers["allow"] == "GET"


async def test_a_tool_bug_is_a_500_with_the_request_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_self: PrunerService) -> dict[str, object]:
        raise RuntimeError("boom")

    # A bug cannot be produced on purpose in working code: the health method is made to raise.
    monkeypatch.setattr(PrunerService, "health", broken)
    async with in_process(tmp_path) as client:
        response = await client.post("/execute", json={"tool": "health"})
    assert response.status_code == 500
    error = strict_json(response.content)["error"]
    assert error["code"] == "internal_error"
    assert error["data"]["request_id"].startswith("req_")


async def test_a_bug_outside_the_dispatcher_is_still_a_500_in_the_execute_error_shape(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcp_pruner_server.http.execute import ExecuteEndpoint

    async def broken(_self: ExecuteEndpoint, _body: bytes) -> None:
        raise RuntimeError("boom")

    # The endpoint answers its own failures: only an injected bug reaches Starlette's last resort.
    monkeypatch.setattr(ExecuteEndpoint, "execute", broken)
    async with in_process(tmp_path, raise_app_exceptions=False) as client:
        response = await client.post("/execute", json={"tool": "health"})
        rpc = await client.post("/rpc", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert response.status_code == 500
    body = strict_json(response.content)
    assert body["ok"] is False
    assert body["error"]["code"] == "internal_error"
    assert rpc.json()["result"] == {}


async def test_a_big_result_is_answered_whole_and_equal_to_tools_call(tmp_path: Path) -> None:
    text = "".join(f"line {n}: {'é' * 40}\n" for n in range(5000))  # ~450 KB, assembled off the loop
    (tmp_path / "big.txt").write_text(text)
    async with in_process(tmp_path, token=TOKEN) as client:
        body = await execute(client, "read", {"path": "big.txt"})
        mcp = await call_tool(client, "read", {"path": "big.txt"}, headers=AUTH)
    assert body["result"]["content"] == text
    assert without_timing(body["result"]) == without_timing(mcp["result"]["structuredContent"])


async def test_a_body_over_the_limit_is_a_413_in_the_execute_error_shape(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        response = await client.post("/execute", content=b" " * (MAX_REQUEST_BODY_BYTES + 1))
    assert response.status_code == 413
    assert strict_json(response.content)["error"]["code"] == "payload_too_large"
