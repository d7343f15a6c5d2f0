"""`--stdio`: the same server over the process's stdin/stdout, as an agent spawns any MCP server.

The tools, the `req:*` pipeline, the pruning config and the recovery store are the HTTP
server's (`app.build_parts`); only the transport differs: the SDK's `stdio_server`, which
keeps fd 1 for protocol frames (fd 0 and 1 point at /dev/null and stderr while it serves, so a
stray print or a child cannot corrupt the wire). Every event goes to stderr.

The process ends when the client closes stdin (EOF) — that is how Claude Code and Codex stop a
stdio server — or on SIGTERM/SIGINT/SIGHUP. Either way the running tool calls are cancelled,
which kills their process groups (`tools_exec`), and the exit code is 0.
"""

from __future__ import annotations

import functools
import os
import signal

import anyio
import anyio.abc

from mcp_pruner_server.logs import configure_logging, log_event
from mcp_pruner_server.settings import ServerSettings

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
STDIO_READY_EVENT = "mcp_pruner.stdio_ready"


async def _stop_on_signal(scope: anyio.CancelScope, *, task_status: anyio.abc.TaskStatus[None]) -> None:
    with anyio.open_signal_receiver(*STOP_SIGNALS) as signals:
        task_status.started()
        async for signum in signals:
            log_event("mcp_pruner.exiting", reason=signal.Signals(signum).name.lower())
            scope.cancel()
            return


async def serve_stdio(settings: ServerSettings, *, text_view: bool = False) -> None:
    """Serve MCP on stdin/stdout until stdin reaches EOF or a stop signal arrives.

    `text_view`: results carry the model's plain text only (`mcp_transport.build_sdk_server`).
    """
    from mcp.server.stdio import stdio_server

    from mcp_pruner_server.http.mcp_transport import build_sdk_server, text_block_setting
    from mcp_pruner_server.server_parts import build_parts

    parts = build_parts(settings)
    server = build_sdk_server(parts.dispatcher, text_block_setting(os.environ), text_view=text_view)
    try:
        async with anyio.create_task_group() as tg:
            await tg.start(_stop_on_signal, tg.cancel_scope)
            async with stdio_server() as (read_stream, write_stream):
                log_event(STDIO_READY_EVENT, root=str(settings.root))
                await server.run(read_stream, write_stream, server.create_initialization_options())
            log_event("mcp_pruner.exiting", reason="stdin_eof")
            tg.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await parts.service.aclose()
            await anyio.to_thread.run_sync(parts.close_ledger)


def run_stdio(settings: ServerSettings, *, text_view: bool = False) -> int:
    """Run the stdio server in this process; returns the exit code (always 0 once it started)."""
    configure_logging(settings.log_format)
    anyio.run(functools.partial(serve_stdio, settings, text_view=text_view))
    log_event("mcp_pruner.stopped")
    return 0
