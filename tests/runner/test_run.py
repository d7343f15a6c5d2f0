"""`runner.run.run` against real processes: the test-double server and a scriptable provider.

Each test is a fault (or the healthy path) of issue 5, bounded with `anyio.fail_after`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest

import runner.run
from runner.providers.claude import ClaudeProvider
from runner.providers.codex import CodexProvider, codex_overrides, steering_overrides
from runner.providers.guidance import guidance_text
from tests.json_paths import at
from tests.runner.runner_support import (
    FAKE_AGENT,
    STATS_OF_DOUBLE,
    Harness,
    data_of,
    event_data,
    fake_server,
    provider_argv,
    server_pid,
    until,
    wait_gone,
)

pytestmark = pytest.mark.anyio

RUN_BOUND_S = 15
FAKE_AGENT_COMMAND = (sys.executable, str(FAKE_AGENT))


@pytest.fixture
def agent_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the fake agent (`FAKE_AGENT_COMMAND`) records the argv, config and token it got."""
    record = tmp_path / "agent.json"
    monkeypatch.setenv("FAKE_AGENT_RECORD", str(record))
    return record


async def test_a_healthy_run_advertises_the_server_and_returns_the_provider_exit_code(
    harness: Harness, tmp_path: Path
) -> None:
    record = tmp_path / "seen.json"
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv("--record", str(record), "--check-auth", "--exit", "4"),
            {"JEEVES_MCP_PRUNER_COMMAND": fake_server()},
        )
    assert outcome.exit_code == 4
    assert outcome.summary.states == (
        "run:init",
        "run:mcp_pruner_starting",
        "run:mcp_pruner_running",
        "run:shutdown",
    )
    assert log.names() == [
        "run.state_changed",
        "run.state_changed",
        "mcp_pruner.ready",
        "provider.started",
        "provider.exited",
        "run.state_changed",
        "mcp_pruner.stopped",
    ]
    moves = [data["to"] for data in (e.data for e in log.events if e.event == "run.state_changed")]
    assert tuple(moves) == outcome.summary.states[1:]
    seen = json.loads(record.read_text())
    assert seen["url"] == outcome.summary.pruner_url == data_of(log, "mcp_pruner.ready")["url"]
    assert seen["token"]
    assert seen["server_token"] is None
    assert outcome.summary.server_stats == STATS_OF_DOUBLE
    assert data_of(log, "mcp_pruner.stopped")["graceful"] is True
    assert await wait_gone(server_pid(log))


async def test_disabled_by_env_spawns_no_server_and_gives_the_provider_no_endpoint(
    harness: Harness, tmp_path: Path
) -> None:
    marker = tmp_path / "spawned"
    spawning = f"{sys.executable} -c \"open('{marker}', 'w')\""
    record = tmp_path / "seen.json"
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv("--record", str(record)),
            {"JEEVES_MCP_PRUNER_ENABLED": "off", "JEEVES_MCP_PRUNER_COMMAND": spawning},
        )
    assert outcome.exit_code == 0
    assert not marker.exists()
    assert data_of(log, "mcp_pruner.disabled") == {"reason": "config_disabled"}
    assert "mcp_pruner.not_running" in log.names()
    assert outcome.summary.states == ("run:init", "run:mcp_pruner_disabled", "run:shutdown")
    assert json.loads(record.read_text())["url"] is None


async def test_an_invalid_setting_logs_config_invalid_and_the_run_goes_on_without_the_pruner(
    harness: Harness,
) -> None:
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv("--exit", "3"),
            {"JEEVES_MCP_PRUNER_PORT": "eighty", "JEEVES_MCP_PRUNER_COMMAND": fake_server()},
        )
    assert outcome.exit_code == 3
    errors = data_of(log, "mcp_pruner.config_invalid")["errors"]
    assert isinstance(errors, list)
    assert errors[0]["field"] == "port"
    assert data_of(log, "mcp_pruner.disabled") == {"reason": "config_invalid"}
    assert "mcp_pruner.ready" not in log.names()


