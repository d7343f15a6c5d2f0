from __future__ import annotations

import json
import os
import signal
from dataclasses import replace
from pathlib import Path

import anyio
import httpx
import pytest
from runner_support import started_server, wait_gone

from runner.config import RunnerConfig
from runner.errors import ServerSpawnError
from runner.exit_status import format_returncode
from runner.server_process import (
    MAX_LINE_CHARS,
    MAX_PENDING_BYTES,
    ReadyLine,
    _LineSplitter,
    parse_ready_line,
    probe_health,
    server_argv,
    server_env,
    spawn_server,
    wait_until_healthy,
)

READY = {
    "event": "mcp_pruner.ready",
    "host": "127.0.0.1",
    "port": 4321,
    "url": "http://127.0.0.1:4321/mcp",
    "root": "/r",
    "pid": 9,
}


def test_the_ready_line_is_recognised_and_anything_else_is_not() -> None:
    expected = ReadyLine("127.0.0.1", 4321, "http://127.0.0.1:4321/mcp", 9)
    assert parse_ready_line(json.dumps(READY), "127.0.0.1") == expected
    assert parse_ready_line("Uvicorn running on http://127.0.0.1:4321", "127.0.0.1") is None
    assert parse_ready_line(json.dumps({**READY, "event": "mcp_pruner.sdk_ready"}), "127.0.0.1") is None
    assert parse_ready_line(json.dumps({**READY, "port": "4321"}), "127.0.0.1") is None


@pytest.mark.parametrize(
    ("fields", "expected_host"),
    [
        ({"url": "http://[::1/mcp"}, "127.0.0.1"),
        ({"url": "http://127.0.0.1:99999/mcp"}, "127.0.0.1"),
        ({"port": 99999, "url": "http://127.0.0.1:99999/mcp"}, "127.0.0.1"),
        ({"port": 0, "url": "http://127.0.0.1:0/mcp"}, "127.0.0.1"),
        ({"url": "http://127.0.0.1/mcp"}, "127.0.0.1"),
        ({"url": "https://127.0.0.1:4321/mcp"}, "127.0.0.1"),
        ({"url": "http://127.0.0.2:4321/mcp"}, "127.0.0.1"),
        ({"host": "10.0.0.1", "url": "http://10.0.0.1:4321/mcp"}, "127.0.0.1"),
        ({"host": "example.com", "url": "http://example.com:4321/mcp"}, "localhost"),
        ({}, "::1"),
    ],
)
def test_a_ready_line_naming_anything_but_plain_http_on_our_loopback_host_is_not_one(
    fields: dict[str, object], expected_host: str
) -> None:
    assert parse_ready_line(json.dumps({**READY, **fields}), expected_host) is None


def test_ipv6_and_localhost_ready_lines_are_accepted() -> None:
    ipv6 = {**READY, "host": "::1", "url": "http://[::1]:4321/mcp"}
    assert parse_ready_line(json.dumps(ipv6), "::1") is not None
    assert parse_ready_line(json.dumps(READY), "localhost") is not None  # localhost binds 127.0.0.1


@pytest.mark.anyio
async def test_a_probe_of_a_malformed_url_is_a_failed_probe_not_an_exception() -> None:
    async with httpx.AsyncClient(trust_env=False) as client:
        with anyio.fail_after(5):
            invalid = await probe_health(client, "http://[::1/healthz", 1)
            port_zero = await probe_health(client, "http://127.0.0.1:0/healthz", 1)
    assert not invalid.ok
    assert "InvalidURL" in invalid.detail
    assert not port_zero.ok


def test_the_base_url_comes_from_the_advertised_url_ipv6_included() -> None:
    assert ReadyLine("127.0.0.1", 4321, "http://127.0.0.1:4321/mcp", None).base_url == "http://127.0.0.1:4321"
    assert ReadyLine("::1", 5, "http://[::1]:5/mcp", None).base_url == "http://[::1]:5"


def test_return_codes_read_like_a_shell_would_say_them() -> None:
    assert format_returncode(3) == "exit code 3"
    assert format_returncode(-signal.SIGKILL) == "signal SIGKILL"
    assert format_returncode(None) == "no exit status"


def test_the_line_splitter_keeps_partial_lines_and_stays_bounded() -> None:
    splitter = _LineSplitter()
    assert splitter.feed(b"one\ntw") == ["one"]
    assert splitter.feed(b"o\n") == ["two"]
    flood = splitter.feed(b"x" * (MAX_PENDING_BYTES + 1))
    assert len(flood) == 1
    assert len(flood[0]) == MAX_LINE_CHARS
    assert splitter.flush() == []


def test_the_server_gets_the_fixed_flags_and_the_token_but_no_other_secret_handling(tmp_path: Path) -> None:
    config = RunnerConfig(server_command=("srv",), port=0)
    assert server_argv(config, tmp_path) == [
        "srv",
        *("--host", "127.0.0.1", "--port", "0", "--root", str(tmp_path)),
        *("--log-format", "json", "--exit-with-parent"),
    ]
    env = server_env("tok", {"PATH": "/bin"})
    assert env["JEEVES_MCP_PRUNER_TOKEN"] == "tok"
    assert env["PATH"] == "/bin"


@pytest.mark.anyio
async def test_a_missing_server_binary_is_a_spawn_error(tmp_path: Path) -> None:
    config = replace(RunnerConfig(), server_command=(str(tmp_path / "no-such-server"),))
    async with anyio.create_task_group() as tg:
        with pytest.raises(ServerSpawnError, match="no-such-server"):
            await spawn_server(config, tmp_path, "tok", tg)


@pytest.mark.anyio
async def test_the_server_runs_in_its_own_session_with_the_token(tmp_path: Path) -> None:
    async with (
        httpx.AsyncClient(trust_env=False) as client,
        anyio.create_task_group() as tg,
        started_server(tmp_path, tg, token="tok-123") as server,
    ):
        with anyio.fail_after(10):
            ready = await wait_until_healthy(server, client, timeout_s=5, probe_timeout_s=1)
            assert os.getpgid(server.pid) == server.pid != os.getpgid(0)
            authorized = await client.get(
                f"{ready.base_url}/stats", headers={"Authorization": "Bearer tok-123"}
            )
            anonymous = await client.get(f"{ready.base_url}/stats")
            result = await server.stop(grace_s=2)
        assert (authorized.status_code, anonymous.status_code) == (200, 401)
        assert result.graceful


@pytest.mark.anyio
async def test_remembered_descendants_are_only_those_still_alive(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    async with (
        httpx.AsyncClient(trust_env=False) as client,
        anyio.create_task_group() as tg,
        started_server(tmp_path, tg, "--grandchild-pid-file", str(pid_file)) as server,
    ):
        with anyio.fail_after(10):
            await wait_until_healthy(server, client, timeout_s=5, probe_timeout_s=1)
            grandchild = int(pid_file.read_text())
            server.remember_descendants()
            assert grandchild in server.remembered_descendants
            os.kill(grandchild, signal.SIGKILL)
            assert await wait_gone(grandchild)  # a zombie the double never reaps
            server.remember_descendants()
        assert grandchild not in server.remembered_descendants
