"""A JSON-RPC method table and the answer to one request through it, for `/rpc` and stdio.

Both transports map a method name to a handler (`params` in, `result` out) and answer every
failure as a JSON-RPC error object: a domain error with its code and data (`errors.py`), an
unknown method -32601, anything unexpected -32603 (logged with its stack). Only light modules
are imported: the stdio server answers its handshake through this before the tools load.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from mcp_pruner_server.errors import DomainRpcError, InvalidParamsError, MethodNotFoundError
from mcp_pruner_server.jsonrpc import INTERNAL_ERROR, domain_rpc_error, rpc_error
from mcp_pruner_server.logs import log_exception

JsonObject = dict[str, object]
Handler = Callable[[Mapping[str, object]], Awaitable[JsonObject]]


async def answer(
    methods: Mapping[str, Handler], request_id: object, method: str, params: object, *, event: str
) -> JsonObject:
    """The answer to request `request_id`: its result, or the error object; never raises.

    `event`: the name of the log event of an unexpected failure (`rpc.internal_error`).
    """
    try:
        if not isinstance(params, Mapping):
            raise InvalidParamsError([("params", "must be an object")])
        handler = methods.get(method)
        if handler is None:
            raise MethodNotFoundError(method)
        result = await handler(params)
    except DomainRpcError as exc:
        return domain_rpc_error(request_id, exc)
    except Exception:  # the top-level boundary: a bug becomes -32603, the server keeps serving
        log_exception(event, method=method)
        return rpc_error(request_id, INTERNAL_ERROR, "Internal error")
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


async def _empty(_params: Mapping[str, object]) -> JsonObject:
    return {}


def mcp_methods(*, initialize: Handler, tools_list: Handler, tools_call: Handler) -> dict[str, Handler]:
    """The MCP methods this server answers, on every transport: the three given, `ping`, and
    the empty resource and prompt listings (their capabilities are declared, nothing is in them)."""
    return {
        "initialize": initialize,
        "ping": _empty,
        "tools/list": tools_list,
        "tools/call": tools_call,
        "resources/list": empty_listing("resources"),
        "resources/templates/list": empty_listing("resourceTemplates"),
        "prompts/list": empty_listing("prompts"),
        "resources/read": unknown_name("uri", "no resource has this URI"),
        "prompts/get": unknown_name("name", "no prompt has this name"),
    }


def empty_listing(key: str) -> Handler:
    """A listing method with nothing in it (`resources/list` → `{"resources": []}`)."""

    async def empty_list(_params: Mapping[str, object]) -> JsonObject:
        return {key: []}

    return empty_list


def unknown_name(field: str, message: str) -> Handler:
    """A declared capability with nothing in it: any name is an invalid parameter (-32602),
    as the MCP prompts spec (and SEP-2164 for resources) says, not an unknown method."""

    async def refuse(_params: Mapping[str, object]) -> JsonObject:
        raise InvalidParamsError([(field, message)])

    return refuse
