"""Visual Basic: the procedures its scan finds (`vbnet_blocks.py`), its ranking rules (`vbnet_units.py`)."""

from __future__ import annotations

from collections.abc import Sequence

from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.select import Unit
from mcp_pruner_server.pruning.structure.calls import called_credit
from mcp_pruner_server.pruning.structure.code import code_units
from mcp_pruner_server.pruning.structure.vbnet_blocks import vbnet_blocks


def _units(lines: Sequence[str], question: str) -> list[Unit]:
    query = query_weights(question)
    lh = line_hits(line_terms(lines), query)
    scores = window_scores(query, lh)
    return code_units(lines, lh, query, scores, blocks=vbnet_blocks(lines), lang="vbnet", question=question)


def _best_header(lines: Sequence[str], units: Sequence[Unit]) -> str:
    best = max(units, key=lambda u: u.score)
    code = (lines[i].strip() for i in best.lines)
    return next(line for line in code if line and not line.startswith("'"))


# A class whose fields and properties are documented in the words of the class ("graph",
# "new node"), and whose constructor is not: .NET's doc of it would be "Initializes a new
# instance of the Graph class".
GRAPH = """\
Namespace Layers

    ''' <summary>
    ''' The layered graph implementation.
    ''' </summary>
    Friend Class Graph

        ''' <summary>
        ''' Gets the node factory associated with the graph: the id of the new node,
        ''' the item to attach to the new node, the level of the new node.
        ''' </summary>
        Private _NewNode As Func(Of Integer, Object, Integer, Node)
        Private entryPoint As Node

        Public Sub New(distance As Func(Of Object, Object, Double), parameters As Parameters)
            Me.Parameters = parameters
            NewNode = Function(id, item, level) New Node(id, item, level, distance)
        End Sub

        Public Property Parameters As Parameters

        ''' <summary>
        ''' Creates graph from the given items.
        ''' </summary>
        Public Sub Create(items As IList(Of Object), generator As Random)
            For Each item In items
                Insert(item, generator)
            Next
        End Sub

        Public ReadOnly Property Print As String
            Get
                Return $"graph: {entryPoint}"
            End Get
        End Property
    End Class
End Namespace
""".splitlines()


def test_sub_new_is_what_initializes_a_new_instance_of_its_class() -> None:
    units = _units(GRAPH, "Initializes a new instance of the Graph class.")
    assert _best_header(GRAPH, units).startswith("Public Sub New(")


def test_a_question_without_the_constructor_words_leaves_sub_new_as_it_was() -> None:
    units = _units(GRAPH, "Creates graph from the given items.")
    assert _best_header(GRAPH, units).startswith("Public Sub Create(")


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


# A public method documented, the worker doing its job named after it and not documented.
STREAM = """\
Public Class EnergyStream
    Private _eflow As Double?

    Public Overrides Property EnergyFlow() As Double?
        Get
            Return _eflow
        End Get
        Set(value As Double?)
            _eflow = value
        End Set
    End Property

    Public Sub Assign(ByVal source As EnergyStream)
        ' Copy the power of the source stream.
        Me.EnergyFlow = source.EnergyFlow
    End Sub
End Class
""".splitlines()


def test_a_property_read_as_a_member_from_a_relevant_line_is_called_from_it() -> None:
    blocks = vbnet_blocks(STREAM)
    bodies = [tuple(range(b.start, b.end)) for b in blocks]
    scores = [1.0 if "EnergyFlow = source" in line else 0.0 for line in STREAM]
    credit = called_credit(STREAM, bodies, scores, names=[b.name for b in blocks], lang="vbnet")
    assert [b.name for b, c in zip(blocks, credit, strict=True) if c > 0] == ["EnergyFlow"]
