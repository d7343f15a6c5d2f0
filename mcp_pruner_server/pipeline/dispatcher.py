"""The one tool dispatcher behind `/mcp` (SDK), `/rpc` (plain JSON-RPC) and `/execute`.

`ToolDispatcher.call(name, arguments)` walks a request through the `req:*` states
(`states.py`): validate (the tool's parser in `TOOLS`), execute (the tool's run function),
prune check and prune (`prune_step.py`, read/bash/grep only), respond. It returns a
`ToolReply` (the `structuredContent`, its JSON text, `isError`) or raises a `DomainRpcError`
that every transport turns into a JSON-RPC error object: -32602 (`field_errors`, and an
unknown tool), -32004/-32005 (recovery), -32603 (anything unexpected, logged with its stack).

Every reply is made safe here, once, for all transports (`jsonsafe.py`): `structuredContent`
and its text hold no NaN/Infinity, no integer beyond 2^53 and no lone surrogate.
"""

from __future__ import annotations

import secrets
import traceback
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import anyio
import anyio.to_thread

from mcp_pruner_server.errors import DomainRpcError, InvalidParamsError
from mcp_pruner_server.json_slices import LongText, whole_value
from mcp_pruner_server.jsonsafe import dumps_text, sanitize_object
from mcp_pruner_server.logs import log_exception
from mcp_pruner_server.offload import OFF_LOOP_BYTES
from mcp_pruner_server.pipeline.ledger_tap import CallNote, to_record
from mcp_pruner_server.pipeline.prune_step import prune_outputs
from mcp_pruner_server.pipeline.states import RequestTrace, Trigger
from mcp_pruner_server.pipeline.stats import ServerStats
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning.types import PruneResult
from mcp_pruner_server.tools.bash_tool import finish_bash, parse_bash, run_bash_tool
from mcp_pruner_server.tools.engine_tools import (
    parse_health,
    parse_prune_text,
    parse_recover,
    run_health,
    run_prune_text,
    run_recover,
)
from mcp_pruner_server.tools.grep_tool import finish_grep, parse_grep, run_grep_tool
from mcp_pruner_server.tools.outcome import (
    JsonObject,
    PruningMetadata,
    RawOutput,
    ToolContext,
    ToolFailure,
)
from mcp_pruner_server.tools.read_tool import finish_read, parse_read, run_read
from mcp_pruner_server.tools.schemas import TOOL_SPECS

if TYPE_CHECKING:
    from mcp_pruner_server.ledger.sink import LedgerSink

Args = TypeVar("Args")
Detail = TypeVar("Detail")
# read/bash/grep hand back their output for the prune step, or a failure; the engine tools
# (prune_text, recover_text, health) their answer, which is never pruned again.
ToolResult = RawOutput[Detail] | ToolFailure | JsonObject
# Builds a read/bash/grep result object from the tool's detail once its texts are final.
Finish = Callable[[Detail, Mapping[str, str], Mapping[str, PruneResult], PruningMetadata], JsonObject]


@dataclass(frozen=True)
class Tool(Generic[Args, Detail]):
    """One row of `TOOLS`: the parser of a call's arguments, the function that runs it and, for
    a tool whose output is pruned, the one that builds its result from the final texts."""

    parse: Callable[[object], Args]  # raises InvalidParamsError (-32602) or InvalidRangeError
    run: Callable[[ToolContext, Args], Awaitable[ToolResult[Detail]]]
    finish: Finish[Detail] | None = None


TOOLS: dict[str, Tool[Any, Any]] = {
    "read": Tool(parse_read, run_read, finish_read),
    "bash": Tool(parse_bash, run_bash_tool, finish_bash),
    "grep": Tool(parse_grep, run_grep_tool, finish_grep),
    "prune_text": Tool(parse_prune_text, run_prune_text),
    "recover_text": Tool(parse_recover, run_recover),
    "recover_range": Tool(parse_recover, run_recover),
    "health": Tool(parse_health, run_health),
}

# Called with every request's trace as it is created (tests observe the `req:*` walk).
TraceObserver = Callable[[RequestTrace], None]


@dataclass(frozen=True)
class ToolReply:
    """A `tools/call` result: `structuredContent` plus the same JSON as text. A big one holds its
    long strings as `LongText` (never joined: `/rpc` writes them a slice at a time); `whole()`
    is the same reply for readers of whole strings."""

    structured: JsonObject
    text: str | LongText
    is_error: bool

    def whole(self) -> ToolReply:
        """This reply with every `LongText` joined (itself when it holds none)."""
        if not isinstance(self.text, LongText):
            return self
        structured = whole_value(self.structured)
        assert isinstance(structured, dict)
        return ToolReply(structured, str(self.text), self.is_error)

    def to_result(self) -> JsonObject:
        """The MCP `CallToolResult` as JSON."""
        return {
            "content": [{"type": "text", "text": self.text}],
            "structuredContent": self.structured,
            "isError": self.is_error,
        }


