"""The server's error replies, in one place: the JSON-RPC codes and the two error shapes.

A route answers its errors in one of two shapes, and the path decides which:

- a JSON-RPC error object, `rpc_error(id, code, message, data?)`, on `/mcp`, `/rpc`, the
  health and stats routes, the gateway and unknown paths;
- `{ok: false, error: {code, message, field_errors?, data?}}`, `rest_error(...)`, on the
  function-calling routes `REST_PATHS` (`/tools`, `/execute`).

`refusal(path, status, message)` is a refusal before or instead of a route (the request
guard, Starlette's 404/405, the last-resort 500) in the shape its path speaks, with the
JSON-RPC code and the REST `error.code` of `REFUSALS` for its HTTP status.

The codes are documented in docs/http.md#json-rpc-error-codes, and `tests/test_docs.py`
checks that table against the constants here; no other module writes a code as a number.
(`/prune` alone answers in SWE-Pruner's own error shape, `swe_pruner_compat.py`.)
Only the standard library is imported: `errors.py` takes its codes from here, and the runner
imports `errors.py` on its start-up path. It sits below `http/`, the gateway and stdio, which all
answer with it (in `http/`, the gateway that `http/app.py` installs imported back up).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Protocol


class DomainRpcError(Protocol):
    """What a reply reads of a domain error (`errors.DomainRpcError`, which imports its codes from
    here: this module imports nothing of the server's, so the two never import each other)."""

    @property
    def rpc_code(self) -> int: ...
    @property
    def message(self) -> str: ...
    @property
    def data(self) -> Mapping[str, object]: ...


# -- JSON-RPC 2.0's own codes -----------------------------------------------------------------
PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
INTERNAL_ERROR: Final = -32603

# -- this server's, in the implementation-defined range (-32000..-32099) ---------------------
# JSON-RPC has no codes for transport refusals: the request guard's.
UNAUTHORIZED: Final = -32001
FORBIDDEN: Final = -32002
PAYLOAD_TOO_LARGE: Final = -32003
UNSUPPORTED_MEDIA_TYPE: Final = -32006
BUSY: Final = -32007
# `recover_text`'s two domain errors.
PRUNE_ID_NOT_FOUND: Final = -32004
INVALID_RANGE: Final = -32005
# The gateway's: why a forwarded call has no usable upstream reply (`gateway/errors.py`).
GATEWAY_UNKNOWN_SERVER: Final = -32010
GATEWAY_UPSTREAM_UNREACHABLE: Final = -32011
GATEWAY_UPSTREAM_TIMEOUT: Final = -32012
GATEWAY_UPSTREAM_DISCONNECTED: Final = -32013
GATEWAY_UPSTREAM_HTTP_STATUS: Final = -32014
GATEWAY_UPSTREAM_NOT_JSON: Final = -32015
GATEWAY_UPSTREAM_NOT_JSONRPC: Final = -32016
GATEWAY_UPSTREAM_REPLY_TOO_LARGE: Final = -32017

# -- which routes answer in the REST shape ---------------------------------------------------
TOOLS_PATH: Final = "/tools"
EXECUTE_PATH: Final = "/execute"
REST_PATHS: Final[frozenset[str]] = frozenset({TOOLS_PATH, EXECUTE_PATH})

# A refusal by HTTP status: its JSON-RPC code and its REST `error.code`
# (docs/http.md#request-guard lists them; `tests/test_docs.py` checks that table).
REFUSALS: Final[Mapping[int, tuple[int, str]]] = {
    401: (UNAUTHORIZED, "unauthorized"),
    403: (FORBIDDEN, "forbidden"),
    404: (METHOD_NOT_FOUND, "not_found"),  # no route: the path names no method
    405: (INVALID_REQUEST, "method_not_allowed"),
    413: (PAYLOAD_TOO_LARGE, "payload_too_large"),
    415: (UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type"),
    421: (FORBIDDEN, "misdirected"),
    500: (INTERNAL_ERROR, "internal_error"),
    503: (BUSY, "busy"),
}


def rpc_error(
    request_id: object, code: int, message: str, data: Mapping[str, object] | None = None
) -> dict[str, object]:
    """A JSON-RPC 2.0 error response: `{jsonrpc, id, error: {code, message, data?}}`."""
    error: dict[str, object] = {"code": code, "message": message}
    if data is not None:
        error["data"] = dict(data)
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def domain_rpc_error(request_id: object, exc: DomainRpcError) -> dict[str, object]:
    """The JSON-RPC error response for a domain error: its code, message and `data`."""
    return rpc_error(request_id, exc.rpc_code, exc.message, exc.data)


def rest_error(
    code: str,
    message: str,
    field_errors: object | None = None,
    data: Mapping[str, object] | None = None,
) -> dict[str, object]:
    """`{ok: false, error: {code, message, field_errors?, data?}}`: an error on `REST_PATHS`."""
    error: dict[str, object] = {"code": code, "message": message}
    if field_errors is not None:
        error["field_errors"] = field_errors
    if data:
        error["data"] = dict(data)
    return {"ok": False, "error": error}


def refusal(path: str, status: int, message: str) -> dict[str, object]:
    """A refusal with HTTP `status` in the shape `path` speaks (module doc), id null.

    Raises:
        KeyError: `status` is not a refusal of `REFUSALS`.
    """
    rpc_code, rest_code = REFUSALS[status]
    if path in REST_PATHS:
        return rest_error(rest_code, message)
    return rpc_error(None, rpc_code, message)
