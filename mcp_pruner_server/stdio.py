"""`--stdio`: the same server over the process's stdin/stdout, as an agent spawns any MCP server.

The tools, the `req:*` pipeline, the pruning config and the recovery store are the HTTP
server's (`server_parts.build_parts`); the transport is the project's own JSON-RPC core
(`stdio_session.py` over `stdio_wire.py`), which answers `initialize` and `tools/list` before
anything a tool call needs is imported: those load after the handshake. Protocol frames alone
go to the real stdout (fd 0 and 1 then point at /dev/null and stderr, so a stray print or a
child cannot corrupt the wire); every event goes to stderr.

The process ends when the client closes stdin (EOF) — that is how Claude Code and Codex stop a
stdio server — or on SIGTERM/SIGINT/SIGHUP, whether stdin is still open or not. Either way the
running tool calls are cancelled, which kills their process groups (`tools_exec`), and the exit
code is 0. Killed with SIGKILL, it cannot: the commands' groups are then killed by a watchdog
process (`tools_exec/group_watchdog.py`).
"""

from __future__ import annotations

import functools
import os
import signal

import anyio
import anyio.abc

from mcp_pruner_server.logs import configure_logging, log_event
from mcp_pruner_server.protocol import text_block_setting
from mcp_pruner_server.settings import ServerSettings
from mcp_pruner_server.stdio_session import Backstage, StdioSession
from mcp_pruner_server.stdio_wire import open_wire

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

    `text_view`: results carry the model's plain text only, and tools no `outputSchema` (what
    the `X-Jeeves-Result-View: text` header asks for on `/mcp`; stdio has no headers).
    """
    wire = open_wire()
    async with anyio.create_task_group() as tg:
        backstage = Backstage(settings, tg)
        try:
            await tg.start(_stop_on_signal, tg.cancel_scope)
            session = StdioSession(
                wire, backstage, text_block=text_block_setting(os.environ), text_view=text_view
            )
            log_event(STDIO_READY_EVENT, root=str(settings.root))
            await session.serve()
            log_event("mcp_pruner.exiting", reason="stdin_eof")
            tg.cancel_scope.cancel()
        finally:
            with anyio.CancelScope(shield=True):
                await backstage.aclose()
            wire.close()


def run_stdio(settings: ServerSettings, *, text_view: bool = False) -> int:
    """Run the stdio server in this process; returns the exit code (always 0 once it started)."""
    configure_logging(settings.log_format)
    anyio.run(functools.partial(serve_stdio, settings, text_view=text_view))
    log_event("mcp_pruner.stopped")
    return 0