def new_request_id() -> str:
    return "req_" + secrets.token_hex(6)


def _safe_reply(value: JsonObject, is_error: bool) -> ToolReply:
    structured = sanitize_object(value)
    return ToolReply(structured, dumps_text(structured), is_error)


async def safe_reply(value: JsonObject, approx_size: int, is_error: bool) -> ToolReply:
    """The reply for a result made JSON-safe, off the event loop when it is big (a 10 MiB JSON
    dump is tens of milliseconds that would stall /healthz and every other request)."""
    if approx_size <= OFF_LOOP_BYTES:  # below it a thread hop costs more than the dump
        return _safe_reply(value, is_error)
    return await anyio.to_thread.run_sync(_safe_reply, value, is_error)


def failure_pruning(question: str | None, pruning: bool, raw_bytes: int) -> JsonObject:
    """The `pruning` metadata of a tool error: never attempted, and why
    (docs/tools.md#pruning-metadata).

    A failed tool's partial output (a timeout's stdout) is returned raw: `req:tool_error` is
    terminal, pruning is off for it. With a question, pruning on and some output, the value
    that says so is `disabled_or_unconfigured` — every result names a reason when it was not
    attempted, so a client never has to guess.
    """
    meta: JsonObject = {"attempted": False, "applied": False, "fallback": False, "raw_bytes": raw_bytes}
    if question is None:
        meta["reason"] = "no_focus_question"
    elif pruning and raw_bytes == 0:
        meta["reason"] = "output_empty"
    else:
        meta["reason"] = "disabled_or_unconfigured"
    return meta


