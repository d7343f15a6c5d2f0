"""The route handlers: module-level functions that read what they serve from `request.app.state`.

`app.build_app` puts there the server's parts (`state.parts`) and one endpoint per protocol
(`state.rpc`, `state.execute`, `state.mcp`); the handlers below only turn an HTTP request
into a call on them and the answer into a response. `POST /rpc`'s handler lives with its
endpoint in `rpc.py`, so a tool call's walk starts there. Every body is strict JSON
(`jsonsafe.py`), and every error reply is built by `jsonrpc.py`.
"""

from __future__ import annotations

import asyncio
import functools
import time
from typing import cast

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from mcp_pruner_server.http.execute import ExecuteEndpoint
from mcp_pruner_server.http.responses import ChunkedJSONResponse, SafeJSONResponse
from mcp_pruner_server.http.startup_app import liveness
from mcp_pruner_server.jsonrpc import refusal, rest_error
from mcp_pruner_server.jsonsafe import dumps_chunks
from mcp_pruner_server.logs import log_event, log_exception
from mcp_pruner_server.offload import run_off_loop_if_large
from mcp_pruner_server.server_parts import ServerParts
from mcp_pruner_server.swe_pruner_compat import handle_prune_request

# -- what the app state holds (Starlette's `State` is untyped: typed once, here) ------------


def server_parts(request: Request) -> ServerParts:
    """The parts of the server answering `request`."""
    parts: ServerParts = request.app.state.parts
    return parts


def _execute_endpoint(request: Request) -> ExecuteEndpoint:
    endpoint: ExecuteEndpoint = request.app.state.execute
    return endpoint


def _uptime_ms(parts: ServerParts) -> int:
    return round((time.monotonic() - parts.started_monotonic) * 1000)


# -- routes ---------------------------------------------------------------------------------


async def get_healthz(request: Request) -> Response:
    """`GET /healthz`: liveness for the runner's probes, `{ok, status, server, time}`."""
    parts = server_parts(request)
    return SafeJSONResponse(liveness(parts.started_at, parts.started_monotonic))


async def get_health(request: Request) -> Response:
    """`GET /health`: the `health` tool's object (docs/tools.md#health)."""
    return SafeJSONResponse(server_parts(request).service.health())


async def get_stats(request: Request) -> Response:
    """`GET /stats`: the totals since start, for the runner's end-of-run summary."""
    parts = server_parts(request)
    snapshot = parts.stats.snapshot()
    snapshot["backend"] = parts.service.backend_name
    snapshot["uptime_ms"] = _uptime_ms(parts)
    return SafeJSONResponse(snapshot)


async def get_tools(request: Request) -> Response:
    """`GET /tools`: the tools as OpenAI `function` specs (`execute.py`); any method routes here."""
    if request.method not in ("GET", "HEAD"):
        return _method_not_allowed("GET")
    return Response(_execute_endpoint(request).tools(), media_type="application/json")


async def post_execute(request: Request) -> Response:
    """`POST /execute`: one tool call, REST style (`execute.py`); any method routes here."""
    if request.method != "POST":
        return _method_not_allowed("POST")
    try:
        answer = await _execute_endpoint(request).execute(await request.body())
    except asyncio.CancelledError:
        log_event("execute.cancelled_by_shutdown", level="warning")
        body = rest_error("shutting_down", "the request outlived the shutdown grace period")
        return SafeJSONResponse(body, status_code=503)
    return Response(answer.body, status_code=answer.status, media_type="application/json")


async def post_prune(request: Request) -> Response:
    """`POST /prune`: SWE-Pruner's wire format (`swe_pruner_compat.py`)."""
    status, payload = await handle_prune_request(server_parts(request).service, await request.body())
    # the pruned code of a big body is megabytes of JSON: written off the event loop, in slices
    size = len(str(payload.get("pruned_code", ""))) + 8 * len(cast(list[int], payload.get("kept_frags", [])))
    chunks = await run_off_loop_if_large(functools.partial(dumps_chunks, payload), size)
    return ChunkedJSONResponse(chunks, status)


# -- refusals and last resorts --------------------------------------------------------------


def _method_not_allowed(allowed: str) -> Response:
    body = rest_error("method_not_allowed", f"use {allowed}")
    return SafeJSONResponse(body, status_code=405, headers={"allow": allowed})


def http_refusal_response(path: str, status: int, allow: str | None) -> Response:
    """A 404/405 in JSON: `{ok: false, error}` on the REST routes, a JSON-RPC error elsewhere
    (`jsonrpc.refusal`, as the request guard's refusals)."""
    message = f"Method Not Allowed: use {allow}" if status == 405 else f"Not Found: no route {path!r}"
    headers = {"allow": allow} if status == 405 and allow else None
    return SafeJSONResponse(refusal(path, status, message), status_code=status, headers=headers)


async def http_refusal(request: Request, exc: Exception) -> Response:
    """Starlette's own 404 (no route) and 405 (a route, another method), which it answers in
    text/plain, answered in the shape the path speaks, as the request guard's refusals are."""
    assert isinstance(exc, HTTPException)
    allow = (exc.headers or {}).get("Allow")
    return http_refusal_response(request.url.path, exc.status_code, allow)


async def internal_error(request: Request, _exc: Exception) -> Response:
    """Starlette's last resort; every route answers its own failures, so this only fires on a
    bug. It still answers in the path's shape, and the server keeps serving."""
    log_exception("http.internal_error")
    return SafeJSONResponse(refusal(request.url.path, 500, "Internal error"), status_code=500)
