from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import anyio
import httpx
import psutil
import pytest

from mcp_pruner_server.ledger.channel import WRITER_MODULE, is_writer_command
from runner.config import RunnerConfig
from runner.errors import ServerSpawnError
from runner.exit_status import format_returncode
from runner.readiness import wait_until_healthy
from runner.server_process import is_ledger_writer, server_argv, server_env, spawn_server
from tests.runner.runner_support import started_server, wait_gone


def test_return_codes_read_like_a_shell_would_say_them() -> None:
    assert format_returncode(3) == "exit code 3"
    assert format_returncode(-signal.SIGKILL) == "signal SIGKILL"
    assert format_returncode(None) == "no exit status"


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


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl rewrites its own command line")
def test_only_the_servers_own_interpreter_is_taken_for_its_ledger_writer_not_a_look_alike() -> None:
    # This test process plays the server: both children are its direct children, both show the
    # writer's command line; only one runs the server's interpreter.
    server = psutil.Process()
    writer_argv = [sys.executable, "-m", WRITER_MODULE]
    # the real module, its stdin a pipe this test holds: it waits for records until EOF
    writer = subprocess.Popen(writer_argv, stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
    look_alike = subprocess.Popen(
        ["perl", "-e", f'$0 = "{" ".join(writer_argv)}"; print "ready\\n"; $| = 1; sleep 60'],
        stdout=subprocess.PIPE,
    )
    try:
        assert look_alike.stdout is not None
        assert look_alike.stdout.readline() == b"ready\n"  # its command line is rewritten by now
        assert is_writer_command(psutil.Process(look_alike.pid).cmdline())  # the shape alone: fooled

        assert is_ledger_writer(psutil.Process(writer.pid), server)
        assert not is_ledger_writer(psutil.Process(look_alike.pid), server)
    finally:
        look_alike.kill()
        look_alike.wait()
        assert writer.stdin is not None
        writer.stdin.close()  # EOF: the writer exits by itself
        writer.wait(timeout=60)
        look_alike.stdout.close()  # type: ignore[union-attr]
