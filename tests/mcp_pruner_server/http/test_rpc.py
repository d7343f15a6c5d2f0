"""`POST /rpc` in-process: the curl example bodies verbatim (docs/http.md#post-rpc), the JSON-RPC
envelope rules."""

import json
import tracemalloc
from pathlib import Path

import httpx
import pytest

from mcp_pruner_server import json_slices, jsonsafe
from mcp_pruner_server.http import rpc as rpc_module
from tests import rpc_examples
from tests.mcp_pruner_server.server_fixtures import JSON_HEADERS, call_tool, in_process, rpc

pytestmark = pytest.mark.anyio


async def post(client: httpx.AsyncClient, body: str | bytes) -> httpx.Response:
    return await client.post("/rpc", content=body, headers={"content-type": "application/json"})


async def test_the_tools_list_example_lists_every_tool_with_strict_schemas(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        answer = (await post(client, rpc_examples.TOOLS_LIST)).json()
    tools = {t["name"]: t for t in answer["result"]["tools"]}
    assert set(tools) == {"read", "bash", "grep", "prune_text", "recover_text", "recover_range", "health"}
    for tool in tools.values():
        assert tool["inputSchema"]["additionalProperties"] is False
        assert tool["outputSchema"]["type"] == "object"
    assert tools["prune_text"]["inputSchema"]["required"] == ["text", "goal_hint", "source_type", "options"]


async def test_the_prune_text_then_recover_examples_work_verbatim(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        answer = (await post(client, rpc_examples.PRUNE_TEXT)).json()
        assert answer["id"] == 2
        content = json.loads(answer["result"]["content"][0]["text"])  # jq -r '.result.content[0].text' | jq
        assert set(content) == {"prune_id", "pruned_text", "annotations", "stats", "warnings"}
        assert content["prune_id"].startswith("prn_")
        assert content == answer["result"]["structuredContent"]
        for annotation in content["annotations"]:
            assert annotation["marker"] in content["pruned_text"].split("\n")
        recover = rpc_examples.recover_text(content["prune_id"])
        recovered = (await post(client, recover)).json()
    raw = json.loads(recovered["result"]["content"][0]["text"])
    assert raw["raw_text"] == "1│ L1\n2│ L2\n3│ L3\n4│ L4"
    assert raw["metadata"]["prune_id"] == content["prune_id"]
    assert raw["metadata"]["line_numbering"] == "original"


async def test_an_unknown_prune_id_is_the_32004_error(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        answer = (await post(client, rpc_examples.recover_text("prn_nope"))).json()
    assert answer == {
        "jsonrpc": "2.0",
        "id": 3,
        "error": {
            "code": -32004,
            "message": "prune_id_not_found",
            "data": {"code": "prune_id_not_found", "prune_id": "prn_nope"},
        },
    }


async def test_an_inverted_range_is_the_32005_error(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        pruned = await call_tool(
            client,
            "prune_text",
            {
                "text": "a\nb",
                "goal_hint": "a",
                "source_type": "docs",
                "options": {
                    "max_prune_ratio": 0.5,
                    "min_keep_lines": 1,
                    "timeout_ms": 1000,
                    "annotate_lines": False,
                    "include_markers": True,
                },
            },
        )
        prune_id = pruned["result"]["structuredContent"]["prune_id"]
        answer = await call_tool(
            client,
            "recover_range",
            {
                "prune_id": prune_id,
                "ranges": [{"start_line": 2, "end_line": 1}],
                "include_line_numbers": False,
            },
        )
    assert answer["error"]["code"] == -32005
    assert answer["error"]["message"] == "invalid_range"
    assert answer["error"]["data"]["code"] == "invalid_range"


async def test_initialize_answers_server_info_and_the_jeeves_schema_version(tmp_path: Path) -> None:
    params = {"protocolVersion": "2025-11-25", "clientInfo": {"name": "diag", "version": "1.0.0"}}
    async with in_process(tmp_path) as client:
        answer = await rpc(client, "initialize", params)
    result = answer["result"]
    assert result["serverInfo"]["name"] == "jeeves-mcp-pruner"
    assert result["jeeves"] == {"schemaVersion": 1}
    assert result["protocolVersion"] == "2025-11-25"
    assert "tools" in result["capabilities"]


async def test_a_notification_is_accepted_with_202_and_no_body(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        response = await post(client, '{"jsonrpc":"2.0","method":"notifications/initialized"}')
    assert response.status_code == 202
    assert response.content == b""


async def test_empty_listings_and_the_legacy_health_method(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        assert (await rpc(client, "resources/list"))["result"] == {"resources": []}
        assert (await rpc(client, "resources/templates/list"))["result"] == {"resourceTemplates": []}
        assert (await rpc(client, "prompts/list"))["result"] == {"prompts": []}
        health = (await rpc(client, "health"))["result"]
    assert health["status"] == "healthy"
    assert set(health) >= {"status", "server", "version", "capabilities", "timestamp"}


async def test_an_unknown_resource_or_prompt_is_invalid_params_as_on_mcp(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        resource = (await rpc(client, "resources/read", {"uri": "file:///nowhere"}))["error"]
        prompt = (await rpc(client, "prompts/get", {"name": "nothing"}))["error"]
    assert resource["code"] == prompt["code"] == -32602
    assert resource["data"]["field_errors"] == [{"field": "uri", "message": "no resource has this URI"}]
    assert prompt["data"]["field_errors"] == [{"field": "name", "message": "no prompt has this name"}]


async def test_envelope_errors_have_their_json_rpc_codes(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        parse = (await post(client, "{not json")).json()
        invalid = (await post(client, '{"jsonrpc":"1.0","id":4,"method":"x"}')).json()
        unknown = (await post(client, '{"jsonrpc":"2.0","id":5,"method":"tools/explode"}')).json()
        bad_params = (
            await post(client, '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":[1]}')
        ).json()
        no_tool = await call_tool(client, "nope", {})
    assert parse["error"]["code"] == -32700
    assert parse["id"] is None
    assert invalid["error"]["code"] == -32600
    assert invalid["id"] == 4
    assert unknown["error"]["code"] == -32601
    assert bad_params["error"]["code"] == -32602
    assert no_tool["error"]["code"] == -32602  # MCP: an unknown tool is invalid params
    assert no_tool["error"]["data"]["field_errors"][0]["field"] == "name"


async def test_invalid_tool_arguments_are_32602_with_field_errors(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        answer = await call_tool(client, "bash", {"cmd": "", "timeout_ms": 5, "surprise": True})
    error = answer["error"]
    assert error["code"] == -32602
    fields = {e["field"] for e in error["data"]["field_errors"]}
    assert fields == {"cmd", "timeout_ms", "surprise"}


async def test_a_batch_is_answered_in_order_without_its_notifications(tmp_path: Path) -> None:
    batch = [
        {"jsonrpc": "2.0", "id": "a", "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "b", "method": "prompts/list"},
    ]
    async with in_process(tmp_path) as client:
        answer = (await client.post("/rpc", json=batch, headers=JSON_HEADERS)).json()
        only_notes = await client.post("/rpc", json=[batch[1]], headers=JSON_HEADERS)
    assert [a["id"] for a in answer] == ["a", "b"]
    assert only_notes.status_code == 202


async def test_an_empty_batch_is_a_json_rpc_error_object(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        answer = (await post(client, "[]")).json()
    assert answer["jsonrpc"] == "2.0"
    assert answer["id"] is None
    assert answer["error"]["code"] == -32600
    assert "batch" in answer["error"]["message"]
    assert set(answer) == {"jsonrpc", "id", "error"}


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
async def test_nan_and_infinity_in_a_request_are_a_parse_error_on_rpc_mcp_and_execute(
    tmp_path: Path, constant: str
) -> None:
    body = f'{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"x":{constant}}}}}'
    quoted = f'{{"jsonrpc":"2.0","id":2,"method":"ping","params":{{"x":"{constant}"}}}}'
    async with in_process(tmp_path) as client:
        answer = (await post(client, body)).json()
        execute = await client.post("/execute", content=f'{{"tool":"health","params":{{"x":{constant}}}}}')
        mcp = await client.post("/mcp", content=body, headers=JSON_HEADERS)
        mcp_string = await client.post("/mcp", content=quoted, headers=JSON_HEADERS)
    assert answer["error"]["code"] == -32700
    assert constant.lstrip("-") in answer["error"]["message"]
    assert execute.json()["error"]["code"] == "invalid_json"
    assert mcp.status_code == 400
    assert mcp.json()["error"]["code"] == -32700
    assert mcp_string.json() == {"jsonrpc": "2.0", "id": 2, "result": {}}  # in a string it is text


async def test_a_body_nested_too_deeply_is_a_parse_error_not_a_500_on_rpc_and_execute(
    tmp_path: Path,
) -> None:
    deep = b"[" * 100_000  # 100 KB: under the body limit, past the parser's recursion limit
    params = b'{"tool": "health", "params": {"x": ' + b"[" * 5_000 + b"]" * 5_000 + b"}}"
    async with in_process(tmp_path, raise_app_exceptions=False) as client:
        rpc_answer = await post(client, deep)
        execute_deep = await client.post("/execute", content=deep)
        execute_params = await client.post("/execute", content=params)
        after = await rpc(client, "ping")
    assert rpc_answer.status_code == 200
    assert rpc_answer.json()["error"]["code"] == -32700
    assert "nests too deeply" in rpc_answer.json()["error"]["message"]
    for response in (execute_deep, execute_params):
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid_json"
    assert after["result"] == {}


async def test_a_parse_error_ends_its_trace_with_tool_request_parse_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_pruner_server.logs import configure_logging

    configure_logging("json")
    async with in_process(tmp_path) as client:
        answer = (await post(client, "{not json")).json()
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    failed = [e for e in events if e["event"] == "tool.request_parse_failed"]
    assert answer["error"]["code"] == -32700
    assert len(failed) == 1
    assert failed[0]["request_id"].startswith("req_")
    assert "Expecting property name" in failed[0]["data"]["error"]


OPTIONS = {
    "max_prune_ratio": 0.75,
    "min_keep_lines": 1,
    "timeout_ms": 1500,
    "annotate_lines": True,
    "include_markers": True,
}


@pytest.mark.parametrize("numbered", [False, True])
async def test_a_big_recover_answer_is_the_json_of_its_lines_and_is_never_joined_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, numbered: bool
) -> None:
    # 500 ranges of a whole text made answers of 33 MB joined twice (the text, its JSON) while
    # the event loop waited for the GIL (issue 29): the answer now stays in slices to the socket
    lines = [f'line {n}: "quoted" \\ é😀 \u2028 tab\tend' for n in range(6000)]
    text = "\n".join(lines)
    ranges = [(1, 10**6), (7, 2000), (5999, 6000), *[(1, 10**6)] * 6]
    # the ledger keeps a copy of every answer until its writer takes it: measured without it
    async with in_process(tmp_path, env={"JEEVES_LEDGER": "0"}) as client:
        pruned = await call_tool(
            client,
            "prune_text",
            {"text": text, "goal_hint": "q", "source_type": "logs", "options": OPTIONS},
        )
        prune_id = pruned["result"]["structuredContent"]["prune_id"]
        largest: list[int] = []
        real = jsonsafe.rpc_dumps_chunks

        def measured(payload: object) -> list[bytes]:  # a spy: the real encoder runs
            largest.append(max(trace.size for trace in tracemalloc.take_snapshot().traces))
            return real(payload)

        monkeypatch.setattr(rpc_module, "rpc_dumps_chunks", measured)
        arguments = {
            "prune_id": prune_id,
            "ranges": [{"start_line": a, "end_line": b} for a, b in ranges],
            "include_line_numbers": numbered,
        }
        params = {"name": "recover_text", "arguments": arguments}
        body = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}
        tracemalloc.start()
        try:
            answer = await client.post("/rpc", content=json.dumps(body), headers=JSON_HEADERS)
        finally:
            tracemalloc.stop()
    served = [(a, min(b, len(lines))) for a, b in ranges]
    prefix = "{}│ " if numbered else ""
    raw_text = "\n".join(prefix.format(n) + lines[n - 1] for a, b in served for n in range(a, b + 1))
    structured = {
        "raw_text": raw_text,
        "metadata": {
            "prune_id": prune_id,
            "ranges": [{"start_line": a, "end_line": b} for a, b in served],
            "line_numbering": "original",
            "total_lines": len(lines),
        },
    }
    result = {
        "content": [{"type": "text", "text": json.dumps(structured, ensure_ascii=False)}],
        "structuredContent": structured,
        "isError": False,
    }
    expected = json.dumps({"jsonrpc": "2.0", "id": body["id"], "result": result}, ensure_ascii=False)
    assert answer.content == expected.encode()
    assert len(raw_text) > 5 * json_slices.SLICE_CHARS  # 4 bytes a character (emoji): 6 MB
    assert largest
    assert largest[0] < 8 * json_slices.SLICE_CHARS  # two slices at most
