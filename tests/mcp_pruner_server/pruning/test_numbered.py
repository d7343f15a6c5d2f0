"""Lines as `nl -ba` / `cat -n` print them are read without their numbers and kept with them."""

from __future__ import annotations

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.numbered import without_line_numbers
from mcp_pruner_server.pruning.types import PruneOptions


def _numbered(lines: list[str], first: int) -> list[str]:
    return [f"{first + i:6d}\t{line}" for i, line in enumerate(lines)]


def _source() -> list[str]:
    lines: list[str] = []
    for name, verb in [("load", "read"), ("parse", "split"), ("render", "format"), ("save", "write")]:
        lines += [
            f"def {name}_record(raw, options):",
            f'    """{verb.title()} the record and report what changed."""',
            "    result = []",
            "    for item in raw:",
            "        if item is None:",
            "            continue",
            f"        result.append({verb}(item, options))",
            "",
            "    return result",
            "",
            "",
        ]
    return lines[:-2]  # no final newline: rendered apart, it would differ between the two


def _kept(text: str, question: str) -> list[int]:
    options = PruneOptions(max_prune_ratio=0.8, min_keep_lines=0, include_markers=False, path="records.py")
    result = prune(text, question, "code", options, "prn_test")
    dropped = {i for a in result.annotations for i in range(a.original_start_line - 1, a.original_end_line)}
    return [i for i in range(len(text.split("\n"))) if i not in dropped]


def test_the_prefixes_of_nl_ba_are_cut_blank_lines_included() -> None:
    lines = ["def f():", "", "    return 1"]
    assert without_line_numbers(_numbered(lines, 120)) == lines


def test_a_final_newline_needs_no_number() -> None:
    assert without_line_numbers([*_numbered(["x = 1", "y = 2"], 1), ""]) == ["x = 1", "y = 2", ""]


def test_numbers_that_do_not_follow_each_other_are_no_listing() -> None:
    assert without_line_numbers(["     1\tx = 1", "     3\ty = 2"]) is None


def test_one_line_without_a_number_is_no_listing() -> None:
    assert without_line_numbers([*_numbered(["x = 1"], 1), "y = 2"]) is None
    assert without_line_numbers(["x = 1", *_numbered(["y = 2"], 2)]) is None


def test_a_numbered_window_keeps_the_lines_its_code_alone_keeps_numbers_and_all() -> None:
    code = _source()
    question = "Where does parse_record split each item?"
    numbered = _numbered(code, 301)
    kept = _kept("\n".join(numbered), question)
    assert kept == _kept("\n".join(code), question)
    assert min(kept) >= 11  # parse_record, not the others
    assert max(kept) < 22


def test_the_numbered_lines_are_given_back_as_they_came() -> None:
    numbered = _numbered(_source(), 301)
    options = PruneOptions(max_prune_ratio=0.8, min_keep_lines=0, include_markers=False, path="records.py")
    result = prune("\n".join(numbered), "parse_record split", "code", options, "prn_test")
    assert set(result.pruned_text.split("\n")) <= set(numbered)
