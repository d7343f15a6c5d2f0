from __future__ import annotations

from mcp_pruner_server.pruning.structure.r_blocks import r_blocks

S4_SOURCE = """\
setClass("Interval", contains = "numeric", slots = c(start = "POSIXct"))

#' @export
setMethod("show", signature(object = "Interval"), function(object) {
  cat("<Interval>", format(object), "\\n")  # a ) in a string: ")"
})

setMethod(
  "[", signature(x = "Interval"),
  function(x, i, j, ..., drop = TRUE) {
    new("Interval", x@.Data[i], start = x@start[i])
  }
)

setGeneric("time_length", function(x, unit = "second") standardGeneric("time_length"))
setMethod("%within%", signature(a = "Date", b = "list"), .within_list_instant)
""".splitlines()


def test_an_s4_method_runs_from_its_roxygen_to_the_end_of_its_call_named_by_its_first_argument() -> None:
    blocks = [(b.name, b.start, b.header, b.end, b.sig_end) for b in r_blocks(S4_SOURCE)]
    assert blocks[0] == ("show", 2, 3, 6, 4)
    assert blocks[1] == ("[", 7, 7, 13, 10)  # its name and parameters over three lines
    assert [b[0] for b in blocks[2:]] == ["time_length", "%within%"]


def test_a_class_definition_is_no_method() -> None:
    assert "Interval" not in [b.name for b in r_blocks(S4_SOURCE)]


def test_a_function_written_with_the_backslash_shorthand_is_one() -> None:
    source = ["is_one <- \\(x) isTRUE(all.equal(x, 1))", "", "twice <- \\(x) {", "  2 * x", "}"]
    assert [(b.name, b.header, b.end) for b in r_blocks(source)] == [("is_one", 0, 1), ("twice", 2, 5)]
