"""Languages without a grammar wheel (R, Erlang, MATLAB, Clojure, Visual Basic, Pascal): named by path or
by lines, their definitions found by a scan of their own."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.structure.clojure_blocks import clojure_blocks
from mcp_pruner_server.pruning.structure.erlang_blocks import erlang_blocks
from mcp_pruner_server.pruning.structure.languages import guess_language, language_of
from mcp_pruner_server.pruning.structure.matlab_blocks import matlab_blocks
from mcp_pruner_server.pruning.structure.pascal_blocks import pascal_blocks
from mcp_pruner_server.pruning.structure.r_blocks import r_blocks
from mcp_pruner_server.pruning.structure.scanned import scanned_blocks
from mcp_pruner_server.pruning.structure.vbnet_blocks import vbnet_blocks
from mcp_pruner_server.pruning.types import PruneOptions


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("R/summarise.R", "r"),
        ("R/utils.r", "r"),
        ("src/cowboy_req.erl", "erlang"),
        ("include/rec.hrl", "erlang"),
    ],
)
def test_r_and_erlang_are_named_by_their_extension(path: str, lang: str) -> None:
    assert language_of(path) == lang


def test_a_language_without_a_scan_is_left_to_the_heuristics() -> None:
    assert scanned_blocks(["def f():", "    return 1"], "python") is None
    assert scanned_blocks(["x <- 1", "print(x)"], "r") is None  # a script without functions


R_SOURCE = """\
#' Add one
#'
#' @param x A number.
#' @export
add_one <- function(
  x,
  label = "{not a brace}"
) {
  # a } in a comment
  helper <- function(y) {
    y + 1
  }
  helper(x)
}

`%+%` <- function(a, b) paste0(a,
                                b)

Counter <- R6Class("Counter", public = list(
  add = function(n = 1) {
    private$n <- private$n + n
  }
))
""".splitlines()


def test_an_r_function_runs_from_its_roxygen_to_its_closing_brace() -> None:
    blocks = r_blocks(R_SOURCE)
    first = blocks[0]
    assert (first.name, first.start, first.header, first.end) == ("add_one", 0, 4, 14)
    assert first.sig_end == 8  # the parameters over three lines, up to the body's `{`


def test_a_closure_is_part_of_its_r_function_and_a_bare_body_ends_with_its_expression() -> None:
    names = [(b.name, b.header, b.end) for b in r_blocks(R_SOURCE)]
    assert "helper" not in [n for n, _, _ in names]
    assert ("%+%", 15, 17) in names  # a body without braces, continued on the next line
    assert ("add", 19, 22) in names  # an R6 method bound with `=` inside a call


ERLANG_SOURCE = """\
-module(m).
-export([area/1]).

%% @doc The surface measure of a geometric shape,
%% computed for each kind of shape.
-spec area(shape()) -> float().
area({square, Side}) ->
    Side * Side;

area({circle, R}) ->
    Dot = $.,
    io:format("r. ~p~n", [R]), % not the end.
    3.14159 * R * R * Dot.

-spec other() -> ok.
other() -> ok.
""".splitlines()


def test_an_erlang_function_is_its_spec_and_all_its_clauses_to_the_final_dot() -> None:
    blocks = erlang_blocks(ERLANG_SOURCE)
    assert [(b.name, b.start, b.header, b.end) for b in blocks] == [("area", 3, 5, 13), ("other", 14, 14, 16)]
    assert blocks[0].sig_end == 7  # the `-spec` and the first clause's head


def test_a_file_read_by_path_gets_its_language_scan() -> None:
    assert scanned_blocks(ERLANG_SOURCE, language_of("src/m.erl")) == erlang_blocks(ERLANG_SOURCE)
    assert scanned_blocks(R_SOURCE, language_of("R/add.R")) == r_blocks(R_SOURCE)


MATLAB_SOURCE = """\
function y = smooth(x, n)
%SMOOTH   Moving average of X over N points.
%   Y = SMOOTH(X, N) ...
if nargin < 2
    n = 3;
end
s = 'end of input';  % a string holding `end`
y = x(2:end)';  % an index `end` and a transpose
for k = 1:n
    y = helper(y);
