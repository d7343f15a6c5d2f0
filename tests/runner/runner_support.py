"""Helpers of the runner's tests: the test-double server, the scriptable provider, one run, the log."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import anyio
import anyio.abc
import psutil

from runner.config import ConfigResult, load_config
from runner.events import EventLog
from runner.providers.base import Provider
from runner.providers.command import CommandProvider
from runner.run import RunOutcome, RunRequest, run
from runner.server_process import ServerProcess, spawn_server

DOUBLES = Path(__file__).parent / "doubles"
FAKE_SERVER = DOUBLES / "fake_server.py"
FAKE_PROVIDER = DOUBLES / "provider.py"
FAKE_AGENT = DOUBLES / "fake_agent.py"
# Fast settings for tests: the default 2 s probes would make each test slow. The startup and
# shutdown bounds stay far above what the tests of a bound set, so a bound not applied shows as
# the wrong outcome (e.g. start_timeout instead of exited_during_startup).
FAST_ENV = {
    "JEEVES_MCP_PRUNER_PROBE_INTERVAL_MS": "50",
    "JEEVES_MCP_PRUNER_PROBE_TIMEOUT_MS": "300",
    "JEEVES_MCP_PRUNER_STARTUP_TIMEOUT_MS": "6000",
    "JEEVES_MCP_PRUNER_SHUTDOWN_TIMEOUT_MS": "6000",
}


def fake_server(*flags: str) -> str:
    """A `JEEVES_MCP_PRUNER_COMMAND` value running the double with `flags`."""
    return shlex.join([sys.executable, str(FAKE_SERVER), *flags])


def provider_argv(*flags: str) -> tuple[str, ...]:
    """argv of the scriptable provider."""
    return (sys.executable, str(FAKE_PROVIDER), *flags)


# What the double's /stats returns.
STATS_OF_DOUBLE = {
    "tool_calls": 3,
    "bytes_before": 9000,
    "bytes_after": 1200,
    "tokens_before": 2250,
    "tokens_after": 300,
}
# SIGKILL is delivered at once, but the process disappears only when reaped.
GONE_TIMEOUT_S = 2.0
POLL_S = 0.01


async def wait_gone(pid: int, timeout_s: float = GONE_TIMEOUT_S) -> bool:
    """Whether `pid` is gone, or only a zombie left for its parent to reap, within `timeout_s`.

    Polled: no event tells another process that a pid has gone.
    """
    with anyio.move_on_after(timeout_s):
        while True:
            try:
                if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                    return True
            except psutil.NoSuchProcess:
                return True
            await anyio.sleep(POLL_S)
    return False


@asynccontextmanager
async def started_server(
    tmp_path: Path, tg: anyio.abc.TaskGroup, *flags: str, token: str = "tok"
) -> AsyncIterator[ServerProcess]:
    """The test-double server spawned in `tg`, stopped (SIGKILL) however the test ends."""
    config = load_config(env={"JEEVES_MCP_PRUNER_COMMAND": fake_server(*flags)}, cwd=tmp_path, home=tmp_path)
    server = await spawn_server(config.config, tmp_path, token, tg)
    try:
        yield server
    finally:
        with anyio.CancelScope(shield=True):
            await server.stop(grace_s=0)


async def until(predicate: Callable[[], bool]) -> None:
    """Return once `predicate()` holds; for conditions only visible by looking (files, logs).

    The caller bounds it with `anyio.fail_after`.
    """
    while True:
        if predicate():
            return
        await anyio.sleep(POLL_S)


@dataclass
class Harness:
    """Runs `runner.run.run` in-process with a log file the provider can read."""

    tmp_path: Path

    @property
    def log_path(self) -> Path:
        return self.tmp_path / "events.jsonl"

    def config(self, env: Mapping[str, str]) -> ConfigResult:
        return load_config(env={**FAST_ENV, **env}, cwd=self.tmp_path, home=self.tmp_path)

    async def run(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        *,
        provider: Provider | None = None,
    ) -> tuple[RunOutcome, EventLog]:
        with self.log_path.open("a", encoding="utf-8", buffering=1) as stream:
            log = EventLog(stream)
            request = RunRequest(provider or CommandProvider(), tuple(argv), self.tmp_path, self.config(env))
            outcome = await run(request, log)
        return outcome, log


# `jeeves` run from this interpreter, without depending on the console script being on PATH.
JEEVES = (sys.executable, "-c", "from runner.cli import app; app()")


def data_of(log: EventLog, name: str) -> dict[str, object]:
    matches = [dict(e.data) for e in log.events if e.event == name]
    assert matches, f"{name} not in {log.names()}"
    return matches[-1]


def server_pid(log: EventLog) -> int:
    pid = data_of(log, "mcp_pruner.ready")["pid"]
    assert isinstance(pid, int)
    return pid


def events(log_path: Path) -> list[dict[str, object]]:
    if not log_path.exists():
        return []
    lines = log_path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def event_data(log_path: Path, name: str) -> dict[str, object]:
    found = [e.get("data", {}) for e in events(log_path) if e["event"] == name]
    assert found, f"{name} not logged"
    data = found[-1]
    assert isinstance(data, dict)
    return data
