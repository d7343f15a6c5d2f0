"""Curl-level checks of the real server's HTTP surface over a real socket (httpx, no MCP client)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx
import pytest

from tests import rpc_examples
from tests.interop.interop_support import RunningServer
from tests.json_paths import at

pytestmark = pytest.mark.real_client

HTTP_TIMEOUT_S = 10.0  # one loopback request; the server answers these in milliseconds
MCP_ACCEPT = "application/json, text/event-stream"
INITIALIZE = rpc_examples.initialize(client_name="curl")


@pytest.fixture(scope="module")
def http(pruner_server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=pruner_server.base_url, timeout=HTTP_TIMEOUT_S) as client:
        yield client


def mcp_headers(server: RunningServer, **overrides: str) -> dict[str, str]:
    headers = {
        "Authorization": f"Bearer {server.token}",
        "Accept": MCP_ACCEPT,
        "Content-Type": "application/json",
    }
    headers.update(overrides)
    return headers


def test_the_ready_line_names_the_server_process_and_its_root(pruner_server: RunningServer) -> None:
    assert pruner_server.ready.pid == pruner_server.process.pid
    assert pruner_server.ready.host == "127.0.0.1"
    assert pruner_server.ready.root == str(pruner_server.root.resolve())


def test_initialize_over_post_mcp_answers_with_json(http: httpx.Client, pruner_server: RunningServer) -> None:
    response = http.post("/mcp", json=INITIALIZE, headers=mcp_headers(pruner_server))

    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["result"]["serverInfo"]["name"] == "jeeves-mcp-pruner"


def test_a_notification_is_accepted_with_202_and_no_body(
    http: httpx.Client, pruner_server: RunningServer
) -> None:
    notification = {"jsonrpc": "2.0", "method": "notifications/initialized"}

    response = http.post("/mcp", json=notification, headers=mcp_headers(pruner_server))

    assert response.status_code == 202, response.text
    assert response.content == b""


def test_an_empty_accept_header_is_refused_with_406(http: httpx.Client, pruner_server: RunningServer) -> None:
    response = http.post("/mcp", json=INITIALIZE, headers=mcp_headers(pruner_server, Accept=""))

    assert response.status_code == 406, response.text


def test_a_foreign_origin_is_refused_with_403(http: httpx.Client, pruner_server: RunningServer) -> None:
    headers = mcp_headers(pruner_server, Origin="http://evil.example")

    response = http.post("/mcp", json=INITIALIZE, headers=headers)

    assert response.status_code == 403, response.text


def test_a_foreign_host_header_is_refused(http: httpx.Client, pruner_server: RunningServer) -> None:
    headers = mcp_headers(pruner_server, Host=f"evil.example:{pruner_server.ready.port}")

    response = http.post("/mcp", json=INITIALIZE, headers=headers)

    assert response.status_code in {403, 421}, response.text


@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token", "Basic dXNlcjpwYXNz"])
def test_a_request_without_the_right_token_is_refused_with_401_and_a_json_body(
    http: httpx.Client, pruner_server: RunningServer, authorization: str | None
) -> None:
    headers = mcp_headers(pruner_server)
    del headers["Authorization"]
    if authorization is not None:
        headers["Authorization"] = authorization

    response = http.post("/mcp", json=INITIALIZE, headers=headers)

    assert response.status_code == 401, response.text
    assert "error" in response.json()


def test_healthz_answers_without_a_token(http: httpx.Client) -> None:
    response = http.get("/healthz")

    assert response.status_code == 200, response.text
    assert response.json()["ok"] is True


@pytest.mark.parametrize("method", ["GET", "DELETE"])
def test_get_and_delete_on_mcp_are_405_in_stateless_mode(
    http: httpx.Client, pruner_server: RunningServer, method: str
) -> None:
    response = http.request(method, "/mcp", headers=mcp_headers(pruner_server))

    assert response.status_code == 405, response.text


def test_the_server_printed_nothing_but_its_ready_line_on_stdout(
    http: httpx.Client, pruner_server: RunningServer
) -> None:
    # Whatever ran before (or not): this test makes the server answer every kind of request
    # itself (MCP, notification, /rpc tool call, refusal, health) before reading its stdout.
    assert http.post("/mcp", json=INITIALIZE, headers=mcp_headers(pruner_server)).status_code == 200
    notification = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert http.post("/mcp", json=notification, headers=mcp_headers(pruner_server)).status_code == 202
    assert "result" in rpc_body(http, pruner_server, rpc_examples.TOOLS_LIST)
    assert http.post("/mcp", json=INITIALIZE, headers={"Accept": MCP_ACCEPT}).status_code == 401
    assert http.get("/healthz").status_code == 200

    assert len(pruner_server.stdout_lines) == 1, pruner_server.stdout_lines
    assert json.loads(pruner_server.stdout_lines[0])["event"] == "mcp_pruner.ready"


# -- the contract's curl examples (docs/http.md#post-rpc), bodies byte for byte, bearer header --

MARKER_LINE = re.compile(
    r"^⟦PRUNÉ: prune_id=(?P<prune_id>[^\s]+) lignes (?P<start>\d+)-(?P<end>\d+) \((?P<count>\d+)\) "
    r"raison=(?P<reason>.*)⟧$"
)


def rpc_body(http: httpx.Client, server: RunningServer, body: str) -> dict[str, object]:
    """POST `body` as is to /rpc, like `curl -H 'Content-Type: application/json' -d '<body>'`."""
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {server.token}"}
    response = http.post("/rpc", content=body.encode(), headers=headers)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert isinstance(answer, dict)
    return answer


def tool_text(answer: dict[str, object]) -> dict[str, object]:
    """`jq -r '.result.content[0].text' | jq`."""
    result = answer["result"]
    assert isinstance(result, dict)
    payload = json.loads(result["content"][0]["text"])
    assert isinstance(payload, dict)
    return payload


def test_the_tools_list_example_lists_the_contract_tools(
    http: httpx.Client, pruner_server: RunningServer
) -> None:
    answer = rpc_body(http, pruner_server, rpc_examples.TOOLS_LIST)

    assert answer["id"] == 1
    names = {tool["name"] for tool in at(answer, "result", "tools", kind=list)}
    assert {"prune_text", "recover_text", "health"} <= names


def test_the_prune_text_example_then_its_recover_text_example(
    http: httpx.Client, pruner_server: RunningServer
) -> None:
    pruned = tool_text(rpc_body(http, pruner_server, rpc_examples.PRUNE_TEXT))
    prune_id = pruned["prune_id"]
    assert isinstance(prune_id, str)
    assert prune_id.startswith("prn_")
    # Four lines, keep at least one: the engine may keep them all; the shape is the example's.
    assert set(pruned) >= {"prune_id", "pruned_text", "annotations", "stats", "warnings"}
    assert "1│ L1" in str(pruned["pruned_text"]).split("\n")

    recovered = tool_text(rpc_body(http, pruner_server, rpc_examples.recover_text(prune_id)))

    assert recovered["raw_text"] == "1│ L1\n2│ L2\n3│ L3\n4│ L4"
    assert recovered["metadata"] == {
        "prune_id": prune_id,
        "ranges": [{"start_line": 1, "end_line": 4}],
        "line_numbering": "original",
        "total_lines": 4,
    }


def test_a_prune_text_example_that_prunes_writes_each_annotation_marker_as_a_line(
    http: httpx.Client, pruner_server: RunningServer
) -> None:
    lines = ["# Notes", "", "L1 garder cette ligne: la configuration du cache est dans cache.toml", ""]
    lines += [
        f"Paragraphe {n}: la météo du jour {n} était ensoleillée, rien à signaler." for n in range(2, 40)
    ]
    body = rpc_examples.PRUNE_TEXT.replace(r'"L1\nL2\nL3\nL4"', json.dumps("\n".join(lines)))
    assert body != rpc_examples.PRUNE_TEXT

    pruned = tool_text(rpc_body(http, pruner_server, body))

    annotations = pruned["annotations"]
    assert isinstance(annotations, list)
    assert annotations, pruned
    shown = str(pruned["pruned_text"]).split("\n")
    for annotation in annotations:
        marker = annotation["marker"]
        assert marker in shown  # the exact annotation.marker, alone on its line, unprefixed
        match = MARKER_LINE.match(marker)
        assert match is not None
        assert match["prune_id"] == pruned["prune_id"]
        assert int(match["start"]) == annotation["original_start_line"]
        assert int(match["end"]) == annotation["original_end_line"]
        assert int(match["count"]) == annotation["pruned_line_count"]
    first = annotations[0]
    span = f'[{{"start_line":{first["original_start_line"]},"end_line":{first["original_end_line"]}}}]'
    recover = rpc_examples.recover_text(str(pruned["prune_id"])).replace(
        '[{"start_line":1,"end_line":50}]', span
    )
    raw = tool_text(rpc_body(http, pruner_server, recover))["raw_text"]
    expected = lines[first["original_start_line"] - 1 : first["original_end_line"]]
    assert raw == "\n".join(f"{first['original_start_line'] + i}│ {line}" for i, line in enumerate(expected))


def test_the_recover_text_example_with_an_unknown_id_is_the_32004(
    http: httpx.Client, pruner_server: RunningServer
) -> None:
    answer = rpc_body(http, pruner_server, rpc_examples.recover_text("prn_01J00000000000000000000000"))

    assert answer["id"] == 3
    assert answer["error"] == {  # docs/http.md#json-rpc-error-codes, field for field
        "code": -32004,
        "message": "prune_id_not_found",
        "data": {"code": "prune_id_not_found", "prune_id": "prn_01J00000000000000000000000"},
    }