async def test_a_server_exiting_during_startup_is_reported_with_its_last_stderr_lines(
    harness: Harness,
) -> None:
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv("--exit", "0"),
            {"JEEVES_MCP_PRUNER_COMMAND": fake_server("--mode", "exit_on_start")},
        )
    failed = data_of(log, "mcp_pruner.start_failed")
    assert failed["reason"] == "exited_during_startup"
    assert "fake_server: cannot bind: address already in use" in at(failed, "stderr_tail", kind=list)
    assert failed["error"] == "the server exited during startup with exit code 3"
    # The dead child ended the wait (at the startup bound the reason would be start_timeout).
    assert isinstance(failed["startup_ms"], int)
    assert outcome.exit_code == 0
    assert outcome.summary.states == (
        "run:init",
        "run:mcp_pruner_starting",
        "run:mcp_pruner_disabled",
        "run:shutdown",
    )


async def test_a_server_that_never_becomes_healthy_is_killed_at_the_startup_bound(harness: Harness) -> None:
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv("--exit", "6"),
            {
                "JEEVES_MCP_PRUNER_COMMAND": fake_server("--mode", "never_healthy"),
                "JEEVES_MCP_PRUNER_STARTUP_TIMEOUT_MS": "800",
            },
        )
    assert data_of(log, "mcp_pruner.start_timeout")["timeout_ms"] == 800
    failed = data_of(log, "mcp_pruner.start_failed")
    assert failed["reason"] == "start_timeout"
    assert "HTTP 503" in str(failed["error"])
    assert at(failed, "startup_ms", kind=int) >= 800  # it waited its bound, not less
    pid = failed["pid"]
    assert isinstance(pid, int)
    assert await wait_gone(pid)
    assert outcome.exit_code == 6  # the run went on


async def test_a_hanging_healthz_is_cut_by_the_per_probe_timeout(harness: Harness) -> None:
    with anyio.fail_after(RUN_BOUND_S):
        _, log = await harness.run(
            provider_argv(),
            {
                "JEEVES_MCP_PRUNER_COMMAND": fake_server("--mode", "hang_healthz"),
                "JEEVES_MCP_PRUNER_STARTUP_TIMEOUT_MS": "1000",
                "JEEVES_MCP_PRUNER_PROBE_TIMEOUT_MS": "200",
            },
        )
    failed = data_of(log, "mcp_pruner.start_failed")
    assert failed["reason"] == "start_timeout"
    assert "no answer within 0.2 s" in str(failed["error"])  # the probe's bound cut it, not startup's


async def test_a_server_crash_mid_run_degrades_while_the_provider_keeps_running(harness: Harness) -> None:
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv("--crash-server", "--wait-log", "mcp_pruner.degraded", "--exit", "5"),
            {"JEEVES_MCP_PRUNER_COMMAND": fake_server("--crash-code", "7")},
        )
    assert outcome.exit_code == 5
    exited = data_of(log, "mcp_pruner.exited")
    assert exited["exit_code"] == 7
    assert "fake_server: crashing on request" in at(exited, "stderr_tail", kind=list)
    assert data_of(log, "mcp_pruner.degraded")["reason"] == "exited"
    assert data_of(log, "mcp_pruner.shutdown_after_degraded")["was_running"] is False
    assert outcome.summary.states == (
        "run:init",
        "run:mcp_pruner_starting",
        "run:mcp_pruner_running",
        "run:mcp_pruner_degraded",
        "run:shutdown",
    )
    assert log.names().index("mcp_pruner.degraded") < log.names().index("provider.exited")


