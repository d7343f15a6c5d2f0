from collections.abc import Awaitable

import httpx
import pytest

from mcp_pruner_server.backends.http import HttpBackend, wire_protocol
from mcp_pruner_server.errors import BackendError, BackendHttpError, BackendResponseError, BackendTimeoutError
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult

from .fake_http import (
    TIMEOUT_MS,
    Behaviour,
    Request,
    accept_never_read,
    answer,
    answer_with,
    fails_within_timeout,
    hang_up_mid_body,
    never_answer,
    raw,
    record_render_threads,
    refused_url,
    serve,
    stall_body,
)

pytestmark = pytest.mark.anyio

# Lines long enough that a pruned run costs more than its marker (short runs are kept instead).
TEXT = "\n".join(f"line {i}: worker 3 finished a batch of 128 records in 42 ms" for i in range(1, 21))
OPTIONS = PruneOptions(max_prune_ratio=0.9, min_keep_lines=0, include_markers=True)
# The bound given to a backend whose server answers (with an error or garbage): far above any
# scheduling delay, so only the answer decides the error.
ANSWERED_TIMEOUT_MS = 10_000


def keep_lines(request: Request, field: str, wanted: set[int]) -> str:
    body = request.json()
    assert isinstance(body, dict)
    lines = str(body[field]).split("\n")
    return "\n".join(line for i, line in enumerate(lines, 1) if i in wanted)


async def test_jeeves_contract_request_and_answer_become_a_marked_result() -> None:
    wanted = {1, 2, 10, 11, 12, 20}
    behave = answer_with(lambda r: {"output": keep_lines(r, "input", wanted), "output_bytes": 0})
    async with serve(behave, path="/v1/prune-output") as server, httpx.AsyncClient() as client:
        backend = HttpBackend(server.url, TIMEOUT_MS, client)
        result = await backend.prune(TEXT, "where is line 10", "logs", OPTIONS, "prn_x")
    sent = server.requests[0].json()
    assert sent == {
        "request_id": "prn_x",
        "tool": "prune_text",
        "focus_question": "where is line 10",
        "input": TEXT,
        "input_bytes": len(TEXT.encode()),
        "source_type": "logs",
    }
    assert result.prune_id == "prn_x"
    assert result.stats.backend == "http"
    assert result.stats.used_fallback is False
    assert result.stats.kept_lines == len(wanted)
    assert [(a.original_start_line, a.original_end_line) for a in result.annotations] == [(3, 9), (13, 19)]
    assert result.pruned_text.split("\n")[:3] == [*TEXT.split("\n")[:2], result.annotations[0].marker]
    assert result.stats.extra["http_protocol"] == "jeeves"


async def test_swe_pruner_protocol_by_path_with_its_placeholders_ignored() -> None:
    def make(request: Request) -> object:
        kept = keep_lines(request, "code", {5, 6, 7})
        return {
            "pruned_code": "(filtered 4 lines)\n" + kept + "\n(filtered 13 lines)",
            "score": 0.8,
            "kept_frags": [1],
            "origin_token_cnt": 100,
            "left_token_cnt": 20,
        }

    async with serve(answer_with(make), path="/prune") as server, httpx.AsyncClient() as client:
        backend = HttpBackend(server.url, TIMEOUT_MS, client)
        result = await backend.prune(TEXT, "line 6", "code", OPTIONS, "prn_y")
    assert server.requests[0].json() == {"query": "line 6", "code": TEXT, "threshold": 0.5}
    assert result.stats.kept_lines == 3
    assert result.stats.extra["http_unmatched_lines"] == 2
    assert result.stats.extra["swe_pruner_origin_token_cnt"] == 100
    assert "(filtered" not in result.pruned_text


def test_protocol_is_chosen_by_path_unless_configured() -> None:
    assert wire_protocol("http://h:1/prune", "auto") == "swe_pruner"
    assert wire_protocol("http://h:1/api/prune/", "auto") == "swe_pruner"
    assert wire_protocol("http://h:1/jeeves/outbound", "auto") == "jeeves"
    assert wire_protocol("http://h:1/prune", "jeeves") == "jeeves"


