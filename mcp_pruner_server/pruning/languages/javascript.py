"""JavaScript (and JSX)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="javascript",
    extensions=(".js", ".mjs", ".cjs", ".jsx"),
    interpreters=("node", "nodejs"),
    grammar=Grammar("tree_sitter_javascript"),
    syntax=Syntax(container_opener="class _ {"),
    signs=(
        r"^\s*(?:import .+ from ['\"]|export (?:default|function|const|class)\b|module\.exports\b)",
        r"^\s*(?:const|let|var) \w+ = (?:require\(|(?:async )?(?:function\b|\([^)]*\) =>))",
        r"^\s*(?:(?:async )?function\*? \w+\(|['\"]use strict['\"])",
        r"^(?:module\.)?exports\.\w+ =",
        r"\.prototype\.\w+ = ",
    ),
    # Pascal's `function f(x: T): R;`, Julia's `function f(x::T)`, Solidity's `function f() external`
    narrower_signs=frozenset({"pascal", "julia", "solidity"}),
)
