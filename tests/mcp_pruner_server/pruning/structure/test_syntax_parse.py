"""The parse stops at the engine's deadline; the cache of recent parses keeps only finished ones."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
import tree_sitter

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.errors import EngineTimeout
from mcp_pruner_server.pruning.languages.registry import grammar_of as language
from mcp_pruner_server.pruning.structure import syntax
from mcp_pruner_server.pruning.structure.syntax import clear_parse_cache, syntax_blocks
from mcp_pruner_server.pruning.structure.syntax_parse import RecentResults, parse_until
from mcp_pruner_server.pruning.types import PruneOptions

# ~3,000 lines (~100 kB): its parse asks the progress callback a thousand times and more.
JULIA = "".join(f"function step_{k}(x)\n    return x + {k}\nend\n\n" for k in range(750))


def _clock_passing_after(reads: int) -> tuple[Callable[[], float], list[int]]:
    """A clock reading 0 for its first `reads` reads, then far later; and the count of its reads."""
    count = [0]

    def clock() -> float:
        count[0] += 1
        return 0.0 if count[0] <= reads else 1e9

    return clock, count


def _julia_parser() -> tree_sitter.Parser:
    grammar = language("julia")
    assert grammar is not None
    return tree_sitter.Parser(grammar)


def test_a_parse_runs_to_its_end_while_the_deadline_has_not_passed() -> None:
    clock, reads = _clock_passing_after(10**9)
    tree = parse_until(_julia_parser(), JULIA.encode(), Deadline(at=1.0, timeout_ms=1000, clock=clock))
    assert tree.root_node.end_point.row == JULIA.count("\n")
    assert not tree.root_node.has_error
    assert reads[0] > 100  # asked as it went


def test_a_parse_stops_at_the_first_look_at_the_clock_after_the_deadline() -> None:
    clock, reads = _clock_passing_after(3)
    with pytest.raises(EngineTimeout):
        parse_until(_julia_parser(), JULIA.encode(), Deadline(at=1.0, timeout_ms=1000, clock=clock))
    # three looks passed (progress or read callbacks), the fourth stopped it; a few more as the
    # parser winds up (each answered at once: stop, or the end of the text), one check
    assert 3 + 1 + 1 <= reads[0] <= 3 + 1 + 8, reads[0]


def test_without_a_deadline_the_parse_never_looks_at_a_clock() -> None:
    tree = parse_until(_julia_parser(), JULIA.encode(), NO_DEADLINE)
    assert tree.root_node.end_point.row == JULIA.count("\n")


def test_a_parse_past_the_deadline_is_not_cached() -> None:
    clear_parse_cache()
    clock, _ = _clock_passing_after(3)
    lines = JULIA.count("\n") + 1
    with pytest.raises(EngineTimeout):
        syntax_blocks(JULIA, lines, "julia", deadline=Deadline(at=1.0, timeout_ms=1000, clock=clock))
    found = syntax_blocks(JULIA, lines, "julia")
    assert found is not None
    assert len(found) == 750


def test_a_timeout_during_the_parse_gives_the_noop_result_with_the_timeout_warning() -> None:
    clear_parse_cache()
    # the stages before the parse look at the clock a few dozen times; the parse, a thousand
    clock, _ = _clock_passing_after(300)
    options = PruneOptions(timeout_ms=1000, path="src/steps.jl")
    result = prune(JULIA, "what does step_700 return", "code", options, "prn_t", clock=clock)
    assert (result.pruned_text == JULIA, result.warnings, result.stats.used_fallback) == (
        True,
        ("timeout",),
        True,
    )


def test_recent_results_keeps_the_last_ones_and_computes_each_once() -> None:
    recent: RecentResults[str, int] = RecentResults(2)
    calls = itertools.count()
    for key in ["a", "b", "a", "c", "a", "b"]:  # "b" is the oldest when "c" comes
        recent.get_or_compute(key, lambda: next(calls))
    assert next(calls) == 4  # a, b, c, then b again


def test_recent_results_keeps_nothing_of_a_computation_that_raised() -> None:
    recent: RecentResults[str, int] = RecentResults(2)

    def fails() -> int:
        raise EngineTimeout("late")

    with pytest.raises(EngineTimeout):
        recent.get_or_compute("a", fails)
    assert recent.get_or_compute("a", lambda: 7) == 7


class _PassesAfterTheParse:
    """A clock at 0 until the parse returns (`parse_until` wrapped to move it), then far later:
    the deadline passes between the parse and the walk of its tree."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = 0.0
        parse = parse_until

        def parse_then_pass(
            parser: tree_sitter.Parser, source: bytes, deadline: Deadline
        ) -> tree_sitter.Tree:
            tree = parse(parser, source, deadline)
            self.now = 1e9
            return tree

        monkeypatch.setattr(syntax, "parse_until", parse_then_pass)

    def __call__(self) -> float:
        return self.now


def test_the_walk_of_a_parsed_tree_stops_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_parse_cache()
    clock = _PassesAfterTheParse(monkeypatch)
    with pytest.raises(EngineTimeout):
        syntax_blocks(JULIA, JULIA.count("\n") + 1, "julia", deadline=Deadline(1.0, 1000, clock=clock))


def test_counting_the_failed_rows_of_a_text_of_errors_stops_at_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a log under a code name: a tree of error nodes, whose walk took seconds on 2 MB
    log = "".join(f"12:00:{k % 60:02d} INFO [w-{k % 7}] GET /items/{k} -> 200 ({k} ms)\n" for k in range(300))
    clear_parse_cache()
    clock = _PassesAfterTheParse(monkeypatch)
    with pytest.raises(EngineTimeout):
        syntax_blocks(log, log.count("\n") + 1, "java", deadline=Deadline(1.0, 1000, clock=clock))
    assert syntax_blocks(log, log.count("\n") + 1, "java") is None  # in time: not trusted, the heuristics


def test_a_timeout_during_the_walk_gives_the_noop_result_with_the_timeout_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clear_parse_cache()
    clock = _PassesAfterTheParse(monkeypatch)
    options = PruneOptions(timeout_ms=1000, path="src/steps.jl")
    result = prune(JULIA, "what does step_700 return", "code", options, "prn_t", clock=clock)
    assert (result.pruned_text == JULIA, result.warnings, result.stats.used_fallback) == (
        True,
        ("timeout",),
        True,
    )


def test_a_lexer_that_never_reaches_a_parsing_step_stops_at_the_deadline() -> None:
    # Elixir's lexer on a run of `\r` reads on and on without a step where the progress callback is
    # asked (64 KiB: 137 s past a 500 ms deadline); the read callback ends the text instead.
    grammar = language("elixir")
    assert grammar is not None
    source = ("error\n" + "\r" * 8192 + "\n").encode()
    clock, reads = _clock_passing_after(50)
    with pytest.raises(EngineTimeout):
        parse_until(tree_sitter.Parser(grammar), source, Deadline(at=1.0, timeout_ms=1000, clock=clock))
    assert reads[0] <= 50 + 3
