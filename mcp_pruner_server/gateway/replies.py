"""Pure checks of what goes through the gateway: the caller's request and the upstream's reply.

`parse_request` reads the caller's body once (ids to wait for, the optional
`params._meta.context_focus_question`, the file a `tools/call` names); `decode_reply` turns an
`UpstreamReply` into the JSON-RPC response (or batch) to mask, or raises the `GatewayError` that
says why it cannot.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

from mcp_pruner_server.deep_json import loads_deep
from mcp_pruner_server.errors import InvalidRequestError
from mcp_pruner_server.gateway.errors import (
    UpstreamHttpStatusError,
    UpstreamNotJsonError,
    UpstreamNotJsonRpcError,
)
from mcp_pruner_server.gateway.forward import ReceivedBody, UpstreamReply, check_decode_memory, excerpt
from mcp_pruner_server.json_slices import SLICE_CHARS, LongText, loads_in_slices
from mcp_pruner_server.pruning.types import SOURCE_TYPES, SourceType
from mcp_pruner_server.tools.read_tool import source_type_for

# Observations forwarded by the gateway are mostly file contents (a fast-filesystem server,
# docs/http.md#gateway).
DEFAULT_SOURCE_TYPE: SourceType = "code"
# Mirrors the tools' `context_focus_question` limit (docs/tools.md#argument-rules).
MAX_QUESTION_CHARS = 1000
MAX_PATH_CHARS = 4096  # PATH_MAX: a longer `path` argument names no file


class RequestParseError(ValueError):
    """Raised when the caller's body is not JSON (answered with -32700)."""


@dataclass(frozen=True)
class GatewayRequest:
    """The caller's JSON-RPC request (or batch), as far as the gateway needs to know it."""

    ids: frozenset[object]  # ids that wait for a response (notifications have none)
    reply_ids: tuple[object, ...]  # ids to answer a transport failure with, in request order
    single_id: object  # the id of a single request, matched against SSE responses
    is_batch: bool
    question: str | None = None
    source_type: SourceType = DEFAULT_SOURCE_TYPE
    # The file a `tools/call` names in `arguments.path` (a filesystem server's `read_text_file`):
    # its extension names the language of what is pruned.
    path: str | None = None


def parse_request(body: bytes) -> GatewayRequest:
    """What the gateway needs from the caller's body; the body itself is forwarded unchanged.

    Raises:
        RequestParseError: the body is not JSON.
        InvalidRequestError: it is neither a JSON object nor a non-empty array of objects.
    """
    try:
        message = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise RequestParseError(f"Parse error: {exc}") from exc
    if isinstance(message, dict):
        ids = _ids([message])
        question, source_type, path = _focus(message)
        return GatewayRequest(
            frozenset(ids), tuple(ids), message.get("id"), False, question, source_type, path
        )
    if isinstance(message, list) and message and all(isinstance(m, dict) for m in message):
        ids = _ids(message)
        return GatewayRequest(frozenset(ids), tuple(ids), None, True)
    raise InvalidRequestError("expected a JSON-RPC request object or a non-empty array of them")


def decode_reply(reply: UpstreamReply, request: GatewayRequest) -> object | None:
    """The upstream's JSON-RPC response (or batch); None when there is nothing to answer (202).

    A non-2xx status whose body is a JSON-RPC response is passed on as that response (MCP
    servers answer some JSON-RPC errors with 400/404).

    Raises:
        UpstreamHttpStatusError: non-2xx and no JSON-RPC body.
        UpstreamNotJsonError: the body is empty (a reply was expected) or not JSON.
        UpstreamNotJsonRpcError: JSON, but not a JSON-RPC 2.0 response or batch.
        UpstreamReplyTooLargeError: its JSON values would take far more memory than its bytes.
    """
    server, url, ok = reply.server, reply.url, 200 <= reply.status < 300
    if reply.kind == "sse":
        return _from_sse(reply, request)
    if reply.kind == "empty":
        if not ok:
            raise UpstreamHttpStatusError(server, url, reply.status, "")
        if not request.ids:
            return None
        raise UpstreamNotJsonError(server, url, f"HTTP {reply.status} with an empty body", "")
    check_decode_memory(server, url, reply.body)
    body = reply.body
    message: object = _NOT_PARSED
    if isinstance(body, ReceivedBody):
        try:
            message = _whole_envelope(body.loads(_JSON_CONSTANTS.__getitem__))
        except (ValueError, RecursionError):
            body = body.as_small_body()  # read as a small body is: the same answer, or error
    try:
        if message is _NOT_PARSED:
            assert not isinstance(body, ReceivedBody)
            message = loads_lenient(body)
    except (ValueError, RecursionError) as exc:
        if not ok:
            raise UpstreamHttpStatusError(server, url, reply.status, excerpt(body)) from exc
        raise UpstreamNotJsonError(server, url, str(exc) or type(exc).__name__, excerpt(body)) from exc
    problem = jsonrpc_problem(message) or id_mismatch(message, request)
    if problem is not None:
        if not ok:
            raise UpstreamHttpStatusError(server, url, reply.status, excerpt(body))
        raise UpstreamNotJsonRpcError(server, url, problem)
    return message


def loads_lenient(body: bytes | str) -> object:
    """`json.loads(body)` (NaN and the infinities accepted: an upstream's reply is passed on, made
    safe later), a long text's strings parsed in slices (`json_slices.py`), at any depth (a body
    nested past the C parser's recursion limit is read by `deep_json.loads_deep`).

    Raises:
        ValueError: the body is not JSON.
    """
    try:
        if isinstance(body, str) and len(body) > SLICE_CHARS:
            return loads_in_slices(body, _JSON_CONSTANTS.__getitem__)
        return json.loads(body)
    except RecursionError:  # deeper than the C parser goes: read with a stack of our own
        text = body if isinstance(body, str) else body.decode(json.detect_encoding(body), "surrogatepass")
        return loads_deep(text, _JSON_CONSTANTS.__getitem__)


