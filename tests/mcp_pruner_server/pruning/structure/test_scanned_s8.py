"""Clojure, Visual Basic and Pascal: named by path or by lines, their definitions found by a scan."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.structure.clojure_blocks import clojure_blocks
from mcp_pruner_server.pruning.structure.languages import guess_language, language_of
from mcp_pruner_server.pruning.structure.pascal_blocks import pascal_blocks
from mcp_pruner_server.pruning.structure.scanned import scanned_blocks
from mcp_pruner_server.pruning.structure.vbnet_blocks import vbnet_blocks


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
