"""The recoverable masker and `GatewayService.handle` edge cases (deep nesting, store limits)."""

from __future__ import annotations

import json
import math
import re
import threading
import tracemalloc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from mcp_pruner_server import json_slices
from mcp_pruner_server.deep_json import loads_deep
from mcp_pruner_server.gateway import forward as forward_module
from mcp_pruner_server.gateway import replies as replies_module
from mcp_pruner_server.gateway import service as service_module
from mcp_pruner_server.gateway.config import GatewayConfig
from mcp_pruner_server.gateway.forward import UpstreamClient
from mcp_pruner_server.gateway.masking import MaskOptions, mask_response
from mcp_pruner_server.gateway.service import MAX_STORED_PER_REPLY, GatewayService, RecoverableMasker
from mcp_pruner_server.pruner_service import PruneOutcome, PrunerService
from mcp_pruner_server.pruning.types import PruneOptions, SourceType
from mcp_pruner_server.pruning_config import PruningConfig
from mcp_pruner_server.recovery import RecoveryStore
from tests.json_paths import at

from . import upstreams as up

pytestmark = pytest.mark.anyio
OPTIONS = MaskOptions()


def test_equal_strings_of_one_reply_share_one_stored_middle() -> None:
    store = RecoveryStore(60, 100, 1 << 20)
    masker = RecoverableMasker(store, OPTIONS)
    text = "x" * 2500 + "y" * 3000 + "z" * 2500
    # Two equal but distinct string objects, as json.loads produces them.
    value = {"a": text, "b": "".join(["x" * 2500, "y" * 3000, "z" * 2500])}
    masked = mask_response({"jsonrpc": "2.0", "id": 1, "result": value}, OPTIONS.max_chars, masker)
    assert isinstance(masked, dict)
    assert masked["result"]["a"] == masked["result"]["b"]
    assert (masker.masked, len(store)) == (1, 1)


def test_a_middle_larger_than_the_store_is_marked_unavailable() -> None:
    store = RecoveryStore(60, 100, 1024)
    masked = RecoverableMasker(store, OPTIONS)("q" * 10_000)
    assert "id=unavailable]" in masked
    assert len(store) == 0


