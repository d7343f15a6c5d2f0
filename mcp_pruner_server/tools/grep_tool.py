"""`grep`: ripgrep through `tools_exec`; with a question, the rendered `path:line:text` listing is pruned.

The listing is what an agent reads, one line per result line, rg style: `path:line:text` for
a match, `path-line-text` for a context line. It is pruned as `logs` (each line stands on
its own, like a log record). Listing line N is `matches[N-1]`, so after pruning `matches`
keeps exactly the lines the pruned listing keeps, `listing` carries the pruned text with its
markers, and `match_count` still counts every match found.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from mcp_pruner_server.pruning.model_view import MODEL_NUMBERED
from mcp_pruner_server.pruning.text import utf8_size
from mcp_pruner_server.pruning.types import PruneResult
from mcp_pruner_server.tools import limits as L
from mcp_pruner_server.tools.checker import (
    MISSING,
    SURROGATE_MESSAGE,
    FieldChecker,
    argument_object,
    os_encodable,
    schemas_fields,
)
from mcp_pruner_server.tools.grep_fit import fit_listing, fit_matches
from mcp_pruner_server.tools.outcome import (
    JsonObject,
    PruningMetadata,
    RawOutput,
    ToolContext,
    ToolFailure,
)
from tools_exec.errors import ToolExecError, ToolTimeoutError
from tools_exec.grep import GrepMatch, GrepResult, grep
from tools_exec.limits import MATCH_OVERHEAD_BYTES


@dataclass(frozen=True)
class GrepArgs:
    pattern: str
    paths: tuple[str, ...]
    cwd: str | None
    fixed_string: bool
    case_sensitive: bool
    context_lines: int
    max_matches: int
    timeout_ms: int
    max_output_bytes: int
    question: str | None


def parse_grep(arguments: object) -> GrepArgs:
    """Raises:
    InvalidParamsError: listing every field that breaks the contract.
    """
    c = FieldChecker(argument_object(arguments), frozenset(schemas_fields("grep")))
    pattern = c.string("pattern", required=True, max_chars=L.GREP_PATTERN_MAX_CHARS)
    if pattern == "":
        c.fail("pattern", "must not be empty")
    elif pattern is not None and "\x00" in pattern:  # rg's argv cannot hold it: the spawn would raise
        c.fail("pattern", "must not contain NUL characters")
    elif pattern is not None and not os_encodable(pattern):
        c.fail("pattern", SURROGATE_MESSAGE)
    paths = _parse_paths(c)
    cwd = c.non_empty("cwd")
    fixed = c.boolean("fixed_string", False)
    case = c.boolean("case_sensitive", True)
    context = c.integer("context_lines", 0, L.CONTEXT_LINES_MAX, 0)
    max_matches = c.integer("max_matches", 1, L.MAX_MATCHES_MAX, L.MAX_MATCHES_DEFAULT)
    timeout = c.integer("timeout_ms", L.TIMEOUT_MS_MIN, L.TIMEOUT_MS_MAX, L.TIMEOUT_MS_DEFAULT)
    max_bytes = c.integer(
        "max_output_bytes", L.MAX_OUTPUT_BYTES_MIN, L.MAX_OUTPUT_BYTES_MAX, L.GREP_MAX_OUTPUT_BYTES_DEFAULT
    )
    question = c.question()
    c.raise_if_failed()
    assert pattern is not None
    assert fixed is not None
    assert case is not None
    assert context is not None
    assert max_matches is not None
    assert timeout is not None
    assert max_bytes is not None
    return GrepArgs(pattern, paths, cwd, fixed, case, context, max_matches, timeout, max_bytes, question)


def _parse_paths(c: FieldChecker) -> tuple[str, ...]:
    raw = c.args.get("paths", MISSING)
    if raw is MISSING or raw is None:
        c.fail("paths", "is required")
        return ()
    if not isinstance(raw, list):
        c.fail("paths", "must be an array of strings")
        return ()
    if not 1 <= len(raw) <= L.GREP_PATHS_MAX:
        c.fail("paths", f"must have 1 to {L.GREP_PATHS_MAX} entries (got {len(raw)})")
        return ()
    for i, item in enumerate(raw):
        if not isinstance(item, str) or not item or "\x00" in item:
            c.fail(f"paths[{i}]", "must be a non-empty string without NUL")
        elif not os_encodable(item):
            c.fail(f"paths[{i}]", SURROGATE_MESSAGE)
    return tuple(p for p in raw if isinstance(p, str))


def render_listing(matches: Sequence[GrepMatch]) -> str:
    """rg's own format: `:` after the path and line of a match, `-` around a context line."""
    lines = []
    for m in matches:
        sep = ":" if m.kind == "match" else "-"
        lines.append(f"{m.path}{sep}{m.line}{sep}{m.text}")
    return "\n".join(lines) + ("\n" if lines else "")


def _match_dict(m: GrepMatch) -> JsonObject:
    return {"path": m.path, "line": m.line, "column": m.column, "text": m.text, "kind": m.kind}


def kept_matches(matches: Sequence[GrepMatch], result: PruneResult | None) -> list[GrepMatch]:
    """The matches whose listing lines survived pruning (all of them when nothing was pruned)."""
    if result is None:
        return list(matches)
    dropped: set[int] = set()
    for a in result.annotations:
        dropped.update(range(a.original_start_line, a.original_end_line + 1))
    return [m for i, m in enumerate(matches, start=1) if i not in dropped]


