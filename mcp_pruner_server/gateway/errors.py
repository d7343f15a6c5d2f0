"""Why a gateway call answered with a JSON-RPC error instead of the upstream's reply.

    DomainRpcError (mcp_pruner_server.errors)
    └── GatewayError                  a forwarded call could not produce a usable upstream reply
        ├── UnknownServerError            -32010 no upstream of that name is configured
        ├── UpstreamUnreachableError      -32011 the connection was refused / could not be made
        ├── UpstreamTimeoutError          -32012 no complete reply within the configured timeout
        ├── UpstreamDisconnectedError     -32013 the upstream dropped the connection mid-exchange
        ├── UpstreamHttpStatusError       -32014 a non-2xx status without a JSON-RPC body
        ├── UpstreamNotJsonError          -32015 the reply body is not JSON (or is empty)
        ├── UpstreamNotJsonRpcError       -32016 JSON, but not a JSON-RPC 2.0 response
        └── UpstreamReplyTooLargeError    -32017 the reply is larger than the gateway reads

Each class has its own code (`-32010..-32017`, the implementation-defined server-error range,
next to the server's -32001..-32007; constants of `jsonrpc.py`), a machine-readable
`data.code`, and `data.server` / `data.url`; `error.message` is a sentence saying which
server, which URL, what happened and what to check. The gateway never answers a failure with an HTTP 500.
"""

from __future__ import annotations

from mcp_pruner_server.errors import DomainRpcError
from mcp_pruner_server.jsonrpc import (
    GATEWAY_UNKNOWN_SERVER,
    GATEWAY_UPSTREAM_DISCONNECTED,
    GATEWAY_UPSTREAM_HTTP_STATUS,
    GATEWAY_UPSTREAM_NOT_JSON,
    GATEWAY_UPSTREAM_NOT_JSONRPC,
    GATEWAY_UPSTREAM_REPLY_TOO_LARGE,
    GATEWAY_UPSTREAM_TIMEOUT,
    GATEWAY_UPSTREAM_UNREACHABLE,
)

# The setting a user changes to make an unknown name known (named in the message).
_SERVERS_HINT = (
    "add it to JEEVES_GATEWAY_SERVERS (JSON) or [gateway.servers] in ~/.config/jeeves/config.toml "
    "(a loopback URL may also go in the workspace's jeeves.toml)"
)


class GatewayError(DomainRpcError):
    """Raised when a forwarded call cannot produce a usable upstream reply (see module doc)."""

    rpc_code = GATEWAY_UNKNOWN_SERVER
    code = "gateway_error"

    def __init__(self, server: str, url: str | None, sentence: str, **details: object) -> None:
        super().__init__(sentence, {"server": server, "url": url, **details})
        self.server = server
        self.url = url
        self.sentence = sentence

    @property
    def message(self) -> str:
        """The actionable sentence (which server, which URL, what happened)."""
        return self.sentence


class UnknownServerError(GatewayError):
    """Raised when the `{server_name}` of the route is not in the upstream map."""

    rpc_code = GATEWAY_UNKNOWN_SERVER
    code = "gateway_unknown_server"

    def __init__(self, server: str, known: list[str]) -> None:
        listed = ", ".join(known) if known else "none is configured"
        super().__init__(
            server,
            None,
            f"Gateway: unknown MCP server {server!r} (known: {listed}); {_SERVERS_HINT}",
            known_servers=known,
        )


class UpstreamUnreachableError(GatewayError):
    """Raised when no connection to the upstream can be made (refused, no route, bad URL)."""

    rpc_code = GATEWAY_UPSTREAM_UNREACHABLE
    code = "gateway_upstream_unreachable"

    def __init__(self, server: str, url: str, reason: str) -> None:
        super().__init__(
            server,
            url,
            f"Gateway: MCP server {server!r} at {url} is unreachable ({reason}); is it running on that port?",
            reason=reason,
        )


