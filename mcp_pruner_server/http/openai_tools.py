"""`GET /tools`: the server's tools as OpenAI `function` specs, generated from `TOOL_SPECS`.

One source of truth: the name, description and input schema of every spec come from
`tools/schemas.py`, the same objects `tools/list` serves; nothing here is written by hand.
The conversion only makes these conventions (docs/http.md#get-tools-and-post-execute) hold
whatever a schema forgets:

- `parameters` is always an object schema (`{"type": "object", "properties": {...}}`);
- every object schema with `properties` says `additionalProperties` (false unless it says
  otherwise, e.g. `bash.env`'s string map);
- every `array` has `items`.

`strict` is left unset (non-strict function calling): OpenAI's strict mode requires every
property to be listed in `required`, and most of these arguments are optional with server
defaults (`timeout_ms`, `max_matches`, `context_focus_question`, ...). Making them required
and nullable would change the tools' contract for one client.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from typing import Final

from mcp_pruner_server.tools.outcome import JsonObject
from mcp_pruner_server.tools.schemas import TOOL_SPECS, JsonSchema, ToolSpec

# OpenAI's documented rule for function names (`FunctionDefinition.name`).
FUNCTION_NAME_PATTERN: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# Keywords whose value is a map of sub-schemas, and those whose value is a list of them.
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_VALUES = ("items", "additionalProperties", "not", "propertyNames", "contains")


def portable_parameters(schema: JsonSchema) -> JsonSchema:
    """A copy of an input schema that follows the conventions of the module doc."""
    out = _portable(copy.deepcopy(schema))
    if out.get("type") != "object":
        out = {"type": "object", "properties": {}, "additionalProperties": False}
    out.setdefault("properties", {})
    return out


def openai_function_spec(spec: ToolSpec) -> JsonObject:
    """`{"type": "function", "function": {name, description, parameters}}` for one tool.

    Raises:
        ValueError: the tool name is not a valid OpenAI function name (a bug in `TOOL_SPECS`).
    """
    if not FUNCTION_NAME_PATTERN.match(spec.name):
        raise ValueError(f"tool name {spec.name!r} is not a valid OpenAI function name")
    return {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": spec.description,
            "parameters": portable_parameters(spec.input_schema),
        },
    }


def openai_function_specs(specs: Iterable[ToolSpec] = TOOL_SPECS) -> list[JsonObject]:
    """Every tool's OpenAI spec, in `tools/list` order (the body of `GET /tools` holds them).

    Raises:
        ValueError: a tool name is not a valid OpenAI function name.
    """
    return [openai_function_spec(spec) for spec in specs]


def _portable(schema: JsonSchema) -> JsonSchema:
    for key in _SCHEMA_MAPS:
        children = schema.get(key)
        if isinstance(children, dict):
            schema[key] = {name: _portable_value(child) for name, child in children.items()}
    for key in _SCHEMA_LISTS:
        children = schema.get(key)
        if isinstance(children, list):
            schema[key] = [_portable_value(child) for child in children]
    for key in _SCHEMA_VALUES:
        if key in schema:
            schema[key] = _portable_value(schema[key])
    if _has_type(schema, "object") or "properties" in schema:
        schema.setdefault("additionalProperties", False)
    if _has_type(schema, "array"):
        schema.setdefault("items", {})
    return schema


def _portable_value(value: object) -> object:
    return _portable(value) if isinstance(value, dict) else value


def _has_type(schema: JsonSchema, name: str) -> bool:
    declared = schema.get("type")
    return declared == name or (isinstance(declared, list) and name in declared)
