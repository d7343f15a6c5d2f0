from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.structure.languages import guess_language, language_of


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("src/app.js", "javascript"),
        ("lib/index.MJS", "javascript"),
        ("a/b.ts", "typescript"),
        ("view.tsx", "tsx"),
        ("cmd/main.go", "go"),
        ("src/lib.rs", "rust"),
        ("malloc/malloc.c", "c"),
        ("include/x.hpp", "cpp"),
        ("java/util/ArrayList.java", "java"),
        ("pkg/mod.py", "python"),
        ("src/Newtonsoft.Json/JsonConvert.cs", "csharp"),
        ("lib/rack/utils.rb", "ruby"),
        ("tasks/release.rake", "ruby"),
        ("Rakefile", "ruby"),
        ("Symfony/Component/Yaml/Parser.php", "php"),
        ("scripts/build.sh", "bash"),
        ("home/.bashrc", "bash"),
        ("boost/any.hpp", "cpp"),
        ("kernels/reduce.cu", "cpp"),  # CUDA
        ("include/fmt/format-inl.ipp", "cpp"),
        ("src/blink.ino", "cpp"),
        ("functions/prompt.zsh", "bash"),
        ("src/Public/Routes.ps1", "powershell"),  # no grammar: the heuristics read it
        ("Modules/Pode.psm1", "powershell"),
    ],
)
def test_the_extension_names_the_language(path: str, lang: str) -> None:
    assert language_of(path) == lang


@pytest.mark.parametrize(
    ("first_line", "lang"),
    [
        ("#!/usr/bin/env python3", "python"),
        ("#! /usr/bin/python3.11 -u", "python"),
        ("#!/usr/bin/env -S node --no-warnings", "javascript"),
        ("#!/usr/local/bin/ts-node", "typescript"),
        ("#!/bin/bash", "bash"),
        ("#!/bin/sh -e", "bash"),
        ("#!/usr/bin/env ruby", "ruby"),
        ("#!/usr/bin/ruby3.1 -w", "ruby"),
        ("#!/usr/bin/env php", "php"),
        ("<?php", "php"),
        ("#!/usr/bin/perl", "perl"),
        ("#!/usr/bin/env pwsh", "powershell"),
        ("import os", None),
        ("", None),
    ],
)
def test_a_shebang_names_the_language_when_the_path_does_not(first_line: str, lang: str | None) -> None:
    assert language_of("bin/tool", [first_line]) == lang
    assert language_of(None, [first_line]) == lang


def test_the_extension_wins_over_the_shebang() -> None:
    assert language_of("tool.js", ["#!/usr/bin/env python3"]) == "javascript"


@pytest.mark.parametrize(
    ("path", "lines", "lang"),
    [
        ("lib/keyword.ex", ["def new(opts)", "  Keyword.new(opts)", "end"] * 3, "elixir"),
        ("src/show.jl", ["local function show(io)", "    print(io)", "end", "  end"] * 3, "julia"),
        ("src/lists.erl", ["use strict;", "use std::fmt;", "impl X {", "fn f() {"] * 3, "erlang"),
        ("R/mutate.R", ["import os", "def f(x):", "    self.x <- x"] * 3, "r"),
        (
            "src/Json.fsi",
            ["/// <summary>Parses.</summary>", "open System", "let parse (s: string) ="] * 3,
            "fsharp_signature",
        ),
    ],
)
def test_a_known_extension_without_a_grammar_is_not_sniffed_as_another_language(
    path: str, lines: list[str], lang: str
) -> None:
    assert guess_language(lines) not in (None, lang)  # the lines alone look like another language
    assert language_of(path, lines) == lang


def test_an_unknown_extension_without_a_shebang_is_no_language() -> None:
    assert language_of("notes.cfg", ["x = 1"]) is None


