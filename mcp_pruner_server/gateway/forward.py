"""The gateway's I/O edge: POST a JSON-RPC body to a named upstream, read its JSON or SSE reply.

One pooled `httpx.AsyncClient` per server process (keep-alive to local upstreams makes a
forwarded call cost a fraction of a millisecond more than a direct one), built at the first
forwarded call: httpx's import and its SSL context cost ~0.1 s of the HTTP server's start-up,
which a server with no upstream (the default) never needs. Every failure is
raised as a `GatewayError` subclass naming the server and URL; nothing else escapes.

- Sent: the caller's body byte for byte, `Content-Type: application/json`,
  `Accept: application/json, text/event-stream` (MCP Streamable HTTP servers refuse a POST
  without both), and the caller's `MCP-Protocol-Version` / `Mcp-Session-Id` when present.
  Never the caller's `Authorization`: that is this server's own bearer token. An upstream
  configured with `bearer_token_env_var` gets `Authorization: Bearer <that variable's value>`.
- Read: a JSON body (capped at `max_reply_bytes`; past `SLICED_REPLY_BYTES` kept as the chunks
  read, a `ReceivedBody`, never joined or decoded on the event loop), or an SSE stream whose events' data are
  parsed as JSON and collected until every request id of the call has its response (a
  server may keep the stream open after it), or an empty 202/204 (notifications).
- Bounded: `connect_timeout_ms` for the connection, `timeout_ms` for the whole exchange
  (connect, send, wait and body read), enforced by one deadline around it all.
- `trust_env=False`: an `HTTP_PROXY` in the environment must not route loopback calls
  (and workspace data) through a proxy.
"""

from __future__ import annotations

import functools
import json
import mmap
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, AnyStr, Final, Literal, TypeGuard

import anyio

from mcp_pruner_server.deep_json import loads_deep
from mcp_pruner_server.gateway.config import GatewayConfig
from mcp_pruner_server.gateway.errors import (
    UnknownServerError,
    UpstreamDisconnectedError,
    UpstreamNotJsonError,
    UpstreamNotJsonRpcError,
    UpstreamReplyTooLargeError,
    UpstreamTimeoutError,
    UpstreamUnreachableError,
)
from mcp_pruner_server.gateway.sse import SseEventReader
from mcp_pruner_server.json_slices import (
    SLICE_CHARS,
    count_in_slices,
    count_outside_strings,
    loads_utf8_in_slices,
)
from mcp_pruner_server.offload import run_off_loop_if_large

if TYPE_CHECKING:
    import httpx

# Agents run a handful of tool calls in parallel; 32 connections leave room for bursts
# without letting a runaway client open thousands of sockets to a local upstream.
MAX_CONNECTIONS: Final = 32
MAX_KEEPALIVE_CONNECTIONS: Final = 16
# Request headers that belong to the MCP session, passed through to the upstream.
FORWARDED_HEADERS: Final = ("mcp-protocol-version", "mcp-session-id")
ACCEPT: Final = "application/json, text/event-stream"
# How much of an unusable body an error shows (enough to recognise an HTML error page).
EXCERPT_CHARS: Final = 200
# Decoding memory: a JSON reply becomes Python objects, ~50 bytes for each small value (an int
# or a short string, its list slot or dict entry) however few bytes it took in JSON: 64 MB of
# numbers took 9x the reply. A reply is decoded only if its values fit in the larger of
# `DECODE_MEMORY_FACTOR` x its size and `DECODE_MEMORY_FLOOR_BYTES` (a small reply of small
# values costs little whatever the ratio).
DECODED_BYTES_PER_VALUE: Final = 50
DECODE_MEMORY_FACTOR: Final = 2
DECODE_MEMORY_FLOOR_BYTES: Final = 64 << 20

# A JSON reply bigger than this is kept as the chunks read and parsed a slice at a time in a
# worker thread (`ReceivedBody`): decoding 60 MB at once held the event loop ~200 ms. Below it,
# one decode costs well under a millisecond.
SLICED_REPLY_BYTES: Final = 1 << 20

ReplyKind = Literal["json", "sse", "empty"]