end
end

% HELPER   One pass.
function z = helper(y)
z = [y(1), (y(1:end-1) + y(2:end)) / 2];
end
""".splitlines()

MATLAB_WITHOUT_END = """\
function y = first(x)
% FIRST   Doubles.
if x > 0
  y = 2 * x;
end

% SECOND   Triples.
function y = second(x)
y = 3 * x;
""".splitlines()


@pytest.mark.parametrize(
    ("lines", "lang"),
    [
        (MATLAB_SOURCE, "matlab"),
        (
            [
                "## Copyright (C) 2020 Someone",
                "## -*- texinfo -*-",
                "",
                "function p = anova1 (x)",
                "endfunction",
            ],
            "matlab",
        ),
        (["classdef Counter < handle", "end"], "matlab"),
        (["// Copyright", "#import <Foundation/Foundation.h>", "@implementation X", "@end"], "objc"),
        (["/* a note */", '#import "x.h"', "function f() {}"], "objc"),
    ],
)
def test_a_dot_m_file_is_matlab_when_its_first_code_opens_a_function_or_class(
    lines: list[str], lang: str
) -> None:
    assert language_of("src/file.m", lines) == lang


def test_a_matlab_function_ends_at_its_own_end_not_an_index_or_a_block() -> None:
    blocks = matlab_blocks(MATLAB_SOURCE)
    assert [(b.name, b.start, b.header, b.end) for b in blocks] == [
        ("smooth", 0, 0, 12),
        ("helper", 13, 14, 17),
    ]


def test_matlab_functions_without_end_run_to_the_next_one() -> None:
    blocks = matlab_blocks(MATLAB_WITHOUT_END)
    assert [(b.name, b.start, b.header, b.end) for b in blocks] == [("first", 0, 0, 5), ("second", 6, 7, 9)]


def test_matlab_methods_inside_a_class_are_blocks() -> None:
    lines = [
        "classdef Counter < handle",
        "    properties",
        "        n = 0",
        "    end",
        "    methods",
        "        function add(obj, k)",
        "            obj.n = obj.n + k;",
        "        end",
        "    end",
        "end",
    ]
    assert [(b.name, b.header, b.end) for b in matlab_blocks(lines)] == [("add", 5, 8)]


def test_an_octave_texinfo_help_a_blank_line_above_its_function_is_its_doc() -> None:
    lines = [
        "## Copyright (C) 2020",
        "",
        "## -*- texinfo -*-",
        "## @deftypefn {} {} f (@var{x})",
        "",
        "function y = f (x)",
        "  y = x;",
        "endfunction",
    ]
    assert [(b.name, b.start, b.header, b.end) for b in matlab_blocks(lines)] == [("f", 2, 5, 8)]


def test_an_otp_doc_attribute_above_the_spec_is_the_erlang_functions_doc() -> None:
    lines = [
        "-module(m).",
        "",
        "%% Note.",
        '-doc """',
        "Doubles a number.",
        '""".',
        "-spec double(integer()) -> integer().",
        "double(X) -> 2 * X.",
    ]
    assert [(b.name, b.start, b.header, b.end) for b in erlang_blocks(lines)] == [("double", 2, 6, 8)]


def _settings_class() -> list[str]:
    lines = ["classdef settings", "    methods", ""]
    for name, word in [
        ("subsref", "lookup"),
        ("subsasgn", "store"),
        ("disp", "print"),
        ("merge", "combine"),
        ("validate", "check"),
        ("reset", "clear"),
        ("lock", "freeze"),
        ("export", "write"),
    ]:
        lines += [
            f"        function out = {name}(obj, s, val)",
            f"            % Handles the {word} of the settings.",
            *[f"            out = obj.{word}{k}(s, val);" for k in range(6)],
            "        end",
            "",
        ]
    return [*lines, "    end", "end"]


