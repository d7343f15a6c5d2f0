"""The scanned languages' block finders read each line a bounded number of times, whatever the input,
and find the same blocks as the scans from each header they replace."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from mcp_pruner_server.pruning.structure.clojure_blocks import clojure_blocks
from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.matlab_blocks import matlab_blocks
from mcp_pruner_server.pruning.structure.r_blocks import r_blocks


class CountedLines(Sequence[str]):
    """Lines that count how often they are read: a scan from each header reads the lines below
    it again for every header, a count growing with the square of the input."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines
        self.reads = 0

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        self.reads += 1 if isinstance(index, int) else len(range(*index.indices(len(self._lines))))
        return self._lines[index]

    def __len__(self) -> int:
        return len(self._lines)

    def __iter__(self) -> Iterator[str]:
        for line in self._lines:
            self.reads += 1
            yield line


def _spans(blocks: Sequence[Block]) -> list[tuple[int, int, int, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.sig_end, b.name) for b in blocks]


CLOJURE = """\
(ns demo.core
  (:require [clojure.string :as str]))

;; Joins the words.
(defn ^String join-words
  "Joins `words` with a space; a \\) is no bracket."
  [words]
  (str/join " " words))

(def pattern #"[(]")

(defmacro unless [test & body]
  `(if ~test nil (do ~@body)))
""".splitlines()


def test_clojure_forms_end_at_their_closing_bracket() -> None:
    assert _spans(clojure_blocks(CLOJURE)) == [
        (3, 4, 8, 5, "join-words"),
        (9, 9, 10, 10, "pattern"),
        (11, 11, 13, 12, "unless"),
    ]


def test_an_unclosed_clojure_form_ends_nowhere_and_the_next_one_still_ends() -> None:
    lines = ["(defn broken [x]", "  (inc x)", "", "(defn ok [x]", "  x)"]
    # the unclosed form holds the next one (its bracket never closes), which ends on its own
    assert _spans(clojure_blocks(lines)) == [(3, 3, 5, 4, "ok")]


def test_a_clojure_head_inside_a_string_is_read_as_a_form_of_its_own() -> None:
    lines = ['(println "Example:', "(defn shown [x] x)", '")', "(defn after [y]", "  y)"]
    assert _spans(clojure_blocks(lines)) == [(1, 1, 2, 2, "shown"), (3, 3, 5, 4, "after")]


def test_clojure_reads_each_line_a_bounded_number_of_times() -> None:
    for lines in (
        [f"(defn f{k} [x]" for k in range(2000)],
        ['(def s "'] + [f"(defn f{k} [x]" for k in range(2000)],  # every head inside a string
    ):
        counted = CountedLines(lines)
        assert clojure_blocks(counted) == []
        assert counted.reads <= 12 * len(lines) + 20_000  # the scans of heads in strings: a budget


R = """\
#' Add one
add_one <- function(x,
                    by = 1) {
  x + by  # a } in a comment
}

twice <- function(x) x *
  2

setGeneric("area", function(shape) standardGeneric("area"))

Counter <- list(
  add = function(n) n + 1,
  get = function() "}"
)
""".splitlines()


def test_r_functions_end_at_their_brace_or_their_last_line() -> None:
    assert _spans(r_blocks(R)) == [
        (0, 1, 5, 3, "add_one"),
        (6, 6, 8, 7, "twice"),
        (9, 9, 10, 10, "area"),
        (12, 12, 14, 13, "add"),  # its line goes on (a comma): the next member is its tail
    ]


def test_an_unclosed_r_function_ends_nowhere_and_the_next_one_still_ends() -> None:
    lines = ["broken <- function(x) {", "  x", "", "ok <- function(y) y"]
    assert _spans(r_blocks(lines)) == [(3, 3, 4, 4, "ok")]


def test_r_reads_each_line_a_bounded_number_of_times() -> None:
    for lines in (
        [f"f{k} <- function(x) {{" for k in range(2000)],
        [f"f{k} <- function(x," for k in range(2000)],
        [f"f{k} <- function(x) x +" for k in range(6000)],  # a body without braces going on
        [f'setMethod("f{k}", "A", function(x) {{' for k in range(2000)],
        ['x <- "'] + [f"f{k} <- function(x) {{" for k in range(2000)],  # every header in a string
    ):
        counted = CountedLines(lines)
        r_blocks(counted)
        assert counted.reads <= 12 * len(lines) + 20_000, lines[-1]


def test_matlab_reads_a_file_of_long_functions_a_bounded_number_of_times() -> None:
    function = ["function y = f{k}(x)", *["  y = x;"] * 70, "end"]
    lines = CountedLines([line.format(k=k) for k in range(100) for line in function])
    blocks = matlab_blocks(lines)
    assert len([b for b in blocks if b.parent is None]) == 100
    assert lines.reads <= 40 * len(lines)
