"""`read`: a text file inside the root, optionally pruned to the question (source type by extension)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mcp_pruner_server.pruning.source_types import (
    source_type_for as source_type_for,  # re-exported: the bash tool and the gateway import it here
)
from mcp_pruner_server.pruning.text import utf8_size
from mcp_pruner_server.pruning.types import PruneResult
from mcp_pruner_server.tools import limits as L
from mcp_pruner_server.tools.checker import (
    FieldChecker,
    argument_object,
    schemas_fields,
)
from mcp_pruner_server.tools.outcome import (
    JsonObject,
    PruningMetadata,
    RawOutput,
    ToolContext,
    ToolFailure,
)
from tools_exec.errors import ToolExecError
from tools_exec.files import ReadResult, read_text
from tools_exec.limits import READ_HEAD_SHARE


@dataclass(frozen=True)
class ReadArgs:
    path: str
    start_line: int | None
    end_line: int | None
    max_output_bytes: int
    question: str | None


def parse_read(arguments: object) -> ReadArgs:
    """Raises:
    InvalidParamsError: listing every field that breaks the contract.
    """
    c = FieldChecker(argument_object(arguments), frozenset(schemas_fields("read")))
    path = c.non_empty("path", required=True)
    encoding = c.string("encoding")
    if encoding is not None and encoding.lower().replace("_", "-") not in ("utf-8", "utf8"):
        c.fail("encoding", 'only "utf-8" is supported')
    start = c.integer("start_line", 1, None, None)
    end = c.integer("end_line", 1, None, None)
    if start is not None and end is not None and start > end:
        c.fail("end_line", f"must be >= start_line ({start})")
    max_bytes = c.integer(
        "max_output_bytes", L.MAX_OUTPUT_BYTES_MIN, L.MAX_OUTPUT_BYTES_MAX, L.READ_MAX_OUTPUT_BYTES_DEFAULT
    )
    question = c.question()
    c.raise_if_failed()
    assert path is not None
    assert max_bytes is not None
    return ReadArgs(path, start, end, max_bytes, question)


async def run_read(context: ToolContext, args: ReadArgs) -> RawOutput[ReadResult] | ToolFailure:
    """Read the file; a contract error (`not_found`, `invalid_path`, ...) becomes a ToolFailure.

    With a question (and pruning on) the range is captured whole up to the raw cap for the
    pipeline to prune; `content` is cut to `max_output_bytes` either way (head, marker, tail).
    """
    root, capture_bytes = context.root, context.capture_bytes(args.question)
    try:
        result = await read_text(
            root,
            args.path,
            start_line=args.start_line,
            end_line=args.end_line,
            max_output_bytes=args.max_output_bytes,
            capture_bytes=capture_bytes,
        )
    except ToolExecError as exc:
        return ToolFailure(
            "read",
            exc.code,
            exc.message,
            {"tool": "read", "path": args.path, "error": {"code": exc.code, "message": exc.message}},
        )

    return RawOutput(
        tool="read",
        texts={"content": result.content},
        source_type=source_type_for(result.path),
        question=args.question,
        detail=result,
        exec_data={"duration_ms": round(result.duration_ms, 3), "bytes": utf8_size(result.content)},
        full={"content": result.capture} if result.capture else {},
        max_output_bytes=args.max_output_bytes,
        head_share=READ_HEAD_SHARE,
        path=result.path,
    )


def finish_read(
    result: ReadResult, texts: Mapping[str, str], _pruned: Mapping[str, PruneResult], meta: PruningMetadata
) -> JsonObject:
    """The `read` result object, its `content` final (raw or pruned; docs/tools.md#read)."""
    return {
        "tool": "read",
        "path": result.path,
        "encoding": "utf-8",
        "content": texts["content"],
        "truncated": result.truncated,
        "bytes": result.bytes,
        "start_line": result.start_line,
        "duration_ms": round(result.duration_ms, 3),
        **({"omitted": result.omitted.to_dict()} if result.omitted else {}),
        # the file is not (all) UTF-8: what `content` shows as U+FFFD is not the file's text
        **({"invalid_utf8_bytes": result.invalid_utf8_bytes} if result.invalid_utf8_bytes else {}),
        "pruning": meta.to_dict(),
    }