async def test_the_hard_constraints_hold_whatever_the_remote_kept() -> None:
    behave = answer_with(lambda _: {"output": ""})
    async with serve(behave, path="/x") as server, httpx.AsyncClient() as client:
        backend = HttpBackend(server.url, TIMEOUT_MS, client)
        options = PruneOptions(max_prune_ratio=0.5, min_keep_lines=0)
        result = await backend.prune(TEXT, "q", "docs", options, "prn_z")
    assert result.stats.kept_lines >= 10


async def assert_fails_within_timeout(url: str, expected: type[BackendError]) -> BackendError:
    # A server that answers is judged on its answer: its error must not turn into a timeout
    # because a loaded machine took more than TIMEOUT_MS to start the exchange.
    timeout_ms = TIMEOUT_MS if expected is BackendTimeoutError else ANSWERED_TIMEOUT_MS

    def prune(client: httpx.AsyncClient) -> Awaitable[PruneResult]:
        return HttpBackend(url, timeout_ms, client).prune(TEXT, "q", "code", OPTIONS, "prn_f")

    err = await fails_within_timeout(prune, expected, timeout_ms)
    assert "http_backend_error" in err.warnings
    return err


async def test_a_server_that_never_answers_ends_at_the_timeout() -> None:
    async with serve(never_answer) as server:
        err = await assert_fails_within_timeout(server.url, BackendTimeoutError)
    assert err.error_code == "timeout"
    assert err.warnings == ("http_backend_error", "http_backend_timeout")


async def test_a_server_that_stalls_mid_body_ends_at_the_timeout() -> None:
    async with serve(stall_body) as server:
        await assert_fails_within_timeout(server.url, BackendTimeoutError)


async def test_accept_but_never_read_ends_at_the_timeout() -> None:
    async with accept_never_read() as url:
        await assert_fails_within_timeout(url, BackendTimeoutError)


async def test_connection_refused_is_an_http_error_at_once() -> None:
    err = await assert_fails_within_timeout(refused_url(), BackendHttpError)
    assert err.error_code == "http_error"
    assert err.warnings == ("http_backend_error", "http_backend_http_error")


async def test_a_connection_closed_mid_answer_is_an_http_error() -> None:
    async with serve(hang_up_mid_body) as server:
        await assert_fails_within_timeout(server.url, BackendHttpError)


@pytest.mark.parametrize("status", [401, 429, 500])
async def test_error_statuses_are_http_errors_with_the_status(status: int) -> None:
    async with serve(answer(status, {"detail": "no"})) as server:
        err = await assert_fails_within_timeout(server.url, BackendHttpError)
    assert err.stats == {"http_status": status}
    assert str(status) in str(err)


@pytest.mark.parametrize(
    "behaviour",
    [
        raw(200, b"{not json", "application/json"),
        raw(200, b"<html>ok</html>", "text/html"),
        answer(200, {"pruned": "wrong field"}),
        answer(200, ["a list"]),
        answer(200, {"pruned_code": "line 1", "error_msg": "CUDA out of memory"}),
        answer(200, {"pruned_code": "nothing\nlike\nthe input"}),
    ],
    ids=["broken-json", "html", "wrong-field", "list", "error-msg", "unaligned"],
)
async def test_invalid_answers_are_invalid_responses(behaviour: Behaviour) -> None:
    async with serve(behaviour) as server:
        err = await assert_fails_within_timeout(server.url, BackendResponseError)
    assert err.error_code == "invalid_response"
    assert err.warnings == ("http_backend_error", "http_backend_parse_error")


async def test_a_large_answer_is_parsed_and_rendered_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp_pruner_server.backends import http as module

    threads = record_render_threads(monkeypatch, module)
    big = "\n".join(f"line {i} " + "x" * 60 for i in range(4000))  # ~270 KB
    behave = answer_with(lambda r: {"output": keep_lines(r, "input", {1, 2000, 4000})})
    async with serve(behave, path="/x") as server, httpx.AsyncClient() as client:
        backend = HttpBackend(server.url, 5000, client)
        result = await backend.prune(big, "line 2000", "logs", OPTIONS, "prn_big")
        small = await backend.prune(TEXT, "line 10", "logs", OPTIONS, "prn_small")
    assert result.stats.kept_lines >= 3
    assert small.prune_id == "prn_small"
    assert threads == [False, True]  # the large one in a worker thread, the small one inline
