"""The one tool dispatcher behind `/mcp` (SDK) and `/rpc` (plain JSON-RPC).

`ToolDispatcher.call(name, arguments)` walks a request through the `req:*` pipeline
(`pipeline.py`): validate, execute, prune check, prune, respond. It returns a `ToolReply`
(the `structuredContent`, its JSON text, `isError`) or raises a `DomainRpcError` that both
transports turn into a JSON-RPC error object: -32602 (`field_errors`), -32601 (unknown
tool), -32004/-32005 (recovery), -32603 (anything unexpected, logged with its stack).

Every reply is made safe here, once, for all transports (`jsonsafe.py`): `structuredContent`
and its text hold no NaN/Infinity, no integer beyond 2^53 and no lone surrogate.
"""

from __future__ import annotations

import functools
import secrets
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

import anyio

from mcp_pruner_server.errors import DomainRpcError, InvalidParamsError, PruneIdNotFoundError
from mcp_pruner_server.jsonsafe import dumps, sanitize_object
from mcp_pruner_server.offload import run_off_loop_if_large
from mcp_pruner_server.pipeline import RequestTrace, Trigger
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.recovery import recover_work
from mcp_pruner_server.stats import ServerStats
from mcp_pruner_server.tools import arguments as parse
from mcp_pruner_server.tools.bash_tool import run_bash_tool
from mcp_pruner_server.tools.engine_tools import run_prune_text, run_recover
from mcp_pruner_server.tools.grep_tool import run_grep_tool
from mcp_pruner_server.tools.outcome import JsonObject, RawOutput, ToolFailure
from mcp_pruner_server.tools.output_pruning import ToolPruner, prune_outputs
from mcp_pruner_server.tools.read_tool import run_read
from mcp_pruner_server.tools.schemas import TOOL_SPECS, TOOLS_BY_NAME


class _HasQuestion(Protocol):
    @property
    def question(self) -> str | None: ...


_Args = TypeVar("_Args", bound=_HasQuestion)


@dataclass(frozen=True)
class ToolReply:
    """A `tools/call` result: `structuredContent` plus the same JSON as text."""

    structured: JsonObject
    text: str
    is_error: bool

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
    return ToolReply(structured, dumps(structured), is_error)


async def safe_reply(value: JsonObject, approx_size: int, is_error: bool) -> ToolReply:
    """The reply for a result made JSON-safe, off the event loop when it is big (a 10 MiB JSON
    dump is tens of milliseconds that would stall /healthz and every other request)."""
    return await run_off_loop_if_large(functools.partial(_safe_reply, value, is_error), approx_size)


# Parses the arguments (raising InvalidParamsError): the focus question and the call to run.
Prepare = Callable[[object], tuple[str | None, Callable[[], Awaitable[RawOutput | ToolFailure]]]]


def _prepared(
    run: Callable[[Path, _Args, int | None], Awaitable[RawOutput | ToolFailure]],
    args: _Args,
    root: Path,
    capture_bytes: int | None,
) -> tuple[str | None, Callable[[], Awaitable[RawOutput | ToolFailure]]]:
    # with a question (and a pruner), the tool captures its whole output up to the raw cap
    capture = capture_bytes if args.question is not None else None
    return args.question, functools.partial(run, root, args, capture)


