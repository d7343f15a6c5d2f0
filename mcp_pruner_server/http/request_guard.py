"""The HTTP guard in front of every route: Host/Origin (DNS rebinding), bearer token, body size.

A pure ASGI middleware, so it runs before Starlette routing and before the MCP SDK, and every
refusal is a well-formed JSON-RPC error object with the right HTTP status — or, on the
function-calling routes (`/tools`, `/execute`), their `{ok: false, error: {code, message}}`
body with the same status (`jsonrpc.refusal`; codes in docs/http.md#request-guard):

- Host not loopback (when bound to loopback) → 421; Origin not a loopback origin → 403,
  whatever the bind address: with `--allow-remote` too, a browser page elsewhere must not
  drive `bash` with a simple (CORS-preflight-free) POST. A browser page on evil.example that
  resolves its name to 127.0.0.1 sends its own Host and Origin; both are refused. Loopback
  means `localhost` or any loopback IP (127.0.0.0/8, `[::1]`), as `settings.is_loopback`.
- No token configured → any request with an `Origin` header → 403: only browsers send one,
  and without a token even a page on another loopback port (`http://localhost:8080`, any
  local web app) would otherwise run `bash`. With a token, a loopback Origin is allowed (a
  page cannot know the token).
- `JEEVES_MCP_PRUNER_TOKEN` set → `Authorization: Bearer <token>` required everywhere but
  `/healthz` and `/health` (compared in constant time) → 401 otherwise.
- A POST to a route that takes a body must say `Content-Type: application/json` → 415
  otherwise: a browser cannot send that cross-origin without a CORS preflight, which we never
  answer with an allow.
- Bodies are read only for a POST to a route that takes one (`takes_body`), after the checks
  above: a POST to `/healthz` is refused (405) with its body unread, so an unauthenticated
  client cannot make us buffer 16 MiB per connection.
- Request bodies above the documented limit → 413, checked on Content-Length and again
  while the body streams in (chunked uploads); the body is buffered so the app reads it
  from memory. All buffered bodies together are bounded by `MAX_BODY_BYTES_IN_FLIGHT` (held
  until their request is answered) → 503 beyond it.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

from mcp_pruner_server.http.asgi import replay_body, send_json
from mcp_pruner_server.jsonrpc import EXECUTE_PATH, refusal
from mcp_pruner_server.settings import is_loopback

# Routes a supervisor probes without credentials (docs/http.md#request-guard): they reveal no
# workspace data.
PUBLIC_PATHS: frozenset[str] = frozenset({"/healthz", "/health"})
_PORT_SUFFIX = re.compile(r"^(?P<name>\[[^\]]*\]|[^:]+)(?::\d{1,5})?$")
# The routes whose POST carries a body (every other route and method is answered unread).
BODY_PATHS: frozenset[str] = frozenset({"/mcp", "/rpc", "/prune", EXECUTE_PATH})
GATEWAY_PREFIX = "/api/mcp-gateway/"
# Four bodies at the 16 MiB limit at once: far above what one agent sends (a prune of a big
# log is a few MiB), and a bound on what many connections together can make us hold.
MAX_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024


def takes_body(method: str, path: str) -> bool:
    """Whether the app reads a body for `method path` (only those bodies are ever read)."""
    return method == "POST" and (path in BODY_PATHS or path.startswith(GATEWAY_PREFIX))


def is_json_media_type(value: str | None) -> bool:
    """`application/json`, with any parameters (`; charset=utf-8`), any case."""
    return value is not None and value.partition(";")[0].strip().lower() == "application/json"


def _host_name(value: str) -> str | None:
    match = _PORT_SUFFIX.match(value.strip().lower())
    return match.group("name") if match else None


def is_loopback_host_header(value: str) -> bool:
    """True when a Host header names a loopback interface (any port): `localhost`, 127.x, `[::1]`."""
    name = _host_name(value)
    if name is None or (":" in name and not name.startswith("[")):
        return False  # an IPv6 literal in a Host header is bracketed (RFC 3986)
    return is_loopback(name)


def is_loopback_origin(value: str) -> bool:
    """True for `http(s)://` origins on a loopback name (any port); `null` is refused."""
    for scheme in ("http://", "https://"):
        if value.lower().startswith(scheme):
            return is_loopback_host_header(value[len(scheme) :].rstrip("/"))
    return False


def _header(scope: Scope, name: bytes) -> str | None:
    headers: Iterable[tuple[bytes, bytes]] = scope.get("headers", ())
    for key, value in headers:
        if key.lower() == name:
            return value.decode("latin-1")
    return None


async def send_refusal(
    scope: Scope, send: Send, status: int, message: str, extra_headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    """A refusal in the shape the route speaks: JSON-RPC, or `{ok: false, error}` on `/tools`, `/execute`."""
    await send_json(send, status, refusal(scope.get("path", ""), status, message), extra_headers)


class SecurityMiddleware:
    """Host/Origin validation, bearer-token auth and the request body limit (see module doc)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        token: str | None,
        max_body_bytes: int,
        check_host: bool,
        max_bytes_in_flight: int = MAX_BODY_BYTES_IN_FLIGHT,
    ) -> None:
        self.app = app
        self._token = token.encode() if token else None
        self._max_body = max_body_bytes
        self._check_host = check_host
        self._max_in_flight = max(max_bytes_in_flight, max_body_bytes)
        self._in_flight = 0  # bytes of the bodies buffered and not yet answered (one event loop)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if self._check_host and (host is None or not is_loopback_host_header(host)):
            await send_refusal(scope, send, 421, f"Misdirected request: Host {host!r} is not loopback")
            return
        origin = _header(scope, b"origin")
        if origin is not None and (self._token is None or not is_loopback_origin(origin)):
            why = "no browser request is served without a token" if self._token is None else "not loopback"
            await send_refusal(scope, send, 403, f"Forbidden: Origin {origin!r}: {why}")
            return
        if self._token is not None and scope.get("path") not in PUBLIC_PATHS and not self._authorized(scope):
            await send_refusal(
                scope,
                send,
                401,
                "Unauthorized: send 'Authorization: Bearer <token>' with the server's token "
                "(its JEEVES_MCP_TOKEN or JEEVES_MCP_PRUNER_TOKEN)",
                [(b"www-authenticate", b'Bearer realm="jeeves-mcp-pruner"')],
            )
            return
        if not takes_body(scope.get("method", ""), scope.get("path", "")):
            await self.app(scope, receive, send)  # refused or answered without reading a body
            return
        content_type = _header(scope, b"content-type")
        if not is_json_media_type(content_type):
            await send_refusal(
                scope,
                send,
                415,
                f"Unsupported Media Type: send 'Content-Type: application/json', not {content_type!r}",
            )
            return
        held = 0
        try:
            body, held = await self._read_body(scope, receive)
            if body is _TOO_LARGE:
                await send_refusal(
                    scope, send, 413, f"Request body too large: the limit is {self._max_body} bytes"
                )
                return
            if body is _BUSY:
                await send_refusal(scope, send, 503, "Server busy: too many request bytes in flight, retry")
                return
            await self.app(scope, replay_body(body, receive), send)
        finally:
            self._in_flight -= held

    def _authorized(self, scope: Scope) -> bool:
        assert self._token is not None
        value = _header(scope, b"authorization") or ""
        scheme, _, credential = value.partition(" ")
        if scheme.lower() != "bearer":
            return False
        return hmac.compare_digest(credential.strip().encode(), self._token)

    async def _read_body(self, scope: Scope, receive: Receive) -> tuple[bytes, int]:
        """The body (or `_TOO_LARGE` / `_BUSY`) and the bytes it holds against the in-flight
        bound; the caller gives those back once the request is answered."""
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self._max_body:
            return _TOO_LARGE, 0
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # client went away; the app sees an empty body and the disconnect
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self._max_body:
                return _TOO_LARGE, size - len(chunk)
            if self._in_flight + len(chunk) > self._max_in_flight:
                return _BUSY, size - len(chunk)
            self._in_flight += len(chunk)
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks), size


# Sentinels of `_read_body` (compared by identity).
_TOO_LARGE = b"<too large>"
_BUSY = b"<busy>"
