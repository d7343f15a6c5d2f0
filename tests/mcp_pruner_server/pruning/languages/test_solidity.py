"""Solidity units from its grammar: functions, modifiers and long events with their NatSpec, inside
the contract, library or interface that holds them; the heuristics where a parse fails."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server.pruning.languages.registry import grammar_of as language
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


def _spans(text: str, lang: str) -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, lang)]


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


def test_the_engine_keeps_the_whole_solidity_function_with_its_natspec() -> None:
    pad = (
        "    function pad{k}(uint256 x) internal pure returns (uint256) {{\n        return x + {k};\n    }}\n"
    )
    filler = "\n".join(pad.format(k=k) for k in range(30)) + "\n"
    text = SOLIDITY.replace("    receive()", filler + "    receive()")
    kept = _kept(text, "deposit an amount for the sender while open", "contracts/Vault.sol")
    assert all(line in kept for line in SOLIDITY.split("\n")[27:35])
    assert "    function pad7(uint256 x) internal pure returns (uint256) {" not in kept


def test_a_failed_parse_means_the_heuristics() -> None:
    assert syntax_blocks("{{{{ ]] (( end end fi } def\n" * 20, 21, "solidity") is None


@settings(max_examples=40, deadline=None)
@given(keep=st.lists(st.booleans(), min_size=40, max_size=40))
def test_blocks_of_damaged_solidity_code_nest(keep: list[bool]) -> None:
    _damaged_blocks_nest(SOLIDITY, "solidity", keep)
