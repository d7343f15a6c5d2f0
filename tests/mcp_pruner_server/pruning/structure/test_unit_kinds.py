"""Predicates and the questions asking for one; callers a question names."""

from __future__ import annotations

from mcp_pruner_server.pruning.scoring import query_weights
from mcp_pruner_server.pruning.structure.unit_kinds import (
    asks_yes_no,
    callers_named,
    constructor_hits,
    is_predicate,
    named_by_code_words,
    predicates_first,
    returns_bool,
    subject_first,
)


def test_predicates_are_named_is_has_can_or_end_in_a_question_mark() -> None:
    for name in ("is_root", "isNoScope", "IsValid", "hasNext", "_isValid", "List.empty?", "containsKey"):
        assert is_predicate(name), name
    for other in ("island", "issue", "hash", "canonical", "parent", None):
        assert not is_predicate(other), other


def test_a_question_asks_whether_in_several_wordings() -> None:
    asking = ("Returns `true` if the number is odd", "Checks whether x", "Determines if it ran", "false when")
    for question in asking:
        assert asks_yes_no(question), question
    assert not asks_yes_no("This is true.")
    assert not asks_yes_no("Return the parent of this matcher.")


def test_a_definition_declaring_a_boolean_result_counts_as_a_predicate() -> None:
    # Go's "ByIgnore reports whether …": the name says nothing, the `bool` result does
    signatures = [
        "func (r Result) ByIgnore() bool {",
        "fn ignored(&self) -> bool {",
        "  ignored(node: Node): boolean {",
        "public boolean ignored(Node n) {",
        "func apply(ignore bool) error {",
        "func Foo() (bool, error) {",
    ]
    scores = predicates_first("reports whether it was ignored", [None] * 6, [1.0] * 6, signatures)
    assert scores == [1.5, 1.5, 1.5, 1.5, 1.0, 1.0]
    assert predicates_first("returns the node", [None], [1.0], signatures[:1]) == [1.0]


def test_a_caller_the_question_names_loses_its_name_field() -> None:
    names = ["next_prediction", "_parse_predictions", "DESTROY", None]
    scores = [3.0, 2.0, 1.0, 0.5]
    question = "Parses the prediction section. Automatically called by next_prediction() if not yet done."
    assert callers_named(question, names, scores) == [0.0, 2.0, 1.0, 0.5]
    assert callers_named("Invoked from within Foo::DESTROY", names, scores) == [3.0, 2.0, 0.0, 0.5]
    assert callers_named("Parses the next prediction.", names, scores) == scores


def test_a_stop_word_written_as_code_names_the_definitions_called_so() -> None:
    names = ["only", "Config::new", "does", "value", None]
    assert named_by_code_words("Returns the value of the -only attribute.", names) == {0: "only"}
    assert named_by_code_words("The new() routine; the ->does method.", names) == {1: "new", 2: "does"}
    assert named_by_code_words("Dict-style `value` on headers", names) == {3: "value"}
    # prose: the same words, not written as code
    assert named_by_code_words("Returns the only value, a non-new one. Only then.", names) == {}


def test_a_question_opening_with_the_method_it_is_about_raises_that_method() -> None:
    names = ["_Document", "equal", "Other::equal", None]
    scores = [4.0, 3.0, 1.0, 2.0]
    question = "The equal method is the primary comparison method, taking another object."
    assert subject_first(question, names, scores) == [4.0, 6.0, 2.0, 2.0]
    assert subject_first("The ID() method returns the wheel's ID.", ["ID", "new"], [1.0, 1.0]) == [2.0, 1.0]
    # a method named later in the question, or a subject that is no name, raises nothing
    assert subject_first("Compares with the equal method.", names, scores) == scores
    assert subject_first("The given function is called once.", names, scores) == scores


def test_used_by_default_names_no_caller_unless_written_as_code() -> None:
    names = ["default", "options"]
    assert callers_named("The options this crate uses, used by default.", names, [1.0, 1.0]) == [1.0, 1.0]
    assert callers_named("Called by hand when the cache is cold.", ["hand"], [1.0]) == [1.0]
    assert callers_named("The options, used by `default`.", names, [1.0, 1.0]) == [0.0, 1.0]
    assert callers_named("The options, used by default().", names, [1.0, 1.0]) == [0.0, 1.0]


def test_a_constructor_named_new_in_any_case_is_what_initializing_an_instance_asks_for() -> None:
    # VB.NET's `Sub New` and its .NET doc sentence
    query = query_weights("Initializes a new instance of the Graph class.")
    assert constructor_hits("New", query) == {"initializ": 1}
    assert constructor_hits("Graph.new", query_weights("Creates a new graph.")) == {"creat": 1}
    assert constructor_hits("Renew", query) == {}
    assert constructor_hits("New", query_weights("Returns the graph's nodes.")) == {}


def test_a_boolean_result_is_read_in_the_syntax_of_each_language() -> None:
    declaring = (
        "Shared Function IsMe(ByVal tm As tm) As Boolean",  # VB.NET
        "Public Function Matches(x As Object) as boolean",
        "function IsEmpty: Boolean;",  # Pascal, no parameter list
        "function Contains(const S: string): Boolean;",
        "def isEmpty: Boolean =",  # Scala
        "pure logical function os_is_unix(os)",  # Fortran
        "- (BOOL)isEnabled",  # Objective-C
    )
    for signature in declaring:
        assert returns_bool(signature), signature
    # a boolean parameter is no boolean result
    taking = ("Sub Apply(x As Boolean)", "function F(a: Boolean; b: Integer): Integer;", "real function f(x)")
    for signature in taking:
        assert not returns_bool(signature), signature
