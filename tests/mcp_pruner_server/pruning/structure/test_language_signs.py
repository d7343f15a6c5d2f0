"""A text's language without a path: each language's signs, alone and together, near neighbours of them
that are not taken, and the lines several languages write alike."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.structure.language_signs import SHARED, SIGNS
from mcp_pruner_server.pruning.structure.languages import guess_language, language_of


def _lines(text: str) -> list[str]:
    return text.split("\n")


R_ROXYGEN = _lines(
    """\
#' Keep the rows that match a condition
#'
#' @param .data A data frame.
#' @param .by Columns to group by for this operation only.
#' @export
filter_rows <- function(.data, ..., .by = NULL) {
  if (is.null(.by)) {
    .by <- character()
  }
  keep <- vapply(list(...), function(x) all(x %in% TRUE), logical(1))
  .data[keep, , drop = FALSE]
}

#' @rdname filter_rows
print.row_filter <- function(x, ...) {
  UseMethod("print")
}
"""
)

R_S4_SCRIPT = _lines(
    """\
library(methods)
suppressPackageStartupMessages(library(dplyr))

setClass("Person", representation(name = "character", age = "numeric"))
setGeneric("greet", function(obj, ...) standardGeneric("greet"))
setMethod("greet", "Person", function(obj, ...) {
  cat("Hello,", obj@name, "\\n")
})

people <- read.csv("people.csv") %>% filter(age > 30)
"""
)

MATLAB_FUNCTION = _lines(
    """\
function [q, qd] = jtraj(q0, q1, tv, qd0, qd1)
%JTRAJ Compute a joint space trajectory
%
% [Q,QD] = JTRAJ(Q0, QF, M) is a joint space trajectory Q (MxN) where the joint
% coordinates vary from Q0 (1xN) to QF (1xN).
if nargin < 4
    qd0 = zeros(size(q0));
    qd1 = qd0;
end
q = zeros(numel(tv), numel(q0));
for i = 1:numel(tv)
    q(i,:) = q0 + tv(i) * (q1 - q0);
end
qd = diff(q);
end
"""
)

MATLAB_CLASSDEF = _lines(
    """\
classdef Robot < handle
    % A serial-link robot arm
    properties (SetAccess = private)
        links
        name
    end
    methods
        function obj = Robot(links, name)
            obj.links = links;
            obj.name = name;
        end
        function n = count(obj)
            n = numel(obj.links);
        end
    end
end
"""
)

OCTAVE_FUNCTION = _lines(
    """\
## -*- texinfo -*-
## @deftypefn {} {@var{m} =} avg (@var{v})
## The mean of @var{v}.
## @end deftypefn
function retval = avg (v)
  retval = 0;
  if (nargin != 1)
    print_usage ();
  endif
  for i = 1:numel (v)
    retval += v(i);
  endfor
  retval /= numel (v);
endfunction
"""
)

MATLAB_NO_OUTPUTS = _lines(
    """\
function show_frames(T, opts)
%SHOW_FRAMES Draw coordinate frames
%   SHOW_FRAMES(T) draws each frame of T, a 4x4xN array of poses.
for k = 1:size(T, 3)
    trplot(T(:,:,k), opts{:});
end
"""
)

MATLAB_SCRIPT = _lines(
    """\
clc; clear; close all;
% Simulate a damped spring
k = 4; c = 0.5;
t = linspace(0, 10, 200);
x = exp(-c*t) .* cos(sqrt(k)*t);
figure;
plot(t, x);
hold on
disp('done')
"""
)


@pytest.mark.parametrize(
    ("lines", "lang"),
    [
        (R_ROXYGEN, "r"),  # `<- function(`, `#'` roxygen, `%in%`, `UseMethod(`
        (R_S4_SCRIPT, "r"),  # `library(`, `setClass(` / `setGeneric(` / `setMethod(`, `%>%`
        (MATLAB_FUNCTION, "matlab"),  # a function with outputs, `nargin`, `numel`, `%` help, `end`s
        (MATLAB_CLASSDEF, "matlab"),
        (OCTAVE_FUNCTION, "matlab"),  # `##` docs, `endif`, `endfor`, `endfunction`
        (MATLAB_SCRIPT, "matlab"),  # a script: `clc; clear; close all;`, `hold on`, `disp(`
        (MATLAB_NO_OUTPUTS, "matlab"),  # its help right under `function f(x)`, a `%` line, an `end`
    ],
)
def test_r_and_matlab_texts_without_a_path_are_recognised_by_their_lines(lines: list[str], lang: str) -> None:
    assert guess_language(lines) == lang
    assert language_of(None, lines) == lang


RUBY = _lines(
    """\
