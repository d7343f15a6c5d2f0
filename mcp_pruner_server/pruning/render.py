"""From a keep-mask to the `prune_text` result: constraints, markers, annotations, stats.

Every backend ends here, so the contract (docs/tools.md#prune_text) is enforced in one place:
protected regions kept, `max_prune_ratio` / `min_keep_lines` met (lines added back),
no marker that costs more than what it hides, canonical markers identical to the
annotations, original 1-based numbering. With `model_view` the numbers and markers take the
model's cheap form (`pruning/model_view.py`), and whether the result is worth sending at all
is the pipeline's call: it alone knows what the tool would send instead.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from mcp_pruner_server.pruning.errors import InvalidOptions
from mcp_pruner_server.pruning.model_view import (
    marker_tokens,
    model_marker,
    model_prefix,
    number_tokens,
    numbers_its_own_lines,
)
from mcp_pruner_server.pruning.structure.common import no_prune_lines
from mcp_pruner_server.pruning.text import CHARS_PER_TOKEN, estimate_tokens, line_count, split_lines
from mcp_pruner_server.pruning.types import (
    LINE_PREFIX_TEMPLATE,
    MARKER_TEMPLATE,
    NO_PRUNE_BEGIN,
    Annotation,
    PruneOptions,
    PruneResult,
    PruneStats,
)

DEFAULT_REASON = "hors focus"
BLANK_REASON = "lignes vides"
# Float slack when comparing a ratio to its bound (0.29 * 100 is 28.999999999999996).
# A marker is token-dense: its brackets and accent are several tokens each and its random id about
# one per 1.6 chars. Measured with cl100k_base over 200 markers: 1.83-2.10 chars a token (median
# 1.97), half what the chars/4 estimate assumes; at chars/4 a 45-token marker replaced a 28-token
# line.
MARKER_CHARS_PER_TOKEN = 2
RATIO_EPSILON = 1e-9


def check_options(options: PruneOptions) -> None:
    """Raises:
    InvalidOptions: when a constraint is outside its domain (ratio not in [0, 1], negative minimum).
    """
    ratio = options.max_prune_ratio
    if not (isinstance(ratio, int | float) and math.isfinite(ratio) and 0.0 <= ratio <= 1.0):
        raise InvalidOptions(f"max_prune_ratio must be within [0, 1], got {ratio!r}")
    if options.min_keep_lines < 0:
        raise InvalidOptions(f"min_keep_lines must be >= 0, got {options.min_keep_lines!r}")
    for name in ("max_kept_lines", "max_kept_tokens"):
        value = getattr(options, name)
        if value is not None and value < 1:
            raise InvalidOptions(f"{name} must be >= 1, got {value!r}")


def required_keep(n: int, options: PruneOptions) -> int:
    """The fewest of `n` lines (`line_count`'s, as the stats count them) a result may keep: both
    hard constraints at once.

    `min_keep_lines` above the line count means "keep everything", not a violation. A
    `max_kept_lines` budget caps what the ratio asks for (never `min_keep_lines`).
    """
    if options.min_keep_lines >= n:
        return n
    max_pruned = math.floor(n * options.max_prune_ratio + RATIO_EPSILON)
    while max_pruned > 0 and max_pruned / n > options.max_prune_ratio:
        max_pruned -= 1
    by_ratio = n - max_pruned
    if options.max_kept_lines is not None:
        by_ratio = min(by_ratio, options.max_kept_lines)
    return max(options.min_keep_lines, by_ratio)


def _runs(keep: list[bool]) -> list[tuple[int, int]]:
    """Pruned runs as half-open (start, end) 0-based ranges (found with `list.index`, in C)."""
    runs: list[tuple[int, int]] = []
    n = len(keep)
    i = 0
    while i < n:
        try:
            start = keep.index(False, i)
        except ValueError:
            break
        try:
            end = keep.index(True, start)
        except ValueError:
            end = n
        runs.append((start, end))
        i = end
    return runs


def _joined_chars(lines: Sequence[str], start: int, end: int) -> int:
    """`len("\n".join(lines[start:end]))` without building the string."""
    return sum(map(len, lines[start:end])) + max(0, end - start - 1)


def _marker(prune_id: str, start: int, end: int, reason: str, options: PruneOptions) -> str:
    if options.model_view:
        return model_marker(start + 1, end)
    return MARKER_TEMPLATE.format(
        prune_id=prune_id, start=start + 1, end=end, count=end - start, reason=reason
    )


def _marker_cost(prune_id: str, n: int, options: PruneOptions) -> int:
    """The tokens of the widest marker of an `n`-line text."""
    marker = _marker(prune_id, 0, n, DEFAULT_REASON, options)
    if options.model_view:
        return marker_tokens(marker)
    return -(-len(marker) // MARKER_CHARS_PER_TOKEN)


def _kept_cost(lines: Sequence[str], start: int, end: int, options: PruneOptions, bound: int) -> int:
    """The tokens lines `start`..`end - 1` would cost kept: their text, and in the model's view
    their numbers (the canonical `N│ ` was never counted here: prune_text's results stay as they
    were). Past `bound` the numbers are not counted: a long run is pruned anyway."""
    cost = (_joined_chars(lines, start, end) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN
    if cost <= bound and options.model_view and options.annotate_lines:
        cost += sum(number_tokens(i + 1) for i in range(start, end) if lines[i].strip())
    return cost


def fill_cheap_gaps(lines: Sequence[str], keep: list[bool], prune_id: str, options: PruneOptions) -> None:
    """Keep every pruned run that costs no more tokens than the marker that would replace it."""
    marker_cost = _marker_cost(prune_id, len(lines), options)
    for start, end in _runs(keep):
        if _kept_cost(lines, start, end, options, marker_cost) <= marker_cost:
            keep[start:end] = [True] * (end - start)


def add_back(keep: list[bool], floor: int, priority: Sequence[float] | None) -> None:
    """Keep more lines until `floor` are kept: by priority, then nearest to what is kept."""
    missing = floor - sum(keep)
    if missing <= 0:
        return
    n = len(keep)
    distance = [n] * n
    last = -n
    for i in range(n):
        if keep[i]:
            last = i
        distance[i] = i - last
    last = 2 * n
    for i in range(n - 1, -1, -1):
        if keep[i]:
            last = i
        distance[i] = min(distance[i], last - i)
    candidates = [i for i in range(n) if not keep[i]]
    candidates.sort(key=lambda i: (-(priority[i] if priority else 0.0), distance[i], i))
    for i in candidates[:missing]:
        keep[i] = True


def _one_line_reason(reason: str) -> str:
    # A backend's reason goes inside the marker: a line break or a closing `⟧` in it would
    # break the marker's one-line form and the clients' parsing regex (docs/tools.md#markers-and-annotations).
    return " ".join(reason.replace("⟧", ")").split()) or DEFAULT_REASON


def _reason_of(lines: Sequence[str], start: int, end: int, reasons: Mapping[int, str] | None) -> str:
    if reasons and start in reasons:
        return _one_line_reason(reasons[start])
    if all(not lines[i].strip() for i in range(start, end)):
        return BLANK_REASON
    return DEFAULT_REASON


def _render(
    lines: Sequence[str],
    mask: list[bool],
    prune_id: str,
    options: PruneOptions,
    reasons: Mapping[int, str] | None,
) -> tuple[str, list[Annotation], list[tuple[int, int]]]:
    """The pruned text, its annotations and the pruned runs for a final keep-mask."""
    n = len(lines)
    annotations: list[Annotation] = []
    out: list[str] = []
    runs = _runs(mask)
    kept_from = 0
    for start, end in [*runs, (n, n)]:
        out.extend(_shown(lines, kept_from, start, options))
        if start == end:
            break
        reason = _reason_of(lines, start, end, reasons)
        marker = _marker(prune_id, start, end, reason, options)
        annotations.append(Annotation(start + 1, end, end - start, reason, marker))
        if options.include_markers:
            out.append(marker)
        kept_from = end
    return "\n".join(out), annotations, runs


def _shown(lines: Sequence[str], start: int, end: int, options: PruneOptions) -> list[str]:
    """Kept lines `start`..`end - 1` as shown, `N│ ` (or the model's `N `) before each when
    `annotate_lines`."""
    if not options.annotate_lines:
        return list(lines[start:end])
    n = len(lines)
    out = []
    for i in range(start, end):
        # The empty "line" after a final newline gets no number: it is the newline itself.
        trailing_newline = i == n - 1 and n > 1 and lines[i] == ""
        if trailing_newline:
            out.append(lines[i])
        elif options.model_view:
            out.append(model_prefix(i + 1, lines[i]))
        else:
            out.append(LINE_PREFIX_TEMPLATE.format(line_no=i + 1) + lines[i])
    return out


def _whole_chars(text: str, lines: Sequence[str], options: PruneOptions) -> int:
    """The length of the whole text as `_render` shows it with nothing pruned (no string built)."""
    if not options.annotate_lines:
        return len(text)
    n = len(lines)
    numbered = n - 1 if n > 1 and lines[-1] == "" else n
    prefix_extra = len(LINE_PREFIX_TEMPLATE.format(line_no=0)) - 1  # all but the digits
    digits = 0
    width, low = 1, 1
    while low <= numbered:  # lines 1-9 have one digit, 10-99 two, ...
        high = min(numbered, low * 10 - 1)
        digits += (high - low + 1) * width
        width, low = width + 1, low * 10
    return len(text) + digits + prefix_extra * numbered


def build_result(
    text: str,
    keep: Sequence[bool],
    prune_id: str,
    options: PruneOptions,
    *,
    backend: str,
    elapsed_ms: float,
    reasons: Mapping[int, str] | None = None,
    warnings: Sequence[str] = (),
    used_fallback: bool = False,
    extra_stats: Mapping[str, object] | None = None,
    priority: Sequence[float] | None = None,
    lines: Sequence[str] | None = None,
) -> PruneResult:
    """Render a keep-mask (one bool per `split_lines(text)` line) as a contract-abiding result.

    Applies `⟦NO_PRUNE_BEGIN⟧…⟦NO_PRUNE_END⟧`, keeps pruned runs cheaper than their marker,
    adds lines back (by `priority`, then nearest to kept lines) until `max_prune_ratio` and
    `min_keep_lines` hold. Invalid options give the no-op result with `constraints_unmet`.

    `lines`, when the caller has them, must be `split_lines(text)` (saves splitting again).

    Raises:
        ValueError: when `keep` does not have one entry per line of `text`.
    """
    lines = split_lines(text) if lines is None else lines
    n = len(lines)
    counted = line_count(text, lines)  # n, or n - 1: the empty piece after a final newline is no line
    if len(keep) != n:
        raise ValueError(f"keep-mask has {len(keep)} entries for {n} lines")
    try:
        check_options(options)
    except InvalidOptions:
        return noop_result(
            text, prune_id, [*warnings, "constraints_unmet"], backend=backend, elapsed_ms=elapsed_ms
        )
    mask = list(keep)
    for i in no_prune_lines(lines) if NO_PRUNE_BEGIN in text else ():
        mask[i] = True
    if counted < n:
        # The "line" after a final newline is the newline itself: keeping it costs nothing and
        # keeps the output newline-terminated, and no marker ever points past the last real line.
        # The constraints count the real lines: the stats' denominator.
        mask[-1] = True
    add_back(mask, required_keep(counted, options) + n - counted, priority)
    if options.model_view and options.annotate_lines and numbers_its_own_lines(lines):
        options = replace(options, annotate_lines=False)  # the lines show their numbers already
    if options.include_markers:  # without markers in the text, a pruned line always saves tokens
        fill_cheap_gaps(lines, mask, prune_id, options)

    pruned_text, annotations, runs = _render(lines, mask, prune_id, options, reasons)
    if runs and options.include_markers and not options.model_view:
        whole_tokens = (_whole_chars(text, lines, options) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN
        if estimate_tokens(pruned_text) >= whole_tokens:
            # Markers cost more than everything they hide (a short text): pruning does not pay.
            pruned_text, annotations, runs = _render(lines, [True] * n, prune_id, options, reasons)
    pruned = sum(end - start for start, end in runs)
    stats = PruneStats(
        original_lines=counted,
        kept_lines=counted - pruned,
        pruned_lines=pruned,
        pruned_ratio=pruned / counted if counted else 0.0,
        tokens_est_before=estimate_tokens(text),
        tokens_est_after=estimate_tokens(pruned_text),
        elapsed_ms=round(elapsed_ms, 3),
        used_fallback=used_fallback,
        backend=backend,
        extra=dict(extra_stats or {}),
    )
    return PruneResult(prune_id, pruned_text, tuple(annotations), stats, tuple(warnings))


def noop_result(
    text: str, prune_id: str, warnings: Sequence[str], *, backend: str, elapsed_ms: float
) -> PruneResult:
    """The fail-open result (docs/tools.md#fail-open): the text untouched, no annotation, `used_fallback`."""
    n = line_count(text)
    tokens = estimate_tokens(text)
    stats = PruneStats(
        original_lines=n,
        kept_lines=n,
        pruned_lines=0,
        pruned_ratio=0.0,
        tokens_est_before=tokens,
        tokens_est_after=tokens,
        elapsed_ms=round(elapsed_ms, 3),
        used_fallback=True,
        backend=backend,
    )
    return PruneResult(prune_id, text, (), stats, tuple(warnings) or ("internal_error",))
