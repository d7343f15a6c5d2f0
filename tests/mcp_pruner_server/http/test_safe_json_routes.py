"""Safe JSON on every route of the real server: arbitrary bytes through the real tools.

One real `jeeves-mcp-pruner` child for the module; hypothesis writes arbitrary bytes to a file
in its root, and the real `bash`, `read` and `grep` tools send them back through `/rpc`,
`/execute` and the SDK's `/mcp`. Every answer must parse as strict JSON (`strict_json`).
"""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.mcp_pruner_server.server_fixtures import JSON_HEADERS, ChildServer, child_server, strict_json

# A loopback request to a server that answers in milliseconds; slack for 2 shared cores.
HTTP_TIMEOUT_S = 20.0
BLOB = "blob.bin"
QUESTION = "which line mentions an error?"
# Bytes that broke JSON encoders somewhere: an encoded surrogate, invalid lead bytes, NUL,
# an overlong sequence, half a 4-byte sequence, and text that looks like a JSON constant.
NASTY = [
    b"\xed\xa0\x80 surrogate D800 as UTF-8\n",
    b"\xff\xfe\xfd\n\x00\x01\x1b[31mred\x1b[0m\n",
    b"\xc0\xaf overlong\n\xf0\x9f\x98 half an emoji\n",
    b"NaN Infinity -Infinity 1e999 123456789012345678901234567890\n",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ChildServer, Path]]:
    root = tmp_path_factory.mktemp("safe_json_root")
    with child_server(root) as child:
        yield child, root


@pytest.fixture(scope="module")
def http(server: tuple[ChildServer, Path]) -> Iterator[httpx.Client]:
    # Every POST route takes only application/json (issue 16): the raw bodies below say so.
    headers = {"content-type": "application/json"}
    with httpx.Client(base_url=server[0].base_url, timeout=HTTP_TIMEOUT_S, headers=headers) as client:
        yield client


def tools_call(http: httpx.Client, path: str, name: str, arguments: dict[str, Any]) -> Any:
    params = {"name": name, "arguments": arguments}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
    response = http.post(path, json=body, headers=JSON_HEADERS)
    assert response.status_code == 200, response.text
    answer = strict_json(response.content)
    assert "result" in answer, answer
    return answer["result"]["structuredContent"]


def execute(http: httpx.Client, tool: str, params: dict[str, Any]) -> Any:
    response = http.post("/execute", json={"tool": tool, "params": params})
    assert response.status_code == 200, response.text
    return strict_json(response.content)["result"]


def every_route_answers_strict_json(http: httpx.Client, root: Path, data: bytes) -> None:
    (root / BLOB).write_bytes(data)
    cat = {"cmd": f"cat {BLOB}; cat {BLOB} >&2"}
    rpc_bash = tools_call(http, "/rpc", "bash", cat)
    mcp_bash = tools_call(http, "/mcp", "bash", {**cat, "context_focus_question": QUESTION})
    execute_bash = execute(http, "bash", {**cat, "context_focus_question": QUESTION})
    execute(http, "read", {"path": BLOB, "context_focus_question": QUESTION})
    tools_call(http, "/mcp", "read", {"path": BLOB})
    tools_call(http, "/rpc", "grep", {"pattern": ".", "paths": [BLOB], "fixed_string": False})
    # What the tools hand back is the bytes, decoded with U+FFFD where they are not UTF-8.
    expected = data.decode("utf-8", "replace")
    assert rpc_bash["stdout"] == expected
    assert rpc_bash["stderr"] == expected
    if not mcp_bash["pruning"]["applied"]:
        assert mcp_bash["stdout"] == expected
    if not execute_bash["pruning"]["applied"]:
        assert execute_bash["stdout"] == expected


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.binary(max_size=400))
def test_arbitrary_bytes_from_the_tools_come_back_as_strict_json_on_every_route(
    server: tuple[ChildServer, Path], http: httpx.Client, data: bytes
) -> None:
    every_route_answers_strict_json(http, server[1], data)


@pytest.mark.parametrize("data", NASTY)
def test_known_troublemaker_bytes_come_back_as_strict_json(
    server: tuple[ChildServer, Path], http: httpx.Client, data: bytes
) -> None:
    every_route_answers_strict_json(http, server[1], data)


def test_lone_surrogates_sent_in_a_request_never_reach_an_answer(http: httpx.Client) -> None:
    options = {
        "max_prune_ratio": 0.5,
        "min_keep_lines": 1,
        "timeout_ms": 5000,
        "annotate_lines": True,
        "include_markers": True,
    }
    # `\ud800` is legal in JSON text; Python decodes it to a lone surrogate the server echoes.
    arguments = (
        '{"text": "x\\ud800y\\nerror here\\n", "goal_hint": "error \\udc80", '
        '"source_type": "logs", "options": ' + json.dumps(options) + "}"
    )
    rpc_body = '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "prune_text", '
    rpc = http.post("/rpc", content=rpc_body + f'"arguments": {arguments}}}}}', headers=JSON_HEADERS)
    run = http.post("/execute", content=f'{{"tool": "prune_text", "params": {arguments}}}')
    missing = http.post("/execute", content='{"tool": "read", "params": {"path": "no\\udc80pe"}}')
    for response in (rpc, run, missing):
        assert response.status_code == 200, response.text
        strict_json(response.content)
    assert "x\ufffdy" in strict_json(run.content)["result"]["pruned_text"]
    assert strict_json(missing.content)["result"]["path"] == "no\ufffdpe"


def test_huge_numbers_and_nan_sent_in_a_request_come_back_safe(http: httpx.Client) -> None:
    huge = 123456789012345678901234
    read = http.post(
        "/rpc",
        content=b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read", '
        b'"arguments": {"path": "blob.bin", "start_line": 123456789012345678901234}}}',
        headers=JSON_HEADERS,
    )
    nan = http.post(
        "/rpc",
        content=b'{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "health", '
        b'"arguments": {"ratio": NaN, "big": 1e999}}}',
        headers=JSON_HEADERS,
    )
    big_id = http.post("/rpc", content=b'{"jsonrpc": "2.0", "id": %d, "method": "ping"}' % huge)
    for response in (read, nan):
        assert response.status_code == 200, response.text
        strict_json(response.content)
    assert strict_json(read.content)["result"]["structuredContent"]["start_line"] == str(huge)
    # JSON-RPC echoes the id exactly: the client matches the answer by it.
    assert json.loads(big_id.content)["id"] == huge


@pytest.mark.parametrize("path", ["/tools", "/stats", "/health", "/healthz"])
def test_the_read_only_routes_answer_strict_json(http: httpx.Client, path: str) -> None:
    response = http.get(path)
    assert response.status_code == 200
    strict_json(response.content)


def test_the_swe_pruner_route_answers_strict_json_for_surrogates_and_nan(http: httpx.Client) -> None:
    code = "def tax():\\n    return 1  # \\ud800\\n" + "x = 1\\n" * 50
    ok = http.post("/prune", content=f'{{"query": "tax \\udc80", "code": "{code}", "threshold": 0.5}}')
    nan = http.post("/prune", content=b'{"query": "tax", "code": "a\\nb", "threshold": NaN}')
    assert ok.status_code == 200, ok.text
    assert "\ufffd" in strict_json(ok.content)["pruned_code"]
    strict_json(nan.content)