GO = ["// Package stock keeps counts.", "package stock", "", "import (", '\t"fmt"', ")", ""]
GO += ["func Total(n int) int {", "\treturn n", "}", "", "func (s *Stock) Add(n int) {", "}"]
RUST = ["use std::fmt;", "use crate::util::{a, b};", "", "#[derive(Debug)]", "pub struct S;", ""]
RUST += ["impl S {", "    pub fn new() -> Self {", "        S", "    }", "}", "fn helper(x: u8) {}"]
C = ["#include <stdio.h>", '#include "local.h"', "#define N 4", "", "static int", "count (int a)", "{", "}"]
JAVA = ["package java.util;", "", "import java.io.Serializable;", "import java.util.function.*;"]
JAVA += ["public class Box implements Serializable {", "}"]
JS = ["'use strict';", "const fs = require('fs');", "function open(p) {", "}", "module.exports = { open };"]
TS = ["import { a } from './a';", "export interface Opts {", "  size: number;", "}"]
TS += ["export type Id = string;", "export const f = (o: Opts): Id => '';"]
CS = ["using System;", "using System.Collections.Generic;", "", "namespace Acme.Widgets", "{"]
CS += [
    "    /// <summary>A widget.</summary>",
    "    public class Widget",
    "    {",
    "        public int Size { get; set; }",
]
CS += ["    }", "}"]
RUBY = [
    "require 'set'",
    "require_relative 'util'",
    "",
    "module Acme",
    "  class Widget < Base",
    "    attr_reader :size",
]
RUBY += ["", "    def grow(n)", "      @size += n", "    end", "  end", "end"]
PHP = ["<?php", "", "namespace Acme\\Widgets;", "", "use Acme\\Util\\Size;", "", "class Widget", "{"]
PHP += ["    public function grow(int $n): void", "    {", "        $this->size += $n;", "    }", "}"]
BASH = ["_widget()", "{", "    local cur prev words cword", "    _init_completion || return", ""]
BASH += [
    "    if [[ $cur == -* ]]; then",
    '        COMPREPLY=($(compgen -W "--help" -- "$cur"))',
    "    fi",
    "} &&",
]
BASH += ["    complete -F _widget widget"]
CPP = ["#include <vector>", "", "namespace acme {", "", "template <typename T>", "class Widget {", " public:"]
CPP += ["  std::vector<T> items;", "};", "", "}  // namespace acme"]
PY = ["import os", "from typing import Any", "", "class A:", "    def f(self):", "        self.x = 1"]
FORTRAN = ["!> Discs.", "module discs", "  use iso_fortran_env, only: dp => real64", "  implicit none"]
FORTRAN += ["contains", "  pure function area(r) result(a)", "    real(dp), intent(in) :: r"]
FORTRAN += ["    REAL(DP) :: a"]
FORTRAN += ["    if (r > 0) then", "      a = r**2", "    end if", "  end function area", "end module discs"]


@pytest.mark.parametrize(
    ("lines", "lang"),
    [
        (GO, "go"),
        (RUST, "rust"),
        (C, "c"),
        (JAVA, "java"),
        (JS, "javascript"),
        (TS, "typescript"),
        (PY, "python"),
        (CS, "csharp"),
        (RUBY, "ruby"),
        (PHP, "php"),
        (BASH, "bash"),
        (CPP, "cpp"),
        (FORTRAN, "fortran"),  # its `if (…) then` is Lua's too
    ],
)
def test_a_text_without_path_is_recognised_by_its_lines(lines: list[str], lang: str) -> None:
    assert guess_language(lines) == lang
    assert language_of(None, lines) == lang


@pytest.mark.parametrize(
    "lines",
    [
        ["2026-01-01 INFO started", "2026-01-01 ERROR failed: timeout", "exit status 1"],
        ["# Title", "", "Some prose about `fn main` and #include files."],
        ["int x;"],
        [],
    ],
)
def test_logs_prose_and_scraps_are_no_language(lines: list[str]) -> None:
    assert guess_language(lines) is None


LUA_ENDS = ["local M = {}", "function M.f(x)", "  if x then", "    return 1", "  end", "  return 2", "end"]
ZIG_SELF = ['const std = @import("std");', "fn grow(self: *W) void {", "    self.size = 1;", "}"]
OCAML_ENDS = ["let f x =", "  if x then 1 else 2", "module M = struct", "  let g = 1", "end", "open Base"]


@pytest.mark.parametrize(
    ("lines", "lang"),
    [
        (LUA_ENDS + ["function M.g(y)", "  return y", "end"] * 6, "lua"),  # its `end`s are no Ruby's
        (ZIG_SELF + ["fn shrink(self: *W) void {", "    self.n -= 1;", "    self.m += 1;", "}"] * 4, "zig"),
        (OCAML_ENDS * 3, "ocaml"),  # `if … then` is Lua's too: the `end`s go to the language leading
    ],
)
def test_block_ends_and_self_lines_count_for_the_language_the_other_signs_name(
    lines: list[str], lang: str
) -> None:
    assert guess_language(lines) == lang


def test_a_dot_h_header_is_cpp_when_its_lines_say_so() -> None:
    assert language_of("include/acme/widget.h", CPP) == "cpp"
    assert language_of("include/stdio.h", C) == "c"


@pytest.mark.parametrize(
    ("hit", "lang"),
    [
        ("lib/rack/utils.rb:120:    def escape(s)", "ruby"),
        ("src/Json/JsonConvert.cs:88:        public static string SerializeObject(object value)", "csharp"),
        ("Symfony/Yaml/Parser.php:61:    public function parse(string $value)", "php"),
        ("completions/apt:12:_apt()", None),  # no extension: a hit's one line says nothing more
    ],
)
def test_a_grep_hit_is_in_the_language_of_its_path(hit: str, lang: str | None) -> None:
    path, _, text = hit.partition(":")
    assert language_of(path, [text.split(":", 1)[1]]) == lang