class UpstreamTimeoutError(GatewayError):
    """Raised when the connection or the whole call outlives its configured timeout."""

    rpc_code = GATEWAY_UPSTREAM_TIMEOUT
    code = "gateway_upstream_timeout"

    def __init__(self, server: str, url: str, phase: str, timeout_ms: int, setting: str) -> None:
        super().__init__(
            server,
            url,
            f"Gateway: MCP server {server!r} at {url} timed out ({phase} took more than "
            f"{timeout_ms} ms); raise {setting} if the call is legitimately slow",
            phase=phase,
            timeout_ms=timeout_ms,
        )


class UpstreamDisconnectedError(GatewayError):
    """Raised when the upstream closes or breaks the connection before its reply is complete."""

    rpc_code = GATEWAY_UPSTREAM_DISCONNECTED
    code = "gateway_upstream_disconnected"

    def __init__(self, server: str, url: str, reason: str) -> None:
        super().__init__(
            server,
            url,
            f"Gateway: MCP server {server!r} at {url} dropped the connection before a complete "
            f"reply ({reason}); check its logs, it may have crashed",
            reason=reason,
        )


class UpstreamHttpStatusError(GatewayError):
    """Raised when the upstream answers a non-2xx status whose body is not a JSON-RPC response."""

    rpc_code = GATEWAY_UPSTREAM_HTTP_STATUS
    code = "gateway_upstream_http_status"

    def __init__(self, server: str, url: str, status: int, excerpt: str) -> None:
        super().__init__(
            server,
            url,
            f"Gateway: MCP server {server!r} at {url} answered HTTP {status} without a JSON-RPC "
            f"reply; is that URL its JSON-RPC endpoint (often /rpc or /mcp)?",
            http_status=status,
            body_excerpt=excerpt,
        )


class UpstreamNotJsonError(GatewayError):
    """Raised when the reply body (or an SSE event's data) is not JSON, or is empty."""

    rpc_code = GATEWAY_UPSTREAM_NOT_JSON
    code = "gateway_upstream_not_json"

    def __init__(self, server: str, url: str, reason: str, excerpt: str) -> None:
        super().__init__(
            server,
            url,
            f"Gateway: MCP server {server!r} at {url} sent a reply that is not JSON ({reason}); "
            f"is that URL its JSON-RPC endpoint?",
            reason=reason,
            body_excerpt=excerpt,
        )


class UpstreamNotJsonRpcError(GatewayError):
    """Raised when the reply is JSON but not a JSON-RPC 2.0 response object or batch."""

    rpc_code = GATEWAY_UPSTREAM_NOT_JSONRPC
    code = "gateway_upstream_not_jsonrpc"

    def __init__(self, server: str, url: str, reason: str) -> None:
        super().__init__(
            server,
            url,
            f"Gateway: MCP server {server!r} at {url} sent JSON that is not a JSON-RPC 2.0 "
            f"response ({reason})",
            reason=reason,
        )


class UpstreamReplyTooLargeError(GatewayError):
    """Raised when the reply exceeds the byte cap the gateway reads before masking."""

    rpc_code = GATEWAY_UPSTREAM_REPLY_TOO_LARGE
    code = "gateway_upstream_reply_too_large"

    def __init__(self, server: str, url: str, limit: int, *, json_values: int | None = None) -> None:
        if json_values is None:
            what = f"a reply larger than {limit} bytes"
            data: dict[str, object] = {"limit_bytes": limit}
        else:  # within the byte cap, but its values would take far more memory once decoded
            what = (
                f"a reply of {json_values} JSON values, more than decoding {limit} bytes may hold in memory"
            )
            data = {"limit_bytes": limit, "json_values": json_values}
        super().__init__(
            server,
            url,
            f"Gateway: MCP server {server!r} at {url} sent {what}; "
            f"ask for less (a range, a filter) or raise JEEVES_GATEWAY_MAX_REPLY_BYTES",
            **data,
        )
