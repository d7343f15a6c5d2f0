"""The line signs by which a text without a path shows its language (`languages.guess_language`)."""

from __future__ import annotations

import re

# Line starts only one language writes (alternatives; `#include` alone is C or C++).
SIGN_PARTS: dict[str, tuple[str, ...]] = {
    "go": (r"^package [a-z_]\w*\s*$", r"^func (?:\([^)]*\) )?\w+\(", r"^import \($"),
    "rust": (
        r"^\s*(?:pub(?:\([\w:]+\))? )?(?:async |unsafe |const )*fn \w+[<(]",
        r"^use [\w:{}, *]+;$",
        r"^impl\b",
        r"^\s*#!?\[\w",
    ),
    "java": (
        r"^package [\w.]+;$",
        r"^import (?:static )?[\w.*]+;$",
        r"^(?:public |final |abstract )*(?:class|interface|enum) \w+",
    ),
    "c": (
        r"^#include\s*[<\"]",
        r"^#define \w",
        r"^(?:static )?(?:inline )?(?:const )?(?:unsigned |struct )?\w+\s*\*?\s*\w+\([^;]*\)\s*$",
    ),
    "cpp": (r"^\s*(?:namespace \w+|template\s*<|using namespace |class \w+\s*(?::|\{|$))", r"\bstd::"),
    "typescript": (
        r"^\s*(?:export )?(?:declare )?(?:interface \w+|type \w+(?:<[^>]*>)?\s*=)",
        r"^\s*(?:export )?(?:declare )?(?:enum \w+ \{|abstract class )",
        r"^\s*(?:private|public|protected|readonly) \w+[?!]?:",
    ),
    "javascript": (
        r"^\s*(?:import .+ from ['\"]|export (?:default|function|const|class)\b|module\.exports\b)",
        r"^\s*(?:const|let|var) \w+ = (?:require\(|(?:async )?(?:function\b|\([^)]*\) =>))",
        r"^\s*(?:(?:async )?function\*? \w+\(|['\"]use strict['\"])",
        r"^(?:module\.)?exports\.\w+ =",
        r"\.prototype\.\w+ = ",
    ),
    "csharp": (
        r"^using (?:static )?System\b[\w.]*;$",
        r"^\s*(?:(?:public|internal|private|protected) )?(?:static |sealed |abstract )*partial class ",
        r"\{ get; (?:(?:private |init; )?set; )?\}",
        r"^namespace \w+(?:\.\w+)+;?$|^namespace \w+;$",  # dotted, or file-scoped (C++ has neither)
    ),
    "php": (r"^<\?php\b", r"^\s*(?:namespace|use) \w+\\[\w\\]+;$", r"\$this->\w"),
    "ruby": (
        r"^\s*require(?:_relative)? ['\"]",
        r"^\s*(?:module|class) [A-Z]\w*(?:::\w+)*(?: < [\w:]+)?$",
        r"^\s*def (?:self\.)?\w+[?!=]?(?:\(.*\))?$",
        r"^\s*attr_(?:reader|writer|accessor) :",
    ),
    "bash": (
        r"^(?:function\s+)?[\w-]+\s*\(\)\s*\{?\s*$",  # unindented: a JS method `render() {` is not
        r"^\s*function\s+[\w-]+\s*\{?\s*$",
        r"^\s*local\s+-?\w(?!\w*(?:\s*,\s*\w+)*\s+=\s)",  # not Lua's `local x = 1`
        r"^\s*(?:fi|esac|done)\s*(?:[;&|].*)?$",
        r"^\s*complete\s+-|\bCOMPREPLY\b|\$\{?(?:BASH_SOURCE|COMP_\w+)",
        r"^\s*(?:if|while|elif)\s+\[\[? ",
    ),
    "python": (
        r"^(?:async )?def \w+\(",
        r"^class \w+.*:\s*$",
        r"^from [\w.]+ import ",
        r"^import [a-z_]\w*(?:, [a-z_]\w*)*(?: as \w+)?$",  # a dotted `import a.b` is Kotlin's too: `SHARED`
        r"^\s+(?:elif|except\b)",
    ),
    "kotlin": (
        # a function, an extension of a generic type too (`fun <K, V> Map<K, V>.f(`)
        r"^\s*(?:(?:public|private|internal|protected|override|open|abstract|suspend|inline|operator|"
        r"infix|tailrec|actual|expect)\s+)*fun\s+(?:<[^>]*>\s*)?(?:[\w.]+<[^()]*>\??\.)?[\w.`]+\(",
        r"^\s*(?:companion object\b|data class \w|sealed (?:class|interface) \w)|^@file:\w|this@[a-z]\w*\.",
        r"^\s*(?:(?:private|internal|override|lateinit)\s+)*va[lr] \w+(?:: [\w<>?, .]+)? by ",
    ),
    "swift": (
        r"^import (?:Foundation|UIKit|SwiftUI|Combine|XCTest|AppKit|Dispatch|os)$",
        r"func(?<=\bfunc) \w+(?:<[^>]*>)?\(.*\)\s*(?:async\s+)?(?:re)?(?:throws\s+)?->",  # Go has no `->`
        r"^\s*(?:guard (?:let|var) |if (?:let|var) \w+ = |@(?:objc|discardableResult|inlinable|MainActor)\b)",
        r"^\s*(?:(?:public|private|fileprivate|internal)\s+)?extension [A-Z]\w*(?:\.\w+)*\s*(?::[^{]*)?\{",
        # `func` indented or behind a modifier (Go's are at column 0, bare), `init(x: T)`, `private let`,
        # `weak var`, `fileprivate`, `struct S: P {` (Kotlin and C++ space their `:`), `case .x`, `#if os(`
        r"^\s+func \w+\s*[<(]"
        r"|^\s*(?:(?:public|private|fileprivate|internal|open|override|static|final|mutating|nonmutating|"
        r"convenience|required|class|@\w+(?:\([^)]*\))?)\s+)+(?:func \w+|init[?!]?)\s*[<(]"
        r"|^\s*(?:(?:public|private|fileprivate|internal|open|override|required|convenience)\s+)*init[?!]?"
        r"(?:<[^>]*>)?\((?:\w+(?: \w+)?: |\)\s*\{)",
        r"^\s*(?:(?:public|private|fileprivate|internal|open|static|class|override|final)\s+)+let \w+"
        r"|^\s*(?:\w+\s+)*(?:weak|unowned(?:\(\w+\))?|lazy) var \w+|^\s*fileprivate\s",
        r"^\s*(?:(?:public|private|fileprivate|internal|open|final|indirect)\s+)*(?:class|struct|enum|protocol|actor)"
        r" [A-Z]\w*(?:<[^>]*>)?: [A-Z]"
        r"|^\s*(?:(?:public|private|fileprivate|internal)\s+)?protocol [A-Z]\w*\s*\{",
        r"^\s*case \.\w+|^#if (?:canImport|os|swift|compiler|arch|targetEnvironment)\(|^@testable import "
        r"|^import (?:struct|class|enum|protocol|func|typealias|var|let) ",
    ),
    "scala": (
        r"^\s*(?:(?:override|final|private|protected|implicit)(?:\[\w+\])?\s+)*def \w+(?:\[[^\]]*\])?"
        r"(?:\(.*\))*\s*:\s*[\w\[(]",  # a return type after `:` (Python's `def f(x):` ends there)
        r"^\s*(?:sealed |abstract )?(?:trait \w+|case class \w+|(?:case )?object \w+ (?:extends|\{))",
        r"^import [\w.]+\.(?:_|\{[^}]*\}|given)$",
    ),
    "dart": (
        r"^(?:import|export) '(?:package|dart):|^(?:import|export|part) '[^']*\.dart'",
        r"^part (?:of )?'",
        r"^\s*@override$",
        # `late`, `final x = …;` (Java's `final` has a type, Groovy's no `;`), a getter `get x =>`,
        # `{required T x}`, `factory`
        r"^\s*(?:late\s+(?:final\s+)?\w|(?:static\s+)?final [a-z_]\w* = .*;$|factory [A-Z]\w*(?:\.\w+)?\("
        r"|mixin [A-Z])"
        r"|get(?<=\bget) \w+ (?:=>|\{)|\{required [A-Za-z]",
    ),
    "lua": (
        r"^\s*local function \w",
        r"^\s*local \w+(?:\s*,\s*\w+)*\s+=\s",  # spaces around `=`: a shell's `local x=1` has none
        r"^\s*local \w+ = require[ (]",
        r"^\s*function \w+[.:]\w+\(",  # `function M.f(` / `function M:f(`: not JavaScript
        r"^\s*--\[=*\[|^\s*---? @\w",
        r"^\s*(?:else)?if [^;]+ then$|^\s*(?:for|while) [^;|]+ do$",  # a shell writes `; then`
    ),
    "zig": (
        r"@import\(\"",
        r"^\s*(?:pub\s+)?(?:inline\s+|export\s+)?fn \w+\(.*\)\s+[!?\w\[*][^{]*\{$",  # Rust writes `->`
        r"^\s*(?:errdefer|comptime)\b",
    ),
    "haskell": (
        r"^module [A-Z][\w.]*(?:\s*\(|\s+where\b|$)",
        # (a single `import M` is Swift's too: `SHARED`)
        r"^import (?![A-Z]\w*$)(?:qualified )?[A-Z][\w.]*(?: as [A-Z]\w*)?(?: hiding)?(?: \(|$)",
        r"^[a-z_]\w*'* :: ",
        r"^\{-#|^\s*where$",
    ),
    # (`let f x =` and `open M` are F#'s too: `SHARED`; F# comments with `//`, OCaml with `(*`.)
    "ocaml": (
        # a comment: `(* … *)`, `(**`, `(*` ending its line (Lisp's `(* a b)` multiplies)
        r"^module [A-Z]\w* = struct\b|^\s*(?:end|done);;$|^\(\*|^\s*\(\*(?:\*|\s*$|\s.*\*\)$)",
        r"^\s*(?:module type|external) |^\s*let%\w|\[@@?(?:deriving|inline|warning|ocaml)\b",
    ),
    # Not to be read as Ruby, whose `def … do` and `end` it shares.
    "elixir": (
        r"^\s*(?:defmodule [A-Z][\w.]*|defp? [\w?!]+.*|defmacro [\w?!]+.*) do$",
        r"^\s*@(?:moduledoc|doc|spec|impl|behaviour|typedoc)\b",
    ),
    "perl": (
        r"^use (?:strict|warnings|utf8|vars|constant|parent|base|lib|[A-Z]\w*(?:::\w+)*)\b[^;]*;$",
        r"^package [A-Za-z]\w*(?:::\w+)*;$|^1;$|^__(?:END|DATA)__$",
        r"^\s*my [$@%(]|^sub \w+\s*\{?$",
    ),
    # Free-form Fortran, in any case: typed declarations (`real(dp), intent(in) :: x`), `use m, only:`,
    # `implicit none`, `call x`, `end subroutine` / `end do`, FORD's and Doxygen's `!>` / `!!` docs.
    # One anchored pattern: an alternation of anchored ones is tried at every column of a line.
    "fortran": (
        r"^\s*(?i:(?:integer|real|logical|character|complex|double precision|type\s*\(\s*\w+\s*\)|"
        r"class\s*\(\s*\w+\s*\))\b[^=!;]*::|implicit\s+none\b|use\s+\w+\s*(?:,|$)|call\s+\w+|"
        r"contains\s*$|end\s*(?:subroutine|function|module|program|interface|do|if|select|type)\b|![>!<])",
    ),
    # Delphi and Free Pascal: a unit's sections, `uses`, routine heads ended by `;` (JavaScript's
    # `function f(x) {` is not), `var` / `const` alone on a line, `{$…}` directives (Erlang's
    # `begin`, `end;` and `end.` alone on a line are Pascal's too).
    "pascal": (
        r"^(?i:unit [\w.]+;|program [\w.]+;|interface|implementation|initialization|uses\b.*)\s*$",
        r"^\s*(?i:(?:class )?(?:procedure|function|constructor|destructor) [\w.]+\s*(?:\([^(){}]*\))?"
        r"\s*(?::\s*[\w.<>]+)?;)",
        r"^\s*(?i:\w+\s*=\s*(?:class|record|interface|packed record)\b(?:\s*\([\w., ]*\))?\s*$|"
        r"property \w+.*\bread\b)",
        r"^\s*(?i:var|const)\s*$|^\{\$(?i:mode|ifdef|ifndef|endif|define|i|include|h\+|r)\b",
    ),
    # Visual Basic: `Imports`, `End Sub` / `End If` …, `Dim x As T`, `'''` docs, `Option Strict`.
    "vbnet": (
        r"^Imports [\w.]+(?: = [\w.]+)?\s*$|^Option (?:Strict|Explicit|Infer) (?:On|Off)\s*$",
        r"^\s*End (?:Sub|Function|Class|Module|Namespace|Property|Structure|Interface|Enum|If|Select|Try|"
        r"With|Using|Get|Set|SyncLock|While|Operator)\s*$",
        r"^\s*(?:Dim|Private|Public|Friend) \w+ As (?:New )?[\w.]+|^\s*'''\s*<\w+|^\s*Next(?: \w+)?\s*$",
    ),
    # Erlang: a module's attributes at column 0 (`-module(x).`, `-export([f/1]).`, `-spec f(T) -> R.`);
    # a diff's removed line has them too, but only when it removes Erlang.
    "erlang": (
        r"^-(?:module|export|export_type|spec|type|opaque|record|include|include_lib|define|behaviou?r|callback|"
        r"compile|doc|moduledoc|ifdef|ifndef|endif)\b",
    ),
    # Clojure: `(ns a.b`, `(in-ns 'a.b)`, `(def x`, `(defn f`, `(:require [`, `(:use [` (not Common
    # Lisp's `defmethod`, `deftype` and `defmacro`).
    "clojure": (
        r"^\((?:ns|in-ns|def|defn-?|defonce|defprotocol|defrecord|defmulti|definterface|extend-(?:type|protocol))"
        r"(?=\s|$)",
        r"^\s*\(:(?:require|import|refer-clojure|gen-class)(?=\s|$)|^\s*\(:use \[",
    ),
    # R: a function bound with `<-` (JavaScript and Lua bind theirs with `=`), roxygen's `#'` docs
    # (Common Lisp's `#'f` has no space after it), S4 and R6 classes, S3 dispatch, `%>%` / `%in%`,
    # and `<-` binding a value only R writes so (Haskell's, OCaml's and Go's `<-` bind no `NULL`).
    "r": (
        r"^\s*(?:[\w.]+|`[^`]+`)\s*<<?-\s*function\s*\(",
        r"^\s*#'(?: |$)",
        r"^\s*(?:[\w.]+\s*<-\s*)?(?:setMethod|setGeneric|setClass|setValidity|setRefClass|(?:R6::)?R6Class)\(",
        r"^\s*(?:library|suppressPackageStartupMessages)\(",  # not `require(x)`: Kotlin's and Scala's check
        r"\b(?:UseMethod|NextMethod|standardGeneric|requireNamespace)\(|%(?:>|in|<>|T>|\|\|)%"
        r"|<-\s*(?:NULL|TRUE|FALSE|NA|c\(|list\()",
    ),
    # MATLAB and Octave: a function with outputs (`function [a, b] = f(x)`, `function y = f`: Lua's and
    # Julia's `function f(x)` are not signs), `classdef` and its `properties` / `methods` blocks, the
    # argument counters (`nargin`, `varargout` …) and cell and struct helpers, Octave's `endfunction`,
    # `endfor` … (an `endif` or `endfunction` Fortran writes too is Fortran's: `NARROWER`).
    "matlab": (
        r"^\s*function\s+(?:\[[^\]]*\]|\w+)\s*=\s*[\w.]+\s*(?:\(|$|%|;)",
        r"^\s*(?:classdef\b|(?:properties|methods|events|enumeration)\b(?:\s*\(.*\))?\s*(?:%.*)?$)",
        r"^\s*end(?:function|if|for|while|switch|_try_catch|_unwind_protect)\b",
        # A script's opening chores (a shell's `clear` alone is not one) and its figures.
        r"^\s*(?:clc|close all|clear all|clearvars|hold (?:on|off)|format (?:long|short))\s*(?:[;,%]|$)",
        r"^\s*disp\(",
        r"\b(?:nargin|nargout|varargin|varargout|narginchk|nargoutchk|numel|isfield|cellfun|arrayfun|num2str)\b",
    ),
    # Julia: typed parameters and returns (`x::Int`, `)::T`; C++'s and Rust's `a::B` are paths to
    # their own names, not to Julia's types), `where {T<:Real}`, `using M: f`, `struct S{T} <: A`, its macros.
    "julia": (
        r"^\s*(?:@\w+\s+)*(?:function|macro)\s+[\w.!]+(?:\{[^}]*\})?\(.*::",
        r"::(?<=[a-z\d_]::)(?:Abstract[A-Z]\w*|U?Int(?:8|16|32|64|128)?|Float(?:16|32|64)|Bool|String|Symbol|"
        r"Vector|Matrix|Array|Dict|Tuple|NamedTuple|Union|Nothing|Any|Function|Type|Real|Integer|Number|Char|IO|"
        r"Missing)\b(?!::)|\)::[A-Z]\w*(?:\{.*\})?\s*(?:where\b|=|$)|\) where (?:\{[^}]*\}|[A-Z]\w*)",
        r"^using \.{0,2}[A-Z][\w.]*(?:\s*[:,]\s*[\w.@!]+)*\s*$|^import \.{0,2}[A-Z][\w.]*:\s*\w",
        r"^\s*(?:mutable struct|abstract type|primitive type)\s+[A-Z]|^\s*struct [A-Z]\w*(?:\{[^}]*\})?\s*<:"
        r"|^end\s*#\s*module\b",
        r"^\s*@(?:inbounds|testset|test|test_throws|kwdef|generated|views|assert|eval|propagate_inbounds|nospecialize|"
        r"spawn|threads|boundscheck|simd|everywhere|ccall|assume_effects)(?=\s|\(|$)"
        r"|^\s*@(?:inline|noinline) |^\s*@(?:info|warn|debug|error)\s+\"",  # Swift writes `@inline(__always)`
    ),
    # Solidity: `pragma solidity`, `contract` / `library`, a function's visibility and mutability
    # (`external view returns (`), events, errors, modifiers, `mapping(`, data locations, NatSpec.
    "solidity": (
        r"^\s*pragma solidity\b|^\s*(?:abstract\s+)?(?:contract|library)\s+\w+\s*(?:is\b|\{)"
        r"|^\s*interface\s+\w+\s+is\b",
        r"^\s*(?:function\s+\w*\s*\([^)]*\)|\))\s*(?:external|public|internal|private|pure|view|payable|virtual|"
        r"override|returns)\b",
        r"^\s*(?:event|error|modifier)\s+\w+\s*[({]|^\s*(?:emit|revert)\s+[A-Z]\w*\(|^\s*using\s+[A-Z]\w*\s+for\s",
        r"^\s*(?:mapping\s*\(|assembly\s*(?:\(\"[^\"]*\"\)\s*)?\{)|^import\s.*\.sol[\"'];$",
        r"^\s*(?:(?:///|\*)\s*@(?:notice|dev|inheritdoc|custom:\w)"
        r"|(?:u?int(?:8|16|32|64|128|256)|bytes(?:[1-9]\d?)?|address|string|bool)(?:\[\d*\])*\s+"
        r"(?:(?:public|private|internal|constant|immutable|memory|calldata|storage|payable)\b\s*)+)",
    ),
    # PowerShell: verb-noun functions (`function Get-Thing`), `[CmdletBinding()]`, `param(`, its
    # comment help (`<#`, `.SYNOPSIS`), cmdlets opening a line, `[string]$x`, `$true`, `$env:X` (a
    # console's `PS C:\> …` lines are no script's: `languages.guess_language` passes them by).
    "powershell": (
        r"^\s*(?:function|filter|workflow)\s+(?:(?:global|script|private):)?[A-Z][a-z]+-[A-Z]\w*",
        r"^\s*\[(?:CmdletBinding|Parameter|OutputType|Alias|Validate\w+|ArgumentCompleter)\b|^\s*param\s*\(\s*(?:\[|\$|$)",
        r"^\s*<#\s*$|^\s*\.(?:SYNOPSIS|DESCRIPTION|PARAMETER|EXAMPLE|NOTES|OUTPUTS|INPUTS|LINK)\b",
        r"^\s*(?:\$[\w:]+\s*=\s*)?(?:Get|Set|New|Remove|Add|Clear|Write|Read|Import|Export|Test|Join|Split|Invoke|"
        r"Start|Stop|Out|ConvertTo|ConvertFrom|Select|Where|ForEach|Sort|Measure|Format|Update|Resolve|Register|"
        r"Copy|Move|Rename)-[A-Z][a-zA-Z]+\b",
        r"\[[A-Za-z][\w.]*(?:\[\])?\]\s*\$[A-Za-z_]|\$(?i:PSBoundParameters|PSScriptRoot|PSCmdlet|PSItem|MyInvocation|"
        r"PSVersionTable|ErrorActionPreference|env:\w|script:\w|global:\w)|\$(?:[Tt]rue|[Ff]alse|[Nn]ull)\b",
    ),
    # Groovy: its own packages and AST annotations, `def f(x) {` (Scala types its parameters, Python ends
    # with `:`), Java's typed declarations without a `;`, `println x`, closures over `.each {`.
    "groovy": (
        r"^import (?:static )?(?:groovy|org\.codehaus\.groovy|org\.apache\.groovy|spock)\.",
        r"^\s*@(?:CompileStatic|CompileDynamic|TypeChecked|Canonical|TupleConstructor|Memoized|PackageScope|"
        r"InheritConstructors|AutoClone|Field|Grab|Newify|Sortable|MapConstructor|NamedVariant|AutoFinal)\b",
        r"^\s*(?:(?:public|private|protected|static|final|synchronized|abstract)\s+)*def\s+[\w\"']+\s*\([^:]*\)\s*"
        r"(?:throws [\w., ]+)?\{\s*$",
        r"^\s*(?:(?:private|protected|public|static|final)\s+)*(?:String|Integer|Long|Boolean|Double|Map|List|Set|"
        r"Object|Closure|File|BigDecimal)(?:<[^;]*>)?(?:\[\])?\s+[a-z]\w*\s*(?:=[^;]*[^;,({+*/&|=.\s-]\s*)?$",
        r"^\s*println\s+[^\s(=]|\.(?:each|eachWithIndex|findAll|collectEntries|collectMany|eachLine)\s*\{(?!\s*\|)",
    ),
    # F#: attributes (`[<AutoOpen>]`), members, `let inline` / `let mutable`, `module M =`, `open System`,
    # `'T` type parameters, `printfn`, computation expressions (`let!`, `return!`).
    "fsharp": (
        r"^\s*\[<[A-Z][\w.]*(?:\(.*\))?(?:\s*;\s*[A-Z][\w.]*(?:\(.*\))?)*>\]",
        r"^\s*(?:(?:static|abstract|override|default)\s+)*member\s+(?:(?:inline|private|internal|val)\s+)*[\w.]+",
        r"^\s*let\s+(?:inline|private|internal|mutable)\s|^\s*(?:let|use|return|do|match|yield)!\s",
        r"^\s*module\s+(?:(?:private|internal|rec)\s+)?[A-Z]\w*\s*=\s*$"
        r"|^open (?:type )?(?:System|FSharp|Microsoft)\b",
        r"<'[A-Z]\w*(?:\s*,\s*'[A-Z]\w*)*>|eprintfn\s+\$?\"|printfn\s+\$?\"|failwithf\s+\$?\"",
    ),
    "objc": (
        r"^#import [<\"]",
        r"^@(?:interface|implementation|end|property|protocol|synthesize)\b",
        r"^[-+] \(\w",
    ),
}
# A line that is a sign of one of the values is no sign of the key: Zig's `fn f(x: u8) void {`
# is also Rust's `fn f(` start, but Rust writes no return type there without `->`.
# Swift's `import Foundation` and Kotlin's `import okio.Buffer` (a class) are also Python's shape.
NARROWER: dict[str, frozenset[str]] = {
    "rust": frozenset({"zig", "perl"}),  # and Perl's `use strict;`, `use Foo::Bar;`
    "python": frozenset({"swift", "kotlin", "groovy"}),  # and Groovy's `def f() {`
    # Pascal's `function f(x: T): R;`, Julia's `function f(x::T)`, Solidity's `function f() external`
    "javascript": frozenset({"pascal", "julia", "solidity"}),
    "lua": frozenset({"julia"}),  # Julia's `function Base.show(io::IO, x)`
    "bash": frozenset({"powershell"}),  # PowerShell's `function Get-Thing {`
    "haskell": frozenset({"swift"}),
    "matlab": frozenset({"fortran"}),  # `endif`, `endfunction`
    # a call alone on a line (`library(x)`) reads as a declaration, and so does `function f(x::T)`
    "c": frozenset({"r", "matlab", "julia"}),
}
# Lines several languages write alike: one counts for whichever of its languages the other signs name
# most (the first on a tie); when none of them has a sign of its own, for the language named last, as
# before the others had signs, or for none: a log's lone `end` lines make no Ruby of it.
SHARED_PARTS: dict[str, tuple[str, tuple[str, ...], str | None]] = {
    # `end` closes a block in all of them (counted for Ruby alone, a Lua file's `end`s outnumbered its
    # own signs; counted for Lua, an OCaml `if … then` made Lua a rival)
    "block_end": (r"\s*end$", ("ruby", "lua", "elixir", "ocaml", "matlab", "julia"), None),
    # a class imported without `;` (Python imports modules, Java ends with `;`), then a dotted module or
    # function (`import os.path`, `import kotlinx.coroutines.launch`), a single capitalised module
    "jvm_import": (
        r"import [a-z]\w*(?:\.[a-z]\w*)*\.[A-Z]\w*(?: as \w+)?$",
        ("kotlin", "scala", "groovy"),
        "kotlin",
    ),
    "dotted_import": (
        r"import [a-z_]\w*(?:\.\w+)+(?: as \w+)?$",
        ("python", "kotlin", "scala", "groovy"),
        "python",
    ),
    "module_import": (r"import [A-Z]\w*$", ("swift", "haskell"), "haskell"),
    # `self.x = y` (Zig's and Rust's end in `;`), in Swift's and Lua's methods as in Python's
    "self_line": (r"\s+self\.(?!.*;\s*$)", ("python", "swift", "lua"), "python"),
    # `let f x =` (parameters without parentheses), `open M`
    "ml_let": (
        r"let (?:rec )?[a-z_]\w*(?: [~?]?\(?[a-z_][\w:' ]*\)?)+ =|open [A-Z][\w.]*$",
        ("ocaml", "fsharp"),
        "ocaml",
    ),
    "pipe": (r"\s*\|> \w", ("elixir", "fsharp", "ocaml"), "elixir"),
    "xml_doc": (r"\s*///\s*<(?:summary|param|returns)\b", ("csharp", "fsharp"), "csharp"),
}
SHARED = re.compile("|".join(f"(?P<{kind}>{pattern})" for kind, (pattern, _, _) in SHARED_PARTS.items()))


