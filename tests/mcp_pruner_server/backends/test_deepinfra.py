from collections.abc import Awaitable

import httpx
import pytest

from mcp_pruner_server.backends.cache import TtlCache
from mcp_pruner_server.backends.deepinfra import DeepInfraBackend, Scores
from mcp_pruner_server.errors import (
    BackendConfigError,
    BackendError,
    BackendHttpError,
    BackendResponseError,
    BackendTimeoutError,
)
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult
from tests.json_paths import at

from .fake_http import (
    TIMEOUT_MS,
    Behaviour,
    Request,
    accept_never_read,
    answer,
    answer_with,
    fails_within_timeout,
    never_answer,
    raw,
    record_render_threads,
    refused_url,
    serve,
    stall_body,
)

pytestmark = pytest.mark.anyio

PATH = "/v1/inference/Qwen/Qwen3-Reranker-0.6B"
TEXT = "\n".join(
    ["import os", "", "def parse_config(path):", "    return load(path)", ""]
    + [f"noise line {i}" for i in range(15)]
    + ["def unrelated():", "    pass"]
)
OPTIONS = PruneOptions(max_prune_ratio=0.9, min_keep_lines=0, include_markers=True)


def score_by_keyword(request: Request) -> object:
    body = request.json()
    assert isinstance(body, dict)
    docs = body["documents"]
    assert body["queries"] == [body["queries"][0]] * len(docs)
    return {"scores": [0.95 if "config" in d or "load" in d else 0.02 for d in docs], "input_tokens": 321}


def make_backend(
    url: str, client: httpx.AsyncClient, *, api_key: str | None = "sk-test", max_docs: int = 256
) -> DeepInfraBackend:
    return DeepInfraBackend(
        api_key=api_key,
        endpoint_url=url,
        timeout_ms=TIMEOUT_MS,
        max_docs=max_docs,
        client=client,
        cache=TtlCache[str, Scores](60, 16),
    )


async def test_lines_scored_by_the_reranker_are_kept_with_the_seed_stats() -> None:
    async with serve(answer_with(score_by_keyword), PATH) as server, httpx.AsyncClient() as client:
        result = await make_backend(server.url, client).prune(TEXT, "parse config", "code", OPTIONS, "prn_d")
    request = server.requests[0]
    assert request.headers["authorization"] == "Bearer sk-test"
    sent = request.json()
    assert isinstance(sent, dict)
    assert sent["queries"][0] == "parse config"
    assert "" not in sent["documents"]
    kept = [line for line in result.pruned_text.split("\n") if not line.startswith("⟦")]
    assert "def parse_config(path):" in kept
    assert "    return load(path)" in kept
    assert "noise line 7" not in kept
    stats = result.to_dict()["stats"]
    assert stats["backend"] == "deepinfra"
    assert stats["used_fallback"] is False
    assert stats["deepinfra_http_status"] == 200
    assert stats["deepinfra_cached"] is False
    assert stats["deepinfra_docs_total"] == stats["deepinfra_docs_scored"] == len(sent["documents"])
    assert stats["tokens_saved_est"] == stats["tokens_est_before"] - stats["tokens_est_after"] > 0
    assert stats["cost_estimated_usd"] > 0
    assert stats["deepinfra_input_tokens"] == 321
    assert result.warnings == ()


async def test_the_same_content_twice_is_served_from_the_cache() -> None:
    async with serve(answer_with(score_by_keyword), PATH) as server, httpx.AsyncClient() as client:
        backend = make_backend(server.url, client)
        first = await backend.prune(TEXT, "parse config", "code", OPTIONS, "prn_1")
        second = await backend.prune(TEXT, "parse config", "code", OPTIONS, "prn_2")
    assert len(server.requests) == 1
    assert second.warnings == ("cache_hit",)
    assert second.stats.extra["deepinfra_cached"] is True
    assert second.stats.extra["deepinfra_latency_ms"] == 0
    assert second.pruned_text == first.pruned_text.replace("prn_1", "prn_2")


async def test_a_different_goal_is_not_a_cache_hit() -> None:
    async with serve(answer_with(score_by_keyword), PATH) as server, httpx.AsyncClient() as client:
        backend = make_backend(server.url, client)
        await backend.prune(TEXT, "parse config", "code", OPTIONS, "prn_1")
        await backend.prune(TEXT, "something else", "code", OPTIONS, "prn_2")
    assert len(server.requests) == 2


