"""`/mcp`'s handshake answered by the project's own JSON-RPC core while the official SDK loads.

The SDK's Streamable HTTP stack takes ~0.8 s of CPU to import (its pydantic types, its client,
HTTP), more than the rest of the server together, and a client's first requests do not need
it: `initialize`, `notifications/initialized`, `ping`, `tools/list` and the empty resource and
prompt listings are answered here from `protocol.py` and `tools/schemas.py` — as stdio
answers them (`stdio_session.py`) — with the result the SDK sends for the same request once
loaded (`tests/mcp_pruner_server/http/test_mcp_handshake.py` compares the two).

A plain `tools/call` (`tool_call_message`: a string `name`, object `arguments`, `_meta`) is
recognised here too; `mcp_transport.py` answers it from the dispatcher once the routes have
loaded, in the SDK's JSON, rather than wait for the SDK.

Only a request the SDK would answer with a result (or a 202) is answered here. Anything
else waits for the SDK and gets its answer, as before: a batch, an unknown method
or notification, params beyond the spec's, an `Accept` without JSON, a `Content-Type` that is
not JSON, and every request whose `MCP-Protocol-Version` header names a version outside the
initialize-handshake ones (the SDK routes those, 2026-07-28 and later, to its modern entry).
So does what the SDK's parser or types refuse and Python's `json` takes (`_SDK_PARSE_DOUBTS`,
`_depth`, `_valid_initialize`, `_valid_meta`): a UTF-8 byte-order mark, a `\\ud800`-`\\udfff`
escape (a lone one is a -32700 there; here it became U+FFFD, an id the client never sent),
nesting deeper than `MAX_DEPTH`, and `initialize`
capabilities or client fields of another type than the SDK's (`{"roots": 1}` is its -32602).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from starlette.types import Scope, Send

from mcp_pruner_server.http.asgi import send_json, send_json_body
from mcp_pruner_server.http.mcp_guard import is_valid_request_id
from mcp_pruner_server.jsonsafe import strict_loads
from mcp_pruner_server.protocol import KNOWN_PROTOCOL_VERSIONS, initialize_result, listed_tools

JsonObject = dict[str, object]

# A handshake request is a few hundred bytes; a larger body is left to the SDK unparsed here.
HANDSHAKE_MAX_BYTES: Final = 64 * 1024
# Sent by a client whose model would otherwise read the JSON of `structuredContent` (Claude Code, Codex).
RESULT_VIEW_HEADER: Final = "X-Jeeves-Result-View"
RESULT_VIEW_TEXT: Final = "text"

# The notification the handshake sends; the SDK acts on none of them in stateless mode.
INITIALIZED_NOTIFICATION: Final = "notifications/initialized"
# Each method answered here, with the `params` fields the spec gives it besides `_meta`.
HANDSHAKE_PARAMS: Final[Mapping[str, frozenset[str]]] = {
    "initialize": frozenset({"protocolVersion", "capabilities", "clientInfo"}),
    "ping": frozenset(),
    "tools/list": frozenset({"cursor"}),
    "resources/list": frozenset({"cursor"}),
    "resources/templates/list": frozenset({"cursor"}),
    "prompts/list": frozenset({"cursor"}),
}
_EMPTY_LISTINGS: Final = {
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
}
_MESSAGE_KEYS: Final = frozenset({"jsonrpc", "id", "method", "params"})
# The `tools/call` params the core answers before the SDK loads (`tool_call_message`).
_TOOL_CALL_PARAMS: Final = frozenset({"name", "arguments", "_meta"})
# A handshake message nests 5 deep (`params.capabilities.experimental.name.field`); the SDK's
# parser refuses past ~250 levels. Deeper than this, its answer is the SDK's.
MAX_DEPTH: Final = 8
# A UTF-8 byte-order mark, or a surrogate's escape (`\ud800`: lone ones are a parse error there).
_SDK_PARSE_DOUBTS: Final = re.compile(rb"\A\xef\xbb\xbf|\\u[dD][89a-fA-F]")
# `initialize`'s `clientInfo` fields the SDK types as strings (it ignores others; `icons` is a
# list of objects: left to it).
_CLIENT_TEXT_FIELDS: Final = frozenset({"name", "version", "title", "description", "websiteUrl"})
# The capabilities the SDK types as objects, and the fields of each it types as objects in turn
# (`roots.listChanged` is a boolean; `tasks` has its own depth: left to the SDK).
_CAPABILITY_OBJECTS: Final[Mapping[str, frozenset[str] | None]] = {
    "sampling": frozenset({"context", "tools"}),
    "elicitation": frozenset({"form", "url"}),
    "roots": frozenset(),
    "experimental": None,  # every value an object
    "extensions": None,
}


def _header(headers: list[tuple[bytes, bytes]], name: bytes) -> str | None:
    for key, value in headers:
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _accepts_json(accept: str | None) -> bool:
    """The SDK's rule (RFC 7231 wildcards): `application/json`, `application/*` or `*/*`."""
    types = {part.split(";")[0].strip().lower() for part in (accept or "").split(",")}
    return bool(types & {"application/json", "application/*", "*/*"})


