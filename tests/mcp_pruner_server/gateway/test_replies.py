"""Pure checks of the caller's request and of the upstream's reply."""

from __future__ import annotations

import json

import pytest

from mcp_pruner_server.errors import InvalidRequestError
from mcp_pruner_server.gateway.errors import (
    UpstreamHttpStatusError,
    UpstreamNotJsonError,
    UpstreamNotJsonRpcError,
)
from mcp_pruner_server.gateway.forward import UpstreamReply
from mcp_pruner_server.gateway.replies import (
    RequestParseError,
    decode_reply,
    jsonrpc_problem,
    parse_request,
)

URL = "http://127.0.0.1:8004/rpc"


def reply(status: int, body: object, kind: str = "json") -> UpstreamReply:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return UpstreamReply("fs", URL, status, "json" if kind == "json" else "empty", body=raw)


def test_a_request_gives_its_id_and_focus_question() -> None:
    body = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "m",
        "params": {"_meta": {"context_focus_question": " why? "}},
    }
    request = parse_request(json.dumps(body).encode())
    assert (request.ids, request.single_id, request.is_batch) == (frozenset({3}), 3, False)
    assert (request.question, request.source_type) == ("why?", "code")


def test_a_source_type_in_meta_is_used_only_when_known() -> None:
    meta = {"context_focus_question": "q", "source_type": "logs"}
    request = parse_request(json.dumps({"id": 1, "params": {"_meta": meta}}).encode())
    unknown = parse_request(json.dumps({"id": 1, "params": {"_meta": {**meta, "source_type": "x"}}}).encode())
    assert (request.source_type, unknown.source_type) == ("logs", "code")


def test_a_batch_waits_for_its_ids_but_not_its_notifications() -> None:
    batch = [{"jsonrpc": "2.0", "id": "a", "method": "m"}, {"jsonrpc": "2.0", "method": "notifications/x"}]
    request = parse_request(json.dumps(batch).encode())
    assert (request.ids, request.reply_ids, request.is_batch) == (frozenset({"a"}), ("a",), True)


@pytest.mark.parametrize("body", [b"3", b"[]", b"[1]", b'"x"'])
def test_bodies_that_are_not_requests_are_invalid(body: bytes) -> None:
    with pytest.raises(InvalidRequestError):
        parse_request(body)


def test_a_body_that_is_not_json_is_a_parse_error() -> None:
    with pytest.raises(RequestParseError, match="Parse error"):
        parse_request(b"{")


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ({"jsonrpc": "2.0", "id": 1, "result": None}, None),
        ({"jsonrpc": "2.0", "id": None, "error": {"code": -1, "message": "m"}}, None),
        ([{"jsonrpc": "2.0", "id": 1, "result": 1}], None),
        ({"jsonrpc": "1.0", "id": 1, "result": 1}, "'jsonrpc'"),
        ({"jsonrpc": "2.0", "result": 1}, "no 'id'"),
        ({"jsonrpc": "2.0", "id": 1}, "exactly one"),
        ({"jsonrpc": "2.0", "id": 1, "error": {"code": True, "message": "m"}}, "integer 'code'"),
        ([], "empty batch"),
        ([{"jsonrpc": "2.0", "id": 1, "result": 1}, 2], "batch item 1"),
    ],
)
def test_jsonrpc_problem_names_what_is_wrong(message: object, problem: str | None) -> None:
    found = jsonrpc_problem(message)
    if problem is None:
        assert found is None
    else:
        assert found is not None
        assert problem in found


def test_an_empty_202_answers_a_notification_with_nothing() -> None:
    notification = parse_request(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    assert decode_reply(reply(202, b"", kind="empty"), notification) is None


def test_an_empty_body_for_a_request_is_not_json() -> None:
    request = parse_request(b'{"jsonrpc": "2.0", "id": 1, "method": "m"}')
    with pytest.raises(UpstreamNotJsonError):
        decode_reply(reply(200, b"", kind="empty"), request)
    with pytest.raises(UpstreamHttpStatusError):
        decode_reply(reply(503, b"", kind="empty"), request)


def test_a_non_2xx_json_rpc_error_is_passed_on_but_other_json_is_an_http_error() -> None:
    request = parse_request(b'{"jsonrpc": "2.0", "id": 1, "method": "m"}')
    error = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no"}}
    assert decode_reply(reply(404, error), request) == error
    with pytest.raises(UpstreamHttpStatusError) as caught:
        decode_reply(reply(404, {"detail": "Not Found"}), request)
    assert caught.value.data["http_status"] == 404
    with pytest.raises(UpstreamNotJsonRpcError):
        decode_reply(reply(200, {"detail": "Not Found"}), request)


def test_an_sse_reply_yields_the_response_with_the_request_id() -> None:
    request = parse_request(b'{"jsonrpc": "2.0", "id": 2, "method": "m"}')
    messages = (
        {"jsonrpc": "2.0", "method": "notifications/progress"},
        {"jsonrpc": "2.0", "id": 1, "result": "other"},
        {"jsonrpc": "2.0", "id": 2, "result": "mine"},
    )
    sse = UpstreamReply("fs", URL, 200, "sse", messages=messages)
    assert decode_reply(sse, request) == messages[2]
    with pytest.raises(UpstreamNotJsonRpcError, match="without a response"):
        decode_reply(UpstreamReply("fs", URL, 200, "sse", messages=messages[:1]), request)


@pytest.mark.parametrize(
    ("arguments", "meta_type", "expected"),
    [
        ({"path": "src/shop.py"}, None, ("code", "src/shop.py")),  # its language from the extension
        ({"path": "docs/guide.md"}, None, ("docs", "docs/guide.md")),  # as `read` has a `.md`
        ({"path": "build/run.log"}, None, ("logs", "build/run.log")),
        ({"path": "build/run.log"}, "code", ("code", "build/run.log")),  # `_meta.source_type` wins
        ({"path": 3}, None, ("code", None)),  # no file named
        ({"query": "x"}, None, ("code", None)),
    ],
)
def test_a_tools_call_naming_a_file_is_pruned_as_its_read(
    arguments: dict[str, object], meta_type: str | None, expected: tuple[str, str | None]
) -> None:
    meta = {"context_focus_question": "q", **({"source_type": meta_type} if meta_type else {})}
    body = {
        "id": 1,
        "method": "tools/call",
        "params": {"name": "read_text_file", "arguments": arguments, "_meta": meta},
    }
    request = parse_request(json.dumps(body).encode())
    assert (request.source_type, request.path) == expected


def test_only_a_tools_call_names_a_file() -> None:
    body = {"id": 1, "method": "resources/read", "params": {"arguments": {"path": "a.md"}, "_meta": {}}}
    assert parse_request(json.dumps(body).encode()).path is None