def failure_pruning(question: str | None, pruner: ToolPruner | None, raw_bytes: int) -> JsonObject:
    """The `pruning` metadata of a tool error: never attempted, and why (TOOLS_CONTRACT.md).

    A failed tool's partial output (a timeout's stdout) is returned raw: `req:tool_error` is
    terminal in seed 002, pruning is off for it. With a question, a pruner and some output,
    the contract value that says so is `disabled_or_unconfigured` — every result names a
    reason when it was not attempted, so a client never has to guess.
    """
    meta: JsonObject = {"attempted": False, "applied": False, "fallback": False, "raw_bytes": raw_bytes}
    if question is None:
        meta["reason"] = "no_focus_question"
    elif pruner is not None and raw_bytes == 0:
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
        tool_pruner: ToolPruner | None,
        stats: ServerStats,
    ) -> None:
        self._root = root
        self._service = service
        self._pruner = tool_pruner
        self.stats = stats
        cap = tool_pruner.raw_cap_bytes if tool_pruner is not None else None
        self._workspace_tools: dict[str, Prepare] = {
            "read": lambda a: _prepared(run_read, parse.parse_read(a), root, cap),
            "bash": lambda a: _prepared(run_bash_tool, parse.parse_bash(a), root, cap),
            "grep": lambda a: _prepared(run_grep_tool, parse.parse_grep(a), root, cap),
        }

    @property
    def service(self) -> PrunerService:
        return self._service

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
        tool = name if isinstance(name, str) else repr(name)
        trace = RequestTrace(request_id or new_request_id(), tool)
        try:
            trace.advance(Trigger.ACCEPTED)
            if tool not in TOOLS_BY_NAME:
                unknown = InvalidParamsError([("name", f"unknown tool {tool!r}; see tools/list")])
                self._invalid(trace, unknown)
                raise unknown
            self.stats.record_call(tool)
            if tool in self._workspace_tools:
                return await self._workspace_call(trace, self._workspace_tools[tool], arguments)
            return await self._engine_call(trace, tool, arguments)
        except DomainRpcError:
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

    def _invalid(self, trace: RequestTrace, exc: DomainRpcError) -> None:
        # -32602 carries `field_errors`; a parse-time -32005 (too many recover ranges) its reason.
        details = exc.data.get("field_errors") or exc.data.get("reason")
        trace.advance(Trigger.INVALID, error_code=exc.code, validation_errors=details)
        self.stats.record_invalid()

    async def _workspace_call(self, trace: RequestTrace, prepare: Prepare, arguments: object) -> ToolReply:
        try:
            question, run = prepare(arguments)
        except InvalidParamsError as exc:
            self._invalid(trace, exc)
            raise
        trace.advance(Trigger.VALID)
        outcome = await run()
        if isinstance(outcome, ToolFailure):
            trigger = Trigger.TIMED_OUT if outcome.timed_out else Trigger.FAILED
            trace.advance(trigger, error_code=outcome.code, message=outcome.message)
            self.stats.record_tool_error(trace.tool)
            body = dict(outcome.result)
            body["pruning"] = failure_pruning(question, self._pruner, outcome.raw_bytes)
            return await safe_reply(body, outcome.raw_bytes, True)
        trigger = Trigger.FAILED_WITH_OUTPUT if outcome.is_error else Trigger.SUCCEEDED
        trace.advance(trigger, **outcome.exec_data)
        if outcome.is_error:
            self.stats.record_tool_error(trace.tool)
        step = await prune_outputs(trace, outcome, self._pruner, self.stats)
        body = outcome.finish(step.texts, step.results, step.metadata)
        size = sum(len(t) for t in step.texts.values())
        reply = await safe_reply(body, size, outcome.is_error)
        trace.advance(Trigger.WRITTEN, mode=step.mode, is_error=outcome.is_error)
        return reply

    async def _engine_call(self, trace: RequestTrace, tool: str, arguments: object) -> ToolReply:
        try:
            parsed = _ENGINE_PARSERS[tool](arguments)
        except DomainRpcError as exc:  # -32602, or -32005 for more ranges than one call takes
            self._invalid(trace, exc)
            raise
        trace.advance(Trigger.VALID)
        try:
            if isinstance(parsed, parse.PruneTextArgs):
                body = await run_prune_text(self._service, parsed)
            elif isinstance(parsed, parse.RecoverArgs):
                # Numbering 300k recovered lines is ~165 ms of CPU: off the loop when the work
                # (the stored text times the ranges, each may span it all) is big.
                recover = functools.partial(run_recover, self._service, parsed)
                work = recover_work(self._stored_chars(parsed.prune_id), parsed.ranges)
                body = await run_off_loop_if_large(recover, work)
            else:
                body = self._service.health()
        except DomainRpcError as exc:
            trace.advance(Trigger.FAILED, error_code=exc.code)
            raise
        trace.advance(Trigger.SUCCEEDED)
        trace.advance(Trigger.CAPTURED)
        trace.advance(Trigger.NOT_PRUNABLE)
        size = len(str(body.get("pruned_text", ""))) + len(str(body.get("raw_text", "")))
        reply = await safe_reply(body, size, False)
        trace.advance(Trigger.WRITTEN, mode="raw")
        return reply

    def _stored_chars(self, prune_id: str) -> int:
        """Length of the text stored under `prune_id`; 0 when unknown (the recover raises inline)."""
        try:
            return len(self._service.store.get(prune_id))  # the stored str itself: no copy
        except PruneIdNotFoundError:
            return 0


_ENGINE_PARSERS: dict[str, Callable[[object], object]] = {
    "prune_text": parse.parse_prune_text,
    "recover_text": parse.parse_recover,
    "recover_range": parse.parse_recover,
    "health": parse.parse_health,
}