def test_a_question_naming_an_operation_finds_the_matlab_method_implementing_it() -> None:
    # `subsasgn` is what MATLAB calls for `obj.x = v`: its help says "subscripted assignment"
    lines = _settings_class()
    text = "\n".join(lines)
    question = "Subscripted assignment for SETTINGS objects, with the new value"
    res = prune(text, question, "code", PruneOptions(path="settings.m"), "t")
    pruned = {i for a in res.annotations for i in range(a.original_start_line - 1, a.original_end_line)}
    target = {i for i, line in enumerate(lines) if "subsasgn" in line or "obj.store" in line}
    assert len(target) == 7
    assert not pruned & target


def test_an_r_question_opening_with_a_functions_name_finds_that_function() -> None:
    # a roxygen title opens with the verb the function is named for; the helpers say more words
    lines = ["summarise <- function(.data, ...) {", '  UseMethod("summarise")', "}", ""]
    for k, helper in enumerate(
        ["summarise_cols", "summarise_build", "group_rows", "group_keys", "group_data"]
    ):
        lines += [f"{helper} <- function(data, groups) {{", "  # each group of rows, one row a group"]
        lines += [f"  rows{j} <- group_rows(data, groups) + {k}" for j in range(8)]
        lines += ["  rows0", "}", ""]
    question = "Summarise each group down to one row of the data"
    res = prune("\n".join(lines), question, "code", PruneOptions(path="R/summarise.R"), "t")
    pruned = {i for a in res.annotations for i in range(a.original_start_line - 1, a.original_end_line)}
    assert not pruned & {0, 1, 2}


def test_a_question_calling_a_matlab_function_in_capitals_finds_that_function() -> None:
    # a help's usage line writes its function in capitals; the helpers' helps say the same words
    lines = ["function [p, q] = ratinterp(f, m, n)", ""]
    lines += [f"    [xi, w{k}] = nodes(f, m + {k});" for k in range(30)]
    lines += ["    [p, q] = fitq(xi, w0, m, n);", "end", ""]
    main = set(range(len(lines) - 1))
    for helper in ["rational_fit", "robust_fit", "interpolant_degrees"]:
        lines += [
            f"function [a, b] = {helper}(f, m, n)",
            "% Computes the robust rational interpolant of F: the interpolation of degrees M and N.",
            "% A robust interpolation computes the rational interpolant's degrees.",
            "% The robust rational interpolation of F computes the interpolant.",
            *[f"    a = b + f(m, n) * {k};" for k in range(4)],
            "end",
            "",
        ]
    question = "Robust rational interpolation. [P, Q] = RATINTERP(F, M, N) computes the interpolant of F."
    res = prune("\n".join(lines), question, "code", PruneOptions(path="ratinterp.m"), "t")
    pruned = {i for a in res.annotations for i in range(a.original_start_line - 1, a.original_end_line)}
    assert not pruned & main


def test_a_matlab_name_cut_short_names_the_question_word_it_starts() -> None:
    # `getTol` is the tolerance the question asks for; the entry point says "grid"
    lines = ["function g = constructor(op, dom)", "% The constructor of the grid."]
    lines += [f"    g{k} = constructor_step(op, dom, {k}); % constructor step" for k in range(10)]
    lines += ["end", "", "function t = getTol(op, h)"]
    lines += [f"    t = max(t, eps * norm(op(h + {k})));" for k in range(6)]
    lines += ["end", "", "function v = vscaleOf(op, dom)"]
    lines += [f"    v = max(v, abs(op(dom({k}))));" for k in range(6)]
    lines += ["end"]
    question = "Calculate a tolerance for the grid."
    res = prune("\n".join(lines), question, "code", PruneOptions(path="constructor.m"), "t")
    pruned = {i for a in res.annotations for i in range(a.original_start_line - 1, a.original_end_line)}
    header = lines.index("function t = getTol(op, h)")
    target = set(range(header, header + 8))
    assert not pruned & target


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("src/malli/core.cljc", "clojure"),
        ("src/clj/clojure/java/io.clj", "clojure"),
        ("script/release.bb", "clojure"),
        ("src/Reflection.vb", "vbnet"),
        ("Module1.bas", "vbnet"),
        ("tools/cleanup.vbs", "vbnet"),
        ("src/uhotdir.pas", "pascal"),
        ("HeidiSQL.dpr", "pascal"),
        ("doublecmd.lpr", "pascal"),
    ],
)
def test_the_extension_names_clojure_visual_basic_and_pascal(path: str, lang: str) -> None:
    assert language_of(path) == lang


