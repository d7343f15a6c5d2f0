"""Texts near the signs of Julia, Solidity, PowerShell, Groovy and F#, and texts that are no code."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.structure.languages import guess_language
from tests.mcp_pruner_server.pruning.structure.test_language_signs import PYTHON, RUBY
from tests.mcp_pruner_server.pruning.structure.test_language_signs_five_languages import POWERSHELL


def _lines(text: str) -> list[str]:
    return text.split("\n")


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