async def test_lines_past_max_docs_are_kept_unscored_and_flagged_truncated() -> None:
    async with serve(answer_with(score_by_keyword), PATH) as server, httpx.AsyncClient() as client:
        result = await make_backend(server.url, client, max_docs=4).prune(
            TEXT, "config", "code", OPTIONS, "prn_t"
        )
    sent = server.requests[0].json()
    assert isinstance(sent, dict)
    assert len(sent["documents"]) == 4
    assert "deepinfra_docs_truncated" in result.warnings
    assert result.stats.extra["deepinfra_docs_scored"] == 4
    assert result.stats.extra["deepinfra_docs_total"] > 4
    assert "noise line 14" in result.pruned_text  # unscored, so kept


async def test_hard_constraints_hold_when_the_reranker_likes_nothing() -> None:
    behave = answer_with(lambda r: {"scores": [0.0] * len(at(r.json(), "documents", kind=list))})
    async with serve(behave, PATH) as server, httpx.AsyncClient() as client:
        options = PruneOptions(max_prune_ratio=0.5, min_keep_lines=3)
        result = await make_backend(server.url, client).prune(TEXT, "q", "code", options, "prn_c")
    assert result.stats.pruned_ratio <= 0.5


async def test_a_missing_key_is_a_config_error_without_any_call() -> None:
    async with serve(answer_with(score_by_keyword), PATH) as server, httpx.AsyncClient() as client:
        with pytest.raises(BackendConfigError) as caught:
            await make_backend(server.url, client, api_key=None).prune(TEXT, "q", "code", OPTIONS, "prn_k")
    assert server.requests == []
    assert caught.value.warnings == ("deepinfra_error", "deepinfra_config_error")


async def fails(url: str, expected: type[BackendError]) -> BackendError:
    def prune(client: httpx.AsyncClient) -> Awaitable[PruneResult]:
        return make_backend(url, client).prune(TEXT, "config", "code", OPTIONS, "prn_e")

    return await fails_within_timeout(prune, expected)


@pytest.mark.parametrize("status", [401, 429, 500])
async def test_error_statuses_carry_the_status_and_http_error_warnings(status: int) -> None:
    async with serve(answer(status, {"error": "nope"}), PATH) as server:
        err = await fails(server.url, BackendHttpError)
    assert err.warnings == ("deepinfra_error", "deepinfra_http_error")
    assert err.stats["deepinfra_http_status"] == status


@pytest.mark.parametrize("behaviour", [never_answer, stall_body], ids=["never-answer", "stalled-body"])
async def test_slow_answers_end_at_the_timeout_as_http_errors(behaviour: Behaviour) -> None:
    async with serve(behaviour, PATH) as server:
        err = await fails(server.url, BackendTimeoutError)
    assert err.error_code == "timeout"
    assert err.warnings == ("deepinfra_error", "deepinfra_http_error")


async def test_accept_but_never_read_ends_at_the_timeout() -> None:
    async with accept_never_read(PATH) as url:
        await fails(url, BackendTimeoutError)


async def test_connection_refused_is_an_http_error() -> None:
    err = await fails(refused_url(PATH), BackendHttpError)
    assert err.warnings == ("deepinfra_error", "deepinfra_http_error")


@pytest.mark.parametrize(
    "behaviour",
    [
        raw(200, b"scores: 1, 2"),
        answer(200, {"results": []}),
        answer(200, {"scores": [0.5]}),
        answer(200, {"scores": ["high"] * 19}),
    ],
    ids=["not-json", "other-shape", "wrong-length", "not-numbers"],
)
async def test_unexpected_json_is_a_parse_error(behaviour: Behaviour) -> None:
    async with serve(behaviour, PATH) as server:
        err = await fails(server.url, BackendResponseError)
    assert err.warnings == ("deepinfra_error", "deepinfra_parse_error")
    assert err.stats["deepinfra_http_status"] == 200


async def test_structural_lines_stay_even_when_the_reranker_scores_them_low() -> None:
    async with serve(answer_with(score_by_keyword), PATH) as server, httpx.AsyncClient() as client:
        result = await make_backend(server.url, client).prune(TEXT, "parse config", "code", OPTIONS, "prn_s")
    kept = result.pruned_text.split("\n")
    assert "import os" in kept
    assert "def unrelated():" in kept


async def test_a_large_text_is_planned_and_rendered_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp_pruner_server.backends import deepinfra as module

    threads = record_render_threads(monkeypatch, module)
    big = "\n".join(f"noise line {i % 200} " + "x" * 60 for i in range(4000)) + "\nload config"
    async with serve(answer_with(score_by_keyword), PATH) as server, httpx.AsyncClient() as client:
        backend = make_backend(server.url, client)
        result = await backend.prune(big, "config", "logs", OPTIONS, "prn_big")
        small = await backend.prune(TEXT, "config", "code", OPTIONS, "prn_small")
    assert "load config" in result.pruned_text
    assert small.prune_id == "prn_small"
    assert threads == [False, True]