def _is_json_content(content_type: str | None) -> bool:
    """The SDK's rule: one of the comma-separated types before any `;` is `application/json`."""
    parts = (content_type or "").split(";")[0].split(",")
    return any(part.strip() == "application/json" for part in parts)


def _headers_the_sdk_accepts(headers: list[tuple[bytes, bytes]]) -> bool:
    version = _header(headers, b"mcp-protocol-version")
    return (
        _accepts_json(_header(headers, b"accept"))
        and _is_json_content(_header(headers, b"content-type"))
        and (version is None or version in KNOWN_PROTOCOL_VERSIONS)
    )


def _depth(value: object) -> int:
    """How deep `value` nests (a scalar: 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack += [(child, depth + 1) for child in item.values()]
        elif isinstance(item, list):
            stack += [(child, depth + 1) for child in item]
    return deepest


def _typed_as_the_sdk_types_them(capabilities: Mapping[str, object]) -> bool:
    """Whether each capability the SDK knows has the type it gives it (others it ignores)."""
    if "tasks" in capabilities:
        return False
    for name, fields in _CAPABILITY_OBJECTS.items():
        if name not in capabilities:
            continue
        capability = capabilities[name]
        if not isinstance(capability, dict):
            return False
        objects = capability.keys() if fields is None else fields & capability.keys()
        if not all(isinstance(capability[field], dict) for field in objects):
            return False
    roots = capabilities.get("roots", {})
    return not isinstance(roots, dict) or isinstance(roots.get("listChanged", False), bool)


def _valid_initialize(params: Mapping[str, object]) -> bool:
    client = params.get("clientInfo")
    capabilities = params.get("capabilities")
    return (
        isinstance(params.get("protocolVersion"), str)
        and isinstance(capabilities, dict)
        and _typed_as_the_sdk_types_them(capabilities)
        and isinstance(client, dict)
        and "icons" not in client
        and isinstance(client.get("name"), str)
        and isinstance(client.get("version"), str)
        and all(isinstance(client[field], str) for field in _CLIENT_TEXT_FIELDS & client.keys())
    )


def _valid_meta(meta: object) -> bool:
    """`_meta` as the SDK types it: an object whose `progressToken`, if any, is a string or an integer."""
    if not isinstance(meta, dict):
        return False
    token = meta.get("progressToken", "")
    return isinstance(token, str | int) and not isinstance(token, bool)


def _valid_params(method: str, params: object) -> bool:
    if params is None:
        return method != "initialize"
    if not isinstance(params, dict):
        return False
    if not set(params) <= HANDSHAKE_PARAMS[method] | {"_meta"}:
        return False
    if not _valid_meta(params.get("_meta", {})) or not isinstance(params.get("cursor", ""), str):
        return False
    return method != "initialize" or _valid_initialize(params)


def _plain_message(headers: list[tuple[bytes, bytes]], body: bytes) -> JsonObject | None:
    """The JSON-RPC message in `body` when the SDK reads it as Python's `json` does, else None."""
    if len(body) > HANDSHAKE_MAX_BYTES:
        return None
    if not _headers_the_sdk_accepts(headers) or _SDK_PARSE_DOUBTS.search(body):
        return None
    try:
        message = strict_loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or not set(message) <= _MESSAGE_KEYS or message.get("jsonrpc") != "2.0":
        return None
    return message if _depth(message) <= MAX_DEPTH else None


