"""The one source of truth for every tool's name, description, schemas and annotations.

`tools/list` on `/mcp` and `/rpc` is built from `TOOL_SPECS`, argument validation reads the
same limits (`limits.py`), and `GET /tools` turns them into OpenAI function specs
(`openai_tools.py`).
Every object schema says `additionalProperties: false` and every array has `items`
(docs/tools.md#argument-rules).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

JsonSchema = dict[str, Any]
# Claude Code's per-tool override of a server's `alwaysLoad` (false: deferred behind ToolSearch).
ALWAYS_LOAD_META = "anthropic/alwaysLoad"

PRUNING_REASONS = (
    "disabled_or_unconfigured",
    "no_focus_question",
    "too_large",
    "output_empty",
    "pruner_error",
    "kept_whole",  # (+) pruned, but nothing came out smaller: the output is returned as it was
    "not_smaller",  # (+) pruned, but the model view would not cost clearly fewer tokens: the raw output
)
PRUNE_OPTION_FIELDS = ("max_prune_ratio", "min_keep_lines", "timeout_ms", "annotate_lines", "include_markers")

# Every request of an agent carries these schemas (Claude and Codex resend them each turn), so
# the input schemas say what a model needs and no more: types, enums, required fields, short
# descriptions. The limits are enforced by each tool's `parse_*` (a clear -32602 names the field)
# and documented in docs/tools.md#argument-rules; repeating them here cost ~700 tokens per request.
_FOCUS_QUESTION: JsonSchema = {"type": "string", "description": "What you are looking for."}
_MAX_OUTPUT_BYTES: JsonSchema = {"type": "integer"}
_TIMEOUT_MS: JsonSchema = {"type": "integer", "description": "Default 30000."}
_CWD: JsonSchema = {"type": "string"}

PRUNING_METADATA_SCHEMA: JsonSchema = {
    "type": "object",
    "properties": {
        "attempted": {"type": "boolean"},
        "applied": {"type": "boolean"},
        "fallback": {"type": "boolean"},
        "reason": {
            "type": "string",
            "enum": list(PRUNING_REASONS),
        },
        "raw_bytes": {"type": "integer"},
        "pruned_bytes": {"type": "integer"},
        "pruner_duration_ms": {"type": "number"},
        "prune_id": {"type": "string"},
        "prune_ids": {"type": "object", "additionalProperties": {"type": "string"}},
        "backend": {"type": "string"},
        "error": {
            "type": "object",
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
            "required": ["code", "message"],
        },
    },
    "required": ["attempted", "applied", "fallback", "raw_bytes"],
}

# `anyOf` rather than `type: ["integer", "null"]`: the MCP Inspector flags type arrays as not
# portable, and some clients' schema-to-type converters (zod, OpenAI strict mode) handle only one.
_NULLABLE_INTEGER: JsonSchema = {"anyOf": [{"type": "integer"}, {"type": "null"}]}

_TOOL_ERROR: JsonSchema = {
    "type": "object",
    "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"},
        "exit_code": _NULLABLE_INTEGER,
    },
    "required": ["code", "message"],
}


def _result_schema(tool: str, ok_properties: JsonSchema) -> JsonSchema:
    """Ok and error results share one schema: the error fields are optional properties."""
    return {
        "type": "object",
        "properties": {
            "tool": {"type": "string", "const": tool},
            **ok_properties,
            "error": _TOOL_ERROR,
            "pruning": PRUNING_METADATA_SCHEMA,
        },
        "required": ["tool", "pruning"],
    }


READ_INPUT: JsonSchema = {
    "type": "object",
    "properties": {
        "path": {"type": "string"},
        "encoding": {"type": "string", "enum": ["utf-8"]},
        "start_line": {"type": "integer"},
        "end_line": {"type": "integer"},
        "max_output_bytes": _MAX_OUTPUT_BYTES,
        "context_focus_question": _FOCUS_QUESTION,
    },
    "required": ["path"],
    "additionalProperties": False,
}

BASH_INPUT: JsonSchema = {
    "type": "object",
    "properties": {
        "cmd": {"type": "string"},
        "cwd": _CWD,
        "env": {"type": "object", "additionalProperties": {"type": "string"}},
        "timeout_ms": _TIMEOUT_MS,
        "max_output_bytes": _MAX_OUTPUT_BYTES,
        "context_focus_question": _FOCUS_QUESTION,
    },
    "required": ["cmd"],
    "additionalProperties": False,
}

GREP_INPUT: JsonSchema = {
    "type": "object",
    "properties": {
        "pattern": {"type": "string"},
        "paths": {"type": "array", "items": {"type": "string"}},
        "cwd": _CWD,
        "fixed_string": {"type": "boolean"},
        "case_sensitive": {"type": "boolean"},
        "context_lines": {"type": "integer"},
        "max_matches": {"type": "integer"},
        "timeout_ms": _TIMEOUT_MS,
        "max_output_bytes": _MAX_OUTPUT_BYTES,
        "context_focus_question": _FOCUS_QUESTION,
    },
    "required": ["pattern", "paths"],
    "additionalProperties": False,
}

# docs/tools.md#prune_text: every field and every option required.
PRUNE_TEXT_INPUT: JsonSchema = {
    "type": "object",
    "properties": {
        "text": {"type": "string"},
        "goal_hint": {"type": "string"},
        "source_type": {"type": "string", "enum": ["code", "logs", "docs"]},
        "options": {
            "type": "object",
            "properties": {
                "max_prune_ratio": {"type": "number", "minimum": 0, "maximum": 1},
                "min_keep_lines": {"type": "integer", "minimum": 0},
                "timeout_ms": {"type": "integer", "minimum": 1},
                "annotate_lines": {"type": "boolean"},
                "include_markers": {"type": "boolean"},
                # (+) optional absolute budget; when given it wins over max_prune_ratio
                "max_kept_lines": {"type": "integer", "minimum": 1},
                "max_kept_tokens": {"type": "integer", "minimum": 1},
            },
            "required": list(PRUNE_OPTION_FIELDS),
            "additionalProperties": False,
        },
    },
    "required": ["text", "goal_hint", "source_type", "options"],
    "additionalProperties": False,
}

RECOVER_TEXT_INPUT: JsonSchema = {
    "type": "object",
    "properties": {
        "prune_id": {"type": "string"},
        "ranges": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "start_line": {"type": "integer", "minimum": 1},
                    "end_line": {"type": "integer", "minimum": 1},
                },
                "required": ["start_line", "end_line"],
                "additionalProperties": False,
            },
        },
        "include_line_numbers": {"type": "boolean"},
    },
    "required": ["prune_id", "ranges", "include_line_numbers"],
    "additionalProperties": False,
}

HEALTH_INPUT: JsonSchema = {"type": "object", "properties": {}, "additionalProperties": False}

_ANNOTATION: JsonSchema = {
    "type": "object",
    "properties": {
        "kind": {"type": "string"},
        "original_start_line": {"type": "integer"},
        "original_end_line": {"type": "integer"},
        "pruned_line_count": {"type": "integer"},
        "reason": {"type": "string"},
        "marker": {"type": "string"},
    },
    "required": ["original_start_line", "original_end_line", "pruned_line_count", "reason", "marker"],
}

PRUNE_TEXT_OUTPUT: JsonSchema = {
    "type": "object",
    "properties": {
        "prune_id": {"type": "string"},
        "pruned_text": {"type": "string"},
        "annotations": {"type": "array", "items": _ANNOTATION},
        "stats": {"type": "object"},
        "warnings": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["prune_id", "pruned_text", "annotations", "stats", "warnings"],
}

RECOVER_TEXT_OUTPUT: JsonSchema = {
    "type": "object",
    "properties": {
        "raw_text": {"type": "string"},
        "metadata": {"type": "object"},
    },
    "required": ["raw_text", "metadata"],
}

HEALTH_OUTPUT: JsonSchema = {
    "type": "object",
    "properties": {
        "status": {"type": "string"},
        "server": {"type": "string"},
        "version": {"type": "string"},
        "capabilities": {"type": "array", "items": {"type": "string"}},
        "timestamp": {"type": "string"},
    },
    "required": ["status", "server", "version", "capabilities", "timestamp"],
}

READ_OUTPUT = _result_schema(
    "read",
    {
        "path": {"type": "string"},
        "encoding": {"type": "string"},
        "content": {"type": "string"},
        "truncated": {"type": "boolean"},
        "invalid_utf8_bytes": {"type": "integer"},
        "bytes": {"type": "integer"},
        "duration_ms": {"type": "number"},
    },
)
BASH_OUTPUT = _result_schema(
    "bash",
    {
        "cmd": {"type": "string"},
        "cwd": {"type": "string"},
        "stdout": {"type": "string"},
        "stderr": {"type": "string"},
        "exit_code": _NULLABLE_INTEGER,
        "timed_out": {"type": "boolean"},
        "truncated": {"type": "boolean"},
        "duration_ms": {"type": "number"},
    },
)
GREP_OUTPUT = _result_schema(
    "grep",
    {
        "pattern": {"type": "string"},
        "paths": {"type": "array", "items": {"type": "string"}},
        "matches": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "path": {"type": "string"},
                    "line": {"type": "integer"},
                    "column": _NULLABLE_INTEGER,
                    "text": {"type": "string"},
                },
                "required": ["path", "line", "text"],
            },
        },
        "match_count": {"type": "integer"},
        "listing": {"type": "string"},
        "truncated": {"type": "boolean"},
        "duration_ms": {"type": "number"},
    },
)


@dataclass(frozen=True)
class ToolSpec:
    """What `tools/list` says about one tool."""

    name: str
    description: str
    input_schema: JsonSchema
    output_schema: JsonSchema
    read_only: bool
    # False for the tools a coding agent's model does not need (programs call them): Claude Code
    # keeps them behind its ToolSearch even when the server is `alwaysLoad` (`_meta` below).
    for_models: bool = True

    def to_dict(self) -> dict[str, Any]:
        """The MCP `Tool` object (camelCase keys, as on the wire)."""
        tool: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
            "outputSchema": self.output_schema,
            "annotations": {"readOnlyHint": self.read_only, "openWorldHint": False},
        }
        if not self.for_models:
            tool["_meta"] = {ALWAYS_LOAD_META: False}
        return tool


_RECOVER_DESCRIPTION = (
    "Get back lines a pruning marker [lines a-b pruned] removed: the result's prune_id and "
    "ranges in the original numbering."
)

TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "read",
        "Read a text file in the workspace; with context_focus_question, only the lines that matter "
        "(original numbers kept).",
        READ_INPUT,
        READ_OUTPUT,
        read_only=True,
    ),
    ToolSpec(
        "bash",
        "Run a shell command (bash -lc) in the workspace; with context_focus_question, its output "
        "is pruned to the lines that matter (e.g. why a test fails).",
        BASH_INPUT,
        BASH_OUTPUT,
        read_only=False,
    ),
    ToolSpec(
        "grep",
        "Search files with ripgrep; with context_focus_question, only the matches that matter.",
        GREP_INPUT,
        GREP_OUTPUT,
        read_only=True,
    ),
    ToolSpec(
        "prune_text",
        "Prune a text line by line to what matters for goal_hint; returns a prune_id for recover_text.",
        PRUNE_TEXT_INPUT,
        PRUNE_TEXT_OUTPUT,
        read_only=True,
        for_models=False,
    ),
    ToolSpec("recover_text", _RECOVER_DESCRIPTION, RECOVER_TEXT_INPUT, RECOVER_TEXT_OUTPUT, read_only=True),
    ToolSpec(
        "recover_range",
        "Alias of recover_text.",
        RECOVER_TEXT_INPUT,
        RECOVER_TEXT_OUTPUT,
        read_only=True,
        for_models=False,
    ),
    ToolSpec(
        "health",
        "Server status and capabilities.",
        HEALTH_INPUT,
        HEALTH_OUTPUT,
        read_only=True,
        for_models=False,
    ),
)

TOOLS_BY_NAME: dict[str, ToolSpec] = {spec.name: spec for spec in TOOL_SPECS}