async def test_n_consecutive_failed_probes_make_the_server_unreachable_and_degraded(harness: Harness) -> None:
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv("--freeze-server", "--wait-log", "mcp_pruner.degraded"),
            {
                "JEEVES_MCP_PRUNER_COMMAND": fake_server(),
                "JEEVES_MCP_PRUNER_FAILURE_THRESHOLD": "2",
                "JEEVES_MCP_PRUNER_PROBE_TIMEOUT_MS": "100",
            },
        )
    assert outcome.exit_code == 0
    unreachable = data_of(log, "mcp_pruner.unreachable")
    assert unreachable["consecutive_failures"] == 2
    assert data_of(log, "mcp_pruner.degraded")["reason"] == "unreachable"
    stopped = data_of(log, "mcp_pruner.shutdown_after_degraded")
    assert stopped["was_running"] is True
    assert await wait_gone(server_pid(log))


async def test_a_server_ignoring_sigterm_is_killed_after_the_grace(harness: Harness) -> None:
    with anyio.fail_after(RUN_BOUND_S):
        _, log = await harness.run(
            provider_argv(),
            {
                "JEEVES_MCP_PRUNER_COMMAND": fake_server("--ignore-sigterm"),
                "JEEVES_MCP_PRUNER_SHUTDOWN_TIMEOUT_MS": "300",
            },
        )
    assert data_of(log, "mcp_pruner.kill_escalated")["shutdown_timeout_ms"] == 300
    stopped = data_of(log, "mcp_pruner.stopped")
    assert stopped["graceful"] is False
    assert stopped["signal"] == "SIGKILL"
    assert at(stopped, "duration_ms", kind=int) >= 300  # the grace was given in full first
    assert await wait_gone(server_pid(log))


@pytest.mark.parametrize("own_session", [False, True], ids=["same-group", "own-session"])
async def test_the_servers_grandchild_is_killed_with_it(
    harness: Harness, tmp_path: Path, own_session: bool
) -> None:
    pid_file = tmp_path / "grandchild.pid"
    flags = ["--grandchild-pid-file", str(pid_file)] + (["--grandchild-new-session"] if own_session else [])
    with anyio.fail_after(RUN_BOUND_S):
        _, log = await harness.run(provider_argv(), {"JEEVES_MCP_PRUNER_COMMAND": fake_server(*flags)})
    grandchild = int(pid_file.read_text())
    assert await wait_gone(grandchild)
    assert "mcp_pruner.stopped" in log.names()


async def test_a_missing_provider_binary_is_a_clear_error_and_the_server_is_still_stopped(
    harness: Harness,
) -> None:
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            ["jeeves-test-no-such-binary", "--flag"], {"JEEVES_MCP_PRUNER_COMMAND": fake_server()}
        )
    assert outcome.exit_code == 127
    error = str(data_of(log, "provider.spawn_error")["error"])
    assert "jeeves-test-no-such-binary" in error
    assert "No such file" in error
    assert outcome.summary.errors == (error,)
    assert data_of(log, "mcp_pruner.stopped")["graceful"] is True
    assert await wait_gone(server_pid(log))


async def test_two_runs_at_once_each_get_their_own_port(harness: Harness, tmp_path: Path) -> None:
    records = [tmp_path / "a.json", tmp_path / "b.json"]
    outcomes: list[int] = []

    async def one(record: Path) -> None:
        outcome, _ = await harness.run(
            provider_argv("--record", str(record), "--check-auth"),
            {"JEEVES_MCP_PRUNER_COMMAND": fake_server()},
        )
        outcomes.append(outcome.exit_code)

    with anyio.fail_after(RUN_BOUND_S):
        async with anyio.create_task_group() as tg:
            for record in records:
                tg.start_soon(one, record)
    assert outcomes == [0, 0]  # each provider reached its own server with its own token
    seen = [json.loads(r.read_text()) for r in records]
    assert seen[0]["url"] != seen[1]["url"]
    assert seen[0]["token"] != seen[1]["token"]


