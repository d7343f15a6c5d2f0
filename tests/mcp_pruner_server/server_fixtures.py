"""Shared helpers for the server tests: the app in-process, and the real server as a child."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx

from mcp_pruner_server.http.app import build_app
from mcp_pruner_server.pipeline.dispatcher import TraceObserver
from mcp_pruner_server.server_parts import build_parts
from mcp_pruner_server.settings import ServerSettings

BASE_URL = "http://127.0.0.1:8000"
JSON_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
# A child that has not printed its ready line by then is broken, not slow (2 shared cores).
READY_TIMEOUT_S = 15.0
# The engine's budget (`JEEVES_PRUNER_TIMEOUT_MS`) for a server whose test needs a call pruned:
# the default 2 s is the time the pruning may cost an agent, and on a 2-core host at a load of
# ~40 a first read spent it (the workers' start past its 5 s allowance, then the engine at a
# twentieth of a core) and came back raw (fail-open), with no prune_id to recover by.
PATIENT_ENGINE_MS = "30000"


@contextlib.asynccontextmanager
async def in_process(
    root: Path,
    *,
    token: str | None = None,
    env: Mapping[str, str] | None = None,
    raise_app_exceptions: bool = True,
    trace_observer: TraceObserver | None = None,
) -> AsyncIterator[httpx.AsyncClient]:
    """The whole app, lifespan included, behind httpx.ASGITransport (engine in threads;
    the real-process tests cover the engine processes). `trace_observer` sees every tool
    call's `RequestTrace`."""
    parts = build_parts(ServerSettings(root=root, token=token), env=env or {}, engine_processes=False)
    parts.dispatcher.trace_observer = trace_observer
    app = build_app(parts)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app, raise_app_exceptions=raise_app_exceptions),
            base_url=BASE_URL,
            timeout=30,
            # Every POST route takes only application/json (issue 16); raw `content=` bodies too.
            headers={"content-type": "application/json"},
        ) as client,
    ):
        yield client


async def rpc(
    client: httpx.AsyncClient,
    method: str,
    params: Any = None,
    *,
    path: str = "/rpc",
    headers: Mapping[str, str] | None = None,
) -> Any:
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}
    response = await client.post(path, json=body, headers={**JSON_HEADERS, **(headers or {})})
    assert response.status_code == 200, response.text
    return response.json()


async def call_tool(
    client: httpx.AsyncClient,
    name: str,
    arguments: Mapping[str, Any],
    *,
    headers: Mapping[str, str] | None = None,
) -> Any:
    """`tools/call` on /rpc; returns the JSON-RPC answer."""
    return await rpc(client, "tools/call", {"name": name, "arguments": dict(arguments)}, headers=headers)


@dataclass
class ChildServer:
    process: subprocess.Popen[bytes]
    ready: dict[str, Any]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.ready['port']}"


def server_argv(root: Path, *extra: str) -> list[str]:
    exe = Path(sys.executable).with_name("jeeves-mcp-pruner")
    return [str(exe), "--host", "127.0.0.1", "--port", "0", "--root", str(root), *extra]


def read_ready_line(stdout: IO[bytes]) -> dict[str, Any]:
    """Blocks until the child's first stdout line; the test's global timeout bounds it."""
    line = stdout.readline()
    assert line, "the server exited before printing its ready line"
    ready: dict[str, Any] = json.loads(line)
    return ready


@contextlib.contextmanager
def child_server(
    root: Path,
    *extra: str,
    env: Mapping[str, str] | None = None,
    stdin: int | None = subprocess.PIPE,
    stderr: IO[bytes] | int = subprocess.DEVNULL,
) -> Iterator[ChildServer]:
    """The real `jeeves-mcp-pruner` as a child; killed on exit if still running."""
    full_env = {**os.environ, **(env or {})}
    process = subprocess.Popen(
        server_argv(root, *extra),
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=stderr,
        env=full_env,
    )
    try:
        assert process.stdout is not None
        yield ChildServer(process, read_ready_line(process.stdout))
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=READY_TIMEOUT_S)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()


MAX_SAFE_INTEGER = 2**53 - 1


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _check_strict(value: Any, path: str) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        assert abs(value) <= MAX_SAFE_INTEGER, f"{path}: {value} is beyond 2^53"
    elif isinstance(value, str):
        assert not any(0xD800 <= ord(c) <= 0xDFFF for c in value), f"{path}: a lone surrogate"
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strict(key, f"{path}.{key!r}")
            _check_strict(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_strict(item, f"{path}[{i}]")


def strict_json(body: bytes) -> Any:
    """Parse a response body the way the strictest clients do, or fail the test.

    UTF-8 decoding without replacement, no NaN/Infinity, no integer a JavaScript client would
    round (beyond 2^53), no lone surrogate (a `\\ud800` escape is valid JSON text but not
    valid Unicode: serde_json and Go reject it).
    """
    value = json.loads(body.decode("utf-8"), parse_constant=_reject_constant)
    _check_strict(value, "$")
    return value
