"""Run the server: bind, print the ready line, serve under uvicorn, exit with the parent.

- The socket is bound here (port 0 → the kernel picks), so the port is known from the socket
  itself, and it is listening before the ready line is printed: a client that connects at
  once waits in the backlog instead of being refused.
- The ready line is the only thing ever written to stdout (docs/http.md#ready-line).
- `--exit-with-parent`: the server stops when its stdin pipe reaches EOF (the runner holds the
  other end; however the runner dies, the kernel closes it) or when its parent process
  changes (re-parented to init or a subreaper).
- Connections are bounded (`connections.py`): a header-read timeout, a cap derived from the
  fd limit, which is raised to the hard limit first.
- SIGTERM/SIGINT: uvicorn stops accepting, lets in-flight requests finish for
  `SHUTDOWN_GRACE_S`, runs the lifespan shutdown, and the process exits 0.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import signal
import socket
import stat
import sys
import threading
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

import uvicorn

from mcp_pruner_server.http.connections import (
    accept_backlog,
    bounded_protocol,
    connection_cap,
    raise_fd_limit,
)
from mcp_pruner_server.http.startup_app import StartupApp
from mcp_pruner_server.logs import configure_logging, log_event
from mcp_pruner_server.settings import (
    CLIENT_TOKEN_ENV,
    PARENT_POLL_INTERVAL_S,
    READY_EVENT,
    SHUTDOWN_GRACE_S,
    TOKEN_ENV,
    ServerSettings,
)

if TYPE_CHECKING:
    from starlette.applications import Starlette

# Connections the kernel queues while the app starts: a supervisor probe plus a client burst.
LISTEN_BACKLOG = 128
# Worker threads (file reads, big JSON) share the GIL with the event loop; each step of
# answering a request (epoll, recv, send) needs it back, and at CPython's default 5 ms switch
# interval a /healthz behind busy threads waits several intervals. 1 ms bounds that.
GIL_SWITCH_INTERVAL_S = 0.001
# Read size of the stdin watcher; the runner never writes, so this only ever sees EOF.
STDIN_READ_BYTES = 4096


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on `host:port` (IPv6 when the host is an IPv6 literal).

    Raises:
        OSError: the address is in use or cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto must say TCP: asyncio only sets TCP_NODELAY on accepted sockets whose proto is
    # IPPROTO_TCP, and without it every keep-alive answer waits ~40 ms for a delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(LISTEN_BACKLOG)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(False)
    return sock


def ready_line(settings: ServerSettings, sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    url_host = f"[{host}]" if ":" in host else host
    return json.dumps(
        {
            "event": READY_EVENT,
            "host": host,
            "port": port,
            "url": f"http://{url_host}:{port}/mcp",
            "root": str(settings.root),
            "pid": os.getpid(),
        }
    )


class _Server(uvicorn.Server):
    """uvicorn's server, printing the ready line once it serves, then calling `serving`."""

    def __init__(self, config: uvicorn.Config, line: str, serving: Callable[[], None]) -> None:
        super().__init__(config)
        self._line = line
        self._serving = serving

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            sys.stdout.write(self._line + "\n")
            sys.stdout.flush()
            log_event(READY_EVENT, url=json.loads(self._line)["url"], pid=os.getpid())
            self._serving()

    def request_exit(self, reason: str) -> None:
        if not self.should_exit:
            log_event("mcp_pruner.exiting", reason=reason)
        self.should_exit = True


def _stdin_is_pipe() -> bool:
    try:
        mode = os.fstat(0).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _watch_stdin(loop: asyncio.AbstractEventLoop, server: _Server) -> None:
    """Daemon thread: block on stdin until EOF, then ask the server to exit."""
    try:
        while os.read(0, STDIN_READ_BYTES):
            pass
    except OSError:
        pass
    loop.call_soon_threadsafe(server.request_exit, "stdin_eof")


async def _watch_parent(server: _Server, parent: int) -> None:
    while not server.should_exit:
        await asyncio.sleep(PARENT_POLL_INTERVAL_S)
        if os.getppid() != parent:
            server.request_exit("parent_exited")
            return


async def _serve(server: _Server, sock: socket.socket, settings: ServerSettings) -> None:
    watchers: list[asyncio.Task[None]] = []
    if settings.exit_with_parent:
        parent = os.getppid()
        if parent != 1:  # already orphaned (started by init): nothing to watch
            watchers.append(asyncio.create_task(_watch_parent(server, parent)))
        if _stdin_is_pipe():
            loop = asyncio.get_running_loop()
            threading.Thread(target=_watch_stdin, args=(loop, server), name="stdin-eof", daemon=True).start()
    try:
        await server.serve(sockets=[sock])
    finally:
        for task in watchers:
            task.cancel()


def build_full_app(settings: ServerSettings, started_at: datetime, started_monotonic: float) -> Starlette:
    """The full app (`http/app.py`) and its parts, built in a thread once the server listens."""
    from mcp_pruner_server.environ_scrub import forget_secrets
    from mcp_pruner_server.http.app import build_app
    from mcp_pruner_server.server_parts import build_parts

    app = build_app(build_parts(settings, started_at=started_at, started_monotonic=started_monotonic))
    # Every secret the server needs is now in its parts: a `bash` child must not read them back
    # from /proc/$PPID/environ (`environ_scrub.py`). No tool runs before the full app serves.
    forget_secrets()
    return app


def run_server(settings: ServerSettings) -> int:
    """Serve until told to stop; returns the process exit code (2: `--allow-remote` without a token).

    Raises:
        OSError: the address cannot be bound.
    """
    configure_logging(settings.log_format)
    if settings.allow_remote and settings.token is None:
        # Reachable from the network with no token is remote code execution through `bash`.
        log_event(
            "mcp_pruner.start_failed",
            level="error",
            reason="config_invalid",
            message=(
                f"--allow-remote needs a token: set {CLIENT_TOKEN_ENV} (or {TOKEN_ENV}); without one "
                "anyone reaching the port runs bash"
            ),
            variable=CLIENT_TOKEN_ENV,
            expected="a non-empty bearer token with --allow-remote",
        )
        return 2
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    fd_limit = raise_fd_limit()
    sock = bind_socket(settings.host, settings.port)
    # The full app is built once the server answers (`http/startup_app.py`): its imports would
    # slow the start-up that /healthz and the handshake do not need them for.
    app = StartupApp(settings, functools.partial(build_full_app, settings))
    config = uvicorn.Config(
        app,
        log_config=None,
        access_log=False,
        lifespan="on",
        ws="none",
        http=bounded_protocol(connection_cap(fd_limit)),
        # asyncio listens again with this on our socket (uvicorn's default is 2048).
        backlog=accept_backlog(fd_limit, LISTEN_BACKLOG),
        timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
    )
    server = _Server(config, ready_line(settings, sock), serving=app.start_loading)
    # uvicorn re-raises the captured SIGTERM after its graceful shutdown, with the handler that
    # was in place before it started: make that one a no-op so a graceful stop exits 0.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: None)
    asyncio.run(_serve(server, sock, settings))
    log_event("mcp_pruner.stopped")
    return 0
