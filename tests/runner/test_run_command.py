"""`jeeves run` as a real process: signals, SIGKILL of the runner, `--json`, `--log-file`."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import anyio.abc
import pytest

from mcp_pruner_server.ledger.sink import session_id
from tests.runner.runner_support import (
    JEEVES,
    event_data,
    events,
    fake_server,
    provider_argv,
    until,
    wait_gone,
)

pytestmark = pytest.mark.anyio

STEP_BOUND_S = 10
FAST = {
    "JEEVES_MCP_PRUNER_PROBE_INTERVAL_MS": "50",
    "JEEVES_MCP_PRUNER_SHUTDOWN_TIMEOUT_MS": "2000",
}


async def wait_for_event(log_path: Path, name: str) -> dict[str, object]:
    await until(lambda: any(e["event"] == name for e in events(log_path)))
    return event_data(log_path, name)


@asynccontextmanager
async def jeeves_run(
    tmp_path: Path, provider: Sequence[str], *, server: str | None = None
) -> AsyncIterator[tuple[anyio.abc.Process, Path]]:
    log_path = tmp_path / "events.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    env.update(FAST, JEEVES_MCP_PRUNER_COMMAND=server or fake_server(), RUN_LOG=str(log_path))
    argv = [
        *JEEVES,
        "run",
        "-p",
        "command",
        "--cwd",
        str(tmp_path),
        "--log-file",
        str(log_path),
        "--",
        *provider,
    ]
    # Own session: at the end the test can kill whatever the runner left in its group.
    process = await anyio.open_process(
        argv, env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        yield process, log_path
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.aclose()


async def test_sigkilling_jeeves_run_takes_the_server_and_the_provider_down_within_2_s(
    tmp_path: Path,
) -> None:
    async with jeeves_run(tmp_path, provider_argv("--wait-forever")) as (process, log_path):
        with anyio.fail_after(STEP_BOUND_S):
            started = await wait_for_event(log_path, "provider.started")
        process.kill()
        server = event_data(log_path, "mcp_pruner.ready")["pid"]
        provider = started["pid"]
        assert isinstance(server, int)
        assert isinstance(provider, int)
        # The server sees its stdin close (`--exit-with-parent`) and exits by itself; the
        # provider gets its parent-death signal (SIGTERM).
        assert await wait_gone(server, timeout_s=2.0)
        assert await wait_gone(provider, timeout_s=2.0)


async def test_sigterm_stops_the_provider_then_the_server_and_exits_with_the_providers_code(
    tmp_path: Path,
) -> None:
    async with jeeves_run(tmp_path, provider_argv("--wait-forever")) as (process, log_path):
        with anyio.fail_after(STEP_BOUND_S):
            await wait_for_event(log_path, "provider.started")
            process.send_signal(signal.SIGTERM)
            returncode = await process.wait()
        assert returncode == 128 + signal.SIGTERM
        assert event_data(log_path, "run.signal_received") == {"signal": "SIGTERM"}
        assert event_data(log_path, "provider.exited")["signal"] == "SIGTERM"
        stopped = event_data(log_path, "mcp_pruner.stopped")
        assert stopped["graceful"] is True
        assert await wait_gone(int(str(stopped["pid"])))


async def test_ctrl_c_reaches_the_provider_once_and_the_run_ends_cleanly(tmp_path: Path) -> None:
    started = tmp_path / "provider-started"
    async with jeeves_run(tmp_path, provider_argv("--touch", str(started), "--wait-forever")) as (
        process,
        log_path,
    ):
        with anyio.fail_after(STEP_BOUND_S):
            # Past Python's startup: the provider now turns SIGINT into KeyboardInterrupt.
            await until(started.exists)
            os.killpg(process.pid, signal.SIGINT)  # what a terminal does on Ctrl-C
            returncode = await process.wait()
        assert returncode == 128 + signal.SIGINT
        assert "mcp_pruner.stopped" in [e["event"] for e in events(log_path)]


async def test_a_signal_during_startup_ends_the_run_and_kills_the_starting_server(tmp_path: Path) -> None:
    pid_file = tmp_path / "server.pid"
    never_healthy = fake_server("--mode", "never_healthy", "--pid-file", str(pid_file))
    async with jeeves_run(tmp_path, provider_argv(), server=never_healthy) as (process, log_path):
        with anyio.fail_after(STEP_BOUND_S):
            await until(pid_file.exists)  # the server is up, the runner is still probing it
            process.send_signal(signal.SIGTERM)
            returncode = await process.wait()
        assert returncode == 128 + signal.SIGTERM
        assert event_data(log_path, "mcp_pruner.start_failed")["reason"] == "cancelled"
        assert "provider.started" not in [e["event"] for e in events(log_path)]
        assert await wait_gone(int(pid_file.read_text()))


def test_json_summary_and_exit_code_of_a_run_without_the_pruner(tmp_path: Path) -> None:
    out = subprocess.run(
        [*JEEVES, "run", "--no-pruner", "-p", "command", "--json", "--", sys.executable, "-c", "exit(3)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=STEP_BOUND_S,
        check=False,
    )
    assert out.returncode == 3
    summary = json.loads(out.stdout.splitlines()[-1])
    assert summary["exit_code"] == 3
    assert summary["states"] == ["run:init", "run:mcp_pruner_disabled", "run:shutdown"]
    assert '"event": "mcp_pruner.disabled"' in out.stderr
    assert "states: run:init -> run:mcp_pruner_disabled -> run:shutdown" in out.stderr


def test_an_unknown_provider_is_a_usage_error(tmp_path: Path) -> None:
    out = subprocess.run(
        [*JEEVES, "run", "-p", "gemini", "--", "x"], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert out.returncode == 2
    assert "unknown provider 'gemini'" in out.stderr


def jeeves_run_now(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    return subprocess.run(
        [*JEEVES, "run", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**base, **(env or {})},
        timeout=STEP_BOUND_S,
        check=False,
    )


@pytest.mark.parametrize(
    "args",
    [("--provdr", "demo"), ("-p", "command", "echo", "hi"), ("-p", "command", "--json", "true")],
    ids=["misspelt option", "agent words before --", "flag followed by a value"],
)
def test_anything_but_options_before_the_double_dash_is_a_usage_error_before_anything_starts(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    out = jeeves_run_now(tmp_path, *args)

    assert out.returncode == 2, out.stderr
    assert "run [OPTIONS] [-- AGENT_ARGS...]" in out.stderr
    assert "mcp_pruner" not in out.stderr  # no server was started
    if "--provdr" not in args:
        assert "the agent's arguments go after --" in out.stderr


def test_the_command_provider_without_a_command_is_a_usage_error_before_anything_starts(
    tmp_path: Path,
) -> None:
    out = jeeves_run_now(tmp_path, "-p", "command")

    assert out.returncode == 2
    assert out.stderr.strip() == (
        "jeeves run: the command provider needs a command: jeeves run -p command -- CMD [ARGS...]"
    )


def test_options_after_the_double_dash_reach_the_agent_untouched(tmp_path: Path) -> None:
    script = "import sys; print(sys.argv[1:])"
    out = jeeves_run_now(
        tmp_path, "--no-pruner", "-p", "command", "--", sys.executable, "-c", script, "--json", "-p"
    )

    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "['--json', '-p']"


def test_a_missing_agent_is_found_before_the_server_starts_and_exits_127_with_a_hint(tmp_path: Path) -> None:
    out = jeeves_run_now(tmp_path, "-p", "codex", "--", "exec", "hi", env={"PATH": str(tmp_path)})

    assert out.returncode == 127
    assert out.stderr.strip() == (
        "jeeves run: cannot find 'codex' on PATH: install Codex (npm install -g @openai/codex) "
        "or set JEEVES_CODEX_COMMAND"
    )


def test_a_config_mistake_that_disables_the_pruner_is_one_plain_line_at_start(tmp_path: Path) -> None:
    out = jeeves_run_now(
        tmp_path, "-p", "command", "--", sys.executable, "-c", "pass", env={"JEEVES_MCP_PRUNER_PORT": "abc"}
    )

    assert out.returncode == 0
    plain = [line for line in out.stderr.splitlines() if not line.startswith(("{", " "))]
    assert plain[0] == "jeeves: pruner disabled: JEEVES_MCP_PRUNER_PORT=abc: expected an integer"
    assert '"event": "mcp_pruner.config_invalid"' in out.stderr


def test_after_jeeves_install_codex_a_run_lets_codex_spawn_the_installed_server(tmp_path: Path) -> None:
    # Codex merges `-c mcp_servers.jeeves_pruner.url=…` into an installed stdio table and then
    # refuses its whole config, so the run passes none of its own.
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex" / "config.toml").write_text(
        '[mcp_servers.jeeves_pruner]\ncommand = "/opt/jeeves-mcp-pruner"\nargs = ["--stdio"]\n',
        encoding="utf-8",
    )
    fake_codex = tmp_path / "codex.py"
    fake_codex.write_text("import json, sys\nprint(json.dumps(sys.argv[1:]))\n", encoding="utf-8")
    env = {"HOME": str(tmp_path), "JEEVES_CODEX_COMMAND": f"{sys.executable} {fake_codex}"}

    out = jeeves_run_now(tmp_path, "-p", "codex", "--", "hello", env=env)

    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[0]) == ["exec", "hello"]
    installed = tmp_path / ".codex" / "config.toml"
    assert out.stderr.splitlines()[0] == (
        f"jeeves run: Codex spawns the jeeves_pruner server installed in {installed} "
        "(jeeves install codex); this run starts none of its own"
    )


def test_a_busy_port_is_one_plain_line_naming_the_bind_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]

        done = jeeves_run_now(
            tmp_path, "-p", "command", "--port", str(port), "--log-file", "events.jsonl", "--", "true"
        )

    assert done.returncode == 0, done.stderr
    assert (
        f"jeeves run: pruner not started: cannot listen on 127.0.0.1:{port}: Address already in use; "
        "the agent runs without it"
    ) in done.stderr.splitlines()


def test_a_misspelt_setting_in_jeeves_toml_is_said_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "jeeves.toml").write_text("[mcp_pruner]\nstartup_timeout = 5000\n", encoding="utf-8")

    done = jeeves_run_now(tmp_path, "-p", "command", "--no-pruner", "--", "true")

    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == (
        f"jeeves run: {tmp_path / 'jeeves.toml'}: unknown key startup_timeout in [mcp_pruner] "
        "(did you mean startup_timeout_ms?): ignored"
    )


def test_a_runs_id_has_the_form_of_the_session_id_a_server_gives_itself(tmp_path: Path) -> None:
    # the run's id is its server's ledger session (`jeeves gain --session ID`): one form for both
    marker = tmp_path / "run-id"

    done = jeeves_run_now(
        tmp_path, "-p", "command", "--no-pruner", "--", "sh", "-c", f"echo $JEEVES_RUN_ID > {marker}"
    )

    assert done.returncode == 0, done.stderr
    run_id = marker.read_text(encoding="utf-8").strip()
    served = session_id({})  # what `jeeves serve` writes its calls under
    assert re.fullmatch(r"ses_[0-9a-f]{12}", served)
    assert re.fullmatch(r"ses_[0-9a-f]{12}", run_id), run_id
