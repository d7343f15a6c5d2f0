"""`bash`: one command under `tools_exec` (sanitized env, hard timeout), its output pruned as logs.

A command that only prints a file (`cat f`, `sed -n '10,200p' f`, `nl -ba f | head -n 300` …,
`printed_file.py`) printed that file's text: it is pruned as `read` prunes the file.

A nonzero exit is the contract's `nonzero_exit` tool error, but its stdout/stderr are exactly
what "why does this test fail?" is about, so they go through pruning like any output
(`pipeline.py`, trigger `failed_with_output`) and the answer is an `isError` result that
carries the pruned streams.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Mapping
from dataclasses import dataclass

from mcp_pruner_server.pruning.types import PruneResult
from mcp_pruner_server.tools import limits as L
from mcp_pruner_server.tools.checker import (
    SURROGATE_MESSAGE,
    FieldChecker,
    argument_object,
    os_encodable,
    schemas_fields,
)
from mcp_pruner_server.tools.outcome import (
    JsonObject,
    PruningMetadata,
    RawOutput,
    ToolContext,
    ToolFailure,
)
from mcp_pruner_server.tools.printed_file import printed_file
from mcp_pruner_server.tools.read_tool import source_type_for
from tools_exec.errors import ToolExecError, ToolTimeoutError
from tools_exec.limits import BASH_HEAD_SHARE, READ_HEAD_SHARE
from tools_exec.process import BashResult, run_bash

_ENV_KEY = re.compile(L.ENV_KEY_PATTERN)


@dataclass(frozen=True)
class BashArgs:
    cmd: str
    cwd: str | None
    env: Mapping[str, str]
    timeout_ms: int
    max_output_bytes: int
    question: str | None


def parse_bash(arguments: object) -> BashArgs:
    """Raises:
    InvalidParamsError: listing every field that breaks the contract.
    """
    c = FieldChecker(argument_object(arguments), frozenset(schemas_fields("bash")))
    cmd = c.non_empty("cmd", required=True, max_chars=L.BASH_CMD_MAX_CHARS)
    cwd = c.non_empty("cwd")
    env = _parse_env(c)
    timeout = c.integer("timeout_ms", L.TIMEOUT_MS_MIN, L.TIMEOUT_MS_MAX, L.TIMEOUT_MS_DEFAULT)
    max_bytes = c.integer(
        "max_output_bytes", L.MAX_OUTPUT_BYTES_MIN, L.MAX_OUTPUT_BYTES_MAX, L.BASH_MAX_OUTPUT_BYTES_DEFAULT
    )
    question = c.question()
    c.raise_if_failed()
    assert cmd is not None
    assert timeout is not None
    assert max_bytes is not None
    return BashArgs(cmd, cwd, env, timeout, max_bytes, question)


def _parse_env(c: FieldChecker) -> dict[str, str]:
    raw = c.args.get("env")
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        c.fail("env", "must be an object of strings")
        return {}
    if len(raw) > L.ENV_MAX_ENTRIES:
        c.fail("env", f"must have at most {L.ENV_MAX_ENTRIES} entries (got {len(raw)})")
        return {}
    env: dict[str, str] = {}
    for key, value in raw.items():
        # fullmatch: with `match`, the pattern's `$` also matches before a final newline ("FOO\n").
        if not isinstance(key, str) or not _ENV_KEY.fullmatch(key):
            c.fail(f"env.{key}", f"key must match {L.ENV_KEY_PATTERN}")
        elif not isinstance(value, str):
            c.fail(f"env.{key}", "must be a string")
        elif "\x00" in value:  # no process environment can hold it: the spawn would raise
            c.fail(f"env.{key}", "must not contain NUL characters")
        elif not os_encodable(value):
            c.fail(f"env.{key}", SURROGATE_MESSAGE)
        elif len(value) > L.ENV_VALUE_MAX_CHARS:
            c.fail(f"env.{key}", f"must be at most {L.ENV_VALUE_MAX_CHARS} characters")
        else:
            env[key] = value
    return env


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

    # a command that only prints a file (`cat f`, `sed -n 'a,bp' f` …) printed code, or docs
    printed = printed_file(args.cmd) if result.exit_code == 0 else None
    return RawOutput(
        tool="bash",
        texts={"stdout": result.stdout, "stderr": result.stderr},
        source_type="logs" if printed is None else source_type_for(printed),
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
        head_share=BASH_HEAD_SHARE if printed is None else READ_HEAD_SHARE,
        path=printed,
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
