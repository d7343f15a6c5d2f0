"""A minimal driver for `codex app-server` over stdio (newline-delimited JSON-RPC).

Protocol as codex-cli 0.169.0 ships it (`codex app-server generate-ts --experimental`):
`initialize {clientInfo, capabilities}` → the `initialized` notification →
`mcpServerStatus/list {}` → `{data: [{name, tools: {name: Tool}, toolsError, authStatus, ...}]}`;
`thread/start {ephemeral: true}` → `{thread: {id, ...}}`; `mcpServer/tool/call
{threadId, server, tool, arguments}` → `{content, structuredContent?, isError?}`. Messages
carry no `"jsonrpc"` member. Notifications (`mcpServer/startupStatus/updated`,
`thread/started`, `configWarning`, ...) arrive interleaved with responses and are kept.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import anyio
from anyio.abc import Process
from anyio.streams.buffered import BufferedByteReceiveStream

MAX_LINE_BYTES = 16 * 1024 * 1024  # one JSON-RPC message; tool lists with schemas are ~20 KB
EXIT_GRACE_S = 3.0  # after stdin EOF the app-server exits on its own; then we SIGKILL its group


class CodexRpcError(Exception):
    """Raised when the app-server answers a request with a JSON-RPC error."""

    def __init__(self, method: str, error: Mapping[str, Any]) -> None:
        super().__init__(f"{method}: {json.dumps(error)}")
        self.error = dict(error)


class CodexExitedError(Exception):
    """Raised when the app-server closes its stdout before answering (its stderr is quoted)."""


class CodexAppServer:
    """Requests and notifications over one app-server's stdin/stdout."""

    def __init__(self, process: Process, stderr_path: Path) -> None:
        assert process.stdin is not None
        assert process.stdout is not None
        self._process = process
        self._stdin = process.stdin
        self._stdout = BufferedByteReceiveStream(process.stdout)
        self._stderr_path = stderr_path
        self._next_id = 0
        self.notifications: list[dict[str, Any]] = []

    async def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"method": method}
        if params is not None:
            message["params"] = dict(params)
        await self._send(message)

    async def request(self, method: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """Send one request and return its result, keeping notifications seen meanwhile.

        Raises:
            CodexRpcError: the app-server answered with an error.
            CodexExitedError: the app-server exited first.
        """
        self._next_id += 1
        request_id = self._next_id
        await self._send({"id": request_id, "method": method, "params": dict(params)})
        while True:
            message = await self._receive()
            if message.get("id") == request_id and ("result" in message or "error" in message):
                if "error" in message:
                    raise CodexRpcError(method, message["error"])
                result: dict[str, Any] = message["result"]
                return result
            if "method" in message and "id" not in message:
                self.notifications.append(message)
            # A request from the app-server to us (approval, elicitation) is not expected for
            # direct MCP tool calls; leaving it unanswered makes the call fail visibly.

    async def initialize(self) -> dict[str, Any]:
        result = await self.request(
            "initialize",
            {
                "clientInfo": {"name": "jeeves-interop-tests", "title": None, "version": "0"},
                "capabilities": {"experimentalApi": True, "requestAttestation": False},
            },
        )
        await self.notify("initialized")
        return result

    async def server_status(self, server: str) -> dict[str, Any]:
        """`server`'s entry in `mcpServerStatus/list` (its tools, toolsError, serverInfo)."""
        listing = await self.request("mcpServerStatus/list", {})
        statuses = {entry["name"]: entry for entry in listing["data"]}
        assert server in statuses, listing
        status: dict[str, Any] = statuses[server]
        return status

    async def start_thread(self) -> str:
        """A new ephemeral thread's id: `mcpServer/tool/call` runs in a thread."""
        thread = await self.request("thread/start", {"ephemeral": True})
        thread_id: str = thread["thread"]["id"]
        return thread_id

    async def call_tool(
        self, thread_id: str, server: str, tool: str, arguments: Mapping[str, Any]
    ) -> dict[str, Any]:
        """`server`'s `tool` called directly (no model): its result as the app-server returns it."""
        params = {"threadId": thread_id, "server": server, "tool": tool, "arguments": dict(arguments)}
        return await self.request("mcpServer/tool/call", params)

    async def _send(self, message: Mapping[str, Any]) -> None:
        await self._stdin.send(json.dumps(message).encode() + b"\n")

    async def _receive(self) -> dict[str, Any]:
        try:
            line = await self._stdout.receive_until(b"\n", MAX_LINE_BYTES)
        except (anyio.EndOfStream, anyio.IncompleteRead):
            stderr = self._stderr_path.read_text(encoding="utf-8", errors="replace")
            raise CodexExitedError(f"codex app-server closed its stdout; stderr:\n{stderr[-4000:]}") from None
        message: dict[str, Any] = json.loads(line)
        return message


@contextlib.asynccontextmanager
async def open_codex_app_server(
    codex: Path, args: list[str], *, env: Mapping[str, str], cwd: Path, stderr_path: Path
) -> AsyncIterator[CodexAppServer]:
    """Start `codex app-server ARGS` (e.g. `-c key=value` overrides); stop it and its group on exit."""
    argv = [str(codex), "app-server", *args]
    with stderr_path.open("wb") as stderr_file:
        process = await anyio.open_process(
            argv, stderr=stderr_file, env=dict(env), cwd=cwd, start_new_session=True
        )
    try:
        yield CodexAppServer(process, stderr_path)
        assert process.stdin is not None
        await process.stdin.aclose()
        with anyio.move_on_after(EXIT_GRACE_S):
            await process.wait()
    finally:
        # The npm wrapper runs the native binary as its child: kill the group, not just the wrapper.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with anyio.CancelScope(shield=True):
            await process.aclose()
