"""`build_result`: the one place where any backend's keep-mask becomes a contract-abiding result."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.render import build_result, fill_cheap_gaps, noop_result
from mcp_pruner_server.pruning.types import NO_PRUNE_BEGIN, NO_PRUNE_END, PruneOptions
from mcp_pruner_server.recovery import new_prune_id

TEXT = "\n".join(f"line number {k} with some words in it" for k in range(20))


def test_a_mask_that_prunes_too_much_gets_lines_added_back_by_priority() -> None:
    keep = [k == 0 for k in range(20)]
    priority = [0.0] * 20
    priority[15] = 1.0
    result = build_result(
        TEXT,
        keep,
        "prn_r",
        PruneOptions(max_prune_ratio=0.8),
        backend="http",
        elapsed_ms=1.0,
        priority=priority,
    )
    assert result.stats.kept_lines == 4
    assert "line number 15 with" in result.pruned_text
    assert result.stats.backend == "http"


def test_without_priority_lines_are_added_back_next_to_what_is_kept() -> None:
    keep = [k == 10 for k in range(20)]
    result = build_result(
        TEXT,
        keep,
        "prn_r",
        PruneOptions(max_prune_ratio=0.8, include_markers=False),
        backend="http",
        elapsed_ms=1.0,
    )
    assert result.annotations[0].original_end_line == 8  # 0-based lines 8-11 kept
    assert result.stats.kept_lines == 4


def test_no_prune_directives_win_over_the_mask() -> None:
    lines = TEXT.split("\n")
    lines[5], lines[8] = NO_PRUNE_BEGIN, NO_PRUNE_END
    result = build_result(
        "\n".join(lines),
        [False] * 20,
        "prn_r",
        PruneOptions(max_prune_ratio=1.0),
        backend="http",
        elapsed_ms=1.0,
    )
    assert "\n".join(lines[5:9]) in result.pruned_text
    assert [(a.original_start_line, a.original_end_line) for a in result.annotations] == [(1, 5), (10, 20)]


def test_a_pruned_line_cheaper_than_its_marker_stays_when_markers_are_shown_only() -> None:
    text = "keep me\nx\nkeep me too\n" + "\n".join(f"long filler line {k} " * 3 for k in range(10))
    keep = [True, False, True] + [False] * 10
    shown = build_result(text, keep, "prn_r", PruneOptions(max_prune_ratio=1.0), backend="h", elapsed_ms=0)
    hidden = build_result(
        text,
        keep,
        "prn_r",
        PruneOptions(max_prune_ratio=1.0, include_markers=False),
        backend="h",
        elapsed_ms=0,
    )
    assert shown.pruned_text.startswith("keep me\nx\nkeep me too\n⟦PRUNÉ")
    assert hidden.pruned_text == "keep me\nkeep me too"
    assert hidden.annotations[0].original_start_line == 2


def test_invalid_options_give_the_noop_result_and_a_wrong_mask_length_is_a_bug() -> None:
    result = build_result(
        TEXT,
        [True] * 20,
        "prn_r",
        PruneOptions(max_prune_ratio=-0.1),
        backend="h",
        elapsed_ms=0,
        warnings=["deepinfra_error"],
    )
    assert result.warnings == ("deepinfra_error", "constraints_unmet")
    assert result.stats.used_fallback
    assert result.pruned_text == TEXT
    with pytest.raises(ValueError, match="keep-mask"):
        build_result(TEXT, [True], "prn_r", PruneOptions(), backend="h", elapsed_ms=0)


def test_the_noop_result_keeps_the_text_and_counts_its_lines() -> None:
    result = noop_result("a\nb\n", "prn_r", ["timeout"], backend="heuristic", elapsed_ms=3.0)
    d = result.to_dict()
    assert d["pruned_text"] == "a\nb\n"
    assert d["annotations"] == []
    assert d["warnings"] == ["timeout"]
    assert d["stats"]["original_lines"] == 2  # as `wc -l` counts them
    assert d["stats"]["used_fallback"] is True


def test_a_final_newline_is_kept_and_no_marker_points_past_the_last_real_line() -> None:
    text = TEXT + "\n"  # 20 real lines, then the empty "line" split() finds after the newline
    result = build_result(
        text,
        [k == 0 for k in range(21)],
        "prn_r",
        PruneOptions(max_prune_ratio=1.0, include_markers=False),
        backend="http",
        elapsed_ms=1.0,
    )
    assert result.pruned_text == TEXT.split("\n")[0] + "\n"
    assert [(a.original_start_line, a.original_end_line) for a in result.annotations] == [(2, 20)]


def test_a_text_ending_in_a_newline_has_its_readers_line_count_and_the_ratio_holds_on_it() -> None:
    text = "".join(f"line number {k} with some words in it\n" for k in range(424))  # `wc -l`: 424
    keep = [k == 0 for k in range(425)]
    result = build_result(text, keep, "prn_r", PruneOptions(max_prune_ratio=0.8), backend="h", elapsed_ms=0)
    stats = result.stats
    assert (stats.original_lines, stats.kept_lines) == (424, 424 - stats.pruned_lines)
    assert stats.pruned_ratio == stats.pruned_lines / 424 <= 0.8  # 340 of 424 would be 0.802
    assert stats.kept_lines == 85  # the fewest: 339 pruned is 0.7995
    assert result.pruned_text.endswith("\n")


def test_markers_never_make_the_output_longer_than_the_text_they_replace() -> None:
    text = "def tax(x):\n    return x * 0.2\n\ndef greet(n):\n    return n\n"
    result = build_result(
        text,
        [True, True, True, False, False, True],
        "prn_a_long_recovery_id_0123456789",
        PruneOptions(max_prune_ratio=1.0, include_markers=True),
        backend="heuristic",
        elapsed_ms=1.0,
    )
    assert result.pruned_text == text
    assert result.annotations == ()
    assert result.stats.tokens_est_after <= result.stats.tokens_est_before


def test_the_newline_ending_a_text_is_not_numbered_as_a_line() -> None:
    result = build_result(
        "a\nb\n",
        [True, True, True],
        "prn_r",
        PruneOptions(annotate_lines=True),
        backend="heuristic",
        elapsed_ms=1.0,
    )
    assert result.pruned_text == "1│ a\n2│ b\n"


def test_a_backends_reason_with_a_line_break_or_bracket_still_gives_a_one_line_marker() -> None:
    keep = [k < 3 for k in range(20)]
    reasons = {3: "off topic\nsecond line ⟧ tail"}
    options = PruneOptions(max_prune_ratio=1.0)
    result = build_result(TEXT, keep, "prn_r", options, backend="http", elapsed_ms=1.0, reasons=reasons)
    (block,) = result.annotations
    assert block.reason == "off topic second line ) tail"
    assert block.marker.endswith("raison=off topic second line ) tail⟧")
    assert block.marker in result.pruned_text.split("\n")


def test_a_one_line_gap_shorter_than_its_marker_in_real_tokens_stays_unpruned() -> None:
    # 100 chars: 25 tokens at chars/4, fewer than a real marker with its ULID (~45 cl100k tokens),
    # though more than that marker's own chars/4 estimate (~21).
    gap = "x = compute_the_value(alpha, beta, gamma)  # a plain line of code, one hundred characters long!!"
    lines = ["keep me", gap, "keep me too"]
    keep = [True, False, True]
    fill_cheap_gaps(lines, keep, new_prune_id(), PruneOptions())
    assert keep == [True, True, True]


def test_a_gap_longer_than_its_marker_is_still_pruned() -> None:
    lines = [
        "keep me",
        *[f"a long pruned line of ordinary code number {k:03d} here" for k in range(6)],
        "end",
    ]
    keep = [True, *[False] * 6, True]
    fill_cheap_gaps(lines, keep, new_prune_id(), PruneOptions())
    assert keep == [True, *[False] * 6, True]


def test_the_model_view_numbers_kept_lines_with_a_space_leaves_blank_ones_bare_and_marks_without_id() -> None:
    lines = [
        "def kept():",
        "",
        "    return 1",
        *[f"pruned_line_number_{k} = compute_something({k})" for k in range(8)],
    ]
    text = "\n".join([*lines, "tail = 1", ""])
    keep = [True, True, True, *[False] * 8, True, True]
    options = PruneOptions(annotate_lines=True, include_markers=True, model_view=True)
    result = build_result(text, keep, "prn_r", options, backend="heuristic", elapsed_ms=1.0)
    assert result.pruned_text == "1 def kept():\n\n3     return 1\n[lines 4-11 pruned]\n12 tail = 1\n"
    (block,) = result.annotations
    assert (block.original_start_line, block.original_end_line, block.marker) == (
        4,
        11,
        "[lines 4-11 pruned]",
    )


def test_in_the_model_view_a_short_run_whose_numbers_cost_more_than_its_marker_is_pruned() -> None:
    # 12 one-character lines: 6 tokens of text at chars/4, but 12 more for their numbers,
    # against 9 for `[lines 2-13 pruned]`; the canonical count (text only) keeps them.
    lines = ["keep me", *"abcdefghijkl", "keep me too"]
    keep = [True, *[False] * 12, True]
    model = list(keep)
    fill_cheap_gaps(lines, model, "prn_r", PruneOptions(annotate_lines=True, model_view=True))
    canonical = list(keep)
    fill_cheap_gaps(lines, canonical, "prn_r", PruneOptions(annotate_lines=True))
    assert model == keep
    assert canonical == [True] * 14


_MODEL = PruneOptions(annotate_lines=True, include_markers=True, model_view=True)


def test_in_the_model_view_lines_numbered_from_one_by_nl_get_no_second_number() -> None:
    body = [f"value_{k} = compute_the_value_of(alpha, beta, gamma, {k})" for k in range(1, 13)]
    text = "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(body, start=1)) + "\n"
    keep = [True, True, *[False] * 8, True, True, True]
    result = build_result(text, keep, "prn_r", _MODEL, backend="heuristic", elapsed_ms=1.0)
    shown = result.pruned_text.split("\n")
    assert shown[:3] == [f"     1\t{body[0]}", f"     2\t{body[1]}", "[lines 3-10 pruned]"]


def test_in_the_model_view_lines_numbered_from_elsewhere_keep_our_numbers() -> None:
    # `nl -ba f | sed -n '120,131p'`: the markers count the output's lines, so ours are shown too
    body = [f"value_{k} = compute_the_value_of(alpha, beta, gamma, {k})" for k in range(12)]
    text = "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(body, start=120))
    keep = [True, True, *[False] * 8, True, True]
    result = build_result(text, keep, "prn_r", _MODEL, backend="heuristic", elapsed_ms=1.0)
    assert result.pruned_text.split("\n")[:3] == [
        f"1    120\t{body[0]}",
        f"2    121\t{body[1]}",
        "[lines 3-10 pruned]",
    ]