require 'json'

class Report < Base
  attr_reader :rows

  def initialize(rows)
    @rows = rows
  end

  def total
    rows.sum { |r| r.fetch(:amount) }
  end
end
"""
)

LUA = _lines(
    """\
local M = {}

local function clamp(x, lo, hi)
  if x < lo then
    return lo
  end
  return math.min(x, hi)
end

function M.scale(v, k)
  return clamp(v * k, 0, 1)
end

return M
"""
)

PYTHON = _lines(
    """\
import os
from typing import Any


def describe(version: Any) -> str:
    if version.major < 3:
        raise ValueError("expected %d, got %d"
                         % (3, version.major))
    return "%s.%s" % (version.major, version.minor)


class Probe:
    def __init__(self) -> None:
        self.path = os.getcwd()
"""
)

OBJC = _lines(
    """\
#import <Foundation/Foundation.h>
#import "Robot.h"

// A robot arm
@implementation Robot

- (instancetype)initWithLinks:(NSArray *)links {
    self = [super init];
    return self;
}

- (NSUInteger)count {
    return self.links.count;
}

@end
"""
)

OCTAVE_SHELL = _lines(
    """\
clear
export OCTAVE_HISTFILE=/dev/null
for f in tests/*.m; do
  octave-cli --no-gui --eval "disp(pi); run('$f')"
done
if [ -z "$OCTAVE" ]; then
  echo "no octave" >&2
fi
"""
)

LOG = _lines(
    """\
  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current
                                 Dload  Upload   Total   Spent    Left  Speed
100  1024  100  1024    0     0   2048      0 --:--:-- --:--:-- --:--:--  2048
2026-01-01 12:00:01 INFO worker <- job 12 (NULL payload)
2026-01-01 12:00:02 ERROR end of stream
end
2026-01-01 12:00:03 INFO retrying
end
"""
)

ERLANG = _lines(
    """\
%%% The job queue.
-module(jobs).
-export([push/2, pop/1]).

%% @doc Push a job onto the queue.
-spec push(term(), queue:queue()) -> queue:queue().
push(Job, Q) ->
    case queue:member(Job, Q) of
        true -> Q;
        false -> queue:in(Job, Q)
    end.

%% @doc Pop the oldest job.
pop(Q) ->
    receive
        stop -> ok
    end.
"""
)

JULIA = _lines(
    """\
function clamp01(x)
    return min(max(x, 0), 1)
end

function scale(v, k)
    if isempty(v)
        return v
    end
    return clamp01.(v .* k)
end
"""
)

KOTLIN_REQUIRE = _lines(
    """\
fun read(byteCount: Long): ByteString {
  require(byteCount)
  require(byteCount >= 0L) { "byteCount < 0: $byteCount" }
  return readByteString(byteCount)
}

fun skip(byteCount: Long) {
  require(byteCount)
}

fun peek(): BufferedSource {
  require(isOpen)
  return buffer
}
"""
)

HASKELL_DO = _lines(
    """\
module Main (main) where

import System.IO

main :: IO ()
main = do
  line <- getLine
  rest <- getContents
  putStrLn (line ++ rest)
"""
)


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (RUBY, ("ruby",)),  # `class X < Y` and `end`s: no `classdef`
        (LUA, ("lua",)),  # `function M.f(x)` … `end`: no outputs
        (PYTHON, ("python",)),  # `% (…)` continuation lines are no MATLAB comments
        (OBJC, ("objc",)),  # a `.m` text of Objective-C
        (OCTAVE_SHELL, ("bash", None)),  # `clear` and `disp(` inside a shell command line
        (LOG, (None,)),  # curl's `% Total` header, `<-` and `NULL` in a message, two `end` lines
        (ERLANG, ("erlang",)),  # `%%` comments and `end`s without any MATLAB sign: its attributes
        (JULIA, (None,)),  # `function f(x)` … `end`: Lua's and Julia's alike, and no sign of either
        (KOTLIN_REQUIRE, ("kotlin",)),  # `require(x)` is Kotlin's and Scala's check too
        (HASKELL_DO, ("haskell",)),  # `x <- action` binds in a `do` block
    ],
)
def test_near_neighbours_are_not_taken_for_r_or_matlab(
    lines: list[str], expected: tuple[str | None, ...]
) -> None:
    assert guess_language(lines) in expected


def test_erlang_without_a_path_is_recognised_by_its_module_attributes() -> None:
    assert language_of(None, ERLANG) == "erlang"
    # the same words indented, as a tool's help lists its options, are no attributes
    help_text = ["Options:", "  -module(M)  the module", "  -export(F)  a function", "  -spec  the types"]
    assert guess_language(help_text) is None


def test_the_path_decides_when_given() -> None:
    assert language_of("src/Robot.m", OBJC) == "objc"
    assert language_of("toolbox/jtraj.m", MATLAB_FUNCTION) == "matlab"
    assert language_of("R/filter.R", R_ROXYGEN) == "r"
    assert language_of("lib/report.rb", MATLAB_CLASSDEF) == "ruby"


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


RUST_NESTED_USE = _lines(
    """\
use std::{
    collections::HashMap,
    io::Error,
    string::String,
};

pub fn read(path: &str) -> Result<String, Error> {
    std::fs::read_to_string(path)
}

pub fn count(words: &[String]) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    out
}

fn helper() {}

fn other() {}
"""
)

COMMON_LISP = _lines(
    """\
(defun area (r)
  (* pi (* r r)))

(defun scale (v k)
  (* k v))

(defmacro with-widget ((w) &body body)
  `(let ((,w (make-widget)))
     (* 2 (progn ,@body))))
"""
)

PERL_CONSTANTS = _lines(
    """\
package Lintian::Relation;

use strict;
use warnings;

use constant TRUE => 1;
const my $TRUE => 1;
const my $FALSE => 0;

sub new {
    my ($class, %args) = @_;
    my $self = { parsable => $FALSE };
    return bless $self, $class;
}

1;
"""
)

SWIFT_INLINE = _lines(
    """\
import Foundation

extension Array {
    @inline(__always)
    func second() -> Element? {
        guard count > 1 else { return nil }
        return self[1]
    }
}

var cache: [String: Int] = [:]
"""
)

BASH_HYPHEN = _lines(
    """\
#!/bin/bash
function build-all {
    local target=$1
    for f in src/*.c; do
        make -C "$f" "$target"
    done
}
export srcmods
if [[ -z "$CI" ]]; then
    build-all release
fi
"""
)

KOTLIN_IMPORTS = _lines(
    """\
package com.squareup.wire

import com.squareup.kotlinpoet.ClassName
import com.squareup.kotlinpoet.FileSpec
import com.squareup.kotlinpoet.TypeSpec
import okio.Buffer
"""
)

CSHARP_DOCS = _lines(
    """\
    /// <summary>Grows the widget.</summary>
    /// <param name="n">By how much.</param>
    /// <returns>The new size.</returns>
    /// <summary>Shrinks it.</summary>
"""
)

ELIXIR_PIPES = _lines(
    """\
defmodule Acme.Widgets do
  @moduledoc "Widgets."

  def grow(widgets, n) do
    widgets
    |> Enum.map(&(&1 + n))
    |> Enum.filter(&(&1 > 0))
  end
end
"""
)

JAVA_CONTINUED = _lines(
    """\
package com.fasterxml.jackson.core.io;

import java.util.Arrays;

public final class NumberOutput {
    private static int enc(int i1) {
        int enc = ((i1 + '0') << 16)
                | (i1 + 1);
        return enc;
    }
}
"""
)

# Not code: a log whose only "signs" are lone `end` lines, and a PowerShell console session.
BUILD_LOG = _lines(
    """\
[1/3] compiling widget.c
begin phase: link
end
begin phase: strip
end
begin phase: package
end
done in 3.2s
"""
)

POWERSHELL_TRANSCRIPT = _lines(
    """\
**********************
Windows PowerShell transcript start
Start time: 20260101120000
Username: ACME\\builder
**********************
PS C:\\src> Get-ChildItem -Path .\\out

    Directory: C:\\src\\out

Mode                 LastWriteTime         Length Name
----                 -------------         ------ ----
-a----          1/1/2026  12:00 PM           1024 widget.dll

PS C:\\src> Write-Host $true
True
PS C:\\src> [string]$env:CI
"""
)


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (RUST_NESTED_USE, ("rust",)),  # `string::String` is a path, not Julia's `x::String`
        (COMMON_LISP, (None,)),  # `(* r r)` multiplies: no OCaml comment
        (PERL_CONSTANTS, ("perl",)),  # `$TRUE` is a Perl constant, not PowerShell's `$true`
        (SWIFT_INLINE, ("swift",)),  # `@inline(__always)` is not Julia's `@inline f(x) = …`
        (BASH_HYPHEN, ("bash",)),  # `function build-all {`: no verb-noun, `export x` is the shell's
        (KOTLIN_IMPORTS, ("kotlin",)),  # class imports alone stay Kotlin's, as before Groovy had signs
        (CSHARP_DOCS, ("csharp",)),  # XML docs alone stay C#'s
        (ELIXIR_PIPES, ("elixir",)),  # `|>` is F#'s too
        (JAVA_CONTINUED, ("java",)),  # a declaration continued on the next line is no Groovy one
        (PYTHON, ("python",)),  # `def f(x):` is no Groovy `def f(x) {`
        (RUBY, ("ruby",)),
        (BUILD_LOG, (None,)),  # lone `end` lines make no Ruby (nor Lua …) of a log
        (POWERSHELL_TRANSCRIPT, (None,)),  # cmdlets after a `PS C:\>` prompt are a session, not a script
    ],
)
def test_near_neighbours_of_the_new_signs_are_not_taken(
    lines: list[str], expected: tuple[str | None, ...]
) -> None:
    assert guess_language(lines) in expected


def test_a_bash_script_is_not_taken_for_powershell_nor_a_transcript_for_a_script() -> None:
    assert guess_language(BASH_HYPHEN) == "bash"
    assert guess_language(POWERSHELL_TRANSCRIPT) is None
    assert guess_language(POWERSHELL) == "powershell"


SWIFT_NIO = _lines(
    """\
import NIOCore
import NIOConcurrencyHelpers
#if canImport(Darwin)
import Darwin
#endif

public final class Pool: Resource {
    private let lock = NIOLock()
    weak var delegate: PoolDelegate?

    init(size: Int) {
        self.size = size
    }

    func acquire() {
        self.lock.withLock {
            switch self.state {
            case .idle:
                self.state = .busy
            case .busy:
                break
            }
        }
    }
}
"""
)

DART_RELATIVE = _lines(
    """\
import '../command.dart';
import 'piece.dart' as piece;

class AddCommand extends PubCommand {
  late final Piece _target;

  String get name => 'add';

  factory AddCommand.empty() => AddCommand([]);

  void run({required bool dryRun}) {
    final count = _target.size;
    print(count);
  }
}
"""
)


@pytest.mark.parametrize(("lines", "lang"), [(SWIFT_NIO, "swift"), (DART_RELATIVE, "dart")])
def test_swift_without_foundation_and_dart_with_relative_imports_are_recognised(
    lines: list[str], lang: str
) -> None:
    assert guess_language(lines) == lang


# Three lines showing one sign each, nothing else: without that sign, None.
@pytest.mark.parametrize(
    ("lines", "lang"),
    [
        (["    func grow(by n: Int) {", "    private func reset() {", "    init(size: Int) {"], "swift"),
        (
            ["    private let size: Int", "    weak var delegate: Delegate?", "fileprivate struct Box {"],
            "swift",
        ),
        (["public final class Pool: Resource {", "struct Size: Equatable {", "protocol Drawable {"], "swift"),
        (["    case .idle:", "#if canImport(Darwin)", "@testable import NIOCore"], "swift"),
        (
            [
                "import '../command.dart';",
                "import 'piece.dart' as piece;",
                "export 'src/pool.dart' show Pool;",
            ],
            "dart",
        ),
        (
            [
                "  late final Piece _target;",
                "  String get name => 'add';",
                "  factory Pool.empty() => Pool([]);",
            ],
            "dart",
        ),
    ],
)
def test_each_swift_and_dart_sign_alone_names_its_language(lines: list[str], lang: str) -> None:
    assert guess_language(lines) == lang


def test_kotlin_extensions_on_generic_receivers_and_file_annotations_are_its_signs() -> None:
    lines = [
        "public inline fun <K, A> Map<K, A>.zip(other: Map<K, A>) =",
        "@file:OptIn(ExperimentalTypeInference::class)",
        "    this@zip.forEach { put(it) }",
    ]
    assert guess_language(lines) == "kotlin"


KOTLIN_FUNCTION_IMPORTS = [
    "import kotlinx.coroutines.launch",
    "import kotlin.math.min",
    "",
    "fun main() {",
    "    launch { println(min(1, 2)) }",
    "}",
    "fun f(x: Int): Int = x",
    "fun g() = 1",
]
PYTHON_DOTTED_IMPORTS = [
    "import os.path",
    "import xml.etree.ElementTree as ET",
    "",
    "def parse(path):",
    "    return ET.parse(os.path.abspath(path))",
    "",
    "class Tree:",
    "    pass",
]
HASKELL_IMPORTS = [
    "module Main where",
    "",
    "import Prelude",
    "import Data.List (sort)",
    "",
    "main :: IO ()",
    "main = print (sort [3, 1, 2])",
]
GO_FUNCS = ["package pool", "", "func New(n int) *Pool {", "\treturn &Pool{n: n}", "}", ""]
GO_FUNCS += ["func (p *Pool) Get() int {", "\tdefer func() { p.n-- }()", "\treturn p.n", "}"]
KOTLIN_PRIVATE_VARS = [
    "class Pool : Resource {",
    "    private var size: Int = 0",
    "    override fun acquire() {",
    "        size++",
    "    }",
    "    fun release() {}",
    "    fun close() {}",
    "}",
]
GROOVY_FINALS = [
    "import groovy.transform.CompileStatic",
    "@CompileStatic",
    "class Nextflow {",
    "    static List files(String pattern) {",
    "        final result = file0(pattern)",
    "        final scheme = splitter.scheme",
    "        String name",
    "        return result",
    "    }",
    "}",
]
CPP_STRUCTS = [
    "#include <vector>",
    "namespace pool {",
    "struct Pool : Resource {",
    "  std::vector<int> items;",
]
CPP_STRUCTS += ["};", "}  // namespace pool"]
JS_INIT = ["'use strict';", "const app = require('./app');", "init(config)", "function start() {", "}"]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (KOTLIN_FUNCTION_IMPORTS, ("kotlin",)),  # `import kotlin.math.min` is Python's shape too
        (PYTHON_DOTTED_IMPORTS, ("python",)),  # and `import os.path` Kotlin's
        (HASKELL_IMPORTS, ("haskell",)),  # `import Prelude` is Swift's shape too
        (GO_FUNCS, ("go",)),  # `func` at column 0, bare, and `defer func()`: no Swift
        (KOTLIN_PRIVATE_VARS, ("kotlin",)),  # `private var x: Int`, `class Pool : Resource`
        (GROOVY_FINALS, ("groovy",)),  # `final x = …` without `;`: no Dart
        (CPP_STRUCTS, ("cpp",)),  # `struct S : Base {` spaces its colon
        (JS_INIT, ("javascript",)),  # a call `init(config)` is no Swift `init(x: T)`
    ],
)
def test_near_neighbours_of_swift_dart_and_the_imports_are_not_taken(
    lines: list[str], expected: tuple[str | None, ...]
) -> None:
    assert guess_language(lines) in expected


LUA_SELF = [
    "local Pool = {}",
    "function Pool:acquire()",
    "  self.size = self.size - 1",
    "  self.busy = true",
    "end",
]
LUA_SELF += ["function Pool:release()", "  self.size = self.size + 1", "end"]
SWIFT_SELF = [
    "    func grow() {",
    "        self.size += 1",
    "        self.count = 0",
    "        self.flag = true",
    "    }",
]
PYTHON_SELF = ["class Pool:", "    def grow(self):", "        self.size += 1", "        self.count = 0"]


@pytest.mark.parametrize(
    ("lines", "lang"), [(LUA_SELF, "lua"), (SWIFT_SELF, "swift"), (PYTHON_SELF, "python")]
)
def test_self_lines_count_for_the_language_the_other_lines_name(lines: list[str], lang: str) -> None:
    assert guess_language(lines) == lang


def test_no_sign_matches_a_blank_line() -> None:
    # `guess_language` passes blank lines by without trying the signs
    for blank in ("", "   ", "\t"):
        assert SHARED.match(blank) is None
        assert not [
            lang
            for lang, head, anywhere in SIGNS
            if (head and head.match(blank)) or (anywhere and anywhere.search(blank))
        ]