class ReceivedBody:
    """A big JSON reply's bytes: the chunks as read, until `buffer()` (in a worker thread) copies
    them into one anonymous `mmap`, freeing each as it goes, so the body is never held twice and
    no step handles all of it at once. Parsed with `json_slices.loads_utf8_in_slices`: its long
    strings stay in slices (`LongText`), decoded memory is what the reply's strings take."""

    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = chunks
        self.size = sum(map(len, chunks))
        self._buffer: mmap.mmap | None = None

    def __len__(self) -> int:
        return self.size

    def buffer(self) -> mmap.mmap:
        """The body in one anonymous mapping (its first call copies the chunks in and frees them)."""
        if self._buffer is None:
            buffer = mmap.mmap(-1, max(1, self.size))
            self._chunks.reverse()
            while self._chunks:
                buffer.write(self._chunks.pop())
            self._buffer = buffer
        return self._buffer

    def is_blank(self) -> bool:
        """Whether the body is only whitespace (then the reply is `empty`), a slice at a time."""
        if self._buffer is None:
            return all(not chunk.strip() for chunk in self._chunks)
        buffer = self._buffer
        return all(not buffer[at : at + SLICE_CHARS].strip() for at in range(0, self.size, SLICE_CHARS))

    def loads(self, parse_constant: Callable[[str], object]) -> object:
        """The JSON value, long strings as `LongText` (`json_slices.loads_utf8_in_slices`).

        Raises:
            ValueError: not JSON, or not UTF-8 (UnicodeDecodeError).
            RecursionError: nested deeper than the parser reads.
        """
        return loads_utf8_in_slices(self.buffer(), self.size, parse_constant)

    def as_small_body(self) -> bytes | str:
        """The body as a small reply's is kept (text when UTF-8): one copy of it all, for the
        replies the slices cannot read, so they get the answer (or error) a small reply gets."""
        return _as_text(bytearray(self.buffer()[: self.size]))


@dataclass(frozen=True)
class UpstreamReply:
    """What the upstream sent: a JSON body, the JSON messages of an SSE stream, or nothing."""

    server: str
    url: str
    status: int
    kind: ReplyKind
    body: bytes | str | ReceivedBody = b""  # text when it decoded as UTF-8 (`_as_text`)
    messages: tuple[object, ...] = ()
    session_id: str | None = None
    size: int = 0  # bytes read from the upstream: the JSON body, or the whole SSE stream read


def excerpt(body: bytes | str | ReceivedBody) -> str:
    """The start of a body, decoded leniently, for error messages."""
    if isinstance(body, ReceivedBody):  # UTF-8 (it parsed): its first characters, as a text body's
        return body.buffer()[: 4 * EXCERPT_CHARS].decode("utf-8", "ignore")[:EXCERPT_CHARS]
    start = body[:EXCERPT_CHARS]
    return start if isinstance(start, str) else start.decode("utf-8", "replace")


def _as_text(buffer: bytearray) -> bytes | str:
    """The body as UTF-8 text (JSON's encoding), its bytes freed; bytes when it is not UTF-8
    (`json.loads` still detects UTF-16/32, or says why it is not JSON)."""
    try:
        text = buffer.decode("utf-8")
    except UnicodeDecodeError:
        return bytes(buffer)
    buffer.clear()
    return text


