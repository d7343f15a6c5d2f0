"""`GatewayService.handle`: forward, check, mask, answer — never raises (docs/http.md#gateway).

1. Parse the caller's body (-32700 / -32600 on failure, like `/rpc`), forward it unchanged.
2. `decode_reply`: the upstream's JSON-RPC response, or a `GatewayError` (-32010..-32017).
   Every error reply is built by `jsonrpc.py`.
3. Mask `result` / `error.data`: every string over `max_chars` becomes head + marker + tail;
   the middle goes to the server's recovery store under a fresh `prn_` id written in the
   marker, so `recover_text {prune_id, ranges: [{start_line: 1, end_line: <big>}]}` returns
   it (the store numbers lines from 1 and clamps `end_line`). Equal strings in one reply
   share one id, and an MCP `tools/call` result's `content[].text` that repeats
   `structuredContent` as JSON is rebuilt from the masked `structuredContent` (same ids;
   `masking.mask_message`). One reply stores at most `MAX_STORED_PER_REPLY` middles and at
   most 1/`STORE_SHARE_PER_REPLY` of the store's bytes, so it cannot evict every other
   reply's and prune's recovery; the strings past that, and a middle too large for the
   store, get `id=unavailable` (head and tail shown, the middle not recoverable).
   With `params._meta.context_focus_question`, each long string (the first
   `MAX_PRUNED_STRINGS` distinct ones) is first pruned by the engine for that question
   (`PrunerService.prune`, fail-open, its own recoverable `prune_id` in its markers; the
   original is stored only when the engine pruned something); what is still over
   `max_chars` is then masked as above.
4. Encode. Replies bigger than `OFF_LOOP_BYTES` (JSON body or SSE stream, as read) are
   decoded, walked, masked and encoded in a worker thread so a 10 MB observation does not
   stall `/healthz` and the other requests; so is a large caller body's parse.

A reply no longer than `max_chars` bytes cannot hold a string longer than `max_chars`
characters, so small replies skip the walk entirely.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

import anyio.to_thread

from mcp_pruner_server.errors import DomainRpcError
from mcp_pruner_server.gateway.config import GatewayConfig
from mcp_pruner_server.gateway.errors import GatewayError
from mcp_pruner_server.gateway.forward import UpstreamClient, UpstreamReply
from mcp_pruner_server.gateway.masking import (
    MaskOptions,
    Text,
    head_and_tail,
    mask_message,
    middle_utf8_bytes,
    render_masked,
    split_long_string,
)
from mcp_pruner_server.gateway.replies import GatewayRequest, RequestParseError, decode_reply, parse_request
from mcp_pruner_server.jsonrpc import INTERNAL_ERROR, PARSE_ERROR, domain_rpc_error, rpc_error
from mcp_pruner_server.jsonsafe import rpc_dumps_bytes
from mcp_pruner_server.logs import log_event, log_exception
from mcp_pruner_server.offload import run_off_loop_if_large
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning.text import utf8_size
from mcp_pruner_server.pruning.types import PruneOptions
from mcp_pruner_server.recovery import RecoveryStore, new_prune_id

# Same threshold as the dispatcher's off-loop serialization: below it a thread hop costs more
# than the JSON work it would move.
OFF_LOOP_BYTES: Final = 64 * 1024
# Engine prunes per reply on the focus-question path: each costs up to its own timeout, so a
# reply with hundreds of long strings gets the first few pruned and the rest masked head/tail.
MAX_PRUNED_STRINGS: Final = 8
# Masked middles one reply may store: a reply with more long strings than this is a dump,
# not an observation an agent recovers piece by piece, and must not evict everyone else's.
MAX_STORED_PER_REPLY: Final = 256
# ... and at most this fraction (1/N) of the store's bytes, for the same reason; half still
# keeps a 30 MB observation recoverable with the default 64 MiB store.
STORE_SHARE_PER_REPLY: Final = 2


@dataclass(frozen=True)
class GatewayAnswer:
    """What the route sends: status, JSON body (None → 202 without body), extra headers."""

    status: int
    body: bytes | None
    headers: Mapping[str, str] = field(default_factory=dict)


class RecoverableMasker:
    """The `StringMasker` of the gateway: head + marker(id) + tail, middle in the store.

    `replacements` maps an original string to the text to show instead (the engine's pruned
    text on the focus-question path) before the head/tail rule applies. One masker serves
    one reply: it stores at most `max_stored` middles and `max_bytes` bytes (defaults: the
    per-reply caps of the module doc); past them, `id=unavailable`.
    """

    def __init__(
        self,
        store: RecoveryStore,
        options: MaskOptions,
        replacements: Mapping[Text, str] | None = None,
        new_id: Callable[[], str] = new_prune_id,
        *,
        max_stored: int = MAX_STORED_PER_REPLY,
        max_bytes: int | None = None,
    ) -> None:
        self._store = store
        self._options = options
        self._replacements = replacements or {}
        self._new_id = new_id
        self._max_stored = max_stored
        self._max_bytes = store.max_bytes // STORE_SHARE_PER_REPLY if max_bytes is None else max_bytes
        # equal strings of one reply: one stored middle, one id (a `LongText` equals its `str`)
        self._done: dict[Text, str] = {}
        self._stored_bytes = 0
        self.masked = 0
        self.stored = 0
        self.unstored = 0  # masked past the per-reply caps or too large: `id=unavailable`

    def __call__(self, text: Text) -> str:
        done = self._done.get(text)
        if done is not None:
            return done
        shown: Text = self._replacements.get(text, text)
        if len(shown) > self._options.max_chars:
            if self._may_store(middle_utf8_bytes(shown, self._options, at_most=self._max_bytes)):
                parts = split_long_string(shown, self._options)
                shown = render_masked(parts, self._store_middle(parts.middle))
            else:
                self.unstored += 1
                shown = render_masked(head_and_tail(shown, self._options), None, len(shown))
            self.masked += 1
        whole = str(shown)  # a text no longer than `max_chars` (the masker is called past it)
        self._done[text] = whole
        return whole

    def _may_store(self, size: int) -> bool:
        """Whether a middle of `size` UTF-8 bytes can still fit."""
        fits_reply = self._stored_bytes + size <= self._max_bytes
        return self.stored < self._max_stored and fits_reply and size <= self._store.max_bytes

    def _store_middle(self, middle: str) -> str | None:
        size = utf8_size(middle)
        if self.stored < self._max_stored and self._stored_bytes + size <= self._max_bytes:
            prune_id = self._new_id()
            if self._store.put(prune_id, middle):
                self.stored += 1
                self._stored_bytes += size
                return prune_id
        self.unstored += 1
        return None


class GatewayService:
    """Forwards to named upstreams and masks their observations; one instance per server."""

    def __init__(self, config: GatewayConfig, service: PrunerService, upstream: UpstreamClient) -> None:
        self._config = config
        self._service = service
        self._upstream = upstream

    @property
    def config(self) -> GatewayConfig:
        return self._config

    async def handle(self, server: str, body: bytes, headers: Mapping[str, str]) -> GatewayAnswer:
        """Answer one gateway call; every failure is a JSON-RPC error with HTTP 200."""
        started = time.perf_counter()
        try:
            request = await run_off_loop_if_large(functools.partial(parse_request, body), len(body))
        except RequestParseError as exc:
            return _json_answer(rpc_error(None, PARSE_ERROR, str(exc)))
        except DomainRpcError as exc:
            return _json_answer(domain_rpc_error(None, exc))
        try:
            reply = await self._upstream.forward(server, body, headers, request.ids)
            answer, masked = await self._answer(reply, request)
        except GatewayError as exc:
            log_event(
                "gateway.forward_failed", level="warning", server=server, url=exc.url, error_code=exc.code
            )
            return _json_answer(_errors_for(request, exc.rpc_code, exc.message, exc.data))
        except Exception:  # the top-level boundary: a bug becomes -32603, never a 500
            log_exception("gateway.internal_error", server=server)
            message = f"Gateway: internal error forwarding to {server!r}"
            return _json_answer(_errors_for(request, INTERNAL_ERROR, message))
        log_event(
            "gateway.forward_ok",
            server=server,
            status=reply.status,
            masked=masked,
            bytes_in=reply.size,
            bytes_out=len(answer.body or b""),
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )
        return answer

    async def aclose(self) -> None:
        await self._upstream.aclose()

    # -- steps -------------------------------------------------------------------------------

    async def _answer(self, reply: UpstreamReply, request: GatewayRequest) -> tuple[GatewayAnswer, int]:
        headers = {"mcp-session-id": reply.session_id} if reply.session_id else {}
        if request.question is None:
            finish = functools.partial(self._finish, reply, request, {}, headers)
            return await run_off_loop_if_large(finish, reply.size)
        collect = functools.partial(self._decode_and_collect, reply, request)
        message, candidates = await run_off_loop_if_large(collect, reply.size)
        replacements = await self._prune_long_strings(candidates, request)
        finish_decoded = functools.partial(self._finish_decoded, reply, message, replacements, headers)
        return await run_off_loop_if_large(finish_decoded, reply.size)

    def _finish(
        self,
        reply: UpstreamReply,
        request: GatewayRequest,
        replacements: Mapping[Text, str],
        headers: Mapping[str, str],
    ) -> tuple[GatewayAnswer, int]:
        return self._finish_decoded(reply, decode_reply(reply, request), replacements, headers)

    def _finish_decoded(
        self,
        reply: UpstreamReply,
        message: object | None,
        replacements: Mapping[Text, str],
        headers: Mapping[str, str],
    ) -> tuple[GatewayAnswer, int]:
        if message is None:
            return GatewayAnswer(202, None, headers), 0
        options = self._config.masking
        masker = RecoverableMasker(self._service.store, options, replacements)
        if reply.kind == "json" and reply.size <= options.max_chars:
            return GatewayAnswer(200, _dumps(message), headers), 0  # no string can be long
        body = _dumps(mask_message(message, options.max_chars, masker))  # any depth (`deep_json.py`)
        if masker.unstored:
            log_event(
                "gateway.masked_unrecoverable", level="warning", server=reply.server, count=masker.unstored
            )
        return GatewayAnswer(200, body, headers), masker.masked

    def _decode_and_collect(
        self, reply: UpstreamReply, request: GatewayRequest
    ) -> tuple[object | None, list[Text]]:
        """The reply's message and its distinct long strings, first `MAX_PRUNED_STRINGS` (one walk)."""
        message = decode_reply(reply, request)
        if message is None:
            return None, []
        candidates: dict[Text, None] = {}

        def collect(text: Text) -> Text:
            if len(candidates) < MAX_PRUNED_STRINGS:
                candidates[text] = None
            return text

        mask_message(message, self._config.masking.max_chars, collect, mask_rendered=False)
        return message, list(candidates)

    async def _prune_long_strings(self, candidates: list[Text], request: GatewayRequest) -> dict[Text, str]:
        """Engine-pruned text for the long strings of the reply (focus-question path); the engine
        reads a whole `str`: a `LongText` is joined for it, off the event loop."""
        assert request.question is not None
        replacements: dict[Text, str] = {}
        for text in candidates:
            whole = text if isinstance(text, str) else await anyio.to_thread.run_sync(str, text)
            outcome = await self._service.prune(
                whole,
                request.question,
                request.source_type,
                PruneOptions(path=request.path),
                store_unapplied=False,
            )
            if outcome.error_code is None and outcome.applied and outcome.recoverable:
                replacements[text] = outcome.result.pruned_text
        return replacements


def _dumps(message: object) -> bytes:
    # Upstream replies may hold NaN, huge integers or lone surrogates (`json.loads` accepts
    # them all); the client gets strict JSON (`jsonsafe.py`).
    return rpc_dumps_bytes(message)


def _json_answer(payload: object) -> GatewayAnswer:
    return GatewayAnswer(200, _dumps(payload))


def _errors_for(
    request: GatewayRequest, code: int, message: str, data: Mapping[str, object] | None = None
) -> object:
    """One error per waiting request of a batch, else one error object."""
    if request.is_batch and request.reply_ids:
        return [rpc_error(request_id, code, message, data) for request_id in request.reply_ids]
    return rpc_error(request.single_id, code, message, data)
