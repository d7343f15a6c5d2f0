"""Bounds on connections: a header-read timeout, a connection cap, the fd limit raised at start.

uvicorn's h11 protocol arms a timer only after a response (keep-alive); a connection that never
finishes its request headers is kept forever, and the adversarial review held 200 of them open:
with `ulimit -n 64` `accept()` then failed and `/healthz` timed out (the runner would call the
server degraded). Here:

- `HEADER_READ_TIMEOUT_S` after a connection opens (or after its last response), a connection
  that has not delivered a complete request head is closed.
- Beyond `max_connections` open connections, each new one closes the oldest connection that is
  not inside a request (never sent one first, then idle keep-alive ones), so a prober still gets
  in; if every connection is busy, the new one is closed.
- The soft `RLIMIT_NOFILE` is raised to the hard limit at start (`raise_fd_limit`), and the cap
  and the accept batch are derived from it so that connections leave fds to tool processes,
  pipes and logs.
"""

from __future__ import annotations

import asyncio
import resource
import time
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol, RequestResponseCycle
from uvicorn.server import ServerState

from mcp_pruner_server.jsonrpc import INVALID_REQUEST, rpc_error
from mcp_pruner_server.jsonsafe import rpc_dumps_bytes

# A client on loopback sends a request head in microseconds; 5 s is uvicorn's keep-alive idle
# bound too, so a slow or stalled head lives no longer than an idle keep-alive connection.
HEADER_READ_TIMEOUT_S = 5.0
# Connections take at most a quarter of the fds: the rest is for the accept batch below, the
# connections being closed, tool processes (3 pipes each), rg, engine workers and logs. Never
# fewer than a few, never more than a local sidecar could need.
FD_SHARE_FOR_CONNECTIONS = 0.25
# asyncio accepts up to `backlog` connections per loop tick before any `connection_made` runs
# (uvicorn passes one number as both the listen backlog and that batch): an eighth of the fds,
# so a burst cannot hit EMFILE (which stops accepting for a whole second) before we shed.
FD_SHARE_FOR_ACCEPT_BATCH = 0.125
MIN_ACCEPT_BATCH = 8
MIN_CONNECTIONS = 8
MAX_CONNECTIONS = 1024
# A soft limit we never ask above, even when the hard limit is unlimited.
FD_LIMIT_CEILING = 1 << 20


def raise_fd_limit() -> int:
    """Raise the soft RLIMIT_NOFILE to the hard one (where allowed); return the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = FD_LIMIT_CEILING if hard == resource.RLIM_INFINITY else min(hard, FD_LIMIT_CEILING)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass  # a sandbox may refuse it: the cap below follows the limit we have
    return soft


def connection_cap(fd_limit: int) -> int:
    """How many connections the server keeps open at once under `fd_limit` fds."""
    return max(MIN_CONNECTIONS, min(MAX_CONNECTIONS, int(fd_limit * FD_SHARE_FOR_CONNECTIONS)))


def accept_backlog(fd_limit: int, listen_backlog: int) -> int:
    """The listen backlog and per-tick accept batch under `fd_limit` fds, at most `listen_backlog`."""
    return max(MIN_ACCEPT_BATCH, min(listen_backlog, int(fd_limit * FD_SHARE_FOR_ACCEPT_BATCH)))


def bounded_protocol(
    max_connections: int, header_timeout_s: float = HEADER_READ_TIMEOUT_S
) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the header-read timeout and the connection cap (module doc)."""

    class BoundedH11Protocol(H11Protocol):
        def __init__(
            self,
            config: Config,
            server_state: ServerState,
            app_state: dict[str, Any],
            _loop: asyncio.AbstractEventLoop | None = None,
        ) -> None:
            super().__init__(config, server_state, app_state, _loop)
            self.opened_at = time.monotonic()
            self._head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm_head_timer()
            if len(self.connections) > max_connections:  # closing ones still count: look closer
                self._make_room()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm_head_timer()

        def send_400_response(self, msg: str) -> None:
            """A request h11 cannot parse (a bad `Content-Length`, a broken request line) is
            answered before any app runs: in JSON-RPC, like every other refusal, not text/plain."""
            body = rpc_dumps_bytes(rpc_error(None, INVALID_REQUEST, f"Bad Request: {msg}"))
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
            try:
                self.transport.write(
                    self.conn.send(h11.Response(status_code=400, headers=headers, reason=b"Bad Request"))
                    or b""
                )
                self.transport.write(self.conn.send(h11.Data(data=body)) or b"")
                self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
            except h11.LocalProtocolError:
                pass  # h11 cannot even frame an answer here: closing says enough
            self.transport.close()

        @property
        def waiting_for_a_request(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def _arm_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            self._head_timer = self.loop.call_later(header_timeout_s, self._head_deadline, self.cycle)

        def _head_deadline(self, cycle: RequestResponseCycle | None) -> None:
            # No request head since the timer was armed (the cycle is the same and finished).
            if self.cycle is cycle and self.waiting_for_a_request and not self.transport.is_closing():
                self.transport.close()

        def _make_room(self) -> None:
            live = [
                c
                for c in self.connections
                if c is not self and isinstance(c, BoundedH11Protocol) and not c.transport.is_closing()
            ]
            excess = len(live) + 1 - max_connections
            if excess <= 0:
                return
            idle = [c for c in live if c.waiting_for_a_request]
            # Connections that never sent a request go first, then idle keep-alive ones; oldest first.
            idle.sort(key=lambda c: (c.cycle is not None, c.opened_at))
            for victim in idle[:excess]:
                victim.transport.close()
            if len(idle) < excess:
                self.transport.close()  # every other connection is inside a request

    return BoundedH11Protocol
