"""One `jeeves run`: decide, start, prove, advertise, watch and stop the pruner around a provider.

The `run:*` state machine (`runner.states`) is moved only here; the machine logs each move
(`run.state_changed`) and the call site logs the lifecycle's event
(docs/state-machines.md#event-log). The pruner is never fatal: any failure leaves the provider
running without it. Whatever happens — provider exit, provider missing, a signal, a bug — the
provider is killed if still running and the server stopped, in shielded `finally` blocks,
before `run` returns. With `adopt_orphans` (a runner that is a child subreaper: `jeeves run`),
whatever the run left under it (a `bash` tool child orphaned by a server crash) is killed last.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import anyio
import anyio.abc
import httpx

from runner import events as ev
from runner.config import ConfigResult
from runner.errors import ProviderSpawnError, ServerStartError
from runner.events import EventLog
from runner.exit_status import describe_returncode
from runner.monitor import Degradation, watch_server
from runner.orphans import kill_orphans
from runner.provider_process import ProviderProcess, spawn_provider
from runner.providers.base import McpEndpoint, Provider
from runner.readiness import fetch_stats, wait_until_healthy
from runner.server_process import ServerProcess, spawn_server
from runner.states import RunState, RunStateMachine
from runner.summary import RunSummary
from runner.watchdog import Watchdog
from tools_exec.supervise import shell_exit_code

# After forwarding SIGTERM to the provider, how long it gets to exit before SIGKILL.
PROVIDER_STOP_GRACE_S = 10.0
# After SIGKILL the kernel reaps in milliseconds; this only guards against a stuck wait.
PROVIDER_REAP_TIMEOUT_S = 5.0
# `/stats` is a loopback read of a few counters; the summary must not delay shutdown.
STATS_TIMEOUT_S = 2.0
# The bearer token's entropy: 32 random bytes, as `secrets` recommends for tokens.
TOKEN_BYTES = 32
# Shell conventions for "command not found" / "found but not executable" / usage error.
EXIT_NOT_FOUND = 127
EXIT_NOT_EXECUTABLE = 126
EXIT_USAGE = 2
# `start_failed` reason when startup failed on something unexpected (a bug, not the server).
INTERNAL_ERROR = "internal_error"
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@dataclass(frozen=True)
class RunRequest:
    """Everything one run needs from the command line."""

    provider: Provider
    user_args: tuple[str, ...]
    cwd: Path
    config: ConfigResult
    handle_signals: bool = False
    # Only for a process that is a child subreaper and runs nothing else: see `runner.orphans`.
    adopt_orphans: bool = False
    # Cleans up if this process is SIGKILLed (`runner.watchdog`); told about scratch directories.
    watchdog: Watchdog | None = None


@dataclass(frozen=True)
class RunOutcome:
    """The run's exit code (the provider's) and its summary."""

    exit_code: int
    summary: RunSummary


@contextmanager
def _scratch_dir() -> Iterator[Path]:
    # mkdtemp creates it 0700; the claude config inside holds the run's token.
    with tempfile.TemporaryDirectory(prefix="jeeves-run-") as path:
        yield Path(path)


class _Run:
    def __init__(self, request: RunRequest, log: EventLog) -> None:
        self.request = request
        self.config = request.config.config
        self.log = log
        self.machine = RunStateMachine(log)
        self.token = secrets.token_urlsafe(TOKEN_BYTES)
        self.server: ServerProcess | None = None
        self.endpoint: McpEndpoint | None = None  # set once healthy; launches read it once
        self.degradation: Degradation | None = None
        self.stats: dict[str, object] | None = None
        self.provider_process: ProviderProcess | None = None
        self.stop_signal: int | None = None
        self.errors: list[str] = []
        self.main_scope = anyio.CancelScope()
        self.start_began = time.monotonic()

    # --- run:init -> disabled | starting -> running | disabled

    async def start(self, io_tg: anyio.abc.TaskGroup, client: httpx.AsyncClient) -> None:
        result = self.request.config
        if result.ignored:
            self.log.emit(ev.CONFIG_IGNORED, "warning", ignored=[e.to_dict() for e in result.ignored])
        if result.errors:
            self.log.emit(ev.CONFIG_INVALID, "warning", errors=[e.to_dict() for e in result.errors])
            self.machine.advance(RunState.MCP_PRUNER_DISABLED)
            self.log.emit(ev.DISABLED, reason="config_invalid")
            return
        if not self.config.enabled:
            self.machine.advance(RunState.MCP_PRUNER_DISABLED)
            self.log.emit(ev.DISABLED, reason="config_disabled")
            return
        self.machine.advance(RunState.MCP_PRUNER_STARTING)
        self.start_began = started = time.monotonic()
        root = self.config.root_dir or self.request.cwd
        try:
            self.server = await spawn_server(self.config, root, self.token, io_tg)
            ready = await wait_until_healthy(
                self.server,
                client,
                timeout_s=self.config.startup_timeout_ms / 1000,
                probe_timeout_s=self.config.probe_timeout_ms / 1000,
            )
        except ServerStartError as exc:
            await self._fail_start(exc.reason, str(exc), exc.stderr_tail, started)
            return
        except Exception as exc:  # a bug: the pruner is never fatal, the run goes on without it
            await self._fail_start(INTERNAL_ERROR, _describe(exc), (), started)
            return
        self.machine.advance(RunState.MCP_PRUNER_RUNNING)
        self.server.remember_descendants()
        self.endpoint = McpEndpoint(url=ready.url, token=self.token)
        self.log.emit(
            ev.READY,
            host=ready.host,
            port=ready.port,
            url=ready.url,
            pid=self.server.pid,
            startup_ms=round((time.monotonic() - started) * 1000),
        )

    async def _fail_start(
        self, reason: str, error: str, stderr_tail: tuple[str, ...], started: float
    ) -> None:
        startup_ms = round((time.monotonic() - started) * 1000)  # until the failure, not the kill
        pid = None
        stderr_tail = stderr_tail or (self.server.stderr_tail() if self.server is not None else ())
        if self.server is not None:
            pid = self.server.pid
            # A server that failed to start is killed outright, no grace
            # (docs/state-machines.md#run-transitions).
            await self.server.stop(grace_s=0)
            self.server = None
        if reason == "spawn_error":
            self.log.emit(ev.SPAWN_ERROR, "error", error=error)
        elif reason == "start_timeout":
            self.log.emit(ev.START_TIMEOUT, "error", timeout_ms=self.config.startup_timeout_ms, pid=pid)
        self.machine.advance(RunState.MCP_PRUNER_DISABLED)
        self.log.emit(
            ev.START_FAILED,
            "error",
            reason=reason,
            error=error,
            pid=pid,
            startup_ms=startup_ms,
            stderr_tail=list(stderr_tail),
        )
        # The event may go to a log file, and its reason hides in the server's own JSON line: one
        # plain line says it where the user looks (a busy --port, a bad root).
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(
                f"jeeves run: pruner not started: {_server_reason(error, stderr_tail)}; "
                "the agent runs without it\n"
            )
            sys.stderr.flush()

    # --- the provider, watched

    async def run_provider(self, client: httpx.AsyncClient) -> int:
        with _scratch_dir() as scratch:
            if self.request.watchdog is not None:
                self.request.watchdog.remove_on_death(scratch)
            try:
                launch = self.request.provider.launch(self.request.user_args, self.endpoint, scratch)
            except ProviderSpawnError as exc:
                return self._provider_failed(str(exc), EXIT_USAGE)
            try:
                process = spawn_provider(launch.argv, cwd=self.request.cwd, env=launch.environment())
            except OSError as exc:
                code = EXIT_NOT_FOUND if isinstance(exc, FileNotFoundError) else EXIT_NOT_EXECUTABLE
                reason = exc.strerror or str(exc)
                return self._provider_failed(f"cannot execute {launch.argv[0]!r}: {reason}", code)
            self.provider_process = process
            self.log.emit(
                ev.PROVIDER_STARTED,
                provider=self.request.provider.name,
                pid=process.pid,
                argv=list(launch.argv),
                mcp=self.endpoint is not None,
            )
            try:
                async with anyio.create_task_group() as tg:
                    if self.server is not None and self.endpoint is not None:
                        tg.start_soon(self._watch, self.server, client)
                    returncode = await process.wait()
                    tg.cancel_scope.cancel()
            finally:
                # Cancelled or failed while it runs: the provider must not outlive the run.
                with anyio.CancelScope(shield=True):
                    await _kill_and_reap(process)
        self.log.emit(ev.PROVIDER_EXITED, pid=process.pid, **describe_returncode(returncode))
        return shell_exit_code(returncode)

    def _provider_failed(self, message: str, code: int) -> int:
        self.errors.append(message)
        self.log.emit(ev.PROVIDER_SPAWN_ERROR, "error", provider=self.request.provider.name, error=message)
        return code

    async def _watch(self, server: ServerProcess, client: httpx.AsyncClient) -> None:
        assert server.ready_line is not None
        degradation = await watch_server(
            server,
            client,
            f"{server.ready_line.base_url}/healthz",
            interval_s=self.config.probe_interval_ms / 1000,
            probe_timeout_s=self.config.probe_timeout_ms / 1000,
            threshold=self.config.failure_threshold,
        )
        # The provider was launched once with the endpoint and nothing else is started, so
        # "stop advertising" (docs/state-machines.md#run-transitions) needs no action beyond
        # the state and the events.
        self.degradation = degradation
        self.machine.advance(RunState.MCP_PRUNER_DEGRADED)
        data = degradation.event_data()
        if degradation.kind == "exited":
            self.log.emit(
                ev.EXITED, "warning", pid=server.pid, stderr_tail=list(server.stderr_tail()), **data
            )
        else:
            self.log.emit(ev.UNREACHABLE, "warning", pid=server.pid, **data)
        self.log.emit(ev.DEGRADED, "warning", **data)

    # --- signals

    async def handle_signals(self) -> None:
        """Turn SIGINT/SIGTERM/SIGHUP into a clean stop of the provider, then of the server.

        SIGTERM and SIGHUP are forwarded to the provider (then SIGKILL after a grace).
        SIGINT is not: like a shell, we let the terminal's Ctrl-C, which reaches the
        provider directly (same foreground group), decide whether the provider ends.
        Before the provider starts, any of them ends the run at once.
        """
        async with anyio.create_task_group() as tg:
            with anyio.open_signal_receiver(*_STOP_SIGNALS) as received:
                async for signum in received:
                    self.log.emit(ev.SIGNAL_RECEIVED, "warning", signal=signal.Signals(signum).name)
                    if self.stop_signal is None:
                        self.stop_signal = signum
                    process = self.provider_process
                    if process is None:
                        self.main_scope.cancel()  # still starting: straight to shutdown
                    elif process.returncode is None and signum != signal.SIGINT:
                        with contextlib.suppress(ProcessLookupError):
                            process.send_signal(signum)
                        tg.start_soon(self._kill_after_grace, process)

    async def _kill_after_grace(self, process: ProviderProcess) -> None:
        with anyio.move_on_after(PROVIDER_STOP_GRACE_S):
            await process.wait()
            return
        with contextlib.suppress(ProcessLookupError):
            process.kill()

    # --- run:* -> shutdown

    async def shutdown(self, client: httpx.AsyncClient, failure: BaseException | None) -> None:
        state = self.machine.state
        if state is RunState.MCP_PRUNER_STARTING:  # interrupted while starting
            if failure is None or isinstance(failure, anyio.get_cancelled_exc_class()):
                reason, error = "cancelled", "the run was stopped during startup"
            else:  # KeyboardInterrupt, SystemExit, ...: say what it was
                reason, error = INTERNAL_ERROR, _describe(failure)
            await self._fail_start(reason, error, (), self.start_began)
            state = self.machine.state
        if state is RunState.MCP_PRUNER_RUNNING and self.server is not None:
            assert self.server.ready_line is not None
            self.stats = await fetch_stats(
                client, self.server.ready_line.base_url, self.token, STATS_TIMEOUT_S
            )
            if self.stats is None:
                self.log.emit(ev.STATS_UNAVAILABLE, "warning")
        self.machine.advance(RunState.SHUTDOWN)
        server, self.server = self.server, None
        if server is None:
            self.log.emit(ev.NOT_RUNNING, previous_state=str(state))
            return
        grace_s = self.config.shutdown_timeout_ms / 1000
        result = await server.stop(grace_s)
        if not result.graceful:
            self.log.emit(
                ev.KILL_ESCALATED,
                "warning",
                pid=server.pid,
                shutdown_timeout_ms=self.config.shutdown_timeout_ms,
            )
        data: dict[str, object] = {
            "pid": server.pid,
            "graceful": result.graceful,
            "duration_ms": result.duration_ms,
            **describe_returncode(result.returncode),
        }
        if result.killed_descendants:
            data["killed_descendants"] = result.killed_descendants
        if state is RunState.MCP_PRUNER_DEGRADED:
            self.log.emit(ev.SHUTDOWN_AFTER_DEGRADED, was_running=result.was_running, **data)
        else:
            self.log.emit(ev.STOPPED, **data)

    async def kill_orphans(self, server: ServerProcess | None) -> None:
        """Kill what the run left under this (subreaper) process: orphans of a crashed server,
        but not its ledger writer."""
        server_pid = server.pid if server is not None else None
        # The watchdog is our child too, and is disarmed only after the run returns.
        watchdog = self.request.watchdog
        watchdog_pid = watchdog.process.pid if watchdog is not None else None
        keep = {pid for pid in (server_pid, self._live_provider_pid(), watchdog_pid) if pid is not None}
        # The server's ledger writer may still be writing its rows (it ends with its pipe): spared.
        writers = server.ledger_writers if server is not None else frozenset()
        if writers:
            self.log.emit(ev.LEDGER_WRITER_SPARED, pids=sorted(writers))
        sweep = await kill_orphans(keep | writers)
        if sweep.killed:
            killed, names = list(sweep.killed), list(sweep.killed_names)
            self.log.emit(ev.ORPHANS_KILLED, "warning", pids=killed, names=names)
        if sweep.reaped:  # exited on their own: nothing was left running
            self.log.emit(ev.ORPHANS_REAPED, pids=list(sweep.reaped), names=list(sweep.reaped_names))

    def _live_provider_pid(self) -> int | None:
        process = self.provider_process
        return process.pid if process is not None and process.returncode is None else None


async def _kill_and_reap(process: ProviderProcess) -> None:
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    with anyio.move_on_after(PROVIDER_REAP_TIMEOUT_S):
        await process.wait()
    process.close()


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


async def run(request: RunRequest, log: EventLog) -> RunOutcome:
    """Run the provider next to the pruner; return its exit code and the run summary.

    Never raises for pruner problems (they are logged and the run goes on) nor for a
    missing provider (exit code 127, logged). Cancellation still stops the server.
    """
    began = time.monotonic()
    current = _Run(request, log)
    exit_code = EXIT_USAGE
    # trust_env=False: a proxy from the environment must never sit between us and loopback.
    async with httpx.AsyncClient(trust_env=False) as client, anyio.create_task_group() as io_tg:
        if request.handle_signals:
            io_tg.start_soon(current.handle_signals)
        failure: BaseException | None = None
        try:
            with current.main_scope:
                await current.start(io_tg, client)
                exit_code = await current.run_provider(client)
        except BaseException as exc:
            failure = exc
            raise
        finally:
            with anyio.CancelScope(shield=True):
                server = current.server  # `shutdown` forgets it
                try:
                    await current.shutdown(client, failure)
                finally:  # whatever shutdown raised, nothing the run started is left behind
                    if request.adopt_orphans:
                        await current.kill_orphans(server)
            io_tg.cancel_scope.cancel()
    if current.stop_signal is not None and current.provider_process is None:
        exit_code = shell_exit_code(-current.stop_signal)
    summary = RunSummary(
        provider=request.provider.name,
        exit_code=exit_code,
        states=tuple(str(s) for s in current.machine.visited),
        duration_ms=round((time.monotonic() - began) * 1000),
        pruner_url=current.endpoint.url if current.endpoint is not None else None,
        degraded=current.degradation.event_data() if current.degradation is not None else None,
        server_stats=current.stats,
        errors=tuple(current.errors),
    )
    return RunOutcome(exit_code=exit_code, summary=summary)


def _server_reason(error: str, stderr_tail: tuple[str, ...]) -> str:
    """The server's own `start_failed` message from its stderr (a JSON event), else `error`."""
    for line in reversed(stderr_tail):
        try:
            event = json.loads(line)
        except ValueError:
            continue
        data = event.get("data") if isinstance(event, dict) else None
        if isinstance(data, dict) and isinstance(data.get("message"), str):
            return str(data["message"])
    return error
