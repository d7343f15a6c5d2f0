"""`jeeves run`: the typer shell around `runner.run.run`.

Only what follows `--` goes to the agent: before it, an unknown option or a stray word is a
usage error (exit 2) raised before anything starts, not an argument handed to `claude`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TextIO

import typer
from typer import _click as click  # typer vendors click: overrides must take its Context
from typer._click.exceptions import UsageError
from typer.core import TyperCommand

from runner.providers import PROVIDER_NAMES

if TYPE_CHECKING:
    from runner.events import EventLog
    from runner.watchdog import Watchdog

AGENT_ARGS_KEY = "agent_args"
# No temporary directory for the demo: nothing started yet, a plain failure.
EXIT_FAILED_SETUP = 1


class AgentArgsCommand(TyperCommand):
    """A command whose arguments after `--` are kept apart, untouched, in `ctx.meta`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            split = args.index("--")
            args, ctx.meta[AGENT_ARGS_KEY] = args[:split], args[split + 1 :]
        else:
            ctx.meta[AGENT_ARGS_KEY] = []
        try:
            return super().parse_args(ctx, args)
        except UsageError as exc:
            if "unexpected extra argument" in exc.message:
                exc.message += " — the agent's arguments go after --, e.g. jeeves run -p claude -- -p 'why?'"
            raise

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [*super().collect_usage_pieces(ctx), "[-- AGENT_ARGS...]"]