def test_a_middle_that_cannot_be_stored_is_never_copied() -> None:
    # A 64 MB string from an upstream peaked at 3x its size: the text, its decoded value, and the
    # middle sliced off only for the store to refuse it. The refusal is now known before slicing.
    text = "m" * (8 << 20)
    store = RecoveryStore(60, 100, 1024)
    masker = RecoverableMasker(store, OPTIONS)
    tracemalloc.start()
    try:
        masked = masker(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < len(text) // 8  # a copy of the middle would be ~8 MiB
    assert f"original_chars={len(text)}" in masked
    assert "id=unavailable]" in masked
    assert masked.startswith("m" * OPTIONS.head_chars)
    assert masked.endswith("m" * OPTIONS.tail_chars)
    assert (masker.masked, masker.unstored, len(store)) == (1, 1, 0)


def test_a_replacement_short_enough_is_shown_as_is() -> None:
    store = RecoveryStore(60, 100, 1 << 20)
    masker = RecoverableMasker(store, OPTIONS, {"a" * 5000: "pruned"})
    assert masker("a" * 5000) == "pruned"
    assert len(store) == 0


async def handle(
    tmp_path: Path, body: bytes, *, store: RecoveryStore | None = None, content_type: str = "application/json"
) -> object:
    async with up.serve(up.raw(200, body, content_type)) as upstream:
        store = RecoveryStore(60, 100, 1 << 24) if store is None else store
        config = GatewayConfig(servers={"fs": upstream.url})
        gateway = GatewayService(config, PrunerService(PruningConfig(), store), UpstreamClient(config))
        try:
            call = b'{"jsonrpc": "2.0", "id": 1, "method": "m"}'
            answer = await gateway.handle("fs", call, {})
        finally:
            await gateway.aclose()
    assert answer.status == 200
    assert answer.body is not None
    try:
        return json.loads(answer.body)
    except RecursionError:  # deeper than the test's own parser reads
        return loads_deep(answer.body.decode(), float)


# A reply over 1 MiB is parsed from its chunks (`ReceivedBody`), a smaller one whole, an SSE event
# on its own: three parsers that stopped at the C parser's ~1000 levels.
DEEP_REPLY_SHAPES = {
    "json": ("application/json", 5000, "{}"),
    "json over 1 MiB": ("application/json", 1_200_000, "{}"),
    "sse event": ("text/event-stream", 5000, "event: message\ndata: {}\n\n"),
}


@pytest.mark.parametrize("shape", DEEP_REPLY_SHAPES)
@pytest.mark.parametrize("depth", [1_000, 5_000, 100_000])
async def test_a_reply_nested_past_the_parsers_recursion_limit_is_masked_at_the_bottom_and_recoverable(
    tmp_path: Path, depth: int, shape: str
) -> None:
    content_type, chars, frame = DEEP_REPLY_SHAPES[shape]
    observation = "".join(f"line {n} of the deep observation\n" for n in range(chars // 30))
    result = "[" * depth + json.dumps(observation) + "]" * depth
    message = '{"jsonrpc": "2.0", "id": 1, "result": ' + result + "}"
    store = RecoveryStore(60, 100, 1 << 24)
    answer = await handle(tmp_path, frame.format(message).encode(), store=store, content_type=content_type)
    assert isinstance(answer, dict)
    assert "error" not in answer, answer
    leaf = answer["result"]
    for _ in range(depth):
        assert isinstance(leaf, list)
        assert len(leaf) == 1
        leaf = leaf[0]
    assert f"KIMI_PROXY_OBSERVATION_MASKED original_chars={len(observation)}" in leaf
    head, _, tail = MASK_MARKER.split(leaf)
    assert head + store.get(marker_id(leaf)) + tail == observation  # nothing lost


async def test_a_moderately_nested_reply_is_masked_at_the_bottom(tmp_path: Path) -> None:
    result = "[" * 200 + '"' + "w" * 5000 + '"' + "]" * 200
    answer = await handle(tmp_path, ('{"jsonrpc": "2.0", "id": 1, "result": ' + result + "}").encode())
    assert isinstance(answer, dict)
    leaf = answer["result"]
    for _ in range(200):
        leaf = leaf[0]
    assert "KIMI_PROXY_OBSERVATION_MASKED original_chars=5000" in leaf


MARKER_ID = re.compile(r"id=(prn_\w+|unavailable)\]")
MASK_MARKER = re.compile(r"(\n\.\.\. \[KIMI_PROXY_OBSERVATION_MASKED [^\]]*\] \.\.\.\n)")


def marker_id(text: object) -> str:
    """The recovery id in the one masking marker `text` holds."""
    assert isinstance(text, str)
    found = MARKER_ID.search(text)
    assert found is not None, f"no marker in {text[:200]!r}"
    return found.group(1)


@asynccontextmanager
async def gateway_over(behaviour: up.Behaviour, store: RecoveryStore) -> AsyncIterator[GatewayService]:
    async with up.serve(behaviour) as upstream:
        config = GatewayConfig(servers={"fs": upstream.url})
        service = PrunerService(PruningConfig(), store)
        gateway = GatewayService(config, service, UpstreamClient(config))
        try:
            yield gateway
        finally:
            await gateway.aclose()
            await service.aclose()


async def call(gateway: GatewayService, meta: dict[str, object] | None = None) -> dict[str, object]:
    params: dict[str, object] = {"name": "read", "arguments": {}}
    if meta is not None:
        params["_meta"] = meta
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).encode()
    answer = await gateway.handle("fs", body, {})
    assert answer.body is not None
    message = json.loads(answer.body)
    assert isinstance(message, dict)
    return message


def thread_spy(monkeypatch: pytest.MonkeyPatch, name: str) -> list[bool]:
    """Record, for each call of `service.<name>`, whether it ran on the event loop's thread."""
    on_main: list[bool] = []
    real = getattr(service_module, name)

    def spy(*args: object, **kwargs: object) -> object:  # a spy: the real function runs
        on_main.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(service_module, name, spy)
    return on_main


def tool_result(text: str) -> dict[str, object]:
    structured = {"tool": "read", "content": text}
    return {"content": [{"type": "text", "text": json.dumps(structured)}], "structuredContent": structured}


async def test_an_sse_reply_is_measured_and_masked_off_the_loop(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_pruner_server.logs import configure_logging

    configure_logging("json")
    on_main = thread_spy(monkeypatch, "mask_message")
    big = "".join(f"line {n}\n" for n in range(20_000))  # ~190 KB in one SSE event
    events = up.sse(lambda r: [{"jsonrpc": "2.0", "id": r["id"], "result": {"text": big}}])
    async with gateway_over(events, RecoveryStore(60, 100, 1 << 24)) as gateway:
        answer = await call(gateway)
    assert "KIMI_PROXY_OBSERVATION_MASKED" in at(answer, "result", "text", kind=str)
    assert on_main == [False]
    lines = capsys.readouterr().err.splitlines()
    ok = [json.loads(line) for line in lines if '"gateway.forward_ok"' in line]
    assert ok[0]["data"]["bytes_in"] > len(big)


async def test_a_large_caller_body_is_parsed_off_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    on_main = thread_spy(monkeypatch, "parse_request")
    async with gateway_over(
        up.echo_result(lambda _: {"ok": True}), RecoveryStore(60, 100, 1 << 20)
    ) as gateway:
        await call(gateway, {"padding": "p" * 100_000})
        await call(gateway)
    assert on_main == [False, True]


async def test_the_focus_question_walk_runs_off_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    on_main = thread_spy(monkeypatch, "mask_message")
    log = "".join(f"INFO step {n} done\n" for n in range(8000)) + "ERROR disk full\n"
    async with gateway_over(
        up.echo_result(lambda _: {"text": log}), RecoveryStore(60, 100, 1 << 24)
    ) as gateway:
        answer = await call(gateway, {"context_focus_question": "why is the disk full?"})
    assert "ERROR disk full" in at(answer, "result", "text", kind=str)
    assert on_main == [False, False]  # the collecting walk and the masking walk


async def test_a_string_the_engine_leaves_whole_is_stored_once_as_a_masked_middle() -> None:
    store = RecoveryStore(60, 100, 1 << 24)
    # One line: the engine keeps at least one, so it keeps it whole.
    text = "k " * 3000
    async with gateway_over(up.echo_result(lambda _: {"text": text}), store) as gateway:
        answer = await call(gateway, {"context_focus_question": "k"})
    ids = MARKER_ID.findall(at(answer, "result", "text", kind=str))
    assert len(ids) == 1
    assert len(store) == 1  # the masked middle only: the engine's no-op did not store the original too


async def test_one_reply_cannot_evict_every_other_recovery() -> None:
    store = RecoveryStore(60, 300, 1 << 24)
    store.put("prn_older", "an earlier observation")
    strings = [f"{n:04d}" + "s" * 4000 for n in range(MAX_STORED_PER_REPLY + 44)]
    async with gateway_over(up.echo_result(lambda _: {"items": strings}), store) as gateway:
        answer = await call(gateway)
    ids = [marker_id(s) for s in at(answer, "result", "items", kind=list)]
    assert ids.count("unavailable") == 44
    assert ids[:MAX_STORED_PER_REPLY] == [i for i in ids if i != "unavailable"]
    assert store.get("prn_older") == "an earlier observation"


async def test_a_tools_call_result_stores_its_structured_data_once() -> None:
    store = RecoveryStore(60, 100, 1 << 24)
    big = "".join(f"row {n}\n" for n in range(20_000))
    async with gateway_over(up.echo_result(lambda _: tool_result(big)), store) as gateway:
        answer = await call(gateway)
    result = answer["result"]
    assert isinstance(result, dict)
    masked = result["structuredContent"]["content"]
    structured_id = marker_id(masked)
    recovered = store.get(structured_id)
    assert recovered in big
    # The text is rebuilt from the masked structuredContent: its own middle is tiny.
    assert store.stats().bytes < len(recovered) + 4096
    text = result["content"][0]["text"]
    text_id = marker_id(text)
    assert structured_id in store.get(text_id)  # the text's middle points at the same stored data


async def test_a_file_the_tools_call_names_is_pruned_with_its_path(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[object, object]] = []
    real = PrunerService.prune

    async def spy(
        self: PrunerService, text: str, question: str, kind: SourceType, options: PruneOptions, **kw: Any
    ) -> PruneOutcome:
        seen.append((kind, options.path))  # a spy: the real prune runs
        return await real(self, text, question, kind, options, **kw)

    monkeypatch.setattr(PrunerService, "prune", spy)
    source = "".join(f"def step_{n}(x):\n    return x + {n}\n\n" for n in range(400))
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "read_text_file",
            "arguments": {"path": "src/steps.py"},
            "_meta": {"context_focus_question": "what does step_7 add?"},
        },
    }
    async with gateway_over(
        up.echo_result(lambda _: {"text": source}), RecoveryStore(60, 100, 1 << 24)
    ) as gateway:
        answer = await gateway.handle("fs", json.dumps(body).encode(), {})
    assert answer.body is not None
    assert b"def step_7(x):" in answer.body
    assert seen == [("code", "src/steps.py")]


# -- big replies: parsed in slices (`forward.ReceivedBody`), answered as a small reply is ------------

BIG_REPLY_BYTES = 3 * forward_module.SLICED_REPLY_BYTES


def big_reply(kind: str) -> bytes:
    """A reply past `SLICED_REPLY_BYTES` whose long strings cut hard: escapes, pairs, multi-byte
    characters, lone surrogates, equal long strings, a long key, structured data sent twice."""
    line = 'say "hi"\\ é\t😀 €\u2028 x\n'
    long_text = line * (BIG_REPLY_BYTES // len(line.encode()) // 3)
    structured = {"tool": "read", "content": long_text, "n": 2**60}
    result: dict[str, object] = {
        "content": [{"type": "text", "text": json.dumps(structured)}],
        "structuredContent": structured,
        "again": long_text,  # equal to `content`'s: one stored middle, one id
        "mid": "m" * 5000,  # masked, shorter than a slice
        "k" * 300_000: "a long key",
    }
    if kind != "utf8":
        result["lone"] = "\ud800" + "s" * 300_000
    if kind == "escaped":
        return json.dumps({"jsonrpc": "2.0", "id": 1, "result": result, "x": math.nan}).encode()
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}, ensure_ascii=False)
    if kind == "not_utf8":
        return body.encode("utf-8", "surrogatepass").replace(b"say", b"s\xffy", 1)
    return body.encode("utf-8", "surrogatepass")  # "surrogate_bytes": JSON, not strict UTF-8