async def test_claude_gets_a_private_working_config_removed_after_the_run(
    harness: Harness, agent_record: Path
) -> None:
    claude = ClaudeProvider(command=FAKE_AGENT_COMMAND)
    with anyio.fail_after(RUN_BOUND_S):
        outcome, _ = await harness.run(
            ["-p", "hi"], {"JEEVES_MCP_PRUNER_COMMAND": fake_server()}, provider=claude
        )
    seen = json.loads(await anyio.Path(agent_record).read_text())
    config_path = Path(seen["config_path"])
    assert seen["argv"] == [
        f"--mcp-config={config_path}",
        "--strict-mcp-config",
        "--allowedTools=mcp__jeeves_pruner",
        f"--append-system-prompt={guidance_text()}",
        "-p",
        "hi",
    ]
    assert (seen["config_mode"], seen["dir_mode"]) == (0o600, 0o700)
    assert seen["config"]["mcpServers"]["jeeves_pruner"]["url"] == outcome.summary.pruner_url
    assert seen["stats_status"] == 200  # the advertised header is the token the server expects
    assert seen["token_env"] is None
    assert not config_path.parent.exists()


async def test_codex_gets_the_overrides_and_the_token_in_its_environment(
    harness: Harness, agent_record: Path
) -> None:
    codex = CodexProvider(command=FAKE_AGENT_COMMAND)
    with anyio.fail_after(RUN_BOUND_S):
        outcome, _ = await harness.run(
            ["fix it"], {"JEEVES_MCP_PRUNER_COMMAND": fake_server()}, provider=codex
        )
    seen = json.loads(await anyio.Path(agent_record).read_text())
    assert outcome.summary.pruner_url is not None
    assert seen["argv"] == [
        "exec",
        *codex_overrides(outcome.summary.pruner_url, required=True),
        *steering_overrides(),
        "fix it",
    ]
    assert seen["token_env"]


async def test_a_disabled_pruner_leaves_claude_with_the_users_args_only(
    harness: Harness, agent_record: Path
) -> None:
    claude = ClaudeProvider(command=FAKE_AGENT_COMMAND)
    with anyio.fail_after(RUN_BOUND_S):
        await harness.run(["-p", "hi"], {"JEEVES_MCP_PRUNER_ENABLED": "false"}, provider=claude)
    assert json.loads(await anyio.Path(agent_record).read_text()) == {"argv": ["-p", "hi"], "token_env": None}


async def test_a_server_flooding_stderr_is_drained_and_still_becomes_ready(harness: Harness) -> None:
    one_megabyte = str(1 << 20)  # 16 pipe buffers' worth
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv(), {"JEEVES_MCP_PRUNER_COMMAND": fake_server("--stderr-bytes", one_megabyte)}
        )
    assert "mcp_pruner.ready" in log.names()
    assert outcome.summary.states[2] == "run:mcp_pruner_running"


async def test_a_server_without_stats_still_stops_cleanly_and_the_summary_says_so(harness: Harness) -> None:
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv(), {"JEEVES_MCP_PRUNER_COMMAND": fake_server("--no-stats")}
        )
    assert "mcp_pruner.stats_unavailable" in log.names()
    assert outcome.summary.server_stats is None
    assert data_of(log, "mcp_pruner.stopped")["graceful"] is True


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1/mcp",  # not a URL at all
        "http://{host}:99999/mcp",  # no such port
        "https://{host}:{port}/mcp",  # not the plain http we spoke
        "http://192.0.2.1:{port}/mcp",  # not loopback: the token would leave the machine
        "http://localhost:{port}/mcp",  # not the host it was told to bind
    ],
)
async def test_a_ready_line_with_a_bad_url_is_no_ready_line_and_is_never_advertised(
    harness: Harness, tmp_path: Path, url: str
) -> None:
    record = tmp_path / "seen.json"
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv("--record", str(record), "--exit", "6"),
            {
                "JEEVES_MCP_PRUNER_COMMAND": fake_server("--ready-url", url),
                "JEEVES_MCP_PRUNER_STARTUP_TIMEOUT_MS": "300",
            },
        )
    failed = data_of(log, "mcp_pruner.start_failed")
    assert failed["reason"] == "start_timeout"
    assert "no valid ready line" in str(failed["error"])
    assert outcome.exit_code == 6
    assert json.loads(record.read_text())["url"] is None


