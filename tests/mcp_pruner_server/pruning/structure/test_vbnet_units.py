"""Visual Basic: the procedures its scan finds (`vbnet_blocks.py`), its ranking rules (`vbnet_units.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.vbnet_blocks import vbnet_blocks

PROPERTY_WITH_ATTRIBUTED_GETTER = """\
Public Class Grid
    Public ReadOnly Property width As Integer
        <MethodImpl(MethodImplOptions.AggressiveInlining)>
        Get
            Return matrix2D.Keys.Max
        End Get
    End Property

    Public Property height As Integer
End Class
""".splitlines()


def test_a_property_whose_getter_has_an_attribute_runs_to_its_end_property() -> None:
    blocks = vbnet_blocks(PROPERTY_WITH_ATTRIBUTED_GETTER)
    assert [(b.name, b.header, b.end) for b in blocks] == [("Grid", 0, 10), ("width", 1, 7), ("height", 8, 9)]


ATTRIBUTED_AND_ONE_LINE = """\
Public Module Extensions
    <Extension()> Public Function Twice(x As Integer) As Integer
        Return 2 * x
    End Function

    <Extension> <DebuggerStepThrough>
    Public Sub Log(x As Integer)
        Console.WriteLine(x)
    End Sub

    Public Sub Reset() : count = 0 : End Sub

    <Obsolete("use Twice")> Public MustOverride Function Triple(x As Integer) As Integer
    <DllImport("user32.dll"),
     CLSCompliant(False)>
    Public Shared Function MessageBeep(kind As Integer) As Boolean
    End Function
End Module
""".splitlines()


def test_attributes_on_the_heads_line_or_several_on_the_lines_above_belong_to_the_procedure() -> None:
    blocks = vbnet_blocks(ATTRIBUTED_AND_ONE_LINE)
    assert [(b.name, b.start, b.header, b.end) for b in blocks] == [
        ("Extensions", 0, 0, 18),
        ("Twice", 1, 1, 4),  # `<Extension()> Public Function` on one line is a head
        ("Log", 5, 6, 9),  # two attributes on the line above are its lead
        ("Reset", 10, 10, 11),  # a procedure on one line ends on it, not at the next `End Sub`
        ("Triple", 12, 12, 13),  # an attributed `MustOverride` has no body
        ("MessageBeep", 13, 15, 17),  # attributes over two lines, the first continued by its `,`
    ]