class UpstreamClient:
    """Forwards to the configured upstreams over one pooled client; `aclose()` at shutdown."""

    def __init__(self, config: GatewayConfig, *, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self._config = config
        self._timeout_s = config.timeout_ms / 1000.0
        self._transport = transport
        self._client: httpx.AsyncClient | None = None

    def _pooled_client(self) -> httpx.AsyncClient:
        """The pooled client, built at the first call (see the module doc)."""
        if self._client is None:
            import httpx

            self._client = httpx.AsyncClient(
                transport=self._transport,
                trust_env=False,
                limits=httpx.Limits(
                    max_connections=MAX_CONNECTIONS, max_keepalive_connections=MAX_KEEPALIVE_CONNECTIONS
                ),
                timeout=httpx.Timeout(self._timeout_s, connect=self._config.connect_timeout_ms / 1000.0),
            )
        return self._client

    def url_of(self, server: str) -> str:
        """The upstream URL configured for `server`.

        Raises:
            UnknownServerError: no upstream of that name.
        """
        url = self._config.servers.get(server)
        if url is None:
            raise UnknownServerError(server, sorted(self._config.servers))
        return url

    async def forward(
        self, server: str, body: bytes, headers: Mapping[str, str], request_ids: frozenset[object]
    ) -> UpstreamReply:
        """POST `body` to `server`'s URL and read the reply (see module doc).

        `request_ids` are the ids the call waits responses for (empty for notifications).

        Raises:
            UnknownServerError: no upstream of that name.
            UpstreamUnreachableError: the connection could not be made.
            UpstreamTimeoutError: connect or the whole exchange outlived its timeout.
            UpstreamDisconnectedError: the connection broke before the reply was complete.
            UpstreamNotJsonError: an SSE event's data is not JSON.
            UpstreamNotJsonRpcError: an SSE response's id is not a string, number or null.
            UpstreamReplyTooLargeError: the reply is over `max_reply_bytes`.
        """
        url = self.url_of(server)
        client = self._pooled_client()
        import httpx  # imported by `_pooled_client`: the exception classes below

        sent = {"content-type": "application/json", "accept": ACCEPT}
        sent.update({k: v for k in FORWARDED_HEADERS if (v := headers.get(k)) is not None})
        token = self._config.bearer_tokens.get(server)
        if token is not None:
            sent["authorization"] = f"Bearer {token}"
        try:
            with anyio.fail_after(self._timeout_s):
                async with client.stream("POST", url, content=body, headers=sent) as response:
                    return await self._read(server, url, response, request_ids)
        except TimeoutError as exc:
            raise self._timeout(server, url, "the whole call") from exc
        except httpx.ConnectTimeout as exc:
            raise UpstreamTimeoutError(
                server, url, "connect", self._config.connect_timeout_ms, "JEEVES_GATEWAY_CONNECT_TIMEOUT_MS"
            ) from exc
        except httpx.TimeoutException as exc:
            raise self._timeout(server, url, _phase(exc)) from exc
        except httpx.ConnectError as exc:
            raise UpstreamUnreachableError(server, url, _reason(exc, "connection failed")) from exc
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError, httpx.CloseError) as exc:
            raise UpstreamDisconnectedError(server, url, _reason(exc, "connection closed")) from exc
        except httpx.HTTPError as exc:  # proxy, protocol and decoding failures: nothing usable came back
            raise UpstreamUnreachableError(server, url, _reason(exc, type(exc).__name__)) from exc

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    # -- reading ---------------------------------------------------------------------------

    async def _read(
        self, server: str, url: str, response: httpx.Response, request_ids: frozenset[object]
    ) -> UpstreamReply:
        session_id = response.headers.get("mcp-session-id")
        content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type == "text/event-stream":
            messages, size = await self._read_sse(server, url, response, request_ids)
            return UpstreamReply(
                server, url, response.status_code, "sse", messages=messages, session_id=session_id, size=size
            )
        body, size = await self._read_body(server, url, response)
        blank = body.is_blank() if isinstance(body, ReceivedBody) else not body.strip()
        kind: ReplyKind = "empty" if blank else "json"
        return UpstreamReply(
            server, url, response.status_code, kind, body=body, session_id=session_id, size=size
        )

    async def _read_body(
        self, server: str, url: str, response: httpx.Response
    ) -> tuple[bytes | str | ReceivedBody, int]:
        """The body (text when UTF-8; a `ReceivedBody` past `SLICED_REPLY_BYTES`) and its size."""
        limit = self._config.max_reply_bytes
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise UpstreamReplyTooLargeError(server, url, limit)
        # The chunks as read: no step on the event loop handles more than one (a growing buffer
        # copied itself on realloc, and its decode held the loop ~200 ms for 60 MB).
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise UpstreamReplyTooLargeError(server, url, limit)
        if size > SLICED_REPLY_BYTES:
            return ReceivedBody(chunks), size
        return _as_text(bytearray(b"".join(chunks))), size

    async def _read_sse(
        self, server: str, url: str, response: httpx.Response, request_ids: frozenset[object]
    ) -> tuple[tuple[object, ...], int]:
        """The stream's JSON messages, and how many bytes were read.

        Raw chunks, not `aiter_lines`: a line is only complete at its line break, and one line
        (one event) may be the whole reply, so the cap is checked on every chunk, and an event's
        data is gathered as bytes (`sse.py`), decoded once, freed, then parsed.
        """
        limit = self._config.max_reply_bytes
        reader = SseEventReader()
        pending = set(request_ids)
        messages: list[object] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > limit:
                raise UpstreamReplyTooLargeError(server, url, limit)
            for data in reader.feed(chunk):
                if await _collect(server, url, data, messages, pending):
                    return tuple(messages), size
        tail = reader.finish()
        if tail is not None:
            await _collect(server, url, tail, messages, pending)
        return tuple(messages), size

    def _timeout(self, server: str, url: str, phase: str) -> UpstreamTimeoutError:
        return UpstreamTimeoutError(server, url, phase, self._config.timeout_ms, "JEEVES_GATEWAY_TIMEOUT_MS")