def test_a_dot_pp_file_is_pascal_only_when_it_opens_as_a_unit() -> None:
    unit = ["{", "  This file is part of", "  Free Pascal's XML utilities", "}", "{$mode objfpc}{$H+}"]
    unit += ["(* a note *) // and another", "unit xmlutils;", "interface"]
    puppet = ["# Manages the web server", "class apache (", "  $port = 80,", ") {", "}"]
    assert language_of("src/xmlutils.pp", unit) == "pascal"
    assert language_of("manifests/init.pp", puppet) is None


PASCAL_LINES = """\
unit Grips;

{$mode objfpc}{$H+}

interface

uses
  Classes, SysUtils;

type
  TSizeGrip = class(TComponent)
  private
    procedure UpdateGrip;
    function GripRect(const Margin: Integer): TRect;
  public
    property Enabled: Boolean read FEnabled write SetEnabled;
  end;

implementation
""".splitlines()

VB_LINES = """\
Imports System.IO
Option Strict On

Namespace Devices
    Public Class Network
        ''' <summary>
        ''' Uploads a file to the host.
        ''' </summary>
        Public Sub UploadFile(path As String)
            Dim client As New WebClient()
            For Each part In parts
                client.Send(part)
            Next
        End Sub
    End Class
End Namespace
""".splitlines()

CLOJURE_LINES = """\
(ns clojure.java.io
  (:require [clojure.string :as str])
  (:import (java.io Reader Writer)))

(defprotocol Coercions
  (as-file [x]))

(defn ^Writer writer
  "Attempts to coerce its argument into an open java.io.Writer."
  [x & opts]
  (make-writer x (when opts (apply hash-map opts))))
""".splitlines()


# A file of `clojure.core` loaded into its namespace: no `(ns`, no `(defn`.
CLOJURE_IN_NS = """\
;   Copyright (c) Rich Hickey. All rights reserved.
(in-ns 'clojure.core)

(definterface IVecImpl
  (^int tailoff []))

(deftype VecNode [edit arr])

(defonce EMPTY-NODE (VecNode. nil (object-array 32)))
""".splitlines()


@pytest.mark.parametrize(
    ("lines", "lang"),
    [(PASCAL_LINES, "pascal"), (VB_LINES, "vbnet"), (CLOJURE_LINES, "clojure"), (CLOJURE_IN_NS, "clojure")],
)
def test_clojure_visual_basic_and_pascal_are_recognised_by_their_lines(lines: list[str], lang: str) -> None:
    assert guess_language(lines) == lang


@pytest.mark.parametrize(
    "lines",
    [
        # Common Lisp imports and `defmethod`s as Clojure does not
        ["(defpackage #:lem/canvas", "  (:use #:cl)", "  (:import-from #:lem/buffer", "   #:point))"]
        + ["(defmethod draw ((c canvas))", "  (render c))"] * 2,
        # Erlang closes its blocks with `end.` and `end;` alone on a line, as Pascal does
        ["-module(gun_http).", "handle(State) ->", "    case State of", "        ok -> ok", "    end."] * 3,
        # Dart's multi-line strings open with `'''`, as a VB doc comment does
        ["final doc = '''", "  text", "''';", "import 'package:riverpod/riverpod.dart';"] * 3,
    ],
)
def test_lisp_erlang_and_dart_lines_are_not_read_as_the_new_languages(lines: list[str]) -> None:
    assert guess_language(lines) not in ("clojure", "pascal", "vbnet")


PASCAL_SOURCE = """\
unit Grips;

interface

type
  TSizeGrip = class
    procedure UpdateGrip;
  end;

implementation

{ Update (and invalidate)
  the current grip rectangle }
procedure TSizeGrip.UpdateGrip;
var
  R: record
    Left, Top: Integer;
  end;

  procedure Inner;
  begin
    Invalidate;
  end;

begin
  Inner;
  { end; in a comment }
end;

// Finds the grip's rectangle
function GripRect(const Margin: Integer;
  Scale: Double): TRect;
begin
  Result := Rect(0, 0, Margin, Margin);
end;

procedure Later; forward;

initialization
  RegisterGrip;
end.
""".splitlines()


