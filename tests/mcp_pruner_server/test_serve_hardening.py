"""The adversarial review's defects (issue 16), each against the real server on a real socket."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import sysconfig
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from server_fixtures import READY_TIMEOUT_S, ChildServer, read_ready_line

REPO = Path(__file__).resolve().parents[2]
# A request the server must answer while something else misbehaves: seconds, not minutes.
RESPONSIVE_S = 2.0


@contextlib.contextmanager
def server_without_rg(
    tmp_path: Path, root: Path, env: Mapping[str, str] | None = None
) -> Iterator[ChildServer]:
    """The server as the review ran it with no `rg` anywhere: the interpreter reached through a
    symlink in a directory without rg, PATH holding only that directory."""
    bin_dir = tmp_path / "bin-without-rg"
    bin_dir.mkdir()
    python = bin_dir / "python"
    python.symlink_to(os.path.realpath(sys.executable))  # outside the venv: no wheel rg beside it
    pythonpath = os.pathsep.join([str(REPO), sysconfig.get_paths()["purelib"]])
    full_env = {"PATH": str(bin_dir), "PYTHONPATH": pythonpath, "HOME": str(tmp_path), **(env or {})}
    argv = [str(python), "-m", "mcp_pruner_server", "--host", "127.0.0.1", "--port", "0", "--root", str(root)]
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=full_env
    )
    try:
        assert process.stdout is not None
        yield ChildServer(process, read_ready_line(process.stdout))
    finally:
        process.kill()
        process.wait(timeout=READY_TIMEOUT_S)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()


def tool_call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


@pytest.mark.anyio
async def test_a_catastrophic_regex_in_the_python_grep_times_out_and_the_server_stays_responsive(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "evil.txt").write_text("a" * 36 + "!\n")
    grep = tool_call("grep", {"pattern": "(a+)+$", "paths": ["evil.txt"], "timeout_ms": 2000})
    with server_without_rg(tmp_path, root) as server:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=RESPONSIVE_S + 3) as client:
            answer: dict[str, Any] = {}
            answered = anyio.Event()
            health: list[int] = []

            async def call_grep() -> None:
                response = await client.post("/rpc", json=grep, headers={"content-type": "application/json"})
                answer.update(response.json())
                answered.set()

            async with anyio.create_task_group() as tg:
                tg.start_soon(call_grep)
                for _ in range(3):  # while the regex runs: the loop must not be frozen by it
                    with anyio.fail_after(RESPONSIVE_S):
                        health.append((await client.get("/healthz")).status_code)
                    await anyio.sleep(0.2)  # spacing the probes over the 2 s search, not syncing
                # timeout + 1 s, the contract's bound for grep (generous: the clock runs at the call)
                with anyio.fail_after(2.0 + 1.0 + 1.0):
                    await answered.wait()
    assert health == [200, 200, 200]
    result = answer["result"]["structuredContent"]
    assert result["error"]["code"] == "timeout", result
