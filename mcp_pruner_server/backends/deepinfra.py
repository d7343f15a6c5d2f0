"""The `deepinfra` backend (alias `cloud`): a hosted reranker scores lines (docs/tools.md#pruning-backends).

Opt-in only: the text's lines leave the machine. The key comes from `DEEPINFRA_API_KEY`
(environment only). Request/response of DeepInfra's inference API for rerankers:

    POST {DEEPINFRA_ENDPOINT_URL}   Authorization: Bearer <key>
    {"queries": [goal, goal, ...], "documents": [line, line, ...]}
    → {"scores": [float, ...], "input_tokens": int, ...}

`queries` repeats the goal once per document: the API pairs `queries[i]` with
`documents[i]` and wants both lists the same length.

Selection: the distinct non-blank lines are the documents, the first `DEEPINFRA_MAX_DOCS` of
them are scored (more → `deepinfra_docs_truncated`, and the unscored lines are kept: we do
not prune what nobody judged). A line whose score reaches `KEEP_SCORE` is kept, and so are
the structural lines of docs/tools.md#keep-rules-by-source-type (`safety.py`: imports and
definition headers, error lines, headings); the engine's `build_result` then applies
`⟦NO_PRUNE⟧` blocks and the hard constraints, adding back the best-scored lines first.
Scores are cached (TTL + LRU) by a hash of endpoint, goal and documents, so the same output
read twice costs one call (`cache_hit`, latency 0).

Failures raise `BackendError`s carrying `deepinfra_error` + `deepinfra_http_error` (non-2xx,
transport, timeout), `deepinfra_parse_error` (unexpected JSON) or `deepinfra_config_error`
(no key), with `deepinfra_http_status` when there was one (docs/tools.md#pruning-backends).

`cost_estimated_usd` values the tokens saved at `SAVED_TOKEN_USD_PER_MTOK` (what the agent's
model would have charged to read them); `deepinfra_cost_usd` is the rerank call's own cost
at `RERANK_USD_PER_MTOK`.
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import httpx

from mcp_pruner_server.backends.cache import TtlCache
from mcp_pruner_server.backends.remote import Remote, json_body, post_bounded
from mcp_pruner_server.backends.safety import safety_keep
from mcp_pruner_server.errors import (
    BackendConfigError,
    BackendResponseError,
    StatValue,
)
from mcp_pruner_server.offload import json_request_body, run_off_loop_if_large
from mcp_pruner_server.pruning.render import build_result
from mcp_pruner_server.pruning.text import split_lines
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType

# The reranker's score is P(relevant); at 0.5 "yes" is at least as likely as "no".
KEEP_SCORE = 0.5
# Long lines (minified code, base64) are cut before scoring: the head says what the line is.
MAX_DOC_CHARS = 1000
# Qwen3-Reranker-0.6B on DeepInfra, USD per million input tokens (its published price).
RERANK_USD_PER_MTOK = 0.01
# A frontier model's input price, USD per million tokens: what the saved tokens would cost.
SAVED_TOKEN_USD_PER_MTOK = 3.0

WARN_ERROR = "deepinfra_error"
WARN_HTTP = "deepinfra_http_error"
WARN_PARSE = "deepinfra_parse_error"
WARN_CONFIG = "deepinfra_config_error"
WARN_TRUNCATED = "deepinfra_docs_truncated"
WARN_CACHE_HIT = "cache_hit"
# The contract names a transport timeout `deepinfra_http_error` too (no timeout code of its own).
REMOTE = Remote(
    name="DeepInfra",
    where="DeepInfra",
    error_warning=WARN_ERROR,
    timeout_warning=WARN_HTTP,
    http_warning=WARN_HTTP,
    parse_warning=WARN_PARSE,
    status_stat="deepinfra_http_status",
)


@dataclass(frozen=True)
class Scores:
    """One rerank answer: a score per document, and the tokens it was billed for."""

    values: tuple[float, ...]
    input_tokens: int


class DeepInfraBackend:
    """Lines scored against the goal by a hosted reranker; the best kept under the constraints."""

    name = "deepinfra"

    def __init__(
        self,
        *,
        api_key: str | None,
        endpoint_url: str,
        timeout_ms: int,
        max_docs: int,
        client: httpx.AsyncClient,
        cache: TtlCache[str, Scores],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._api_key = api_key
        self._endpoint_url = endpoint_url
        self._timeout_s = timeout_ms / 1000.0
        self._max_docs = max_docs
        self._client = client
        self._cache = cache
        self._clock = clock

    async def prune(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        """Score the lines with the reranker and keep the best.

        Raises:
            BackendConfigError: `DEEPINFRA_API_KEY` is not set.
            BackendTimeoutError: the rerank call outlived `DEEPINFRA_TIMEOUT_MS`.
            BackendHttpError: transport failure or a non-2xx status (401, 429, 5xx...).
            BackendResponseError: the answer is not `{"scores": [number × documents]}`.
        """
        started = self._clock()
        # Splitting, hashing, encoding and rendering are CPU work proportional to the text:
        # a worker thread does them when the text is large, never the event loop.
        plan = await run_off_loop_if_large(functools.partial(self._plan, text, goal_hint), len(text))
        stats: dict[str, StatValue] = {
            "deepinfra_docs_total": plan.distinct,
            "deepinfra_docs_scored": len(plan.docs),
        }
        if not self._api_key:
            raise BackendConfigError(
                "DEEPINFRA_API_KEY is not set", warnings=(WARN_ERROR, WARN_CONFIG), stats=stats
            )
        warnings: list[str] = []
        scores = self._cache.get(plan.key)
        if scores is not None:
            warnings.append(WARN_CACHE_HIT)
            stats.update(deepinfra_latency_ms=0, deepinfra_cached=True, deepinfra_http_status=200)
        else:
            call_started = self._clock()
            scores = await self._rerank(goal_hint, plan.docs, stats)
            self._cache.put(plan.key, scores)
            latency = round((self._clock() - call_started) * 1000.0, 3)
            stats.update(deepinfra_latency_ms=latency, deepinfra_cached=False, deepinfra_http_status=200)
        if plan.distinct > len(plan.docs):
            warnings.append(WARN_TRUNCATED)
        stats["deepinfra_input_tokens"] = scores.input_tokens
        stats["deepinfra_cost_usd"] = round(scores.input_tokens * RERANK_USD_PER_MTOK / 1e6, 8)
        render = functools.partial(
            self._render, text, plan, scores, source_type, options, prune_id, started, warnings, stats
        )
        return await run_off_loop_if_large(render, len(text))

    def _plan(self, text: str, goal_hint: str) -> _Plan:
        lines = split_lines(text)
        distinct = list(dict.fromkeys(line.strip() for line in lines if line.strip()))
        docs = tuple(distinct[: self._max_docs])
        return _Plan(tuple(lines), docs, len(distinct), self._cache_key(goal_hint, docs))

    def _render(
        self,
        text: str,
        plan: _Plan,
        scores: Scores,
        source_type: SourceType,
        options: PruneOptions,
        prune_id: str,
        started: float,
        warnings: list[str],
        stats: dict[str, StatValue],
    ) -> PruneResult:
        lines = list(plan.lines)
        by_doc = dict(zip(plan.docs, scores.values, strict=True))
        # Unscored lines (past max_docs) are kept; blank lines follow what surrounds them.
        priority = [by_doc.get(line.strip(), 1.0) if line.strip() else 0.0 for line in lines]
        keep = [
            (p >= KEEP_SCORE and bool(line.strip())) or must
            for p, line, must in zip(priority, lines, safety_keep(lines, source_type), strict=True)
        ]
        result = build_result(
            text,
            keep,
            prune_id,
            options,
            backend=self.name,
            elapsed_ms=(self._clock() - started) * 1000.0,
            warnings=warnings,
            extra_stats=stats,
            priority=priority,
        )
        saved = max(0, result.stats.tokens_est_before - result.stats.tokens_est_after)
        extra = {
            **result.stats.extra,
            "tokens_saved_est": saved,
            "cost_estimated_usd": round(saved * SAVED_TOKEN_USD_PER_MTOK / 1e6, 8),
        }
        return replace(result, stats=replace(result.stats, extra=extra))

    def _cache_key(self, goal_hint: str, docs: tuple[str, ...]) -> str:
        digest = hashlib.sha256()
        for part in (self._endpoint_url, goal_hint, *docs):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\0")
        return digest.hexdigest()

    async def _rerank(self, goal_hint: str, docs: tuple[str, ...], stats: dict[str, StatValue]) -> Scores:
        if not docs:
            return Scores((), 0)
        size = sum(min(len(d), MAX_DOC_CHARS) for d in docs) + len(goal_hint) * len(docs)
        content = await run_off_loop_if_large(functools.partial(_request_body, goal_hint, docs), size)
        headers = {"Authorization": f"Bearer {self._api_key}", "content-type": "application/json"}
        response = await post_bounded(
            self._client, self._endpoint_url, content, headers, self._timeout_s, REMOTE, stats
        )
        parse = functools.partial(_parse_scores, response, len(docs), stats)
        return await run_off_loop_if_large(parse, len(response.content))


@dataclass(frozen=True)
class _Plan:
    """The text's lines, the documents to score, how many distinct lines, the cache key."""

    lines: tuple[str, ...]
    docs: tuple[str, ...]
    distinct: int
    key: str


def _request_body(goal_hint: str, docs: tuple[str, ...]) -> bytes:
    payload = {"queries": [goal_hint] * len(docs), "documents": [d[:MAX_DOC_CHARS] for d in docs]}
    return json_request_body(payload)


def _parse_scores(response: httpx.Response, expected: int, stats: dict[str, StatValue]) -> Scores:
    """Raises:
    BackendResponseError: not JSON, no `scores`, wrong length or a non-number score.
    """
    body = json_body(response, REMOTE, stats)
    values = body.get("scores") if isinstance(body, dict) else None
    if (
        not isinstance(values, list)
        or len(values) != expected
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    ):
        raise BackendResponseError(
            f"DeepInfra answer has no list of {expected} numeric scores",
            warnings=(WARN_ERROR, WARN_PARSE),
            stats=stats,
        )
    tokens = body.get("input_tokens") if isinstance(body, dict) else None
    return Scores(tuple(float(v) for v in values), tokens if isinstance(tokens, int) else 0)