def test_a_pascal_routine_runs_from_its_comment_to_its_own_end_past_local_types_and_nested_routines() -> None:
    blocks = pascal_blocks(PASCAL_SOURCE)
    assert [(b.name, b.start, b.header, b.end, b.sig_end) for b in blocks] == [
        ("UpdateGrip", 11, 13, 28, 14),
        ("GripRect", 29, 30, 35, 32),  # its parameters over two lines
    ]


def test_a_pascal_unit_without_an_implementation_section_has_no_routines_to_scan() -> None:
    assert pascal_blocks(PASCAL_LINES[:18]) == []


VB_SOURCE = """\
Public Class Network
    ''' <summary>
    ''' Uploads a file to the host.
    ''' </summary>
    <Extension>
    Public Sub UploadFile(path As String,
                          host As String)
        Dim send = Function(x)
                       Return x
                   End Function
        If path Is Nothing Then Exit Sub
    End Sub

    ''' <summary>Creates the client.</summary>
    Public Sub New()
    End Sub

    Public ReadOnly Property Timeout As Integer
        Get
            Return 100
        End Get
    End Property

    Public Property Name As String

    Public MustOverride Function Connect() As Boolean
End Class

Public Interface IClient
    Function Send(data As String) As Boolean
    Sub Close()
End Interface

Module Helpers
    Sub Close()
    End Sub
End Module
""".splitlines()


def test_a_vb_procedure_runs_from_its_doc_and_attributes_to_its_end_at_its_own_indentation() -> None:
    blocks = vbnet_blocks(VB_SOURCE)
    assert [(b.name, b.start, b.header, b.end, b.sig_end, b.parent) for b in blocks[:6]] == [
        ("Network", 0, 0, 27, 1, None),  # a class: its members' context
        ("UploadFile", 1, 5, 12, 7, 0),  # a multi-line lambda's `End Function` ends nothing
        ("new", 13, 14, 16, 15, 0),  # a constructor is named `new`, as Ruby's and Perl's are
        ("Timeout", 17, 17, 22, 18, 0),
        ("Name", 23, 23, 24, 24, 0),  # an auto-property and an abstract member are their heads
        ("Connect", 25, 25, 26, 26, 0),
    ]


def test_an_interface_member_has_no_body_to_look_for_in_the_next_type() -> None:
    blocks = vbnet_blocks(VB_SOURCE)
    assert [(b.name, b.header, b.end, b.container) for b in blocks[6:]] == [
        ("IClient", 28, 32, True),
        ("Send", 29, 30, False),  # not to the module's `End Sub` below
        ("Close", 30, 31, False),
        ("Helpers", 33, 37, True),
        ("Close", 34, 36, False),
    ]


CLOJURE_SOURCE = """\
(ns demo.core)

;; Reads a file.
(defn ^:private ^String slurp-it
  "Reads the file at path, with a \\"quoted\\" word
  and a ) in its docstring."
  [path]
  (let [c \\(]
    (str c (slurp path)))) ; a ( in a comment

(defmulti area :shape)
""".splitlines()


def test_a_clojure_definition_is_its_form_to_the_closing_paren_named_past_its_metadata() -> None:
    blocks = clojure_blocks(CLOJURE_SOURCE)
    assert [(b.name, b.start, b.header, b.end) for b in blocks] == [
        ("slurp-it", 2, 3, 9),
        ("area", 10, 10, 11),
    ]


def test_files_read_by_path_get_the_new_languages_scans() -> None:
    assert scanned_blocks(PASCAL_SOURCE, language_of("src/grips.pas")) == pascal_blocks(PASCAL_SOURCE)
    assert scanned_blocks(VB_SOURCE, language_of("Network.vb")) == vbnet_blocks(VB_SOURCE)
    assert scanned_blocks(CLOJURE_SOURCE, language_of("src/demo/core.clj")) == clojure_blocks(CLOJURE_SOURCE)
