"""Groovy units from its grammar: methods with their Groovydoc inside their class; the heuristics
where a parse fails or its partial grammar reads too little of the text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server.pruning.languages.registry import grammar_of as language
from mcp_pruner_server.pruning.structure.code_blocks import find_blocks
from mcp_pruner_server.pruning.structure.languages import language_of
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks
from tests.mcp_pruner_server.pruning.structure.test_syntax import _damaged_blocks_nest, blocks_of

GROOVY = """\
package acme

import groovy.transform.CompileStatic

/**
 * Counts words.
 */
@CompileStatic
class Counter {
    String name
    int total = 0

    /**
     * Adds the words of a line.
     */
    int add(String line) {
        total += line.split(' ').size()
        return total
    }

    Counter(String name) {
        this.name = name
    }
}
"""


def _spans(text: str, lang: str) -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, lang)]


@pytest.mark.parametrize(
    "path", ["src/main/groovy/acme/Counter.groovy", "build.gradle", "main.nf", "ci/Jenkinsfile", "tools/gen"]
)
def test_the_path_or_shebang_names_groovy_whose_grammar_is_installed(path: str) -> None:
    assert language_of(path, ["#!/usr/bin/env groovy"]) == "groovy"  # `tools/gen` by its shebang
    assert language("groovy") is not None


def test_a_groovy_method_keeps_its_groovydoc_after_a_field_without_a_semicolon() -> None:
    # the grammar reads the comment after `int total = 0` as the field's: the method takes it back
    assert _spans(GROOVY, "groovy") == [
        (8, 8, 24, True, None, "Counter"),
        (12, 15, 19, False, 0, "add"),
        (20, 20, 23, False, 0, "Counter"),
    ]


def test_groovy_the_grammar_misreads_is_left_to_the_heuristics() -> None:
    # fields without `;` before methods: the grammar makes one "method" of a field and what follows
    fields = "".join(f"    transient private Map<String,Object> f{k}\n" for k in range(3))
    methods = "".join(
        f"    static String fmt{k}(value, String fmt) {{\n        value ? value.toString() : NA\n    }}\n\n"
        for k in range(6)
    )
    text = f"class Record {{\n{fields}\n{methods}    def render(List<String> fs) {{\n"
    text += "        for( int i=0; i<fs.size(); i++ ) {\n            x << fs[i]\n        }\n    }\n}\n"
    assert syntax_blocks(text, text.count("\n") + 1, "groovy") is None
    assert len(find_blocks(text.split("\n"))) >= 7  # the heuristics find every method


def test_a_failed_parse_means_the_heuristics() -> None:
    assert syntax_blocks("{{{{ ]] (( end end fi } def\n" * 20, 21, "groovy") is None


@settings(max_examples=40, deadline=None)
@given(keep=st.lists(st.booleans(), min_size=40, max_size=40))
def test_blocks_of_damaged_groovy_code_nest(keep: list[bool]) -> None:
    _damaged_blocks_nest(GROOVY, "groovy", keep)
