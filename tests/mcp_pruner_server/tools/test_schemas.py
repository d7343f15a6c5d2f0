import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from mcp_pruner_server.tools.schemas import TOOL_SPECS, TOOLS_BY_NAME
from tests.json_paths import walk_objects


@pytest.mark.parametrize("spec", TOOL_SPECS, ids=lambda s: s.name)
def test_every_schema_is_valid_json_schema_and_every_array_has_items(spec: Any) -> None:
    for schema in (spec.input_schema, spec.output_schema):
        Draft202012Validator.check_schema(schema)
        arrays = [(p, n) for p, n in walk_objects(schema) if n.get("type") == "array"]
        assert all("items" in node for _, node in arrays), [p for p, n in arrays if "items" not in n]
    assert spec.input_schema["additionalProperties"] is False


def test_the_tool_set_and_the_seed_000_prune_text_schema() -> None:
    assert [s.name for s in TOOL_SPECS] == [
        "read",
        "bash",
        "grep",
        "prune_text",
        "recover_text",
        "recover_range",
        "health",
    ]
    options = TOOLS_BY_NAME["prune_text"].input_schema["properties"]["options"]
    assert options["additionalProperties"] is False
    assert options["properties"]["max_prune_ratio"] == {"type": "number", "minimum": 0, "maximum": 1}
    assert TOOLS_BY_NAME["recover_range"].input_schema is TOOLS_BY_NAME["recover_text"].input_schema


def test_an_ok_and_an_error_read_result_both_fit_the_output_schema() -> None:
    validator = Draft202012Validator(TOOLS_BY_NAME["read"].output_schema)
    pruning = {
        "attempted": False,
        "applied": False,
        "fallback": False,
        "raw_bytes": 3,
        "reason": "no_focus_question",
    }
    ok = {
        "tool": "read",
        "path": "a",
        "encoding": "utf-8",
        "content": "abc",
        "truncated": False,
        "bytes": 3,
        "duration_ms": 0.1,
        "pruning": pruning,
    }
    error = {"tool": "read", "error": {"code": "not_found", "message": "no"}, "pruning": pruning}
    validator.validate(ok)
    validator.validate(error)
    assert not validator.is_valid({**ok, "tool": "bash"})


@pytest.mark.parametrize("spec", TOOL_SPECS, ids=lambda s: s.name)
def test_no_schema_uses_a_type_array_nullable_fields_are_any_of_branches(spec: Any) -> None:
    # The MCP Inspector warns on `type: [..]` (not portable to single-type dialects).
    for schema in (spec.input_schema, spec.output_schema):
        unions = [p for p, node in walk_objects(schema) if isinstance(node.get("type"), list)]
        assert unions == []
    exit_code = TOOLS_BY_NAME["bash"].output_schema["properties"]["exit_code"]
    assert exit_code == {"anyOf": [{"type": "integer"}, {"type": "null"}]}


def test_a_null_exit_code_and_a_null_column_fit_the_output_schemas() -> None:
    pruning = {"attempted": False, "applied": False, "fallback": False, "raw_bytes": 0}
    error = {"code": "timeout", "message": "timed out", "exit_code": None}
    bash = {"tool": "bash", "exit_code": None, "error": error, "pruning": pruning}
    grep = {"tool": "grep", "matches": [{"path": "a", "line": 1, "column": None, "text": "x"}]}
    Draft202012Validator(TOOLS_BY_NAME["bash"].output_schema).validate(bash)
    Draft202012Validator(TOOLS_BY_NAME["grep"].output_schema).validate({**grep, "pruning": pruning})
    assert not Draft202012Validator(TOOLS_BY_NAME["bash"].output_schema).is_valid({**bash, "exit_code": "1"})


def test_the_tools_for_models_are_read_bash_grep_and_recover_text_and_fit_in_1000_tokens() -> None:
    # Issue 11: agents resend these definitions with every model request (counted as Claude sends them).
    from runner.bench.tokens import count_tokens

    for_models = [s for s in TOOL_SPECS if s.for_models]
    assert [s.name for s in for_models] == ["read", "bash", "grep", "recover_text"]
    prefix = "mcp__jeeves_pruner__"
    definitions = [
        {"name": prefix + spec.name, "description": spec.description, "input_schema": spec.input_schema}
        for spec in for_models
    ]
    assert sum(count_tokens(json.dumps(d, ensure_ascii=False)) for d in definitions) <= 1_000
    others = [s.to_dict() for s in TOOL_SPECS if not s.for_models]
    assert all(tool["_meta"] == {"anthropic/alwaysLoad": False} for tool in others)