def run_command(
    ctx: typer.Context,
    provider: Annotated[
        str, typer.Option("--provider", "-p", help=f"One of: {', '.join(PROVIDER_NAMES)}.")
    ] = "claude",
    cwd: Annotated[
        Path | None, typer.Option(help="Working directory of the run (and the server's --root).")
    ] = None,
    log_file: Annotated[
        Path | None, typer.Option(help="Append the JSON event log here instead of stderr.")
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the run summary as JSON on stdout.")
    ] = False,
    json_file: Annotated[Path | None, typer.Option(help="Write the run summary JSON to this file.")] = None,
    pruner: Annotated[
        bool | None, typer.Option("--pruner/--no-pruner", help="Override JEEVES_MCP_PRUNER_ENABLED.")
    ] = None,
    host: Annotated[str | None, typer.Option(help="Loopback address for the server.")] = None,
    port: Annotated[int | None, typer.Option(help="Server port (0: any free port).")] = None,
    root_dir: Annotated[
        Path | None, typer.Option(help="Directory the server's tools are confined to.")
    ] = None,
    startup_timeout_ms: Annotated[int | None, typer.Option(help="Readiness bound (default 12000).")] = None,
    shutdown_timeout_ms: Annotated[int | None, typer.Option(help="SIGTERM grace before SIGKILL.")] = None,
) -> None:
    """Run an agent (claude, codex or any command) with the pruner server next to it.

    Everything after -- goes to the agent unchanged, e.g. `jeeves run -p claude -- -p "why?"`.
    """
    # Imported here so that other `jeeves` commands start without the runner's stack.
    import anyio

    from mcp_pruner_server.ledger.sink import session_id
    from mcp_pruner_server.settings import RUN_ID_ENV
    from runner.config import load_config
    from runner.errors import RunnerError
    from runner.events import EventLog
    from runner.prctl import become_child_subreaper
    from runner.preflight import agent_argv0, installed_codex_server, missing_agent, pruner_disabled_line
    from runner.providers import get_provider
    from runner.run import EXIT_USAGE, RunRequest, run
    from runner.summary import render_text

    args: list[str] = ctx.meta.get(AGENT_ARGS_KEY, [])
    workdir = (cwd or Path.cwd()).resolve()
    if not workdir.is_dir():
        typer.echo(f"jeeves run: --cwd {workdir} is not a directory", err=True)
        raise typer.Exit(EXIT_USAGE)
    demo_dir = _demo_workdir() if provider == "demo" and cwd is None and root_dir is None else None
    if demo_dir is not None:
        workdir = demo_dir
    cli = {
        "enabled": None if pruner is None else str(pruner).lower(),
        "host": host,
        "port": None if port is None else str(port),
        "root_dir": None if root_dir is None else str(root_dir),
        "startup_timeout_ms": None if startup_timeout_ms is None else str(startup_timeout_ms),
        "shutdown_timeout_ms": None if shutdown_timeout_ms is None else str(shutdown_timeout_ms),
    }
    installed = installed_codex_server(os.environ, Path.home()) if provider == "codex" else None
    if installed is not None and pruner is not False:
        # Codex would refuse its config with our -c url overrides on top of the installed stdio entry.
        typer.echo(
            f"jeeves run: Codex spawns the jeeves_pruner server installed in {installed} "
            "(jeeves install codex); this run starts none of its own",
            err=True,
        )
        cli["enabled"] = "false"
    config = load_config(cli=cli, cwd=workdir)
    for unknown in config.unknown:  # a misspelt setting would leave its default in silence
        typer.echo(f"jeeves run: {unknown}", err=True)
    try:
        chosen = get_provider(provider, config.config)
    except RunnerError as exc:
        typer.echo(f"jeeves run: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    if provider == "command" and not args:  # nothing to run: say so before starting a server
        typer.echo(
            "jeeves run: the command provider needs a command: jeeves run -p command -- CMD [ARGS...]",
            err=True,
        )
        raise typer.Exit(EXIT_USAGE)
    argv0 = agent_argv0(provider, config, args)
    problem = missing_agent(provider, argv0) if argv0 is not None else None
    if problem is not None:  # before the server starts: nothing to stop, no summary
        code, message = problem
        typer.echo(f"jeeves run: {message}", err=True)
        raise typer.Exit(code)
    disabled = pruner_disabled_line(config)
    if disabled is not None:
        typer.echo(disabled, err=True)
    with contextlib.ExitStack() as stack:
        if demo_dir is not None:
            stack.callback(shutil.rmtree, demo_dir, ignore_errors=True)
        stream: TextIO = sys.stderr
        if log_file is not None:
            try:
                stream = log_file.open("a", encoding="utf-8", buffering=1)
                stack.callback(_close_quietly, stream)
            except OSError as exc:
                typer.echo(f"jeeves run: cannot open --log-file {log_file}: {exc.strerror or exc}", err=True)
                raise typer.Exit(EXIT_USAGE) from None
        log = EventLog(stream)
        # Orphans of our children (a `bash` tool child of a crashed server) re-parent to us,
        # so the run can kill them at the end instead of leaving them to init.
        adopt = become_child_subreaper()
        watchdog = _start_watchdog(log) if adopt else None
        # the run's id is also the ledger session its server writes under (`jeeves gain --session`)
        run_id = os.environ[RUN_ID_ENV] = session_id(os.environ)  # the watchdog's, else a new one
        request = RunRequest(
            chosen,
            tuple(args),
            workdir,
            config,
            handle_signals=True,
            adopt_orphans=adopt,
            watchdog=watchdog,
        )
        outcome = anyio.run(run, request, log)
        if watchdog is not None:
            watchdog.disarm()  # the run cleaned up after itself (on an exception it did not)
    # The agent's exit code is the run's: an output nobody can read any more does not change it.
    _write_quietly(sys.stderr, render_text(outcome.summary))
    ledger_line = session_ledger_line(run_id, workdir)
    if ledger_line is not None:
        _write_quietly(sys.stderr, f"  {ledger_line}\n")
    if json_file is not None:
        try:
            json_file.write_text(outcome.summary.to_json() + "\n", encoding="utf-8")
        except OSError as exc:
            _write_quietly(
                sys.stderr, f"jeeves run: cannot write --json-file {json_file}: {exc.strerror or exc}\n"
            )
    if json_out:
        _write_quietly(sys.stdout, outcome.summary.to_json() + "\n")
    raise typer.Exit(outcome.exit_code)


def _demo_workdir() -> Path:
    """A private directory the demo runs in, so the user's working directory is never written to
    (a read-only one works) and the demo's paths are the same in every run."""
    try:
        return Path(tempfile.mkdtemp(prefix="jeeves-demo-")).resolve()
    except OSError as exc:
        typer.echo(f"jeeves run: cannot create the demo's directory: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_FAILED_SETUP) from None


def _start_watchdog(log: EventLog) -> Watchdog | None:
    """The process that cleans up if we are SIGKILLed (`runner.watchdog`); None if it cannot start."""
    from runner import events as ev
    from runner.watchdog import start_watchdog

    try:
        return start_watchdog()
    except OSError as exc:
        log.emit(ev.WATCHDOG_UNAVAILABLE, "warning", error=exc.strerror or str(exc))
        return None


def session_ledger_line(session: str, workdir: Path) -> str | None:
    """The run's line from the ledger (`jeeves gain --session`'s last line), or None when the
    ledger is off, unreadable or has no call of this run."""
    import sqlite3

    from mcp_pruner_server.ledger import queries as q
    from runner.gain_report import session_line
    from runner.ledger_access import ConfigError, ledger_config, open_ledger

    try:
        config = ledger_config(cwd=workdir)
        conn = open_ledger(config.path) if config.enabled else None
        if conn is None:
            return None
        with contextlib.closing(conn):
            totals = q.totals(conn, q.Scope(session=session))
    except (ConfigError, sqlite3.Error, OSError):
        return None
    return session_line(totals, session) if totals.calls else None


def _close_quietly(stream: TextIO) -> None:
    """Close the log file; a write that failed was counted by the log, not worth an exit code."""
    with contextlib.suppress(OSError):
        stream.close()


def _write_quietly(stream: TextIO, text: str) -> None:
    """Write and flush; on failure point the stream at /dev/null (the exit flush must not fail)."""
    from runner.events import silence_stream

    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError):
        silence_stream(stream)
