"""PowerShell's definitions found by its braces: bodies indentation does not follow, classes, enums."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.powershell_blocks import powershell_blocks
from mcp_pruner_server.pruning.structure.powershell_lex import lex


def _spans(lines: list[str]) -> list[tuple[int, int, int, bool, int | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent) for b in powershell_blocks(lines)]


def test_a_body_at_column_0_with_a_continued_line_ends_at_its_brace() -> None:
    lines = [
        "Function Find-Vm {",
        "",
        "Param ([string]$Name)",
        "",
        "Process {",
        "\tConnect-Server $Name -Force `",
        "\t\t| Out-Null",
        "}",
        "",
        "} #EndFunction Find-Vm",
        "New-Alias -Name fvm -Value Find-Vm",
    ]
    assert _spans(lines) == [(0, 0, 10, False, None)]


def test_an_inline_comment_before_the_brace_leaves_the_code_after_it_out_of_the_signature() -> None:
    lines = [
        "function Test-Port <# TCP only #> { param([int] $Port)",
        "$client = New-Object Net.Sockets.TcpClient",
        "$client.Connect('localhost', $Port)",
        "}",
        "Write-Host done",
    ]
    assert _spans(lines) == [(0, 0, 4, False, None)]


def test_an_allman_body_with_a_line_less_indented_than_its_own_ends_at_its_brace() -> None:
    lines = [
        "\tFunction Get-ProcAddress",
        "\t{",
        "\t    Param ([String] $Module)",
        "        $GetProcAddress = $Methods.GetMethod('GetProcAddress')",
        "\t    Write-Output $GetProcAddress",
        "\t}",
    ]
    assert _spans(lines) == [(0, 0, 6, False, None)]


def test_help_at_column_0_inside_a_body_is_part_of_it() -> None:
    lines = [
        "function Find-Logon",
        "{",
        "<#",
        ".SYNOPSIS",
        "",
        "Retrieve the unique logon events.",
        "#>",
        "    Param ([int] $Days)",
        "    Get-WinEvent -MaxEvents $Days",
        "}",
    ]
    assert _spans(lines) == [(0, 0, 10, False, None)]


def test_a_class_holds_its_methods_and_constructor_and_an_enum_is_one_unit() -> None:
    lines = [
        "enum Color {",
        "    Red",
        "    Green",
        "}",
        "# A dog.",
        "class Dog : Animal {",
        "    [string] $Name",
        "    Dog([string] $name) : base($name) {",
        "        $this.Name = $name",
        "    }",
        "    static [string] Describe([int] $n)",
        "    {",
        "        if ($n) { return 'x' }",
        "        return 'y'",
        "    }",
        "}",
    ]
    assert _spans(lines) == [
        (0, 0, 4, False, None),
        (4, 5, 16, True, None),
        (7, 7, 10, False, 1),
        (10, 10, 15, False, 1),
    ]


def test_a_script_block_bound_to_a_name_is_a_definition_and_a_statement_block_is_not() -> None:
    lines = [
        "$script:onExit = {",
        "    Remove-Item $temp",
        "}",
        "If ($env:CI) {",
        "    Write-Host 'ci'",
        "}",
        "ElseIf ($x) {",
        "    Write-Host 'x'",
        "}",
    ]
    assert _spans(lines) == [(0, 0, 3, False, None)]


def test_a_script_block_given_to_the_function_drive_is_a_definition() -> None:
    lines = ["${function:Get-Answer} = {", "    42", "}"]
    lines += ["Set-Item -Path function:global:Get-It -Value {", "    1", "}"]
    assert _spans(lines) == [(0, 0, 3, False, None), (3, 3, 6, False, None)]


def test_a_function_written_in_a_here_string_defines_nothing() -> None:
    lines = ["$text = @'", "function Get-Generated {", "    1", "}", "'@", "function Get-Real {", "  2", "}"]
    assert _spans(lines) == [(5, 5, 8, False, None)]


def test_a_text_that_ends_inside_a_string_is_read_by_indentation() -> None:
    lines = ["function Get-Item {", "    $a = 'cut off", "    $b = 1", "}", "function Get-It {", "    2", "}"]
    assert [(b.header, b.end) for b in powershell_blocks(lines)] == [(0, 4), (4, 7)]


def test_a_long_function_defining_functions_is_their_container() -> None:
    body = [f"    $x{k} = {k}" for k in range(160)]
    lines = ["function Invoke-Tool {", "    function Get-Helper {", "        1", "    }", *body, "}"]
    blocks: list[Block] = powershell_blocks(lines)
    assert [(b.header, b.end, b.container, b.parent) for b in blocks] == [
        (0, len(lines), True, None),
        (1, 4, False, 0),
    ]


def test_a_function_after_a_byte_order_mark_is_found() -> None:
    assert _spans(["\ufefffunction Get-VirtualMemoryInfo {", "    1", "}"]) == [(0, 0, 3, False, None)]


_MODULE = [
    "\ufeff<#",
    "    .SYNOPSIS",
    "        A module.",
    "#>",
    "enum Color { Red; Green }",
    "class Dog : Animal {",
    "    [string] Describe([int] $n) {",
    "        return \"dog $(if ($n) { 'x' })\"",
    "    }",
    "}",
    "function Get-Thing",
    "{",
    "    param ([string] $Name)",
    '    $text = @"',
    "function Hidden {",
    '"@',
    "    Invoke-It -Name $Name `",
    "        -Force # don't",
    "    $onExit = {",
    "        Remove-Item $temp",
    "    }",
    "}",
    "Function Find-Vm {",
    "Param ($VC)",
    "Process {",
    "\tIf ($VC) { 'x' }",
    "}",
    "} #EndFunction Find-Vm",
]


@settings(max_examples=80, deadline=None)
@given(keep=st.lists(st.booleans(), min_size=len(_MODULE), max_size=len(_MODULE)))
def test_blocks_of_damaged_powershell_lie_inside_it_and_nest(keep: list[bool]) -> None:
    lines = [line for line, k in zip(_MODULE * 2, keep * 2, strict=True) if k]
    blocks = powershell_blocks(lines)
    lexed = lex(lines).closed  # else indentation decides, whose blocks may overrun their parent
    for b in blocks:
        assert 0 <= b.start <= b.header < b.end <= len(lines)
        if b.parent is not None and lexed:
            outer = blocks[b.parent]
            assert outer.header < b.header
            assert b.end <= outer.end