class ToolDispatcher:
    """Routes `tools/call` by name through the pipeline; one instance per server."""

    def __init__(
        self,
        root: Path,
        service: PrunerService,
        stats: ServerStats,
        *,
        tool_pruning: bool = True,
        trace_observer: TraceObserver | None = None,
        ledger: LedgerSink | None = None,
    ) -> None:
        """`tool_pruning=False` answers read/bash/grep unpruned (`disabled_or_unconfigured`:
        the configuration was invalid); `prune_text` still prunes. `trace_observer` sees
        every request's `RequestTrace` as it is created. `ledger` receives every finished
        call (`ledger/`); None: the ledger is off."""
        self._context = ToolContext(root, service, tool_pruning)
        self.stats = stats
        self.trace_observer = trace_observer
        self.ledger = ledger

    def client_initialized(self, name: object) -> None:
        """The MCP client said its `clientInfo.name` in `initialize`: the ledger's agent."""
        if self.ledger is not None and isinstance(name, str) and name.strip():
            self.ledger.agent = name.strip()[:200]

    @property
    def service(self) -> PrunerService:
        return self._context.service

    def list_tools(self) -> list[JsonObject]:
        """The `tools` array of `tools/list`."""
        return [spec.to_dict() for spec in TOOL_SPECS]

    async def call(self, name: object, arguments: object, *, request_id: str | None = None) -> ToolReply:
        """Run one tool call through the `req:*` pipeline.

        Raises:
            InvalidParamsError: unknown tool, or arguments that break the contract (-32602,
                `field_errors`; MCP answers an unknown tool name with -32602).
            DomainRpcError: recovery errors (-32004/-32005), or -32603 for an unexpected failure.
        """
        tool_name = name if isinstance(name, str) else repr(name)
        trace = RequestTrace(request_id or new_request_id(), tool_name)
        note = CallNote(tool_name)
        if self.trace_observer is not None:
            self.trace_observer(trace)
        try:
            trace.advance(Trigger.ACCEPTED)
            tool = TOOLS.get(tool_name)
            if tool is None:
                unknown = InvalidParamsError([("name", f"unknown tool {tool_name!r}; see tools/list")])
                self._invalid(trace, unknown)
                raise unknown
            self.stats.record_call(tool_name)
            reply = await self._run(trace, tool, arguments, note)
            if self.ledger is not None and isinstance(reply.text, LongText):
                # joined and pickled for the ledger's writer: big single steps, in a worker
                # thread so the loop gets the GIL between them (no step of it runs on the loop)
                await anyio.to_thread.run_sync(self._to_ledger, note, reply)
            else:
                self._to_ledger(note, reply)
            return reply
        except DomainRpcError as exc:
            note.refused_code = exc.code
            self._to_ledger(note, None)
            raise
        except anyio.get_cancelled_exc_class():
            # The SIGTERM grace ran out (uvicorn cancels the request): the trace must not stop
            # at `tool.exec_start`. Cancellation is a BaseException: `except Exception` misses it.
            if not trace.finished:
                trace.advance(Trigger.UNHANDLED, state=str(trace.state), error="cancelled")
            raise
        except Exception as exc:
            if not trace.finished:  # one `tool.internal_error` event, with the stack
                stack = traceback.format_exc()
                trace.advance(Trigger.UNHANDLED, state=str(trace.state), error=repr(exc), stack=stack)
            self.stats.record_internal_error()
            raise DomainRpcError("internal error", {"request_id": trace.request_id}) from exc

    def _to_ledger(self, note: CallNote, reply: ToolReply | None) -> None:
        if self.ledger is None:
            return
        text = str(reply.text) if reply is not None else ""
        try:
            record = to_record(note, self._context.root, result_text=text, agent=self.ledger.agent)
            self.ledger.submit(record)
        except Exception:  # the ledger is a bystander: a bug in it must not fail the call
            log_exception("ledger.internal_error", tool=note.tool)

    def _invalid(self, trace: RequestTrace, exc: DomainRpcError) -> None:
        # -32602 carries `field_errors`; a parse-time -32005 (too many recover ranges) its reason.
        details = exc.data.get("field_errors") or exc.data.get("reason")
        trace.advance(Trigger.INVALID, error_code=exc.code, validation_errors=details)
        self.stats.record_invalid()

    async def _run(
        self, trace: RequestTrace, tool: Tool[Any, Any], arguments: object, note: CallNote
    ) -> ToolReply:
        try:
            args = tool.parse(arguments)
        except DomainRpcError as exc:  # -32602, or -32005 for more ranges than one call takes
            self._invalid(trace, exc)
            raise
        note.args = args
        trace.advance(Trigger.VALID)
        try:
            result = await tool.run(self._context, args)
        except DomainRpcError as exc:  # recover_text: -32004 unknown id, -32005 bad range
            trace.advance(Trigger.FAILED, error_code=exc.code)
            raise
        if isinstance(result, ToolFailure):
            note.tool_failed = True
            return await self._failed(trace, result, args.question)
        if isinstance(result, RawOutput):
            return await self._prune_and_reply(trace, tool, result, note)
        return await self._engine_reply(trace, result)

    async def _failed(self, trace: RequestTrace, failure: ToolFailure, question: str | None) -> ToolReply:
        trigger = Trigger.TIMED_OUT if failure.timed_out else Trigger.FAILED
        trace.advance(trigger, error_code=failure.code, message=failure.message)
        self.stats.record_tool_error(trace.tool)
        body = dict(failure.result)
        body["pruning"] = failure_pruning(question, self._context.pruning, failure.raw_bytes)
        return await safe_reply(body, failure.raw_bytes, True)

    async def _prune_and_reply(
        self, trace: RequestTrace, tool: Tool[Any, Any], raw: RawOutput[Any], note: CallNote
    ) -> ToolReply:
        if tool.finish is None:  # a bug: the table pairs every pruned tool with its finish
            raise TypeError(f"{trace.tool} returned output to prune but has no finish function")
        trigger = Trigger.FAILED_WITH_OUTPUT if raw.is_error else Trigger.SUCCEEDED
        trace.advance(trigger, **raw.exec_data)
        if raw.is_error:
            self.stats.record_tool_error(trace.tool)
        service = self._context.service if self._context.pruning else None
        step = await prune_outputs(trace, raw, service, self.stats)
        body = tool.finish(raw.detail, step.texts, step.results, step.metadata)
        note.printed_path, note.metadata, note.pruned = raw.path, step.metadata, dict(step.results)
        if step.metadata.applied:
            note.raw_texts = raw.texts  # the ledger counts what the model would have read unpruned
        size = sum(len(t) for t in step.texts.values())
        reply = await safe_reply(body, size, raw.is_error)
        trace.advance(Trigger.WRITTEN, mode=step.mode, is_error=raw.is_error)
        return reply

    async def _engine_reply(self, trace: RequestTrace, body: JsonObject) -> ToolReply:
        trace.advance(Trigger.SUCCEEDED)
        trace.advance(Trigger.CAPTURED)
        trace.advance(Trigger.NOT_PRUNABLE)
        size = sum(
            len(text)
            for key in ("pruned_text", "raw_text")
            if isinstance(text := body.get(key), str | LongText)
        )
        reply = await safe_reply(body, size, False)
        trace.advance(Trigger.WRITTEN, mode="raw")
        return reply
