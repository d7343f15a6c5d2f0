"""`GET /tools` accepted as-is by the `openai` package's own types, and an offline tool loop.

No network: the "model" is a scripted list of tool calls, built and validated with openai's
types, executed through `POST /execute`, and compared with `tools/call` on `/rpc`.
"""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from openai.types.chat import (
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionToolMessageParam,
    ChatCompletionToolParam,
)
from openai.types.shared import FunctionDefinition
from pydantic import TypeAdapter

from mcp_pruner_server.http.openai_tools import (
    FUNCTION_NAME_PATTERN,
    openai_function_spec,
    openai_function_specs,
    portable_parameters,
)
from mcp_pruner_server.tools.schemas import TOOL_SPECS, ToolSpec
from tests.json_paths import obj, walk_objects
from tests.mcp_pruner_server.server_fixtures import call_tool, in_process, strict_json

pytestmark = pytest.mark.anyio
TOOL_PARAM = TypeAdapter(ChatCompletionToolParam)
TOOL_MESSAGE = TypeAdapter(ChatCompletionToolMessageParam)
PRUNE_ID = re.compile(r"prn_[0-9A-Za-z]+")
# Fields that differ between two runs of the same call: timings, clocks, fresh prune ids.
VOLATILE_KEYS = frozenset({"duration_ms", "pruner_duration_ms", "timestamp", "elapsed_ms", "latency_ms"})


@pytest.mark.parametrize("spec", openai_function_specs(), ids=lambda s: s["function"]["name"])
def test_every_spec_validates_unchanged_with_openais_tool_types(spec: dict[str, Any]) -> None:
    # TypedDicts validated by pydantic drop unknown keys: equality proves nothing was dropped.
    assert TOOL_PARAM.validate_python(spec) == spec
    function = FunctionDefinition.model_validate(spec["function"])
    assert function.model_dump(exclude_none=True) == spec["function"]
    assert FUNCTION_NAME_PATTERN.match(function.name)
    assert function.strict is None  # non-strict: optional arguments stay optional


@pytest.mark.parametrize("spec", openai_function_specs(), ids=lambda s: s["function"]["name"])
def test_every_parameters_schema_follows_the_portable_conventions(spec: dict[str, Any]) -> None:
    parameters = spec["function"]["parameters"]
    Draft202012Validator.check_schema(parameters)
    assert parameters["type"] == "object"
    assert isinstance(parameters["properties"], dict)
    for path, node in walk_objects(parameters):
        if node.get("type") == "array":
            assert "items" in node, path
        if node.get("type") == "object":
            assert "additionalProperties" in node, path
    assert parameters["additionalProperties"] is False


def test_the_specs_are_generated_from_the_tools_list_schemas() -> None:
    for spec, openai_spec in zip(TOOL_SPECS, openai_function_specs(), strict=True):
        function = obj(openai_spec["function"])
        assert function["name"] == spec.name
        assert function["description"] == spec.description
        assert function["parameters"] == spec.input_schema  # already portable: nothing to add
        assert function["parameters"] is not spec.input_schema  # a copy, never shared


def test_a_schema_that_forgets_the_conventions_is_completed() -> None:
    loose = {
        "type": "object",
        "properties": {
            "tags": {"type": "array"},
            "nested": {"type": "object", "properties": {"x": {"anyOf": [{"type": "array"}]}}},
            "env": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    }
    out = portable_parameters(loose)
    assert out["additionalProperties"] is False
    assert out["properties"]["tags"]["items"] == {}
    assert out["properties"]["nested"]["additionalProperties"] is False
    assert out["properties"]["nested"]["properties"]["x"]["anyOf"][0]["items"] == {}
    assert out["properties"]["env"]["additionalProperties"] == {"type": "string"}
    assert "additionalProperties" not in loose  # the input is left alone
    assert portable_parameters({"type": "string"}) == {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
    }


def test_a_name_openai_would_refuse_is_a_bug_caught_at_generation() -> None:
    bad = ToolSpec("has space", "d", {"type": "object"}, {"type": "object"}, read_only=True)
    with pytest.raises(ValueError, match="not a valid OpenAI function name"):
        openai_function_spec(bad)


def normalized(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: normalized(v) for k, v in value.items() if k not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [normalized(v) for v in value]
    if isinstance(value, str):
        return PRUNE_ID.sub("prn_X", value)
    return value


def scripted_calls(log_text: str) -> list[tuple[str, dict[str, Any]]]:
    """What a model would ask for, one call per tool (`recover_*` filled in from prune_text)."""
    question = "why did the run fail with a disk error?"
    options = {
        "max_prune_ratio": 0.9,
        "min_keep_lines": 1,
        "timeout_ms": 5000,
        "annotate_lines": True,
        "include_markers": True,
    }
    return [
        ("read", {"path": "run.log", "context_focus_question": question}),
        ("bash", {"cmd": "tail -n 3 run.log; exit 1", "context_focus_question": question}),
        ("grep", {"pattern": "ERROR", "paths": ["."], "context_lines": 1}),
        ("prune_text", {"text": log_text, "goal_hint": question, "source_type": "logs", "options": options}),
        ("recover_text", {"ranges": [{"start_line": 1, "end_line": 3}], "include_line_numbers": True}),
        ("recover_range", {"ranges": [{"start_line": 2, "end_line": 4}], "include_line_numbers": False}),
        ("health", {}),
    ]


async def test_an_offline_tool_loop_runs_every_tool_through_execute_like_tools_call(tmp_path: Path) -> None:
    log_text = "\n".join([f"INFO step {n} ok" for n in range(300)] + ["ERROR disk full on /var"]) + "\n"
    (tmp_path / "run.log").write_text(log_text)
    async with in_process(tmp_path) as client:
        response = await client.get("/tools")
        tools = [TOOL_PARAM.validate_python(t) for t in strict_json(response.content)["tools"]]
        advertised = {t["function"]["name"]: t["function"] for t in tools}
        prune_id = None
        for n, (name, arguments) in enumerate(scripted_calls(log_text)):
            if name.startswith("recover_"):
                assert prune_id is not None
                arguments = {"prune_id": prune_id, **arguments}
            # What the model sends back: a tool call naming an advertised function.
            call = ChatCompletionMessageFunctionToolCall.model_validate(
                {
                    "id": f"call_{n}",
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(arguments)},
                }
            )
            function = advertised[call.function.name]
            params = json.loads(call.function.arguments)
            Draft202012Validator(function["parameters"]).validate(params)

            executed = await client.post("/execute", json={"tool": call.function.name, "params": params})
            via_mcp = await call_tool(client, call.function.name, params)

            assert executed.status_code == 200, executed.text
            answer = strict_json(executed.content)
            structured = via_mcp["result"]["structuredContent"]
            assert answer["is_error"] is via_mcp["result"]["isError"], name
            assert normalized(answer["result"]) == normalized(structured), name
            if name == "prune_text":
                prune_id = answer["result"]["prune_id"]
            # The loop hands the result back to the model as a tool message.
            message = {"role": "tool", "tool_call_id": call.id, "content": json.dumps(answer["result"])}
            assert TOOL_MESSAGE.validate_python(message) == message
    assert prune_id is not None
