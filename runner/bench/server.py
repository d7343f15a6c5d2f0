"""Measurements against the real server process: startup to healthy, `/rpc` and `/mcp` round trips,
and the `grep` tool's overhead over the raw `rg` command it wraps.

Each start is a fresh `python -m mcp_pruner_server` (what `jeeves run` spawns), timed from
the spawn to the first `200` of `GET /healthz`, the runner's own readiness rule.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import anyio.abc
import httpx
import httpx2
from anyio.streams.buffered import BufferedByteReceiveStream
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from runner.bench.errors import ServerBenchFailed
from runner.bench.quality import ENGINE_TIMEOUT_MS
from tools_exec.grep_rg import find_rg

# The runner's readiness bound (docs/configuration.md#runner-settings): a start slower than
# this is a failure, not a figure.
STARTUP_BOUND_S = 12.0
# /healthz polling step while starting: fine enough for millisecond figures, cheap for the CPU.
HEALTH_POLL_S = 0.005
# The ready line is one short JSON object; anything longer is not it.
READY_LINE_MAX_BYTES = 65_536
# One measured call is local; this only stops a wedged server.
CALL_TIMEOUT_S = 30.0
# SIGTERM grace when stopping a measured server before SIGKILL.
STOP_GRACE_S = 5.0
# Pattern and paths of the grep overhead measurement: our own packages (present in a checkout
# and in site-packages alike), a pattern with a few hundred hits.
GREP_PATTERN = "async def"
GREP_PATHS = ("runner", "mcp_pruner_server", "tools_exec")
GREP_QUESTION = "Where are the HTTP routes handled?"


@dataclass(frozen=True)
class ServerFigures:
    """Every timing in milliseconds, one entry per measured call."""

    startup_ms: tuple[float, ...]
    round_trips_ms: dict[str, tuple[float, ...]]
    grep_matches: int = 0
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class _Running:
    base_url: str
    token: str
    process: anyio.abc.Process


def package_root() -> Path:
    """The directory holding our three packages (a checkout or site-packages)."""
    import runner

    return Path(runner.__file__).resolve().parent.parent


async def _wait_healthy(client: httpx.AsyncClient, base_url: str, process: anyio.abc.Process) -> None:
    while True:
        if process.returncode is not None:
            raise ServerBenchFailed(f"the server exited with {process.returncode} while starting")
        with contextlib.suppress(httpx.HTTPError):
            if (await client.get(f"{base_url}/healthz")).status_code == 200:
                return
        await anyio.sleep(HEALTH_POLL_S)


@contextlib.asynccontextmanager
async def running_server(root: Path, client: httpx.AsyncClient) -> AsyncIterator[tuple[_Running, float]]:
    """A real server on `root` and the milliseconds from spawn to its first healthy `/healthz`.

    Raises:
        ServerBenchFailed: no ready line, an early exit, or not healthy within `STARTUP_BOUND_S`.
    """
    token = secrets.token_urlsafe(24)
    env = {**os.environ, "JEEVES_MCP_PRUNER_TOKEN": token}
    argv = [
        sys.executable,
        "-m",
        "mcp_pruner_server",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--root",
        str(root),
    ]
    started = time.perf_counter()
    # Its JSON events would interleave with our table; the bench only needs the ready line.
    process = await anyio.open_process(argv, env=env, stderr=subprocess.DEVNULL)
    try:
        try:
            with anyio.fail_after(STARTUP_BOUND_S):
                assert process.stdout is not None
                line = await BufferedByteReceiveStream(process.stdout).receive_until(
                    b"\n", READY_LINE_MAX_BYTES
                )
                ready = json.loads(line)
                base_url = f"http://127.0.0.1:{int(ready['port'])}"
                await _wait_healthy(client, base_url, process)
        except (TimeoutError, anyio.EndOfStream, anyio.IncompleteRead, ValueError, KeyError) as exc:
            raise ServerBenchFailed(
                f"the server did not become healthy: {type(exc).__name__} {exc}"
            ) from None
        startup_ms = (time.perf_counter() - started) * 1000
        yield _Running(base_url, token, process), startup_ms
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(process)


async def _stop(process: anyio.abc.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        with anyio.move_on_after(STOP_GRACE_S):
            await process.wait()
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
    await process.aclose()


async def _timed(calls: int, call: Callable[[], Awaitable[object]]) -> tuple[float, ...]:
    await call()  # warm-up: first-use imports and connection setup are startup, not round trip
    out = []
    for _ in range(calls):
        began = time.perf_counter()
        with anyio.fail_after(CALL_TIMEOUT_S):
            await call()
        out.append((time.perf_counter() - began) * 1000)
    return tuple(out)


def _rpc_ok(reply: httpx.Response) -> Mapping[str, object]:
    if reply.status_code != 200:
        raise ServerBenchFailed(f"/rpc answered {reply.status_code}: {reply.text[:200]}")
    body = reply.json()
    if "error" in body or body.get("result", {}).get("isError"):
        raise ServerBenchFailed(f"/rpc call failed: {json.dumps(body)[:300]}")
    result: Mapping[str, object] = body["result"]
    return result


async def measure_server(sample_text: str, sample_goal: str, starts: int, calls: int) -> ServerFigures:
    """Startup `starts` times; then `calls` round trips of each kind on one server.

    Raises:
        ServerBenchFailed: the server did not start or a measured call failed.
    """
    try:
        return await _measure(sample_text, sample_goal, starts, calls)
    except (httpx.HTTPError, httpx2.HTTPError, MCPError, TimeoutError, OSError) as exc:
        # the server died or wedged mid-measurement: a bench error, not a traceback
        raise ServerBenchFailed(f"a measured call failed: {type(exc).__name__}: {exc}") from None


async def _measure(sample_text: str, sample_goal: str, starts: int, calls: int) -> ServerFigures:
    root = package_root()
    startup: list[float] = []
    trips: dict[str, tuple[float, ...]] = {}
    matches = 0
    async with httpx.AsyncClient(trust_env=False, timeout=CALL_TIMEOUT_S) as client:
        for _ in range(max(0, starts - 1)):
            async with running_server(root, client) as (_, ms):
                startup.append(ms)
        async with running_server(root, client) as (server, ms):
            startup.append(ms)
            headers = {"Authorization": f"Bearer {server.token}"}
            prune_args = {
                "text": sample_text,
                "goal_hint": sample_goal,
                "source_type": "code",
                "options": {
                    "max_prune_ratio": 0.8,
                    "min_keep_lines": 0,
                    "timeout_ms": ENGINE_TIMEOUT_MS,
                    "annotate_lines": False,
                    "include_markers": True,
                },
            }

            async def rpc(method: str, params: Mapping[str, object]) -> Mapping[str, object]:
                body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
                return _rpc_ok(await client.post(f"{server.base_url}/rpc", json=body, headers=headers))

            trips["/rpc tools/list"] = await _timed(calls, lambda: rpc("tools/list", {}))
            trips["/rpc prune_text"] = await _timed(
                calls, lambda: rpc("tools/call", {"name": "prune_text", "arguments": prune_args})
            )
            async with (
                httpx2.AsyncClient(headers=headers, timeout=CALL_TIMEOUT_S) as http,
                Client(streamable_http_client(f"{server.base_url}/mcp", http_client=http)) as mcp,
            ):
                trips["/mcp tools/list"] = await _timed(calls, mcp.list_tools)
                trips["/mcp prune_text"] = await _timed(
                    calls, lambda: mcp.call_tool("prune_text", prune_args)
                )
            grep_args: dict[str, object] = {"pattern": GREP_PATTERN, "paths": list(GREP_PATHS)}
            result = await rpc("tools/call", {"name": "grep", "arguments": grep_args})
            structured = result.get("structuredContent")
            if isinstance(structured, Mapping) and isinstance(structured.get("match_count"), int):
                matches = int(structured["match_count"])
            trips["grep tool (/rpc)"] = await _timed(
                calls, lambda: rpc("tools/call", {"name": "grep", "arguments": grep_args})
            )
            focused = {**grep_args, "context_focus_question": GREP_QUESTION}
            trips["grep tool + focus (/rpc)"] = await _timed(
                calls, lambda: rpc("tools/call", {"name": "grep", "arguments": focused})
            )
    rg = find_rg()
    notes: list[str] = []
    if rg is None:
        notes.append("raw rg not found: no overhead baseline")
    else:
        argv = [
            rg,
            "--no-config",
            "--line-number",
            "--column",
            "--no-heading",
            "-e",
            GREP_PATTERN,
            "--",
            *GREP_PATHS,
        ]

        async def raw_rg() -> None:
            await anyio.run_process(argv, cwd=root, check=False)

        trips["raw rg (subprocess)"] = await _timed(calls, raw_rg)
    return ServerFigures(tuple(startup), trips, matches, tuple(notes))
