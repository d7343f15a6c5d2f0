"""Top-level constants and tables a kept definition reads come with it (rule `constants_used`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.rules import rules_off
from mcp_pruner_server.pruning.structure.module_names import (
    MAX_CONSTANT_LINES,
    constants_used,
    module_bindings,
)
from mcp_pruner_server.pruning.text import split_lines
from mcp_pruner_server.pruning.types import PruneOptions


def _module() -> str:
    topics = ["cache", "token", "index", "order", "page", "user", "queue", "lock"]
    out = [
        "import os",
        "",
        "DEFAULT_CEILING = 30.0",
        "JITTER_TABLE = {",
        "    'low': 0.1,",
        "    'high': 0.9,",
        "}",
    ]
    out += ["UNRELATED_LIMIT = 7", ""]
    for k in range(60):
        a, b = topics[k % 8], topics[(k * 3 + 1) % 8]
        out += [f"def handle_{a}_{b}_{k}(request):", f'    """Deal with {a} and {b}."""']
        out += [f"    value_{j} = request.get('{a}_{j}', {j})" for j in range(6)]
        out += ["    return value_0", ""]
    out += ["def compute_backoff_delay(attempt, base=0.5):", "    delay = base * 2 ** attempt"]
    out += [
        "    jitter = JITTER_TABLE['low'] * os.getpid()",
        "    return min(DEFAULT_CEILING, delay + jitter)",
        "",
    ]
    return "\n".join(out)


def test_the_constants_and_tables_the_question_s_function_reads_are_kept() -> None:
    text = _module()
    result = prune(
        text, "where is the backoff delay computed?", "code", PruneOptions(max_prune_ratio=1.0), "p"
    )
    assert "DEFAULT_CEILING = 30.0" in result.pruned_text
    assert "JITTER_TABLE = {\n    'low': 0.1,\n    'high': 0.9,\n}" in result.pruned_text
    assert "UNRELATED_LIMIT" not in result.pruned_text


def test_without_the_rule_the_constants_the_function_reads_are_pruned() -> None:
    text = _module()
    with rules_off("constants_used"):
        result = prune(
            text, "where is the backoff delay computed?", "code", PruneOptions(max_prune_ratio=1.0), "p"
        )
    assert "DEFAULT_CEILING = 30.0" not in result.pruned_text


def test_a_binding_spans_its_indented_and_closing_lines_and_stops_at_the_next_statement() -> None:
    lines = split_lines("const OPTIONS = {\n  retries: 3,\n};\nmodule.exports = run;\nlet count = 0")
    bindings = module_bindings(lines, [(0, 1, 2, 3, 4)])
    assert bindings["OPTIONS"] == (0, 1, 2)
    assert bindings["count"] == (4,)
    assert "module" not in bindings  # an assignment to an attribute binds no name


def test_constants_a_unit_reads_are_capped_and_an_oversized_table_is_left_out_whole() -> None:
    big = tuple(range(10, 10 + MAX_CONSTANT_LINES + 1))
    bindings = {"SMALL": (1,), "BIG": big, "OTHER": (2,)}
    assert constants_used(bindings, {"SMALL", "BIG"}) == [1]


def test_an_example_prompt_in_a_docstring_binds_no_name() -> None:
    lines = split_lines(
        'julia> body = Vector{UInt8}("x")\n>>> total = 1\nstatic final Map<String, Integer> TABLE = m;'
    )
    assert set(module_bindings(lines, [(0, 1, 2)])) == {"TABLE"}