async def _collect(
    server: str, url: str, data: bytearray, messages: list[object], pending: set[object]
) -> bool:
    """Parse one SSE event (off the loop if large); True once every pending id has its response.

    Raises:
        UpstreamNotJsonError: the event's data is not JSON.
    """
    message = await run_off_loop_if_large(functools.partial(_parse_event, server, url, data), len(data))
    messages.append(message)
    if not _is_response(message):
        return False  # a notification or a server request (progress, logging) before the response
    response_id = message.get("id")
    if isinstance(response_id, bool) or not (
        response_id is None or isinstance(response_id, str | int | float)
    ):
        # `{"id": [1], ...}` is unhashable: not a JSON-RPC response, said as such (-32016).
        raise UpstreamNotJsonRpcError(
            server, url, "an SSE response's 'id' must be a string, a number or null"
        )
    pending.discard(response_id)
    return not pending


# A JSON string, escapes included; one never closed runs to the end (an optional lone `\` last).
# Possessive throughout: a match never gives back, so whatever the body, each string is scanned
# once (a lazy or backtracking form retried from each quote of `"\"\"\"…` with no closing one).
_STRING_PATTERN = r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)'
_STRING = re.compile(_STRING_PATTERN, re.DOTALL)
_STRING_BYTES = re.compile(_STRING_PATTERN.encode(), re.DOTALL)


def json_values_in(body: bytes | str | ReceivedBody, *, inside_strings: bool = False) -> int:
    """An upper-bound count of the values `body` decodes to: separators and containers, at C
    speed; those inside strings too with `inside_strings` (fast), else not (a pass over the
    strings: ~0.7 s for 26 MB of escaped CSV). A comma inside a string is no value: a 20 MB CSV
    in one string counted 8.8 million and was refused. A `ReceivedBody` is counted a slice at a
    time, its strings skipped slice by slice too."""
    if isinstance(body, ReceivedBody):
        if inside_strings:
            return count_in_slices(body.buffer(), 0, body.size, _SEPARATOR_BYTES) + 1
        return count_outside_strings(body.buffer(), body.size, _SEPARATOR_BYTES) + 1
    if isinstance(body, str):
        bare = body if inside_strings else _STRING.sub('""', body)
        return _separators(bare, (",", "[", "{")) + 1
    bare_bytes = body if inside_strings else _STRING_BYTES.sub(b'""', body)
    return _separators(bare_bytes, (b",", b"[", b"{")) + 1


_SEPARATOR_BYTES: Final = (b",", b"[", b"{")


def _separators(text: AnyStr, separators: tuple[AnyStr, ...]) -> int:
    """How many of `separators` `text` holds, counted a slice at a time (three counts over a 60 MB
    reply held the GIL ~190 ms on a busy host)."""
    step = SLICE_CHARS
    return sum(text.count(s, at, at + step) for at in range(0, len(text), step) for s in separators)


def check_decode_memory(server: str, url: str, body: bytes | str | ReceivedBody) -> None:
    """Refuse, before `json.loads`, a body whose values would take far more memory than its bytes.

    Raises:
        UpstreamReplyTooLargeError: the estimate is over the budget (see DECODED_BYTES_PER_VALUE).
    """
    size = len(body)
    if size * DECODED_BYTES_PER_VALUE <= DECODE_MEMORY_FLOOR_BYTES:
        return  # even one value per byte fits the floor: no need to count
    budget = max(DECODE_MEMORY_FACTOR * size, DECODE_MEMORY_FLOOR_BYTES)
    if json_values_in(body, inside_strings=True) * DECODED_BYTES_PER_VALUE <= budget:
        return  # the quick bound fits: no need to tell strings apart
    values = json_values_in(body)
    if values * DECODED_BYTES_PER_VALUE > budget:
        raise UpstreamReplyTooLargeError(server, url, size, json_values=values)


def _parse_event(server: str, url: str, data: bytearray) -> object:
    """The event's JSON value. Its bytes are freed once decoded, before parsing: the event's
    text and its parsed value are the only two copies alive at once."""
    text = data.decode("utf-8", "replace")
    data.clear()
    check_decode_memory(server, url, text)
    try:
        try:
            return json.loads(text)
        except RecursionError:  # deeper than the C parser goes: read with a stack of our own
            return loads_deep(text, float)  # float() reads NaN and the infinities as json.loads does
    except ValueError as exc:
        reason = f"an SSE event is not JSON: {exc}"
        raise UpstreamNotJsonError(server, url, reason, text[:EXCERPT_CHARS]) from exc


def _is_response(message: object) -> TypeGuard[dict[str, object]]:
    return isinstance(message, dict) and ("result" in message or "error" in message)


def _phase(exc: httpx.TimeoutException) -> str:
    import httpx

    if isinstance(exc, httpx.WriteTimeout):
        return "sending the request"
    if isinstance(exc, httpx.PoolTimeout):
        return "waiting for a free connection"
    return "waiting for the reply"


def _reason(exc: BaseException, fallback: str) -> str:
    text = str(exc).strip()
    return text or fallback