def tool_call_message(headers: list[tuple[bytes, bytes]], body: bytes) -> JsonObject | None:
    """The `tools/call` request in `body` when the core can answer it as the SDK does, else None:
    `params` holds a string `name`, an object `arguments` (or none) and a valid `_meta`, nothing
    else (`task`, a null `arguments`, … are left to the SDK)."""
    message = _plain_message(headers, body)
    if message is None or message.get("method") != "tools/call" or not is_valid_request_id(message.get("id")):
        return None
    params = message.get("params")
    if (
        not isinstance(params, dict)
        or not set(params) <= _TOOL_CALL_PARAMS
        or not isinstance(params.get("name"), str)
    ):
        return None
    if not isinstance(params.get("arguments", {}), dict) or not _valid_meta(params.get("_meta", {})):
        return None
    return message


def wants_text_view(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether the request carries `X-Jeeves-Result-View: text`."""
    view = (_header(headers, RESULT_VIEW_HEADER.lower().encode()) or "").strip().lower()
    return view == RESULT_VIEW_TEXT


def handshake_message(headers: list[tuple[bytes, bytes]], body: bytes) -> JsonObject | None:
    """The request or notification in `body` when it is one answered here, else None (the SDK's)."""
    message = _plain_message(headers, body)
    if message is None:
        return None
    method = message.get("method")
    if "id" not in message:
        params = message.get("params", {})
        bare = isinstance(params, dict) and set(params) <= {"_meta"} and _valid_meta(params.get("_meta", {}))
        return message if method == INITIALIZED_NOTIFICATION and bare else None
    if (
        not isinstance(method, str)
        or method not in HANDSHAKE_PARAMS
        or not is_valid_request_id(message["id"])
    ):
        return None
    return message if _valid_params(method, message.get("params")) else None


def handshake_result(method: str, params: Mapping[str, object], *, text_view: bool) -> JsonObject:
    """The result of a request `handshake_message` accepted; `text_view`: tools without
    `outputSchema` (the `X-Jeeves-Result-View: text` header)."""
    if method == "initialize":
        return initialize_result(params, instructions=True)
    if method == "tools/list":
        return {"tools": listed_tools(text_view=text_view)}
    if method == "ping":
        return {}
    return {_EMPTY_LISTINGS[method]: []}


async def answer_handshake(
    scope: Scope, body: bytes, send: Send, *, on_initialize: Callable[[object], None]
) -> bool:
    """Answer `body` when it is a handshake request (`handshake_message`); False when it is not,
    and the SDK must answer it. `on_initialize` gets an `initialize`'s `clientInfo.name`."""
    request = handshake_message(scope["headers"], body)
    if request is None:
        return False
    if "id" not in request:  # notifications/initialized: what the SDK answers it
        await send_json_body(send, 202, b"")
        return True
    method = str(request["method"])
    params = request.get("params")
    params = params if isinstance(params, dict) else {}
    if method == "initialize":
        client = params.get("clientInfo")
        on_initialize(client.get("name") if isinstance(client, dict) else None)
    result = handshake_result(method, params, text_view=wants_text_view(scope["headers"]))
    await send_json(send, 200, {"jsonrpc": "2.0", "id": request["id"], "result": result})
    return True
