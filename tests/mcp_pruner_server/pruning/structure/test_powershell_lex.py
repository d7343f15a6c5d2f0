"""PowerShell lexed as PowerShell reads it: a backtick escapes, `#` / `<# #>` comment, strings nest."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.powershell_lex import brace_closes, lex


def _braces(lines: list[str]) -> list[str]:
    return ["".join(brace for _, brace in found) for found in lex(lines).braces]


def test_a_backtick_continues_a_line_and_opens_no_string() -> None:
    lines = ["if ($x) {", "    Connect-Server $hosts -Credential $cred `", "        | Out-Null", "}"]
    assert _braces(lines) == ["{", "", "", "}"]
    assert brace_closes(lex(lines)) == {(0, 8): 3}


def test_an_apostrophe_in_a_comment_opens_no_string() -> None:
    assert _braces(["function F {", "    # don't touch {", "    $a = 1", "}"]) == ["{", "", "", "}"]


def test_braces_in_strings_are_not_counted_and_quotes_escape_by_doubling() -> None:
    assert _braces(['$a = \'it\'\'s {\'; $b = "say ""}"" `" {"; {']) == ["{"]


def test_a_subexpression_in_a_string_holds_strings_of_its_own() -> None:
    lines = ['$s = "with$(if ($n) {"out"}) alias {"', "}"]
    assert _braces(lines) == ["{}", "}"]
    assert lex(lines).closed


def test_a_here_string_spans_lines_and_hides_its_braces() -> None:
    lines = ["$t = @'", "function Hidden {", "'@", "{"]
    lexed = lex(lines)
    assert _braces(lines) == ["", "", "", "{"]
    assert lexed.starts_in_code == [True, False, False, True]


def test_a_block_comment_is_blanked_from_the_code_and_hides_its_braces() -> None:
    lines = ["$a = 1 <# a { note", "   still #> + 2 # trailing {"]
    lexed = lex(lines)
    assert _braces(lines) == ["", ""]
    assert [c.split() for c in lexed.code] == [["$a", "=", "1"], ["+", "2"]]


def test_a_blanked_comment_keeps_the_columns_of_the_code_after_it() -> None:
    lines = ["f <# x #> g { (", "<# open", "  still #> h {"]
    lexed = lex(lines)
    assert lexed.code == ["f         g { (", "", "           h {"]
    assert [lexed.code[i][col] for i, found in enumerate(lexed.braces) for col, _ in found] == ["{", "{"]


def test_a_braced_variable_name_is_no_brace() -> None:
    assert _braces(["$p = ${env:ProgramFiles(x86)}; if ($p) {", "}"]) == ["{", "}"]


def test_a_hash_inside_a_word_starts_no_comment() -> None:
    assert lex(["Write-Host a#b {"]).braces == [[(15, "{")]]


def test_a_text_ending_inside_a_string_is_not_closed() -> None:
    assert not lex(["$a = 'open", "function F {", "}"]).closed
    assert lex(["$a = 'open", "still'", "}"]).closed