async def test_a_server_dying_while_a_startup_probe_hangs_is_noticed_at_once(harness: Harness) -> None:
    # Above the startup bound: a runner waiting for the hanging probe before looking at the
    # process would end at the startup bound instead, with reason start_timeout.
    probe_timeout_ms = 60_000
    with anyio.fail_after(RUN_BOUND_S):
        _, log = await harness.run(
            provider_argv(),
            {
                "JEEVES_MCP_PRUNER_COMMAND": fake_server(
                    "--mode", "hang_healthz", "--exit-after-ready-ms", "200"
                ),
                "JEEVES_MCP_PRUNER_PROBE_TIMEOUT_MS": str(probe_timeout_ms),
            },
        )
    failed = data_of(log, "mcp_pruner.start_failed")
    assert failed["reason"] == "exited_during_startup"
    assert failed["error"] == "the server exited during startup with exit code 4"


async def test_an_unexpected_error_during_startup_is_logged_as_itself_and_the_run_goes_on(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A mock: no real server can make the runner's own code fail; this stands for a bug in it.
    async def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(runner.run, "wait_until_healthy", broken)
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv("--exit", "3"), {"JEEVES_MCP_PRUNER_COMMAND": fake_server()}
        )
    failed = data_of(log, "mcp_pruner.start_failed")
    assert (failed["reason"], failed["error"]) == ("internal_error", "RuntimeError: boom")
    assert outcome.exit_code == 3
    assert outcome.summary.states == (
        "run:init",
        "run:mcp_pruner_starting",
        "run:mcp_pruner_disabled",
        "run:shutdown",
    )
    pid = failed["pid"]
    assert isinstance(pid, int)
    assert await wait_gone(pid)


async def test_a_cancelled_run_kills_its_provider_and_stops_the_server(
    harness: Harness, tmp_path: Path
) -> None:
    started = tmp_path / "provider-started"
    with anyio.fail_after(RUN_BOUND_S), anyio.CancelScope() as scope:
        async with anyio.create_task_group() as tg:

            async def cancel_once_started() -> None:
                await until(started.exists)
                scope.cancel()

            tg.start_soon(cancel_once_started)
            await harness.run(
                provider_argv("--touch", str(started), "--wait-forever"),
                {"JEEVES_MCP_PRUNER_COMMAND": fake_server()},
            )
    assert scope.cancelled_caught
    provider = event_data(harness.log_path, "provider.started")["pid"]
    assert isinstance(provider, int)
    assert await wait_gone(provider)
    assert event_data(harness.log_path, "mcp_pruner.stopped")["graceful"] is True


async def test_a_project_config_choosing_a_command_is_reported_and_ignored(
    harness: Harness, tmp_path: Path
) -> None:
    (tmp_path / "jeeves.toml").write_text('[mcp_pruner]\nclaude_command = "sh -c evil"\nroot_dir = "/"\n')
    with anyio.fail_after(RUN_BOUND_S):
        outcome, log = await harness.run(provider_argv(), {"JEEVES_MCP_PRUNER_COMMAND": fake_server()})
    ignored = data_of(log, "mcp_pruner.config_ignored")["ignored"]
    assert isinstance(ignored, list)
    assert [(e["field"], e["value"]) for e in ignored] == [
        ("root_dir", "/"),
        ("claude_command", "sh -c evil"),
    ]
    assert "mcp_pruner.ready" in log.names()  # not an invalid config: the pruner still runs
    assert outcome.exit_code == 0
