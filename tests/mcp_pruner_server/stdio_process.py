"""A real `--stdio` server process driven line by line over its pipes (signals, bad frames, kills)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.rpc_examples import initialize

ANSWER_TIMEOUT_S = 30.0  # one answer; the first tool call loads the tools (~1 s, slower under load)


class StdioServer:
    """One server on pipes: write frames, read answers, signal it."""

    def __init__(self, process: subprocess.Popen[bytes], stderr_path: Path) -> None:
        assert process.stdin is not None
        assert process.stdout is not None
        self.process = process
        self.stdin = process.stdin
        self.stdout = process.stdout
        self.stderr_path = stderr_path

    def send(self, frame: dict[str, Any] | bytes) -> None:
        data = memoryview(frame if isinstance(frame, bytes) else json.dumps(frame).encode() + b"\n")
        while data:  # unbuffered: a write may take part of it
            data = data[self.stdin.write(data) or 0 :]

    def answer(self, timeout_s: float = ANSWER_TIMEOUT_S) -> dict[str, Any]:
        """The next frame on stdout (a failure when none comes within `timeout_s`)."""
        ready, _, _ = select.select([self.stdout], [], [], timeout_s)
        assert ready, f"no answer within {timeout_s} s; stderr:\n{self.stderr()[-2000:]}"
        line = self.stdout.readline()
        assert line, f"stdout closed; stderr:\n{self.stderr()[-2000:]}"
        frame: dict[str, Any] = json.loads(line)
        return frame

    def answer_to(self, request_id: object) -> dict[str, Any]:
        while (frame := self.answer()).get("id") != request_id:
            pass
        return frame

    def handshake(self) -> None:
        self.send(initialize())
        assert self.answer_to(1)["result"]["serverInfo"]["name"] == "jeeves-mcp-pruner"
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def events(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stderr().splitlines() if line.startswith("{")]


@contextlib.contextmanager
def stdio_server(
    root: Path, *extra: str, python_flags: tuple[str, ...] = (), env: dict[str, str] | None = None
) -> Iterator[StdioServer]:
    """`python -m mcp_pruner_server --stdio` in `root` (environment `env`, else ours), its own
    process group; killed at the end."""
    stderr_path = root / "stderr.log"
    argv = [sys.executable, *python_flags, "-m", "mcp_pruner_server", "--stdio", *extra]
    with stderr_path.open("wb") as stderr:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=root,
            env=env,
            start_new_session=True,
            bufsize=0,  # unbuffered: `select` on stdout then says whether a line is there
        )
    try:
        yield StdioServer(process, stderr_path)
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=ANSWER_TIMEOUT_S)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(BrokenPipeError):
                    stream.close()


def wait_for_file(path: Path, timeout_s: float, server: StdioServer) -> str:
    """The content of a file a command writes, once it is there (a file has no event to wait on)."""
    deadline = time.monotonic() + timeout_s
    while not path.is_file() or not path.read_text().strip():
        assert time.monotonic() < deadline, f"{path.name} never appeared; stderr:\n{server.stderr()[-2000:]}"
        assert server.process.poll() is None, server.stderr()[-2000:]
        time.sleep(0.05)
    return path.read_text()
