"""MCP over the stdio wire, answered by the project's own JSON-RPC core (issue 28).

A `codex exec` one-shot builds its turn about a second after it spawns an optional server; the
official SDK's import alone took longer (its pydantic types, its client, HTTP). So `initialize`,
`ping`, `tools/list` and the empty resource and prompt listings are answered from this module,
the tool specs (`tools/schemas.py`) and `protocol.py`, which import no HTTP stack, no SDK, no
engine. Everything a tool call needs (`server_parts.build_parts`: the dispatcher, the pruning
service, the recovery store) loads once the client has listed the tools — or at its first
call — in a worker thread, and then the engine's worker warms up (`Backstage`).

Each request runs in its own task (calls overlap, as with the SDK); `notifications/cancelled`
cancels one, which kills its command's process group. What is not a valid message gets an
answer when it can and always a log line: unparsable JSON → -32700, a batch, a non-object or an
`id` that is not a string or an integer → -32600 (id null when it cannot be echoed), a line
past `stdio_wire.MAX_LINE_BYTES` → -32003, dropped without being held. Large lines are parsed
and large answers encoded off the event loop, so a ping is answered meanwhile.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

import anyio
import anyio.abc
import anyio.to_thread

from mcp_pruner_server.errors import InvalidParamsError
from mcp_pruner_server.jsonrpc import (
    INVALID_REQUEST,
    PARSE_ERROR,
    PAYLOAD_TOO_LARGE,
    rpc_error,
)
from mcp_pruner_server.jsonsafe import rpc_dumps_bytes, strict_loads
from mcp_pruner_server.logs import log_event, log_exception
from mcp_pruner_server.offload import run_off_loop_if_large
from mcp_pruner_server.protocol import (
    TextBlock,
    answer_text_size,
    initialize_result,
    listed_tools,
    tool_result_text,
)
from mcp_pruner_server.rpc_methods import answer as rpc_answer
from mcp_pruner_server.rpc_methods import mcp_methods
from mcp_pruner_server.settings import ServerSettings
from mcp_pruner_server.stdio_wire import Oversized, StdioWire

if TYPE_CHECKING:
    from mcp_pruner_server.server_parts import ServerParts

# A tool call that arrives while the server is still loading waits this long for it; loading
# takes ~1 s on a busy laptop, so this means it is broken, not slow.
LOAD_TIMEOUT_S: Final = 20.0
# Logged when the tools start loading: everything imported before it served the handshake.
LOADING_EVENT: Final = "mcp_pruner.tools_loading"
WARM_EVENT: Final = "mcp_pruner.warm"
JsonObject = dict[str, object]
INTERNAL_EVENT: Final = "stdio.internal_error"


class Backstage:
    """What a tool call needs, loaded once, off the event loop, after the handshake.

    `start()` begins loading (idempotent); `parts()` waits for it (bounded). The commands'
    watchdog (`tools_exec.group_watchdog`) starts first, so no command runs without it; once
    the parts are built, the engine warms up in its worker (`PrunerService.warm`), and
    `mcp_pruner.warm` logs how long loading and warming took.
    """

    def __init__(self, settings: ServerSettings, task_group: anyio.abc.TaskGroup) -> None:
        self._settings = settings
        self._task_group = task_group
        self._loaded = anyio.Event()
        self._parts: ServerParts | None = None
        self._failed: BaseException | None = None
        self._started = False

    def start(self, reason: str) -> None:
        if not self._started:
            self._started = True
            self._task_group.start_soon(self._load, reason)

    async def parts(self) -> ServerParts:
        """The loaded parts; starts loading if nothing did yet.

        Raises:
            RuntimeError: loading failed or did not finish within `LOAD_TIMEOUT_S`.
        """
        self.start("tool_call")
        with anyio.move_on_after(LOAD_TIMEOUT_S):
            await self._loaded.wait()
        if self._parts is None:
            raise RuntimeError(f"the server's tools did not load: {self._failed or 'timed out'}")
        return self._parts

    async def aclose(self) -> None:
        if self._parts is not None:
            await self._parts.service.aclose()
            await anyio.to_thread.run_sync(self._parts.close_ledger)

    async def _load(self, reason: str) -> None:
        log_event(LOADING_EVENT, reason=reason)
        started = time.perf_counter()
        try:
            self._parts = await anyio.to_thread.run_sync(_build_parts, self._settings, abandon_on_cancel=True)
        except Exception as exc:  # every tool call then answers -32603, saying why
            log_exception("mcp_pruner.load_failed")
            self._failed = exc
            return
        finally:
            self._loaded.set()
        loaded = time.perf_counter()
        warm_ms = await self._parts.service.warm()
        log_event(
            WARM_EVENT,
            reason=reason,
            load_ms=round((loaded - started) * 1000, 1),
            engine_ms=warm_ms,
        )


def _build_parts(settings: ServerSettings) -> ServerParts:
    """The parts, the server's secrets then forgotten (a `bash` child must not read them back from
    /proc/$PPID/environ: `environ_scrub.py`), and the commands' watchdog, started after that so
    it does not hold them either, already running when the first command starts."""
    from mcp_pruner_server.environ_scrub import forget_secrets
    from mcp_pruner_server.server_parts import build_parts
    from tools_exec import group_watchdog

    parts = build_parts(settings)
    forget_secrets()
    if not group_watchdog.enable():
        log_event("mcp_pruner.group_watchdog_unavailable", level="warning")
    return parts


def _valid_id(request_id: object) -> bool:
    """MCP: a string or an integer (JSON-RPC's null, fractions and booleans are not ids)."""
    return isinstance(request_id, str) or (isinstance(request_id, int) and not isinstance(request_id, bool))


class StdioSession:
    """Answers the messages of one stdio client until its stdin ends."""

    def __init__(
        self, wire: StdioWire, backstage: Backstage, *, text_block: TextBlock, text_view: bool
    ) -> None:
        self._wire = wire
        self._backstage = backstage
        self._text_block = text_block
        self._text_view = text_view
        self._running: dict[str | int, anyio.CancelScope] = {}
        self._tool_calls: dict[str | int, anyio.CancelScope] = {}
        # `initialize` comes before the tools load: its `clientInfo.name` (the ledger's agent) is
        # handed to the dispatcher at the first call
        self._client_name: object = None
        self._methods = mcp_methods(
            initialize=self._initialize, tools_list=self._tools_list, tools_call=self._tools_call
        )

    async def serve(self) -> None:
        """Answer every message until stdin reaches EOF; the running calls are then cancelled."""
        async with anyio.create_task_group() as requests:
            async for line in self._wire.lines():
                if isinstance(line, Oversized):
                    why = f"Message too large: a line holds at most {line.limit} bytes; it was skipped"
                    await self._refuse(None, PAYLOAD_TOO_LARGE, why, "too_large")
                    continue
                try:
                    parse = functools.partial(strict_loads, line)
                    message: object = await run_off_loop_if_large(parse, len(line))
                except ValueError as exc:  # UnicodeDecodeError is a ValueError
                    await self._refuse(None, PARSE_ERROR, f"Parse error: {exc}", "not_json")
                    continue
                await self._dispatch(message, requests)
            # The client is gone: its tool calls are cancelled (their commands killed); the
            # instant answers still in flight (an `initialize` sent just before EOF) are written.
            for scope in self._tool_calls.values():
                scope.cancel()

    async def _dispatch(self, message: object, requests: anyio.abc.TaskGroup) -> None:
        if isinstance(message, list):
            await self._refuse(None, INVALID_REQUEST, "Invalid Request: batches are not part of MCP", "batch")
            return
        if not isinstance(message, dict):
            await self._refuse(None, INVALID_REQUEST, "Invalid Request: expected a JSON object", "not_object")
            return
        method = message.get("method")
        has_id = "id" in message
        request_id = message.get("id")
        if method is None and ("result" in message or "error" in message):
            return  # an answer to a request of ours: this server sends none
        if message.get("jsonrpc") != "2.0" or not isinstance(method, str):
            echo = request_id if _valid_id(request_id) else None
            reason = "'jsonrpc' must be \"2.0\" and 'method' a string"
            await self._refuse(echo, INVALID_REQUEST, f"Invalid Request: {reason}", "not_jsonrpc")
            return
        if not has_id:
            self._notification(method, message.get("params"))
            return
        if not _valid_id(request_id):
            why = "Invalid Request: 'id' must be a string or an integer"
            await self._refuse(None, INVALID_REQUEST, why, "bad_id")
            return
        if request_id in self._running:
            why = "Invalid Request: 'id' is already used by a request still running"
            await self._refuse(None, INVALID_REQUEST, why, "bad_id")
            return
        assert isinstance(request_id, str | int)
        scope = anyio.CancelScope()
        self._running[request_id] = scope
        if method == "tools/call":
            self._tool_calls[request_id] = scope
        requests.start_soon(self._answer, request_id, method, message.get("params"), scope)

    def _notification(self, method: str, params: object) -> None:
        if method == "notifications/cancelled" and isinstance(params, dict):
            scope = self._running.get(params.get("requestId"))  # type: ignore[arg-type]
            if scope is not None:
                scope.cancel()
        elif method == "notifications/initialized":
            log_event("mcp_pruner.stdio_initialized")

    async def _answer(
        self, request_id: str | int, method: str, params: object, scope: anyio.CancelScope
    ) -> None:
        answer: JsonObject | None = None
        with scope:
            params = {} if params is None else params
            answer = await rpc_answer(self._methods, request_id, method, params, event=INTERNAL_EVENT)
        self._running.pop(request_id, None)
        self._tool_calls.pop(request_id, None)
        if answer is not None:  # None: cancelled by the client, who expects no answer
            await self._send(answer)
            if method == "tools/list":
                self._backstage.start("tools_listed")  # the handshake is over: load the rest

    async def _refuse(self, request_id: object, code: int, message: str, reason: str) -> None:
        log_event("mcp_pruner.stdio_refused", level="warning", reason=reason, code=code, message=message)
        await self._send(rpc_error(request_id, code, message))

    async def _send(self, answer: JsonObject) -> None:
        size = answer_text_size(answer)
        body = await run_off_loop_if_large(functools.partial(rpc_dumps_bytes, answer), size)
        await self._wire.send(body)

    async def _initialize(self, params: Mapping[str, object]) -> JsonObject:
        client = params.get("clientInfo")
        if isinstance(client, Mapping):
            self._client_name = client.get("name")
        return initialize_result(params, instructions=True)

    async def _tools_list(self, _params: Mapping[str, object]) -> JsonObject:
        return {"tools": listed_tools(text_view=self._text_view)}

    async def _tools_call(self, params: Mapping[str, object]) -> JsonObject:
        name = params.get("name")
        if not isinstance(name, str) or not name:
            raise InvalidParamsError([("name", "is required (the tool to call)")])
        parts = await self._backstage.parts()
        parts.dispatcher.client_initialized(self._client_name)
        reply = await parts.dispatcher.call(name, params.get("arguments"))
        result: JsonObject = {
            "content": [{"type": "text", "text": await tool_result_text(name, reply, self._text_block)}],
            "isError": reply.is_error,
        }
        if not self._text_view:
            result["structuredContent"] = reply.structured
        return result
