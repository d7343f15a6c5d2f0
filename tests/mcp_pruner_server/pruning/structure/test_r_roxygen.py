from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.structure.code import code_units
from mcp_pruner_server.pruning.structure.r_blocks import opening_name_first, r_blocks
from mcp_pruner_server.pruning.structure.r_roxygen import page_owners_first, title_named_first

# A roxygen family: `lint` carries the page's title, its siblings join its page.
FAMILY = """\
lint <- function(filename) {
  lint_impl(filename)
}

#' @rdname lint
#' @param path The directory to lint (for `lint_dir()`).
lint_dir <- function(path = ".") {
  lapply(dir(path), lint)
}

#' @describeIn lint Lint every file of a package.
lint_package <- function(path = ".") {
  lint_dir(file.path(path, "R"))
}

lint_impl <- function(filename) {
  readLines(filename)
}
""".splitlines()
BODIES = [range(0, 3), range(4, 9), range(10, 14), range(15, 18)]
NAMES = ["lint", "lint_dir", "lint_package", "lint_impl"]


def test_the_function_a_page_is_named_for_scores_ahead_of_its_best_sibling() -> None:
    scores = page_owners_first(FAMILY, BODIES, NAMES, [2.0, 9.0, 5.0, 1.0])
    assert scores[0] > scores[1] == 9.0
    assert scores[1:] == [9.0, 5.0, 1.0]


def test_a_page_owner_already_ahead_and_functions_of_no_page_keep_their_scores() -> None:
    assert page_owners_first(FAMILY, BODIES, NAMES, [12.0, 9.0, 5.0, 1.0]) == [12.0, 9.0, 5.0, 1.0]
    plain = [line.replace("@rdname", "@family").replace("@describeIn", "@family") for line in FAMILY]
    assert page_owners_first(plain, BODIES, NAMES, [2.0, 9.0, 5.0, 1.0]) == [2.0, 9.0, 5.0, 1.0]


def test_a_page_named_for_no_function_here_raises_nothing() -> None:
    elsewhere = [line.replace("@rdname lint", "@rdname tidy.recipe") for line in FAMILY]
    elsewhere = [line.replace("@describeIn lint", "@describeIn tidy.recipe") for line in elsewhere]
    assert page_owners_first(elsewhere, BODIES, NAMES, [2.0, 9.0, 5.0, 1.0]) == [2.0, 9.0, 5.0, 1.0]


def test_a_block_on_its_own_page_does_not_raise_itself() -> None:
    own = ["#' @rdname lint", *FAMILY]
    bodies = [range(0, 4), range(5, 10), range(11, 15), range(16, 19)]
    assert page_owners_first(own, bodies, NAMES, [12.0, 9.0, 5.0, 1.0]) == [12.0, 9.0, 5.0, 1.0]


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Add columns to a data frame This is a convenient way to add columns.", "add_column"),
        ("Set up a GitHub Actions workflow Sets up continuous integration.", "use_github_action"),
        ("Summarize a recipe This function prints the current set of variables.", "summary.recipe"),
    ],
)
def test_the_function_whose_name_words_all_open_the_question_is_raised(question: str, named: str) -> None:
    names = ["add_row", "add_column", "use_github_action", "summary.recipe", None]
    scores = title_named_first(question, names, [1.0] * len(names))
    assert [n for n, s in zip(names, scores, strict=True) if s > 1.0] == [named]


def test_a_name_word_said_only_after_the_title_raises_nothing() -> None:
    question = "Add rows to a data frame This is a convenient way to add one or more rows of data or columns."
    assert title_named_first(question, ["add_column"], [1.0]) == [1.0]


def test_the_opening_name_and_the_title_both_raise_a_function() -> None:
    scores = opening_name_first(
        "Lint a file, directory, or package", ["lint", "lint_dir", "lint_file"], [1.0] * 3
    )
    assert scores[0] > scores[2] > scores[1] == 1.0


def test_code_units_rank_an_r_page_s_function_ahead_of_the_sibling_worded_like_the_question() -> None:
    lines = [
        "tally_rows <- function(df) {",
        "  nrow(df)",
        "}",
        "",
        "#' @rdname tally_rows",
        "#' @param groups Count the records of each group of a table, one count per group.",
        "tally_groups <- function(df, groups) {",
        "  vapply(split(df, groups), nrow, integer(1))",
        "}",
        "",
        "check_table <- function(df) {",
        "  stopifnot(is.data.frame(df))",
        "}",
    ]
    question = "Count the records of each group of a table"
    query = query_weights(question)
    lh = line_hits(line_terms(lines), query)
    units = code_units(
        lines, lh, query, window_scores(query, lh), blocks=r_blocks(lines), lang="r", question=question
    )
    assert lines[max(units, key=lambda u: u.score).lines[0]] == "tally_rows <- function(df) {"
