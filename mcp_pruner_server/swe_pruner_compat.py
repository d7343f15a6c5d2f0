"""`POST /prune`: SWE-Pruner's wire format, so this server can be another one's remote backend.

Request `{query, code, threshold?}` → `{score, pruned_code, token_scores, kept_frags,
origin_token_cnt, left_token_cnt, model_input_token_cnt, error_msg}` (+ `prune_id`).
`pruned_code` carries our canonical markers (no line prefixes), `kept_frags` the 1-based
numbers of the kept lines, `score` the kept share of lines. `threshold` (SWE-Pruner's
per-line score cut-off) is validated and otherwise unused: the heuristic engine has no
comparable score, and its own hard constraints decide.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

from mcp_pruner_server.jsonsafe import strict_loads
from mcp_pruner_server.offload import run_off_loop_if_large
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning.types import PruneOptions

# SWE-Pruner is fed code; its callers pass whole files and expect most lines to go.
COMPAT_OPTIONS = PruneOptions(
    max_prune_ratio=0.9, min_keep_lines=1, annotate_lines=False, include_markers=True
)


def _bad(message: str) -> tuple[int, dict[str, object]]:
    return 422, {"error_msg": message, "detail": [{"msg": message}]}


async def handle_prune_request(service: PrunerService, body: bytes) -> tuple[int, dict[str, object]]:
    """Answer one `/prune` body: (HTTP status, JSON payload). Never raises."""
    try:
        # A 16 MiB body takes ~100 ms to parse: a worker thread does it, not the event loop.
        # Strict, as on every other route: NaN/Infinity are not JSON (jsonsafe.py).
        payload = await run_off_loop_if_large(functools.partial(strict_loads, body), len(body))
    except (ValueError, RecursionError):
        return _bad("body is not JSON")
    if not isinstance(payload, dict):
        return _bad("body must be a JSON object {query, code, threshold}")
    query, code, threshold = payload.get("query"), payload.get("code"), payload.get("threshold", 0.5)
    if not isinstance(query, str) or not isinstance(code, str):
        return _bad("'query' and 'code' must be strings")
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0 <= threshold <= 1:
        return _bad("'threshold' must be a number between 0 and 1")
    outcome = await service.prune(code, query, "code", COMPAT_OPTIONS)
    result = outcome.result
    total = result.stats.original_lines
    dropped = [(a.original_start_line, a.original_end_line) for a in result.annotations]
    kept = kept_lines(total, dropped)
    return 200, {
        "score": round(len(kept) / total, 4) if total else 1.0,
        "pruned_code": result.pruned_text,
        "token_scores": [],
        "kept_frags": kept,
        "origin_token_cnt": result.stats.tokens_est_before,
        "left_token_cnt": result.stats.tokens_est_after,
        "model_input_token_cnt": result.stats.tokens_est_before,
        "error_msg": outcome.error_message if outcome.error_code else None,
        "prune_id": result.prune_id,
    }


def kept_lines(total: int, dropped: Sequence[tuple[int, int]]) -> list[int]:
    """The numbers 1..`total` outside the inclusive `dropped` ranges, built by ranges: a line at a
    time, a 14 MB file's 230k lines held the event loop ~60 ms."""
    kept: list[range] = []
    at = 1
    for start, end in sorted(dropped):
        kept.append(range(at, start))
        at = max(at, end + 1)
    kept.append(range(at, total + 1))
    return list(itertools.chain.from_iterable(kept))