def _branches(pattern: str) -> list[str]:
    """The alternatives of `pattern` at its top level (not inside a group or a character class)."""
    out: list[str] = []
    depth = start = i = 0
    in_class = False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            i += pattern.startswith("^", i + 1)
            i += pattern.startswith("]", i + 1)  # a `]` first in a class is literal
        elif ch in "()":
            depth += 1 if ch == "(" else -1
        elif ch == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return out


_INDENT = r"\s*"


def _compiled(parts: tuple[str, ...]) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """A language's signs as (those at a line's start, for `match`; the others, for `search`).

    One pattern of them all is tried at every column, its `^` branches failing there one by one;
    apart, the anchored ones are tried once, and the others' first characters let `search` skip
    (so an unanchored sign opens with a literal: `::(?<=[a-z]::)Int`, not `(?<=[a-z])::Int`,
    `func(?<=\\bfunc)`, not `\\bfunc`, and `printfn|eprintfn`, not `e?printfn`).
    """
    branches = [b for part in parts for b in _branches(part)]
    heads = [b[1:] for b in branches if b.startswith("^")]
    # the indentation most heads allow is read once, not again by each (`\s*(?:A|B)`, not `\s*A|\s*B`)
    indented = [h.removeprefix(_INDENT) for h in heads if h.startswith(_INDENT)]
    if indented:
        heads = [h for h in heads if not h.startswith(_INDENT)] + [_INDENT + "(?:" + "|".join(indented) + ")"]
    anywhere = [b for b in branches if not b.startswith("^")]
    return (
        re.compile("|".join(heads)) if heads else None,
        re.compile("|".join(anywhere)) if anywhere else None,
    )


# Per language: its signs at a line's start (`match`) and anywhere in it (`search`).
SIGNS = tuple((lang, *_compiled(parts)) for lang, parts in SIGN_PARTS.items())
