"""`bash`: one command under `tools_exec` (sanitized env, hard timeout), its output pruned as logs.

A nonzero exit is the contract's `nonzero_exit` tool error, but its stdout/stderr are exactly
what "why does this test fail?" is about, so they go through pruning like any output
(`pipeline.py`, trigger `failed_with_output`) and the answer is an `isError` result that
carries the pruned streams.
"""

from __future__ import annotations

import errno
from collections.abc import Mapping

from mcp_pruner_server.pipeline.outcome import (
    JsonObject,
    PruningMetadata,
    RawOutput,
    ToolContext,
    ToolFailure,
)
from mcp_pruner_server.pruning.types import PruneResult
from mcp_pruner_server.tools.arguments import BashArgs
from tools_exec.errors import ToolExecError, ToolTimeoutError
from tools_exec.limits import BASH_HEAD_SHARE
from tools_exec.process import BashResult, run_bash


def _fields(result: BashResult) -> JsonObject:
    omitted = {name: o.to_dict() for name, o in result.omitted.items()}
    return {
        "tool": "bash",
        "cmd": result.cmd,
        "cwd": result.cwd,
        "stdout": result.stdout,
        "stderr": result.stderr,
        "exit_code": result.exit_code,
        "timed_out": result.timed_out,
        "truncated": result.truncated,
        "duration_ms": round(result.duration_ms, 3),
        **({"omitted": omitted} if omitted else {}),
    }


async def run_bash_tool(context: ToolContext, args: BashArgs) -> RawOutput[BashResult] | ToolFailure:
    """Run the command; timeouts and spawn/cwd errors become ToolFailures (partial output kept).

    With a question (and pruning on), both streams are captured whole up to the raw cap for
    the pipeline to prune; the returned streams are cut to `max_output_bytes` either way.
    """
    root, capture_bytes = context.root, context.capture_bytes(args.question)
    try:
        result = await run_bash(
            root,
            args.cmd,
            cwd=args.cwd,
            env=args.env,
            timeout_ms=args.timeout_ms,
            max_output_bytes=args.max_output_bytes,
            capture_bytes=capture_bytes,
        )
    except ToolTimeoutError as exc:
        body: JsonObject = {"tool": "bash", "cmd": args.cmd}
        raw_bytes = 0
        if isinstance(exc.partial, BashResult):
            body.update(_fields(exc.partial))
            raw_bytes = exc.partial.stdout_total_bytes + exc.partial.stderr_total_bytes
        body["error"] = {"code": exc.code, "message": exc.message, "exit_code": None}
        return ToolFailure("bash", exc.code, exc.message, body, raw_bytes=raw_bytes)
    except ToolExecError as exc:
        error = {"code": exc.code, "message": exc.message, "exit_code": exc.exit_code}
        return ToolFailure("bash", exc.code, exc.message, {"tool": "bash", "cmd": args.cmd, "error": error})
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:
            raise
        # tools_exec's directory check lets ENAMETOOLONG through: a cwd no directory can have.
        message = f"cwd is not an existing directory (file name too long): {args.cwd}"
        error = {"code": "invalid_cwd", "message": message, "exit_code": None}
        return ToolFailure("bash", "invalid_cwd", message, {"tool": "bash", "cmd": args.cmd, "error": error})

    return RawOutput(
        tool="bash",
        texts={"stdout": result.stdout, "stderr": result.stderr},
        source_type="logs",
        question=args.question,
        detail=result,
        is_error=result.exit_code != 0,
        exec_data={
            "duration_ms": round(result.duration_ms, 3),
            "exit_code": result.exit_code,
            "bytes": result.stdout_total_bytes + result.stderr_total_bytes,
        },
        full=dict(zip(("stdout", "stderr"), result.captures, strict=True)) if result.captures else {},
        max_output_bytes=args.max_output_bytes,
        head_share=BASH_HEAD_SHARE,
    )


def finish_bash(
    result: BashResult, texts: Mapping[str, str], _pruned: Mapping[str, PruneResult], meta: PruningMetadata
) -> JsonObject:
    """The `bash` result object, `stdout`/`stderr` final (raw or pruned; docs/tools.md#bash)."""
    body = _fields(result)
    body.update(texts)
    if result.exit_code != 0:
        body["error"] = {
            "code": "nonzero_exit",
            "message": f"command exited with status {result.exit_code}",
            "exit_code": result.exit_code,
        }
    body["pruning"] = meta.to_dict()
    return body
