"""Choosing lines: the focus the question needs, then the cheapest way up to the floor.

The budget is self-adaptive. The engine first keeps what must stay (errors, protected
regions) and the units the question is about: the best unit and those scoring close to it.
Only when `max_prune_ratio` / `min_keep_lines` demand more lines does it add the next units
by rank, and then single lines by score, until the floor is met.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from mcp_pruner_server.pruning.rules import on
from mcp_pruner_server.pruning.text import CHARS_PER_TOKEN

# Runners-up join the focus only while it stays within the floor or this fraction of the
# lines (the best unit always joins, whatever its size) ...
FOCUS_BUDGET_FRACTION = 0.1
# ... plus this fraction of the lines: a runner-up scoring close to the best one may overshoot
# the floor a little rather than leave it to lower-ranked lines (the floor is a minimum, and
# at ratio 0.8 it alone was the budget: a third unit of 8 lines was dropped when the focus
# held 94 of 97 lines). Dev scores are the same for any value from 0.025 to 0.1.
FOCUS_SLACK_FRACTION = 0.05
# A unit joins the focus when it scores at least this fraction of the best unit: close
# runners-up are often the helper the answer needs, far ones are noise.
FOCUS_RELATIVE = 0.75
# A runner-up scoring at least this fraction of the best is as likely the unit meant (the
# question's words fit both: `emitCopy` and `emitCopyNoRepeat`, a reader `Next` and its
# `readByte`): it may overshoot the budget by a further `FOCUS_CLOSE_SLACK_FRACTION` of the
# lines rather than be left out whole, where two large units cannot both fit the floor.
FOCUS_CLOSE_RELATIVE = 0.85
# All dev sets: 19 tasks more, one fewer (a grep task's recall 0.14 -> 0.05), kept lines +0.2 to
# +1.8 points a set; 0.8 lost two tasks more, 0.9 gained 9 fewer; 0.25 of the lines gained no more.
FOCUS_CLOSE_SLACK_FRACTION = 0.2
# At most this many units in the focus, so a vague question cannot keep the whole file.
MAX_FOCUS_UNITS = 3
# While filling up to the floor, a unit larger than this multiple of the lines still
# missing is skipped for a smaller one (a 200-line function would overshoot the cap).
FILL_OVERSHOOT = 1.0
# The fill ranks a unit by its score over its size to this power: between two units scoring
# alike, the floor's lines buy more candidates in small ones than in one long one (a 40-line
# runner-up no longer outranks three 5-line ones scoring 3 % less). All dev code sets: 21 tasks
# more, 6 fewer of ~1500 (Rust 0.83 -> 0.90 on one split); 0.15 and 0.25 lost more elsewhere.
FILL_SIZE_EXPONENT = 0.1
# The fill ranks a unit by its score plus this much of its peak (its best lines' scores,
# `code.BEST_LINES`): a commit's question names what a few lines do, and the unit holding them
# is long, its other lines diluting its fields' match (BM25 over line windows expanded to their
# block beat the engine on plain questions). Real commit-question dev sets (20 tasks a language,
# ratio 0.8): Go +5.0 points of recall, PHP +6.9, C# +4.8, Python +3.0, Java +2.5, httpx +2.2,
# click +0.9; C/C++ -5.3, Rust -0.5; the shared docstring set unchanged. 1.0 lost 2 points there.
# In the focus too (the units' own scores) it cost the shared set 1 to 2.3 points.
PEAK_WEIGHT = 0.3
# A unit too large for the lines still missing, scoring at least `WINDOW_RELATIVE` of the best,
# is not skipped whole: its first line and the window of its lines scoring best join, at most
# `WINDOW_SHARE` of the lines missing (the rest is left to the next units), never fewer than
# `MIN_WINDOW_LINES` (issue 33: the question's 45-line function lost to smaller units sharing a
# word with it, where BM25 windows kept its lines). Commit-question dev sets (click, httpx) at
# ratio 0.9: 4 tasks more, none fewer; at 0.8 one more; shared dev set unchanged. Every unit
# windowed (no `WINDOW_RELATIVE`) lost 1.4 points of recall: windows of weak units crowd out
# whole small ones; 0.5 lost 1.7 on click, 0.3 as many tasks as it gained.
WINDOW_SHARE = 0.5
MIN_WINDOW_LINES = 4
WINDOW_RELATIVE = 0.75
# A unit is also windowed when its best lines (`Unit.peak`) score at least `WINDOW_RELATIVE` of the
# best peak of all units, whatever its fields' score (rule `windows_by_best_lines`): a commit's
# plain question names what a few lines inside a long unit do, the unit's name and doc say
# nothing of it (bm25block, which keeps such lines, was level with the engine on Go, PHP and Ruby).
# Real-question dev sets at ratio 0.8, kept the same: 35 tasks up, 17 down of 1151, recall +0.006 to
# +0.039 a language (Rust -0.002, Java level); 0.6 of the best peak: 41 up, 24 down.

# In code, the lines scoring at least `HOT_LINE_RELATIVE` of the best line join right after the
# focus, best first, up to `HOT_LINE_SHARE` of the lines still missing (rule `hot_lines`): a
# commit's question names what a line does ("a default SCRIPT_NAME"), the unit holding it ranks
# low by its fields and its peak (one line among many), and the fill's units took the floor
# before its turn; bm25block, which ranks lines, kept them. Real-question dev sets at ratio 0.8,
# kept the same: 62 tasks up, 27 down of 1151, every language +0.002 to +0.024; 0.7 of the best
# line: 33 up, 10 down, half the gain; 0.4: 27 up, 9 down more, but the shared docstring set
# 0.92 -> 0.90; a share of 0.5: more tasks down (Ruby 4 up, 5 down).
HOT_LINE_RELATIVE = 0.5
HOT_LINE_SHARE = 0.3


@dataclass(frozen=True)
class Unit:
    """A span worth keeping whole (function, log section, doc paragraph) and its context."""

    lines: tuple[int, ...]
    score: float
    context: tuple[int, ...] = ()  # lines that make it readable: enclosing signatures, headings
    uses: tuple[int, ...] = ()  # what the focus also needs (the imports its body uses)
    peak: float = 0.0  # its best lines' scores (`code.BEST_LINES`): what the fill also ranks by


class _FreeBlanks:
    """Blank lines in blank runs that touch a kept line, kept up to date as lines are kept.

    Keeping them costs nothing: no token, and no extra marker (they split no pruned block).
    """

    def __init__(self, blank: Sequence[bool]) -> None:
        self.run_of: dict[int, int] = {}
        self.runs: list[list[int]] = []
        for i in itertools.compress(range(len(blank)), blank):  # blank lines only: C-level skip
            if i - 1 not in self.run_of:
                self.runs.append([])
            self.run_of[i] = len(self.runs) - 1
            self.runs[-1].append(i)
        self.touching: set[int] = set()
        self.count = 0  # unkept lines in touching runs

    def kept(self, i: int, keep: Sequence[bool]) -> None:
        """Record that line `i` has just been kept."""
        r = self.run_of.get(i)
        if r is not None and r in self.touching:
            self.count -= 1
        for j in (i - 1, i + 1):
            r = self.run_of.get(j)
            if r is not None and r not in self.touching:
                self.touching.add(r)
                self.count += sum(1 for k in self.runs[r] if not keep[k])

    def lines(self, keep: Sequence[bool]) -> list[int]:
        """The free lines, in order."""
        return sorted(k for r in self.touching for k in self.runs[r] if not keep[k])


def choose(
    n: int,
    units: Sequence[Unit],
    must: Iterable[int],
    floor: int,
    line_scores: Sequence[float],
    blank: Sequence[bool],
    last: frozenset[int] = frozenset(),
    *,
    hot_lines: bool = False,
) -> list[bool]:
    """A keep-mask of `n` lines: `must`, the focus units, then fill to `floor` by rank; the lines
    in `last` (data blobs) only when nothing else is left. With `hot_lines` (code), the lines
    scoring near the best line join before the fill (`HOT_LINE_RELATIVE`).

    The focus may go beyond the floor by `FOCUS_SLACK_FRACTION` of the lines (a runner-up scoring
    close to the best one, by `FOCUS_CLOSE_SLACK_FRACTION` more); the fill never
    overshoots the lines still missing (a unit larger than them is skipped for a smaller one).

    The floor is met at the least cost: blank lines next to kept ones are free (no token, no
    extra marker), so units are added only until those free lines can cover the rest.
    """
    keep = [False] * n
    count = 0
    free = _FreeBlanks(blank)

    def add(indexes: Iterable[int]) -> None:
        nonlocal count
        for i in indexes:
            if not keep[i]:
                keep[i] = True
                count += 1
                free.kept(i, keep)

    add(must)
    ranked = sorted((u for u in units if u.score > 0), key=lambda u: -u.score)
    focus = ranked[:1] + [u for u in ranked[1:MAX_FOCUS_UNITS] if u.score >= FOCUS_RELATIVE * ranked[0].score]
    budget = max(floor, int(FOCUS_BUDGET_FRACTION * n)) + int(FOCUS_SLACK_FRACTION * n)
    close_budget = budget + int(FOCUS_CLOSE_SLACK_FRACTION * n)
    for k, unit in enumerate(focus):
        fresh = sum(1 for i in unit.lines if not keep[i])
        allowed = close_budget if unit.score >= FOCUS_CLOSE_RELATIVE * ranked[0].score else budget
        if k and count + fresh > allowed:
            continue  # a runner-up only joins the focus while it fits the budget
        add(unit.lines)
        add(unit.context)
        add(unit.uses)
    # the best unit alone over the budget: the next units still get the slack, or one huge unit
    # (a 400-line `Encode`) leaves nothing for a short one the question may mean (`EncodeNoHist`);
    # a runner-up left out of the focus above is one of those next units
    unit_floor = floor
    if focus and len(focus[0].lines) > budget:
        unit_floor = max(floor, count + int(FOCUS_SLACK_FRACTION * n))
    left_out = [u for u in focus[1:] if not all(keep[i] for i in u.lines)]
    windows = on("windows_in_large_units")
    peaks = on("best_lines_fill")
    if hot_lines and on("hot_lines"):
        add(_hot_lines(line_scores, keep, int(HOT_LINE_SHARE * max(0, floor - count))))
    # units without peaks (log sections, doc paragraphs) are windowed by their score alone
    best_peak = max((u.peak for u in ranked), default=0.0) if on("windows_by_best_lines") else 0.0
    for unit in sorted(left_out + ranked[len(focus) :], key=lambda u: _fill_rank(u, peaks)):
        missing = unit_floor - count
        if missing <= free.count:
            break
        fresh = sum(1 for i in unit.lines if not keep[i])
        if fresh > max(missing * FILL_OVERSHOOT, 1):
            near_best = unit.score >= WINDOW_RELATIVE * ranked[0].score or (
                best_peak > 0 and unit.peak >= WINDOW_RELATIVE * best_peak
            )
            if windows and near_best:
                window = best_window(
                    unit.lines, line_scores, max(MIN_WINDOW_LINES, int(WINDOW_SHARE * missing))
                )
                if window:
                    add((unit.lines[0], *window))
                    add(unit.context)
            continue
        add(unit.lines)
        add(unit.context)
    add(free.lines(keep)[: max(0, floor - count)])
    if count < floor:
        blobs_last = (i for i in sorted(last) if not keep[i])
        for i in itertools.chain((i for i in _by_rank(keep, line_scores) if i not in last), blobs_last):
            if count >= floor:
                break
            keep[i] = True
            count += 1
    return keep


def _hot_lines(line_scores: Sequence[float], keep: Sequence[bool], room: int) -> list[int]:
    """At most `room` unkept lines scoring at least `HOT_LINE_RELATIVE` of the best, best first."""
    top = max(line_scores, default=0.0)
    if top <= 0 or room <= 0:
        return []
    hot = [i for i, score in enumerate(line_scores) if score >= HOT_LINE_RELATIVE * top and not keep[i]]
    return sorted(hot, key=lambda i: (-line_scores[i], i))[:room]


def best_window(lines: Sequence[int], line_scores: Sequence[float], size: int) -> tuple[int, ...]:
    """The `size` consecutive lines of `lines` (a unit's, in order) whose scores sum highest,
    or () when none of them scores."""
    if size >= len(lines):
        return tuple(lines)
    total = sum(line_scores[i] for i in lines[:size])
    best, best_start = total, 0
    for k in range(size, len(lines)):
        total += line_scores[lines[k]] - line_scores[lines[k - size]]
        if total > best + 1e-12:
            best, best_start = total, k - size + 1
    return tuple(lines[best_start : best_start + size]) if best > 0 else ()


def _fill_rank(unit: Unit, peaks: bool) -> float:
    """The fill's order: by score (plus `PEAK_WEIGHT` of its best lines' with `peaks`), a smaller
    unit first among near-equals (`FILL_SIZE_EXPONENT`)."""
    score = unit.score + PEAK_WEIGHT * unit.peak if peaks else unit.score
    return -score / math.pow(max(1, len(unit.lines)), FILL_SIZE_EXPONENT)


def _by_rank(keep: Sequence[bool], line_scores: Sequence[float]) -> Iterator[int]:
    """Unkept lines, best first: those touching kept lines (they add no marker), then by score,
    then in order. Lines scoring 0 and touching nothing (most of a large log) are never sorted."""
    n = len(keep)
    kept = list(itertools.compress(range(n), keep))
    touching = {j for i in kept for j in (i - 1, i + 1) if 0 <= j < n and not keep[j]}
    scored = {i for i in itertools.compress(range(n), line_scores) if not keep[i]} - touching
    yield from sorted(touching, key=lambda i: (-line_scores[i], i))
    yield from sorted(scored, key=lambda i: (-line_scores[i], i))
    yield from _nearest_first(kept, n, touching | scored | set(kept))


def _nearest_first(kept: Sequence[int], n: int, seen: set[int]) -> Iterator[int]:
    """Lines not in `seen`, nearest to a `kept` line first (in order on ties): the context of
    what is kept, rather than the head of the text. Walks outwards from the kept runs' ends, so
    the cost follows the lines taken, not the text's length."""
    edges: list[tuple[int, int]] = []  # (line, direction): the first line and last line of each run
    for i, line in enumerate(kept):
        if i == 0 or kept[i - 1] != line - 1:
            edges.append((line, -1))
        if i + 1 == len(kept) or kept[i + 1] != line + 1:
            edges.append((line, 1))
    if not edges:
        yield from (i for i in range(n) if i not in seen)
        return
    for distance in range(1, n):
        ring = sorted({j for line, step in edges if 0 <= (j := line + step * distance) < n and j not in seen})
        if not ring and all(not 0 <= line + step * distance < n for line, step in edges):
            return
        seen.update(ring)
        yield from ring


def trim_to_budget(
    keep: list[bool],
    lines: Sequence[str],
    must: Iterable[int],
    line_scores: Sequence[float],
    *,
    max_lines: int | None,
    max_tokens: int | None,
    floor: int,
) -> None:
    """Unkeep lines until at most `max_lines` lines of at most `max_tokens` (estimated) are kept,
    never fewer than `floor`.

    What stays first: the lines that must (errors, tracebacks), the last ones first (a run's
    failure is at its end); then the others by score, the last ones first on ties.
    """
    kept = list(itertools.compress(range(len(keep)), keep))
    must_set = set(must)
    order = sorted(kept, key=lambda i: (i not in must_set, -line_scores[i], -i))
    line_cap = len(kept) if max_lines is None else max(floor, max_lines)
    char_cap = None if max_tokens is None else max_tokens * CHARS_PER_TOKEN
    chars = 0
    for rank, i in enumerate(order):
        chars += len(lines[i]) + 1
        over_chars = char_cap is not None and chars > char_cap and rank >= floor
        if rank >= line_cap or over_chars:
            for j in order[rank:]:
                keep[j] = False
            return
