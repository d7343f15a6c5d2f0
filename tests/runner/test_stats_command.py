"""`jeeves stats`: a real server's `/stats`, fetched with the shared token variable and pretty-printed."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from runner.stats_command import base_url, flatten

JEEVES = (sys.executable, "-c", "from runner.cli import app; app()")
READY_TIMEOUT_S = 15.0  # the server is healthy in ~1 s; the machine is shared
TOKEN = "stats-token"


@pytest.fixture
def server_url(tmp_path: Path) -> Iterator[str]:
    (tmp_path / "a.txt").write_text("hello\n", encoding="utf-8")
    # The clients' variable name only: the server reads it too.
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")} | {"JEEVES_MCP_TOKEN": TOKEN}
    argv = [sys.executable, "-m", "mcp_pruner_server", "--port", "0", "--root", str(tmp_path)]
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )
    assert process.stdout is not None
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            assert selector.select(READY_TIMEOUT_S), "no ready line"
        yield json.loads(process.stdout.readline())["url"]
    finally:
        process.kill()
        process.wait(timeout=READY_TIMEOUT_S)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()


def jeeves_stats(*args: str, token: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    if token is not None:
        env["JEEVES_MCP_TOKEN"] = token
    return subprocess.run(
        [*JEEVES, "stats", *args], env=env, capture_output=True, text=True, timeout=30, check=False
    )


def test_it_prints_a_running_servers_counters_one_per_line(server_url: str) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    call = {"tool": "read", "params": {"path": "a.txt"}}
    httpx.post(base_url(server_url) + "/execute", json=call, headers=auth, timeout=10).raise_for_status()

    done = jeeves_stats(server_url, token=TOKEN)

    assert done.returncode == 0, done.stderr
    rows = dict(line.split(maxsplit=1) for line in done.stdout.splitlines()[1:])
    assert rows["tool_calls.read"] == "1"
    assert rows["pruning.skipped.no_focus_question"] == "1"
    assert rows["backend"] == "heuristic"


def test_without_the_token_it_says_which_variable_to_set(server_url: str) -> None:
    done = jeeves_stats(server_url, token=None)

    assert done.returncode == 1
    assert "set JEEVES_MCP_TOKEN" in done.stderr


def test_a_refused_token_is_said_to_be_the_wrong_one_not_missing(server_url: str) -> None:
    done = jeeves_stats(server_url, token="not-the-servers")

    assert done.returncode == 1
    assert "refused the token in JEEVES_MCP_TOKEN" in done.stderr
    assert "set JEEVES_MCP_TOKEN" not in done.stderr


def test_urls_and_nesting() -> None:
    assert base_url("http://127.0.0.1:8765/mcp") == "http://127.0.0.1:8765"
    assert base_url("http://127.0.0.1:8765/") == "http://127.0.0.1:8765"
    assert flatten({"a": {"b": 1, "c": {}}, "d": "x"}) == [("a.b", 1), ("a.c", "-"), ("d", "x")]