_JSON_CONSTANTS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
_NOT_PARSED = object()


def _whole_envelope(message: object) -> object:
    """`message` with any `LongText` outside `result` and `error.data` joined: only those are
    walked and masked, the envelope's fields are read as strings (a 300k-character error message
    is no observation)."""
    if isinstance(message, list):
        return [_whole_envelope(item) for item in message]
    if not isinstance(message, dict) or not any(isinstance(v, LongText) for v in _envelope_fields(message)):
        return message
    whole = {k: str(v) if isinstance(v, LongText) and k != "result" else v for k, v in message.items()}
    error = whole.get("error")
    if isinstance(error, dict):
        whole["error"] = {
            k: str(v) if isinstance(v, LongText) and k != "data" else v for k, v in error.items()
        }
    return whole


def _envelope_fields(message: dict[str, object]) -> list[object]:
    error = message.get("error")
    fields = [v for k, v in message.items() if k != "result"]
    return fields + ([v for k, v in error.items() if k != "data"] if isinstance(error, dict) else [])


def is_valid_id(value: object) -> bool:
    """A JSON-RPC id a response may carry: a string, a number (not a boolean), or null."""
    return value is None or (isinstance(value, str | int | float) and not isinstance(value, bool))


def same_id(a: object, b: object) -> bool:
    """JSON equality of two valid ids (`1` is not `true`, `"1"` is not `1`)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return False
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and a == b


def id_mismatch(message: object, request: GatewayRequest) -> str | None:
    """Why the response(s) in `message` do not answer `request`'s ids; None if they do.

    A response answers an id the caller sent, or has a null id with an error (the upstream
    could not read the request's id, JSON-RPC 2.0 §5).
    """
    responses = message if isinstance(message, list) else [message]
    for response in responses:
        if not isinstance(response, dict):
            continue  # jsonrpc_problem's to report
        response_id = response.get("id")
        if response_id is None and "error" in response:
            continue
        if not any(same_id(response_id, wanted) for wanted in request.reply_ids):
            return f"the response id {json.dumps(response_id)} answers no id of the request"
    return None


def jsonrpc_problem(message: object) -> str | None:
    """Why `message` is not a JSON-RPC 2.0 response or batch of responses; None if it is."""
    if isinstance(message, list):
        if not message:
            return "an empty batch"
        for index, item in enumerate(message):
            problem = _response_problem(item)
            if problem is not None:
                return f"batch item {index}: {problem}"
        return None
    return _response_problem(message)


def _response_problem(message: object) -> str | None:
    if not isinstance(message, dict):
        return f"expected an object, got {type(message).__name__}"
    if message.get("jsonrpc") != "2.0":
        return "'jsonrpc' is not \"2.0\""
    if "id" not in message:
        return "no 'id'"
    if not is_valid_id(message["id"]):
        return "'id' must be a string, a number or null"
    if ("result" in message) == ("error" in message):
        return "a response has exactly one of 'result' and 'error'"
    error = message.get("error")
    if "error" in message and not _is_error_object(error):
        return "'error' must be an object with an integer 'code' and a string 'message'"
    return None


def _is_error_object(error: object) -> bool:
    if not isinstance(error, dict):
        return False
    code = error.get("code")
    return isinstance(code, int) and not isinstance(code, bool) and isinstance(error.get("message"), str)


def _from_sse(reply: UpstreamReply, request: GatewayRequest) -> object | None:
    responses = [m for m in reply.messages if isinstance(m, dict) and ("result" in m or "error" in m)]
    if not responses:
        if not request.ids:
            return None
        raise UpstreamNotJsonRpcError(reply.server, reply.url, "the SSE stream ended without a response")
    if request.is_batch:
        message: object = responses
    else:
        message = next((r for r in responses if same_id(r.get("id"), request.single_id)), responses[0])
    problem = jsonrpc_problem(message) or id_mismatch(message, request)
    if problem is not None:
        raise UpstreamNotJsonRpcError(reply.server, reply.url, problem)
    return message


def _ids(messages: list[dict[str, object]]) -> list[object]:
    # Only hashable ids can be waited for; an object or array id is the upstream's to refuse.
    return [m["id"] for m in messages if "id" in m and is_valid_id(m["id"])]


def _focus(message: dict[str, object]) -> tuple[str | None, SourceType, str | None]:
    """The focus question, the source type (`_meta`'s, else the named file's, as `read` has it), the file."""
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        return None, DEFAULT_SOURCE_TYPE, None
    raw_question = meta.get("context_focus_question")
    question = raw_question.strip()[:MAX_QUESTION_CHARS] if isinstance(raw_question, str) else ""
    path = _named_file(message)
    default = source_type_for(path) if path else DEFAULT_SOURCE_TYPE
    raw_type = meta.get("source_type")
    source_type = next((t for t in SOURCE_TYPES if t == raw_type), default)
    return question or None, source_type, path


def _named_file(message: dict[str, object]) -> str | None:
    params = message.get("params")
    arguments = params.get("arguments") if isinstance(params, dict) else None
    if message.get("method") != "tools/call" or not isinstance(arguments, dict):
        return None
    path = arguments.get("path")
    return path if isinstance(path, str) and path.strip() and len(path) <= MAX_PATH_CHARS else None