def numbered_ids(body: bytes) -> bytes:
    """`body` with each distinct recovery id replaced by its rank of first appearance, and the
    upstream's port (each call has its own upstream) by PORT."""
    ranks: dict[bytes, bytes] = {}
    body = re.sub(rb"127\.0\.0\.1:\d+", b"127.0.0.1:PORT", body)
    return re.sub(rb"prn_\w+", lambda m: ranks.setdefault(m.group(), b"ID%d" % len(ranks)), body)


async def answer_of(reply: bytes) -> bytes:
    async with up.serve(up.raw(200, reply)) as upstream:
        config = GatewayConfig(servers={"fs": upstream.url})
        service = PrunerService(PruningConfig(), RecoveryStore(60, 4096, 64 << 20))
        gateway = GatewayService(config, service, UpstreamClient(config))
        try:
            answer = await gateway.handle("fs", b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call"}', {})
        finally:
            await gateway.aclose()
            await service.aclose()
    assert answer.status == 200
    assert answer.body is not None
    return numbered_ids(answer.body)


@pytest.mark.parametrize("kind", ["utf8", "escaped", "surrogate_bytes", "not_utf8"])
async def test_a_big_reply_is_answered_byte_for_byte_as_the_same_reply_read_whole(
    monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    reply = big_reply(kind)
    sliced = await answer_of(reply)
    monkeypatch.setattr(forward_module, "SLICED_REPLY_BYTES", 1 << 40)  # every reply read whole
    whole = await answer_of(reply)
    assert sliced == whole
    if kind == "not_utf8":
        assert b'"code": -32015' in whole  # not JSON: the same error, the same excerpt
    else:
        assert b"KIMI_PROXY_OBSERVATION_MASKED" in whole
        assert b"ID1" in whole


async def test_a_big_reply_is_decoded_without_ever_holding_its_long_string_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 60 MB joined into one string held the GIL ~200 ms (issue 29) and took one more copy of the
    # reply: its long strings now stay in slices, so no block is more than a few slices big
    text = "2026-11-28 12:00:00 INFO worker ok\n" * (24_000_000 // 35)
    result = {"content": [{"type": "text", "text": text}]}
    reply = json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}).encode()
    marker = f"original_chars={len(text)} ".encode()
    del text
    largest: list[int] = []
    real = replies_module.decode_reply

    def measured(*args: Any) -> object:  # a spy: the real function runs
        message = real(*args)
        traces = tracemalloc.take_snapshot().traces
        largest.append(max(trace.size for trace in traces))
        return message

    monkeypatch.setattr(service_module, "decode_reply", measured)
    tracemalloc.start()
    try:
        answer = await answer_of(reply)  # only what the gateway allocates is traced
    finally:
        tracemalloc.stop()
    assert marker in answer
    assert largest
    assert largest[0] < 4 * json_slices.SLICE_CHARS + (1 << 20)
