"""Visual Basic's scan (`vbnet_blocks.py`) stays linear on blocks left open: it reads each line a
bounded number of times, however many heads have no `End` (counted, not timed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

import pytest

from mcp_pruner_server.pruning.structure.vbnet_blocks import vbnet_blocks

HEADS = 3_000
# Reads of lines per line of text the scan may make: a head's signature is looked at over at
# most 100 lines, everything else a few times; a scan from each head to the next `End` made
# thousands a line.
READS_PER_LINE = 150


class CountedLines(Sequence[str]):
    """The lines, counting how many times one is read."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.reads = 0

    def __len__(self) -> int:
        return len(self.lines)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        picked = self.lines[index]
        self.reads += len(picked) if isinstance(index, slice) else 1
        return picked


@pytest.mark.parametrize(
    "line",
    [
        "Sub F{}()",  # procedures without their `End Sub`
        "Class C{}",  # types without their `End Class`
        "Public Function F{}(a As Integer,",  # signatures going on to the next head, and the next
        "<Obsolete> Sub F{}()",  # attributes on the head's own line
    ],
)
def test_heads_left_open_are_read_a_bounded_number_of_times_each(line: str) -> None:
    text = CountedLines([line.format(k) for k in range(HEADS)])
    blocks = vbnet_blocks(text)
    assert text.reads <= READS_PER_LINE * HEADS
    assert sum(b.end - b.start for b in blocks) <= 2 * HEADS  # no block's lead reaches over others


def test_a_head_left_open_runs_to_the_next_end_of_its_kind_at_its_indentation() -> None:
    lines = ["Module M", "    Sub Open()", "        x = 1", "    Sub Closed()", "    End Sub", "End Module"]
    blocks = vbnet_blocks(lines)
    assert [(b.name, b.start, b.end) for b in blocks] == [("M", 0, 6), ("Open", 1, 5)]


def test_a_procedure_still_ends_at_the_end_of_its_own_indentation_past_a_deeper_one() -> None:
    lines = [
        "    Function Outer() As Integer",
        "        Dim f = Function(x)",
        "                    Return x",
        "                End Function",
        "        Return f(1)",
        "    End Function",
    ]
    (block,) = vbnet_blocks(lines)
    assert (block.name, block.end) == ("Outer", 6)


CLASS_DOCUMENTED_AT_LENGTH = """\
Namespace Analysis

    ''' <summary>
    ''' Morgan fingerprints, also known as circular fingerprints, represent the structure of
    ''' chemical compounds: each atom's environment is encoded, expanded, hashed and folded.
    ''' </summary>
    <Serializable>
    Public MustInherit Class GraphMorganFingerprint

        ''' <summary>the hash code of a label</summary>
        Public Shared Function HashLabelKey(key As String) As ULong
            Return Hash(key)
        End Function
    End Class
End Namespace
""".splitlines()


def test_a_types_doc_and_attributes_are_no_part_of_it_as_its_members_context_is_not() -> None:
    blocks = vbnet_blocks(CLASS_DOCUMENTED_AT_LENGTH)
    assert [(b.name, b.start, b.header, b.container) for b in blocks] == [
        ("Analysis", 0, 0, True),
        ("GraphMorganFingerprint", 7, 7, True),  # its doc is left to the chunks, as a parser's is
        ("HashLabelKey", 9, 10, False),  # a member's own doc is its lead
    ]


OPERATORS = """\
Public Class RowObject
    ''' <summary>Appends a column to the row.</summary>
    Public Shared Operator +(row As RowObject, col As String) As RowObject
        Call row.Add(col)
        Return row
    End Operator

    Public Shared Operator <>(a As RowObject, b As RowObject) As Boolean
        Return Not a.Equals(b)
    End Operator

    Public Shared Widening Operator CType(line As String) As RowObject
        Return New RowObject(line)
    End Operator
End Class
""".splitlines()


def test_an_operator_named_by_its_symbols_is_a_procedure_with_its_doc_as_one_named_by_a_word() -> None:
    blocks = vbnet_blocks(OPERATORS)
    assert [(b.name, b.start, b.header, b.end) for b in blocks[1:]] == [
        (None, 1, 2, 6),  # no word to name it by
        (None, 7, 7, 10),
        ("CType", 11, 11, 14),
    ]


VBA_CLASS = """\
Attribute VB_Name = "Account"
Private mName As String

' The account holder's name.
Public Property Get Name() As String
    Name = mName
End Property

Public Property Let Name(ByVal value As String)
    mName = value
End Property

Public Property Set Owner(ByVal o As Object)
    Set mOwner = o
End Property
""".splitlines()


def test_a_vba_property_accessor_is_a_procedure_named_for_its_property_to_its_end_property() -> None:
    blocks = vbnet_blocks(VBA_CLASS)
    assert [(b.name, b.start, b.header, b.end) for b in blocks] == [
        ("Name", 3, 4, 7),  # not named `Get`, and its body is no auto-property's nothing
        ("Name", 8, 8, 11),
        ("Owner", 12, 12, 15),
    ]


def test_a_64_bit_vba_declare_is_a_procedure_without_a_body() -> None:
    lines = [
        'Private Declare PtrSafe Function GetTickCount Lib "kernel32" () As Long',
        "Public Function Elapsed() As Long",
        "    Elapsed = GetTickCount()",
        "End Function",
    ]
    blocks = vbnet_blocks(lines)
    assert [(b.name, b.start, b.end) for b in blocks] == [("GetTickCount", 0, 1), ("Elapsed", 1, 4)]
