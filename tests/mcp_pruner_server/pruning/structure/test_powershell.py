"""PowerShell read by the heuristics: Verb-Noun twins told apart by the verb, help in a body."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from mcp_pruner_server.pruning.languages.registry import by_name
from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.structure.code import code_units
from mcp_pruner_server.pruning.structure.code_blocks import find_blocks
from mcp_pruner_server.pruning.structure.powershell import (
    approved_verb_first,
    dsc_contract_hits,
    question_verb,
)

# A DSC resource's three functions, alike in their nouns, parameters and words (as their help, when
# blanked or never written): only the verb of each name says which one is which.
_BODY = [
    "{",
    "    param ([System.String] $LogName, [System.Boolean] $IsEnabled)",
    "    $log = [System.Diagnostics.Eventing.Reader.EventLogConfiguration]::new($LogName)",
    "    return @{ LogName = $LogName; IsEnabled = $log.IsEnabled }",
    "}",
    "",
]
DSC_TRIO = [f"function {verb}-TargetResource" for verb in ("Set", "Get", "Test")]
DSC_TRIO = [line for header in DSC_TRIO for line in (header, *_BODY)]


def _best_header(lines: Sequence[str], question: str) -> str | None:
    """The header of the unit scoring clearly highest (a fifth above the next), else None."""
    query = query_weights(question)
    lh = line_hits(line_terms(lines), query)
    units = code_units(lines, lh, query, window_scores(query, lh), lang="powershell", question=question)
    first, second = sorted(units, key=lambda u: -u.score)[:2]
    return lines[first.lines[0]] if first.score > 1.2 * second.score else None


@pytest.mark.parametrize(
    ("question", "header"),
    [
        ("Gets the current state of the event log.", "function Get-TargetResource"),
        ("Returns the current state of the event log.", "function Get-TargetResource"),
        ("Tests whether the event log is in the desired state.", "function Test-TargetResource"),
        ("Determines if the event log is in the desired state.", "function Test-TargetResource"),
        ("Verifies that the event log is in the desired state.", "function Test-TargetResource"),
        ("Assigns the event log the desired state.", "function Set-TargetResource"),
    ],
)
def test_the_questions_verb_picks_the_verb_noun_function(question: str, header: str) -> None:
    assert _best_header(DSC_TRIO, question) == header


def test_the_leading_word_maps_to_its_approved_verb() -> None:
    assert question_verb("Gets the state.") == "get"
    assert question_verb("Retrieves events") == "get"
    assert question_verb("Verifies the signature") == "test"
    assert question_verb("Creates a new user") == "new"
    assert question_verb("Lock an issue") == "lock"
    assert question_verb("The cache of keys") is None
    assert question_verb("") is None


@pytest.mark.parametrize(
    ("question", "verb"),
    [
        (".SYNOPSIS Removes a specified value in a given key.", "remove"),
        ("Sets up the module on the target node.", None),
        ("Logs off the session.", None),
        ("This function will split multiple entries.", "split"),
        ("There are several rules in one. This function will check for multiple entries.", "test"),
        ("This cmdlet is used to return the memory of an instance", "get"),
        ("Helper function to determine the architecture", "test"),
        ("Asserts that a single instance exists.", "assert"),
        ("Enumerates the records in the subnet.", "get"),
        ("Returns $true when a test file opts out of parallel runs.", "test"),
        ("Returns whether the site exists.", "test"),
    ],
)
def test_the_verb_is_read_past_a_help_keyword_and_a_subject_not_in_a_phrasal_verb(
    question: str, verb: str | None
) -> None:
    assert question_verb(question) == verb


def test_a_verb_off_the_list_is_raised_when_the_question_says_it_or_it_abbreviates_it() -> None:
    sigs = ["function Enum-AllTokens {", "function Get-Token {", "function Apply-It {", "function Use-X"]
    assert approved_verb_first("Enumerate all tokens.", sigs, [1.0] * 4) == [2.0, 2.0, 1.0, 1.0]
    assert approved_verb_first("This cmdlet applies the settings.", sigs, [1.0] * 4) == [1.0, 1.0, 2.0, 1.0]


def test_only_a_verb_noun_function_of_that_verb_is_raised() -> None:
    sigs = ["\ufefffunction Get-Thing {", "filter local:Get-Other", "function Set-Thing", "function Get", ""]
    assert approved_verb_first("Gets a thing.", sigs, [1.0] * 5) == [2.0, 2.0, 1.0, 1.0, 1.0]
    assert approved_verb_first("A thing.", sigs, [1.0] * 5) == [1.0] * 5


def test_comment_based_help_first_in_a_body_ends_no_function() -> None:
    lines = [
        "filter Unlock-GitHubIssue",
        "{",
        "<#",
        "    .SYNOPSIS",
        "        Unlocks an issue's conversation on GitHub.",
        "#>",
        "    param([string] $Issue)",
        "    Invoke-GHRestMethod -Method Delete -Issue $Issue",
        "}",
    ]
    blocks = find_blocks(lines, comment=by_name("powershell").comment)
    assert [(b.start, b.end) for b in blocks] == [(0, len(lines))]


def _score_of(lines: Sequence[str], question: str, header: str) -> float:
    query = query_weights(question)
    lh = line_hits(line_terms(lines), query)
    units = code_units(lines, lh, query, window_scores(query, lh), lang="powershell", question=question)
    return next(u.score for u in units if lines[u.lines[0]] == header)


def test_a_dsc_resources_get_function_is_named_by_the_current_state_it_returns() -> None:
    question = "Returns the current state of the event log."
    dsc = _score_of(DSC_TRIO, question, "function Get-TargetResource")
    renamed = [line.replace("Get-TargetResource", "Get-OtherResource") for line in DSC_TRIO]
    assert dsc > 1.2 * _score_of(renamed, question, "function Get-OtherResource")


def test_only_the_dsc_contracts_functions_hold_its_words() -> None:
    query = query_weights("Tests if the pending reboot is in the desired state.")
    assert dsc_contract_hits("function Test-TargetResource", query) == {"desir": 1, "stat": 1}
    assert dsc_contract_hits("function Get-TargetResource", query) == {"stat": 1}
    assert dsc_contract_hits("function Test-PendingReboot", query) == {}
