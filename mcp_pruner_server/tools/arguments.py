"""Validation of tool arguments into frozen values, with the contract's field errors.

The JSON schemas in `schemas.py` describe the arguments to clients; this module enforces
the same limits (`limits.py`) on whatever arrives, and reports every violation at once (`checker.py`) as
`[{field, message}]` (docs/tools.md#tool-errors: -32602 with `field_errors`). Paths are only
checked for shape here; confinement to the root is `tools_exec`'s job, which answers
`invalid_path` with the resolved reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from mcp_pruner_server.errors import InvalidRangeError
from mcp_pruner_server.pruning.types import SOURCE_TYPES, PruneOptions, SourceType
from mcp_pruner_server.recovery import MAX_RECOVER_RANGES
from mcp_pruner_server.tools import limits as L
from mcp_pruner_server.tools.checker import (
    MISSING,
    SURROGATE_MESSAGE,
    FieldChecker,
    argument_object,
    os_encodable,
)
from mcp_pruner_server.tools.schemas import TOOLS_BY_NAME


@dataclass(frozen=True)
class ReadArgs:
    path: str
    start_line: int | None
    end_line: int | None
    max_output_bytes: int
    question: str | None


@dataclass(frozen=True)
class BashArgs:
    cmd: str
    cwd: str | None
    env: Mapping[str, str]
    timeout_ms: int
    max_output_bytes: int
    question: str | None


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


@dataclass(frozen=True)
class PruneTextArgs:
    text: str
    goal_hint: str
    source_type: SourceType
    options: PruneOptions


@dataclass(frozen=True)
class RecoverArgs:
    prune_id: str
    ranges: tuple[tuple[int, int], ...]
    include_line_numbers: bool


_ENV_KEY = re.compile(L.ENV_KEY_PATTERN)


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


def parse_prune_text(arguments: object) -> PruneTextArgs:
    """Every field, and every option, is required (docs/tools.md#prune-options).

    Raises:
        InvalidParamsError: listing every field that breaks the schema.
    """
    c = FieldChecker(argument_object(arguments), frozenset({"text", "goal_hint", "source_type", "options"}))
    text = c.string("text", required=True)
    goal = c.string("goal_hint", required=True)
    source = c.string("source_type", required=True)
    if source is not None and source not in SOURCE_TYPES:
        c.fail("source_type", f"must be one of {', '.join(SOURCE_TYPES)}")
    options = _parse_options(c)
    c.raise_if_failed()
    assert text is not None
    assert goal is not None
    assert options is not None
    return PruneTextArgs(text, goal, source, options)  # type: ignore[arg-type]  # checked above


def _parse_options(parent: FieldChecker) -> PruneOptions | None:
    raw = parent.args.get("options", MISSING)
    if raw is MISSING or raw is None:
        parent.fail("options", "is required")
        return None
    if not isinstance(raw, Mapping):
        parent.fail("options", "must be an object")
        return None
    c = FieldChecker(raw, frozenset(_OPTION_FIELDS), prefix="options.")
    ratio = c.number("max_prune_ratio", 0.0, 1.0)
    min_keep = c.integer("min_keep_lines", 0, None, None)
    timeout = c.integer("timeout_ms", 1, None, None)
    for name in ("min_keep_lines", "timeout_ms"):
        if raw.get(name) is None:
            c.fail(name, "is required")
    annotate = c.boolean("annotate_lines", None)
    markers = c.boolean("include_markers", None)
    budget = [c.integer(name, 1, None, None) for name in _BUDGET_FIELDS]  # (+) optional
    parent.errors.extend(c.errors)
    if c.errors:
        return None
    assert ratio is not None
    assert min_keep is not None
    assert timeout is not None
    assert annotate is not None
    assert markers is not None
    return PruneOptions(ratio, min_keep, timeout, annotate, markers, budget[0], budget[1])


def parse_recover(arguments: object) -> RecoverArgs:
    """docs/tools.md#recover_text. Range semantics (start <= end, clamping) belong to the store.

    The range count is checked before any range is looked at: 500k ranges must not cost a
    500k-item walk on the event loop to be refused.

    Raises:
        InvalidParamsError: listing every field that breaks the schema.
        InvalidRangeError: more than `MAX_RECOVER_RANGES` ranges (-32005, as the store says).
    """
    c = FieldChecker(argument_object(arguments), frozenset({"prune_id", "ranges", "include_line_numbers"}))
    prune_id = c.non_empty("prune_id", required=True)
    include = c.boolean("include_line_numbers", None)
    raw = c.args.get("ranges", MISSING)
    ranges: list[tuple[int, int]] = []
    if raw is MISSING or raw is None:
        c.fail("ranges", "is required")
    elif not isinstance(raw, list):
        c.fail("ranges", "must be an array of {start_line, end_line}")
    elif len(raw) > MAX_RECOVER_RANGES:
        c.raise_if_failed()
        assert prune_id is not None
        raise InvalidRangeError(prune_id, f"at most {MAX_RECOVER_RANGES} ranges per call")
    else:
        for i, item in enumerate(raw):
            if not isinstance(item, Mapping):
                c.fail(f"ranges[{i}]", "must be an object {start_line, end_line}")
                continue
            r = FieldChecker(item, frozenset({"start_line", "end_line"}), prefix=f"ranges[{i}].")
            # Any integer passes here: start < 1 or start > end is `invalid_range` (-32005).
            start = r.integer("start_line", -(2**63), None, None)
            end = r.integer("end_line", -(2**63), None, None)
            for name in ("start_line", "end_line"):
                if item.get(name) is None:
                    r.fail(name, "is required")
            c.errors.extend(r.errors)
            if start is not None and end is not None and not r.errors:
                ranges.append((start, end))
    c.raise_if_failed()
    assert prune_id is not None
    assert include is not None
    return RecoverArgs(prune_id, tuple(ranges), include)


def parse_health(arguments: object) -> None:
    """Raises:
    InvalidParamsError: when any argument is given (the schema allows none).
    """
    FieldChecker(argument_object(arguments), frozenset()).raise_if_failed()


_BUDGET_FIELDS = ("max_kept_lines", "max_kept_tokens")
_OPTION_FIELDS = (
    "max_prune_ratio",
    "min_keep_lines",
    "timeout_ms",
    "annotate_lines",
    "include_markers",
    *_BUDGET_FIELDS,
)


def schemas_fields(tool: str) -> tuple[str, ...]:
    """The argument names a tool's input schema declares."""
    return tuple(TOOLS_BY_NAME[tool].input_schema["properties"])
