"""Solidity and Groovy units from their grammars: functions, modifiers, long events, methods with their
NatSpec or Groovydoc, inside the contract, library, interface or class that holds them; the heuristics
where a parse fails or reads too little of the text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server.pruning.languages.registry import grammar_of as language
from mcp_pruner_server.pruning.structure.code_blocks import find_blocks
from mcp_pruner_server.pruning.structure.languages import guess_language, language_of
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks
from tests.mcp_pruner_server.pruning.structure.test_syntax import _damaged_blocks_nest, _kept, blocks_of

SOLIDITY = """\
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A vault.
contract Vault is Ownable {
    uint256 public total;

    /// @notice Emitted on a deposit.
    event Deposited(
        address indexed from,
        uint256 amount
    );
    event Paid(uint256 amount);

    /// @dev Only while open.
    modifier whenOpen() {
        require(open);
        _;
    }

    constructor(uint256 start) {
        total = start;
    }

    /**
     * @notice Deposits `amount` for the sender.
     */
    function deposit(uint256 amount)
        external
        whenOpen
        returns (uint256)
    {
        total += amount;
        return total;
    }

    receive() external payable {}
}

library Maths {
    function twice(uint256 x) internal pure returns (uint256) {
        return 2 * x;
    }
}
"""


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


def test_the_path_names_solidity_whose_grammar_is_installed() -> None:
    lines = ["export function f() {", "}"] * 3  # they also look like JS (a `.sol` import is Solidity's)
    assert guess_language(lines) == "javascript"
    assert language_of("contracts/Token.sol", lines) == "solidity"
    assert language("solidity") is not None


def test_solidity_units_are_functions_modifiers_and_long_events_inside_their_contract() -> None:
    assert _spans(SOLIDITY, "solidity") == [
        (4, 4, 38, True, None, "Vault"),  # its NatSpec is left to the chunks, as any container's
        (7, 8, 12, False, 0, "Deposited"),  # an event over several lines; `event Paid(…);` is a chunk
        (14, 15, 19, False, 0, "whenOpen"),
        (20, 20, 23, False, 0, "constructor"),
        (24, 27, 35, False, 0, "deposit"),  # its `/** … */` NatSpec, a signature over four lines
        (36, 36, 37, False, 0, "receive"),
        (39, 39, 44, True, None, "Maths"),
        (40, 40, 43, False, 6, "twice"),
    ]
    assert blocks_of(SOLIDITY, "solidity")[4].sig_end == 32  # up to the `{` line


def test_an_unnamed_solidity_function_is_the_fallback_older_compilers_called_so() -> None:
    old = "contract Old {\n    function() public payable {\n        deposit();\n    }\n}\n"
    assert [b.name for b in blocks_of(old, "solidity")] == ["Old", "fallback"]


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


@pytest.mark.parametrize("lang", ["solidity", "groovy"])
def test_a_failed_parse_means_the_heuristics(lang: str) -> None:
    assert syntax_blocks("{{{{ ]] (( end end fi } def\n" * 20, 21, lang) is None


def test_the_engine_keeps_the_whole_solidity_function_with_its_natspec() -> None:
    pad = (
        "    function pad{k}(uint256 x) internal pure returns (uint256) {{\n        return x + {k};\n    }}\n"
    )
    filler = "\n".join(pad.format(k=k) for k in range(30)) + "\n"
    text = SOLIDITY.replace("    receive()", filler + "    receive()")
    kept = _kept(text, "deposit an amount for the sender while open", "contracts/Vault.sol")
    assert all(line in kept for line in SOLIDITY.split("\n")[27:35])
    assert "    function pad7(uint256 x) internal pure returns (uint256) {" not in kept


@settings(max_examples=40, deadline=None)
@given(lang=st.sampled_from(["solidity", "groovy"]), keep=st.lists(st.booleans(), min_size=40, max_size=40))
def test_blocks_of_damaged_solidity_and_groovy_nest(lang: str, keep: list[bool]) -> None:
    _damaged_blocks_nest(SOLIDITY if lang == "solidity" else GROOVY, lang, keep)
