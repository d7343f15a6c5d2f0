"""Which programming language a text is in: from its file's extension, a shebang, or its lines.

Without a path (`prune_text`, `jeeves prune -`), the first lines are looked at for what only one
language writes at the start of a line (`package main` + `func`, `use std::` / `fn`,
`#include`, `import x.y.Z;` …). An unclear text gives None and the engine finds units with its
language-independent heuristics; a wrong guess costs little, as a parse with many errors is
not trusted (`syntax.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from mcp_pruner_server.pruning.structure.dot_m import is_matlab
from mcp_pruner_server.pruning.structure.pascal_blocks import is_pascal

# Extension (lower case) -> language; the names are the keys of `syntax_grammars.GRAMMARS`.
EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".groovy": "groovy",
    ".gradle": "groovy",
    ".nf": "groovy",  # Nextflow
    ".rs": "rust",
    ".c": "c",
    ".h": "c",  # unless its lines say C++ (`language_of`); `.hpp` says C++ outright
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".c++": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".java": "java",
    ".cs": "csharp",
    ".csx": "csharp",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".ru": "ruby",
    ".php": "php",
    ".phtml": "php",
    ".sh": "bash",
    ".bash": "bash",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".lua": "lua",
    ".zig": "zig",
    ".hs": "haskell",
    ".dart": "dart",
    ".swift": "swift",
    ".ml": "ocaml",
    ".mli": "ocaml_interface",
    ".pl": "perl",
    ".pm": "perl",
    ".m": "objc",  # or MATLAB, Octave: `is_matlab` tells
    ".scala": "scala",
    ".sc": "scala",
    ".sol": "solidity",  # else sniffed as JavaScript and misparsed
    ".ex": "elixir",
    ".exs": "elixir",
    ".jl": "julia",
    ".fs": "fsharp",  # its `///` XML docs would sniff as C#'s, its `let f x =` as OCaml's
    ".fsx": "fsharp",
    ".f90": "fortran",  # `.F90` too (preprocessed): extensions are looked up in lower case
    ".f95": "fortran",
    ".f03": "fortran",
    ".f08": "fortran",
    # Fixed form (columns, `C` comments): most such files fail the free-form parse, which then
    # gives way to the heuristics; those written with `!` comments parse as free form.
    ".f": "fortran",
    ".for": "fortran",
    ".f77": "fortran",
}
# Languages known by their extension but without a grammar here: named, so that their lines
# are not sniffed (Crystal's `def … end` would read as Ruby, and a wrong parse costs time and its
# units would be trusted), and their units found by the heuristics.
UNPARSED_EXTENSIONS: dict[str, str] = {
    ".r": "r",
    ".mm": "objcpp",
    ".erl": "erlang",
    ".hrl": "erlang",
    ".clj": "clojure",
    ".cljs": "clojure",
    ".cljc": "clojure",
    ".bb": "clojure",  # babashka
    ".el": "elisp",
    ".fsi": "fsharp_signature",  # F#'s grammar of signatures fails on members and nested types
    ".lisp": "commonlisp",
    ".lsp": "commonlisp",
    ".psm1": "powershell",
    ".cr": "crystal",
    ".nim": "nim",
    ".sql": "sql",
    ".ps1": "powershell",
    ".vb": "vbnet",
    # VBA and VB6 modules, VBScript: their procedures close as VB.NET's do (`vbnet_blocks.py`)
    ".bas": "vbnet",
    ".vbs": "vbnet",
    ".pas": "pascal",  # Delphi, Free Pascal (`pascal_blocks.py`); `.pp` is Puppet's too: `is_pascal`
    ".dpr": "pascal",
    ".lpr": "pascal",
    ".dpk": "pascal",
}
# Whole file names (lower case) that say the language without an extension.
FILE_NAMES: dict[str, str] = {
    "rakefile": "ruby",
    "gemfile": "ruby",
    ".bashrc": "bash",
    ".bash_profile": "bash",
    ".profile": "bash",
    "pkgbuild": "bash",
    "jenkinsfile": "groovy",
}
# Interpreter named by a shebang -> language.
INTERPRETERS: dict[str, str] = {
    "python": "python",
    "node": "javascript",
    "nodejs": "javascript",
    "deno": "typescript",
    "ts-node": "typescript",
    "ruby": "ruby",
    "php": "php",
    "bash": "bash",
    "sh": "bash",  # POSIX sh, dash and ksh scripts parse as Bash well enough for their functions
    "dash": "bash",
    "ksh": "bash",
    "kotlin": "kotlin",  # `kotlin` runs `.main.kts` scripts
    "lua": "lua",
    "scala": "scala",
    "scala-cli": "scala",
    "swift": "swift",
    "runhaskell": "haskell",
    "runghc": "haskell",
    "perl": "perl",
    "elixir": "elixir",
    "julia": "julia",
    "groovy": "groovy",
    "pwsh": "powershell",  # read by the heuristics; its calls need no parentheses (`calls.py`)
    "Rscript": "r",
}
# `#!/usr/bin/env -S python3 -u`, `#!/usr/local/bin/python3.11`: the interpreter's base name.
_SHEBANG = re.compile(r"^#!\s*\S*?/?(?:env\s+(?:-\S+\s+)*)?([A-Za-z][\w.+-]*?)(?:[\d.]+)?(?:\s|$)")


# Line starts only one language writes (alternatives; `#include` alone is C or C++).
_SIGN_PARTS: dict[str, tuple[str, ...]] = {
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
        r"^\s*///\s*<(?:summary|param|returns)\b",
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
        r"^import \w+(?:\.\w+)*(?: as \w+)?$",
        r"^\s+(?:elif|except\b|self\.(?!.*;\s*$))",  # Zig's and Rust's `self.x = y;` end in `;`
    ),
    "kotlin": (
        r"^\s*(?:(?:public|private|internal|protected|override|open|abstract|suspend|inline|operator|"
        r"infix|tailrec|actual|expect)\s+)*fun\s+(?:<[^>]*>\s*)?[\w.`]+\(",
        r"^\s*(?:companion object\b|data class \w|sealed (?:class|interface) \w)",
        r"^import [a-z]\w*(?:\.[a-z]\w*)+\.[A-Z]\w*$",  # a class: Python imports modules
        r"^\s*(?:(?:private|internal|override|lateinit)\s+)*va[lr] \w+(?:: [\w<>?, .]+)? by ",
    ),
    "swift": (
        r"^import (?:Foundation|UIKit|SwiftUI|Combine|XCTest|AppKit|Dispatch|os)$",
        r"\bfunc \w+(?:<[^>]*>)?\(.*\)\s*(?:async\s+)?(?:re)?(?:throws\s+)?->",  # Go has no `->`
        r"^\s*(?:guard (?:let|var) |if (?:let|var) \w+ = |@(?:objc|discardableResult|inlinable|MainActor)\b)",
        r"^\s*(?:(?:public|private|fileprivate|internal)\s+)?extension [A-Z]\w*(?:\.\w+)*\s*(?::[^{]*)?\{",
    ),
    "scala": (
        r"^\s*(?:(?:override|final|private|protected|implicit)(?:\[\w+\])?\s+)*def \w+(?:\[[^\]]*\])?"
        r"(?:\(.*\))*\s*:\s*[\w\[(]",  # a return type after `:` (Python's `def f(x):` ends there)
        r"^\s*(?:sealed |abstract )?(?:trait \w+|case class \w+|(?:case )?object \w+ (?:extends|\{))",
        r"^import [\w.]+\.(?:_|\{[^}]*\}|given)$",
    ),
    "dart": (
        r"^(?:import|export) '(?:package|dart):",
        r"^part (?:of )?'",
        r"^\s*@override$",
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
        r"^import (?:qualified )?[A-Z][\w.]*(?: as [A-Z]\w*)?(?: hiding)?(?: \(|$)",
        r"^[a-z_]\w*'* :: ",
        r"^\{-#|^\s*where$",
    ),
    "ocaml": (
        r"^let (?:rec )?[a-z_]\w*(?: [~?]?\(?[a-z_][\w:' ]*\)?)+ =",  # parameters without parentheses
        r"^open [A-Z][\w.]*$",
        r"^module [A-Z]\w* = struct\b|^\s*(?:end|done);;$|^\(\*",
    ),
    # Not to be read as Ruby, whose `def … do` and `end` it shares.
    "elixir": (
        r"^\s*(?:defmodule [A-Z][\w.]*|defp? [\w?!]+.*|defmacro [\w?!]+.*) do$",
        r"^\s*@(?:moduledoc|doc|spec|impl|behaviour|typedoc)\b",
        r"^\s*\|> \w",
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
    # Clojure: `(ns a.b`, `(in-ns 'a.b)`, `(def x`, `(defn f`, `(:require [`, `(:use [` (not Common
    # Lisp's `defmethod`, `deftype` and `defmacro`).
    "clojure": (
        r"^\((?:ns|in-ns|def|defn-?|defonce|defprotocol|defrecord|defmulti|definterface|extend-(?:type|protocol))"
        r"(?=\s|$)",
        r"^\s*\(:(?:require|import|refer-clojure|gen-class)(?=\s|$)|^\s*\(:use \[",
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
_NARROWER: dict[str, frozenset[str]] = {
    "rust": frozenset({"zig", "perl"}),  # and Perl's `use strict;`, `use Foo::Bar;`
    "python": frozenset({"swift", "kotlin"}),
    "javascript": frozenset({"pascal"}),  # Pascal's `function f(x: T): R;` heads
    "haskell": frozenset({"swift"}),
}
_SIGNS = tuple((lang, re.compile("|".join(parts))) for lang, parts in _SIGN_PARTS.items())
# A lone `end` closes a block in Ruby, Lua, Elixir and OCaml alike: it counts for whichever of
# them the other signs name most (counted for Ruby alone, a Lua file's `end`s outnumbered its own
# signs; counted for Lua, an OCaml `if … then` made Lua a rival).
_BLOCK_END = re.compile(r"^\s*end$")
_ENDED = ("ruby", "lua", "elixir", "ocaml")
# Lines looked at, and how many signs one language needs, ahead of any other, to be named.
SNIFF_LINES = 200
MIN_SIGNS = 3
# Only a line's head is looked at: a minified line's megabyte says nothing more.
SNIFF_LINE_CHARS = 300


def guess_language(lines: Sequence[str]) -> str | None:
    """The language whose signs the first `SNIFF_LINES` lines show most, if clearly so."""
    counts = dict.fromkeys([lang for lang, _ in _SIGNS], 0)
    ends = 0
    for line in lines[:SNIFF_LINES]:
        line = line[:SNIFF_LINE_CHARS]
        if _BLOCK_END.match(line):
            ends += 1
            continue
        matched = {lang for lang, sign in _SIGNS if sign.search(line)}
        for lang in matched:
            if not _NARROWER.get(lang, frozenset()) & matched:
                counts[lang] += 1
    counts[max(_ENDED, key=lambda lang: counts[lang])] += ends
    if counts["cpp"] and counts["c"]:
        counts["cpp"] += counts["c"]  # C++ includes and declares like C
    if counts["typescript"] and counts["javascript"]:
        counts["typescript"] += counts["javascript"]  # TS imports and exports like JS
    if counts["objc"] and counts["c"]:
        counts["objc"] += counts["c"]  # Objective-C includes and defines like C
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    (best, top), (_, second) = ranked[0], ranked[1]
    if top < MIN_SIGNS or (top < 2 * second and best not in ("cpp", "typescript", "objc")):
        return None
    return best


def language_of(path: str | None, lines: Sequence[str] = ("",)) -> str | None:
    """The language of the file at `path` holding `lines`, or None if unsure."""
    if path:
        name = PurePosixPath(path.lower())
        lang = (
            EXTENSIONS.get(name.suffix) or UNPARSED_EXTENSIONS.get(name.suffix) or FILE_NAMES.get(name.name)
        )
        if lang == "c" and name.suffix == ".h" and guess_language(lines) == "cpp":
            return "cpp"  # a C++ header: `namespace`, `template<…>`, `class X {`, `std::`
        if lang == "objc" and is_matlab(lines):
            return "matlab"  # no grammar: its own scan (`matlab_blocks.py`)
        if name.suffix == ".pp" and is_pascal(lines):
            return "pascal"
        if lang is not None:
            return lang
    if lines and lines[0].startswith("<?php"):
        return "php"  # as sure as a shebang
    m = _SHEBANG.match(lines[0] if lines else "")
    if m is not None:
        return INTERPRETERS.get(m.group(1).rsplit("/", 1)[-1])
    return guess_language(lines)
