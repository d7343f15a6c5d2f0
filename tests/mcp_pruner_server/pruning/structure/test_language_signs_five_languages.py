"""Julia, Solidity, PowerShell, Groovy and F# without a path: each language, and each of its signs alone."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.structure.languages import guess_language, language_of


def _lines(text: str) -> list[str]:
    return text.split("\n")


JULIA_TYPED = _lines(
    """\
module Shapes

using LinearAlgebra
import Base: show

export Circle, area

abstract type Shape end

struct Circle{T<:Real} <: Shape
    r::T
end

\"\"\"
    area(c)

The area of `c`.
\"\"\"
function area(c::Circle{T})::T where {T}
    return pi * c.r^2
end

@inline scale(c::Circle, k::Real) = Circle(c.r * k)

function show(io::IO, c::Circle)
    @assert c.r >= 0
    print(io, "Circle(", c.r, ")")
end

end # module
"""
)

SOLIDITY = _lines(
    """\
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Ownable} from "./Ownable.sol";

/// @title A vault
contract Vault is Ownable {
    mapping(address => uint256) public balances;

    event Deposited(address indexed who, uint256 amount);
    error Empty();

    /// @notice Deposits ether.
    function deposit() external payable {
        if (msg.value == 0) revert Empty();
        balances[msg.sender] += msg.value;
        emit Deposited(msg.sender, msg.value);
    }

    function balanceOf(address who) public view returns (uint256) {
        return balances[who];
    }
}
"""
)

POWERSHELL = _lines(
    """\
<#
.SYNOPSIS
    Gets the widgets of a store.
.PARAMETER Store
    The store's name.
#>
function Get-Widget {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true)]
        [string]$Store,
        [switch]$All
    )
    $items = Get-ChildItem -Path (Join-Path $PSScriptRoot $Store)
    if ($null -eq $items) {
        Write-Verbose "no widgets in $Store"
        return
    }
    $items | Where-Object { $All -or $_.Length -gt 0 }
}
"""
)

GROOVY = _lines(
    """\
package org.acme.build

import groovy.transform.CompileStatic
import org.gradle.api.Project

@CompileStatic
class WidgetPlugin {
    String name
    List<String> sources = []

    def apply(Project project) {
        println "applying $name"
        sources.each { src ->
            project.logger.info(src)
        }
    }
}
"""
)

FSHARP = _lines(
    """\
namespace Acme.Widgets

open System
open System.IO

/// <summary>A widget.</summary>
[<RequireQualifiedAccess>]
type Widget<'T> = { Size: int; Value: 'T }

module Widgets =
    let inline grow n (w: Widget<'T>) = { w with Size = w.Size + n }

    let mutable count = 0

    let describe w =
        w.Size
        |> string
        |> printfn "%s"

type Store() =
    member this.Count = count
    static member Empty = Store()
"""
)


@pytest.mark.parametrize(
    ("lines", "lang"),
    [
        (JULIA_TYPED, "julia"),
        (SOLIDITY, "solidity"),
        (POWERSHELL, "powershell"),
        (GROOVY, "groovy"),
        (FSHARP, "fsharp"),
    ],
)
def test_julia_solidity_powershell_groovy_and_fsharp_texts_are_recognised_without_a_path(
    lines: list[str], lang: str
) -> None:
    assert guess_language(lines) == lang
    assert language_of(None, lines) == lang


# Three lines showing one sign each (one part of `SIGN_PARTS`), nothing else: without that sign, None.
@pytest.mark.parametrize(
    ("lines", "lang"),
    [
        (["function area(s::Shape)", "function scale(s::Shape, k)", "macro check(ex::Expr)"], "julia"),
        (["    n::Int,", '    name::String = "x",', ")::Response{Body} where {T}"], "julia"),
        (["using LinearAlgebra", "using Base: show, print", "import Base: show"], "julia"),
        (["mutable struct Stack", "abstract type Shape end", "struct Circle{T} <: Shape"], "julia"),
        (["    @inbounds x[i] = 1", '@testset "grow" begin', '    @info "done" n'], "julia"),
        (["pragma solidity ^0.8.0;", "contract Vault is Ownable {", "library SafeMath {"], "solidity"),
        (
            [
                "    function deposit(uint256 amount) external payable {",
                "    ) public view returns (uint256) {",
                "    function total() internal pure returns (uint256)",
            ],
            "solidity",
        ),
        (
            [
                "    event Deposited(address who);",
                "    error Unauthorized();",
                "        emit Deposited(who);",
            ],
            "solidity",
        ),
        (
            ["    mapping(address => uint256) balances;", "        assembly {", 'import "./Ownable.sol";'],
            "solidity",
        ),
        (
            [
                "    /// @notice Deposits.",
                "    uint256 public constant FEE = 3;",
                "        string memory name",
            ],
            "solidity",
        ),
        (["function Get-Widget {", "function Set-Widget", "filter Select-Big {"], "powershell"),
        (["    [CmdletBinding()]", "    param(", "        [Parameter(Mandatory)]"], "powershell"),
        (["<#", ".SYNOPSIS", ".PARAMETER Name"], "powershell"),
        (
            ['Write-Verbose "start"', "$items = Get-ChildItem -Path $root", "Import-Module Pester"],
            "powershell",
        ),
        (
            ["    [string]$Name = 'x'", "if ($env:CI) {", "    $PSBoundParameters.Remove('Name')"],
            "powershell",
        ),
        (
            [
                "import groovy.transform.CompileStatic",
                "import org.codehaus.groovy.ast.ASTNode",
                "import spock.lang.Unroll",
            ],
            "groovy",
        ),
        (["@CompileStatic", "    @Canonical", "@TypeChecked"], "groovy"),
        (["    def grow(int n) {", "def installed() {", "    private def check(Map args) {"], "groovy"),
        (["    String name", "    final List<String> items = []", "    Map options"], "groovy"),
        (['    println "done"', "    items.each { item ->", "    rows.findAll { it.size > 0 }"], "groovy"),
        (["[<AutoOpen>]", "[<RequireQualifiedAccess>]", "    [<Fact>]"], "fsharp"),
        (
            [
                "    member this.Size = size",
                "    static member Create() = W(0)",
                "    abstract member Grow : int -> unit",
            ],
            "fsharp",
        ),
        (["let inline twice x = x + x", "let mutable count = 0", "    let! body = fetch url"], "fsharp"),
        (["module Operators =", "open System.IO", "open FSharp.Core"], "fsharp"),
        (["type Box<'T> = { Value: 'T }", '    printfn "%d" n', '    failwithf "bad %s" s'], "fsharp"),
        # OCaml's own, now that its `let f x =` and `open M` are F#'s too
        (["  (* the widget *)", "module type S = sig", "type t = int [@@deriving show]"], "ocaml"),
    ],
)
def test_each_sign_alone_names_its_language(lines: list[str], lang: str) -> None:
    assert guess_language(lines) == lang
