"""The heuristic engine end to end: text + question + options in, `PruneResult` out.

Stages: split the lines (read without what a terminal or a tool put around them: colour codes,
`nl -ba` numbers, time stamps, a service's name; data blobs as a word: `reading.py`) and score
them, find the units of the source type (code blocks, log sections, doc paragraphs; a diff's
hunks), choose the focus and fill to the floor, render. The clock is checked between them and,
cooperatively, inside the loops over lines (`deadline.py`). It never raises: every failure is the
no-op result (docs/tools.md#fail-open) with a warning code.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from mcp_pruner_server.pruning.blobs import blob_lines, without_blobs
from mcp_pruner_server.pruning.deadline import Deadline
from mcp_pruner_server.pruning.errors import PruningError
from mcp_pruner_server.pruning.languages.registry import LANGUAGES
from mcp_pruner_server.pruning.lineindex import EMPTY_LINE_MARK, LineIndex
from mcp_pruner_server.pruning.pointers import first_line_number, numbered_lines, quoted_lines
from mcp_pruner_server.pruning.reading import lines_to_read
from mcp_pruner_server.pruning.render import build_result, check_options, noop_result, required_keep
from mcp_pruner_server.pruning.rules import on
from mcp_pruner_server.pruning.scoring import (
    line_hits,
    line_terms,
    query_weights,
    score_lines,
    window_scores,
)
from mcp_pruner_server.pruning.select import choose, trim_to_budget
from mcp_pruner_server.pruning.sparse import sparse_line_hits
from mcp_pruner_server.pruning.specificity import question_budget
from mcp_pruner_server.pruning.structure.code import code_units
from mcp_pruner_server.pruning.structure.common import looks_like_diff
from mcp_pruner_server.pruning.structure.diffs import diff_plan
from mcp_pruner_server.pruning.structure.docs import close_fences, docs_plan
from mcp_pruner_server.pruning.structure.languages import language_of
from mcp_pruner_server.pruning.structure.logs import logs_plan
from mcp_pruner_server.pruning.structure.scanned import scanned_blocks
from mcp_pruner_server.pruning.structure.syntax import prepare_language, syntax_blocks
from mcp_pruner_server.pruning.text import estimate_tokens, line_count, split_lines
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType

# The engine's public surface; the other names are re-exported so backends need one import.
__all__ = [
    "build_result",
    "estimate_tokens",
    "noop_result",
    "preparations",
    "prune",
    "prune_or_raise",
    "score_lines",
    "split_lines",
]

BACKEND = "heuristic"
# Beyond this many characters the engine does not try: 128 Mi characters is twice the tools'
# 64 MiB raw cap, and at ~2 s per 80 MB an answer still comes in time.
MAX_INPUT_CHARS = 128 << 20
# From this many lines on, only the lines holding a question term's root are cut into terms
# (`sparse_line_hits`): tokenising every line cost ~18 µs a line, 2 s for 100k lines. Far above
# every dev task (3,519 lines at most), whose outputs therefore stay exactly the same.
BULK_MIN_LINES = 20_000


def prune(
    text: str,
    goal_hint: str,
    source_type: SourceType,
    options: PruneOptions,
    prune_id: str,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> PruneResult:
    """Prune `text` line by line to what `goal_hint` needs; never raises (docs/tools.md#fail-open).

    `goal_hint` and `text` are data: they are only tokenised and matched, never obeyed.
    Constraints outside their domain -> no-op + `constraints_unmet`; `timeout_ms` exceeded
    (checked as the stages go) -> no-op + `timeout`; input over `MAX_INPUT_CHARS` -> no-op +
    `input_too_large`; any other failure (a bug) -> no-op + `internal_error`, its traceback
    dropped: a caller that logs calls `prune_or_raise` instead.
    """
    started = clock()
    try:
        return _prune_from(text, goal_hint, source_type, options, prune_id, clock, started)
    except Exception:  # the fail-open boundary: a bug must cost pruning, never the caller's output
        elapsed_ms = (clock() - started) * 1000.0
        return noop_result(text, prune_id, ["internal_error"], backend=BACKEND, elapsed_ms=elapsed_ms)


def prune_or_raise(
    text: str,
    goal_hint: str,
    source_type: SourceType,
    options: PruneOptions,
    prune_id: str,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> PruneResult:
    """`prune`, except that a bug in the engine raises, its traceback intact, instead of becoming
    the `internal_error` no-op: for the server's backends, whose caller (`PrunerService`) logs
    it once and answers that no-op itself. Timeouts and declines are no-ops, as in `prune`."""
    return _prune_from(text, goal_hint, source_type, options, prune_id, clock, clock())


def preparations() -> list[Callable[[], None]]:
    """The engine's once-per-process work that a first call would otherwise pay, in steps a caller
    runs while it has nothing else to do: one per language with a grammar, which loads the grammar
    and compiles its definitions query (`syntax.prepare_language`; each step took up to ~70 ms on
    a lightly loaded 2-core host, all of them ~0.5-1.8 s). Steps already run cost nothing; a step
    may raise what that language's first parse would (`DefinitionsQueryError`)."""
    named = [name for name, language in LANGUAGES.items() if language.grammar is not None]
    return [functools.partial(prepare_language, name) for name in named]


def _prune_from(
    text: str,
    goal_hint: str,
    source_type: SourceType,
    options: PruneOptions,
    prune_id: str,
    clock: Callable[[], float],
    started: float,
) -> PruneResult:
    def elapsed_ms() -> float:
        return (clock() - started) * 1000.0

    try:
        deadline = Deadline.after(options.timeout_ms, started=started, clock=clock)
        return _prune(text, goal_hint, source_type, options, prune_id, deadline, elapsed_ms)
    except PruningError as exc:
        return noop_result(text, prune_id, [exc.warning], backend=BACKEND, elapsed_ms=elapsed_ms())


def _prune(
    text: str,
    goal_hint: str,
    source_type: SourceType,
    options: PruneOptions,
    prune_id: str,
    deadline: Deadline,
    elapsed_ms: Callable[[], float],
) -> PruneResult:
    check_options(options)
    if len(text) > MAX_INPUT_CHARS:
        return noop_result(text, prune_id, ["input_too_large"], backend=BACKEND, elapsed_ms=elapsed_ms())
    # a budget already spent (a server's call waited for its worker) is not first spent again on
    # the C-level steps below, which do not look at the clock (~0.5 s on 60 MB)
    deadline.check()
    given_text = text
    given_lines = lines = split_lines(text)
    found_blobs = blob_lines(lines)  # a notebook's images, an embedded font
    read = lines_to_read(text, lines, found_blobs, deadline=deadline)
    if read is not None:  # colours, `nl -ba` numbers, time stamps set aside: rendered as given
        lines = read
        text = "\n".join(lines)
    n = len(lines)
    # the constraints count the lines as the stats do, the empty piece after a final newline left
    # out: `build_result` keeps that one for free
    counted = line_count(given_text, given_lines)
    floor = required_keep(counted, options)
    index = LineIndex(text, lines)
    if floor >= counted:
        deadline.check()
        return build_result(
            given_text,
            [True] * n,
            prune_id,
            options,
            backend=BACKEND,
            elapsed_ms=elapsed_ms(),
            lines=given_lines,
        )
    query = query_weights(goal_hint)
    if n >= BULK_MIN_LINES:
        lh = sparse_line_hits(lines, index, query, deadline=deadline)
    else:
        lh = line_hits(line_terms(lines, deadline=deadline), query, deadline=deadline)
    line_scores = window_scores(query, lh, deadline=deadline)
    deadline.check()
    must: list[int] = []
    hot_lines = False  # code's lines scoring near the best one join before the fill (`select.py`)
    budget_reason: str | None = None  # why more lines are kept than the options ask for
    if looks_like_diff(lines, index):  # whatever the source type: `git diff` through `bash`, a `.patch`
        units, must = diff_plan(lines, lh, query, goal_hint, deadline=deadline)
    elif source_type == "code":
        hot_lines = True
        lang = language_of(options.path, lines)
        blocks = syntax_blocks(text, n, lang, deadline=deadline)
        if blocks is None:
            blocks = scanned_blocks(lines, lang, deadline=deadline)
        units = code_units(
            lines, lh, query, line_scores, blocks=blocks, lang=lang, question=goal_hint, deadline=deadline
        )
        if on("vague_keeps_more"):
            budget = question_budget(units, 1.0 - options.max_prune_ratio)
            if budget.reason is not None:
                budget_reason = budget.reason
                wider = replace(options, max_prune_ratio=1.0 - budget.keep_fraction)
                floor = max(floor, required_keep(counted, wider))
    elif source_type == "logs":
        units, must = logs_plan(lines, lh, query, goal_hint, index=index, deadline=deadline)
    else:
        units, must = docs_plan(lines, lh, query, deadline=deadline)
    deadline.check()
    must = [*must, *_pointed(goal_hint, lines, given_lines)]
    # read by no question, unless it names the rest of the blob's line
    blobs = frozenset(i for i in found_blobs if not lh.hits[i])
    if blobs:
        units = without_blobs(units, blobs)
    keep = choose(
        n, units, must, floor, line_scores, _blank_lines(lines, index), last=blobs, hot_lines=hot_lines
    )
    keep[counted:] = [False] * (n - counted)  # not a line: no budget counts it, `build_result` keeps it
    if options.max_kept_lines is not None or options.max_kept_tokens is not None:
        chosen = sum(keep)
        trim_to_budget(
            keep,
            given_lines,  # the budget counts what is shown, numbers included
            must,
            line_scores,
            max_lines=options.max_kept_lines,
            max_tokens=options.max_kept_tokens,
            floor=options.min_keep_lines,
        )
        if sum(keep) < chosen:
            # the budget wins over the ratio: rendering must not add back what the budget cut
            # (a budget that cut nothing leaves the ratio's floor to be met)
            options = replace(options, max_kept_lines=max(options.min_keep_lines, sum(keep)))
    if source_type == "docs":
        close_fences(lines, keep)
    deadline.check()
    result = build_result(
        given_text,
        keep,
        prune_id,
        options,
        backend=BACKEND,
        elapsed_ms=0.0,
        priority=line_scores,
        lines=given_lines,
        extra_stats={"budget_reason": budget_reason} if budget_reason is not None else None,
    )
    deadline.check()
    # the elapsed time is only known once the result is rendered
    return replace(result, stats=replace(result.stats, elapsed_ms=round(elapsed_ms(), 3)))


def _pointed(question: str, lines: Sequence[str], given: Sequence[str]) -> list[int]:
    """The lines `question` points at by number or by quoting their code (`pointers.py`)."""
    pointed: set[int] = set()
    if on("line_numbers"):
        pointed |= numbered_lines(question, len(lines), first_line_number(given))
    if on("quoted_code"):
        pointed |= quoted_lines(question, lines)
    return sorted(pointed)


def _blank_lines(lines: Sequence[str], index: LineIndex) -> list[bool]:
    """Per line: empty or whitespace only. Only lines starting with whitespace are looked at."""
    blank = [False] * len(lines)
    for i in index.lines_starting_with(_BLANK_FIRST_CHARS):
        blank[i] = not lines[i].strip()
    return blank


# What a blank line starts with: nothing, or a character `str.strip` removes.
_BLANK_FIRST_CHARS = EMPTY_LINE_MARK + "".join(
    c for c in map(chr, range(0x3000 + 1)) if c.isspace() and c != "\n"
)