# A kept listing line as the engine numbers it for the model: `N path:line:text`.
_NUMBERED = re.compile(MODEL_NUMBERED.pattern, re.MULTILINE)


def _within(matches: Sequence[GrepMatch], cap: int) -> list[GrepMatch]:
    """The first matches whose paths and texts fit `cap` bytes, as the collector counts them."""
    shown, used = [], 0
    for m in matches:
        used += utf8_size(m.path) + utf8_size(m.text) + MATCH_OVERHEAD_BYTES
        if used > cap:
            break
        shown.append(m)
    return shown


def _fields(result: GrepResult) -> JsonObject:
    return {
        "tool": "grep",
        "pattern": result.pattern,
        "paths": list(result.paths),
        "matches": [_match_dict(m) for m in result.matches],
        "match_count": result.match_count,
        "truncated": result.truncated,
        "duration_ms": round(result.duration_ms, 3),
    }


@dataclass(frozen=True)
class GrepDetail:
    """What `finish_grep` needs besides the final listing."""

    result: GrepResult
    captured: bool  # matches were collected up to the raw cap, not `max_output_bytes`
    max_output_bytes: int


async def run_grep_tool(context: ToolContext, args: GrepArgs) -> RawOutput[GrepDetail] | ToolFailure:
    """Search; timeouts, bad paths and rg errors become ToolFailures.

    With a question (and pruning on) matches are collected up to the raw cap rather than
    `max_output_bytes` (`max_matches` still bounds them), pruned, then cut to `max_output_bytes`.
    """
    root, capture_bytes = context.root, context.capture_bytes(args.question)
    try:
        result = await grep(
            root,
            args.pattern,
            args.paths,
            cwd=args.cwd,
            fixed_string=args.fixed_string,
            case_sensitive=args.case_sensitive,
            context_lines=args.context_lines,
            max_matches=args.max_matches,
            timeout_ms=args.timeout_ms,
            max_output_bytes=max(args.max_output_bytes, capture_bytes or 0),
        )
    except ToolTimeoutError as exc:
        body: JsonObject = {"tool": "grep", "pattern": args.pattern, "paths": list(args.paths)}
        raw_bytes = 0
        if isinstance(exc.partial, GrepResult):
            body.update(_fields(exc.partial))
            raw_bytes = utf8_size(render_listing(exc.partial.matches))  # as an ok result counts it
        body["error"] = {"code": exc.code, "message": exc.message, "exit_code": None}
        return ToolFailure("grep", exc.code, exc.message, body, raw_bytes=raw_bytes)
    except ToolExecError as exc:
        error = {"code": exc.code, "message": exc.message, "exit_code": exc.exit_code}
        body = {"tool": "grep", "pattern": args.pattern, "paths": list(args.paths), "error": error}
        return ToolFailure("grep", exc.code, exc.message, body)
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:
            raise
        # tools_exec's existence checks let ENAMETOOLONG through: a path no file can have.
        message = "no such file or directory (file name too long)"
        error = {"code": "invalid_path", "message": message, "exit_code": None}
        body = {"tool": "grep", "pattern": args.pattern, "paths": list(args.paths), "error": error}
        return ToolFailure("grep", "invalid_path", message, body)

    listing = render_listing(result.matches)

    return RawOutput(
        tool="grep",
        texts={"listing": listing},
        source_type="logs",
        question=args.question,
        detail=GrepDetail(result, capture_bytes is not None, args.max_output_bytes),
        exec_data={
            "duration_ms": round(result.duration_ms, 3),
            "match_count": result.match_count,
            "bytes": utf8_size(listing),
        },
        max_output_bytes=args.max_output_bytes,
    )


def finish_grep(
    detail: GrepDetail, texts: Mapping[str, str], pruned: Mapping[str, PruneResult], meta: PruningMetadata
) -> JsonObject:
    """The `grep` result object: `listing` final (raw or pruned) and the structured `matches`
    that follow it (docs/tools.md#grep)."""
    result = detail.result
    body = _fields(result)
    cap = detail.max_output_bytes
    if "listing" in pruned:
        kept = kept_matches(result.matches, pruned["listing"])
        listing = texts["listing"]
        if listing != pruned["listing"].pruned_text:  # over max_output_bytes after pruning
            # its long lines cut rather than its tail: every kept match stays
            fitted = fit_listing(pruned["listing"].pruned_text, result.matches, cap)
            if fitted is None:
                numbers = {int(m.group(1)) for m in _NUMBERED.finditer(listing)}
                kept = [m for i, m in enumerate(result.matches, start=1) if i in numbers]
            else:
                listing = fitted
                meta = replace(meta, pruned_bytes=utf8_size(listing))
            kept = fit_matches(kept, cap) or kept
            body["truncated"] = True
        body["matches"] = [_match_dict(m) for m in kept]
        body["listing"] = listing
    elif detail.captured:  # not pruned: what is returned is still max_output_bytes
        fitted_matches = fit_matches(result.matches, cap)
        shown = _within(result.matches, cap) if fitted_matches is None else fitted_matches
        body["matches"] = [_match_dict(m) for m in shown]
        body["truncated"] = result.truncated or shown != list(result.matches)
    body["pruning"] = meta.to_dict()
    return body
