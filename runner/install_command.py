"""`jeeves install` / `jeeves uninstall`: the typer shell around `runner.install`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

EXIT_FAILED = 1
EXIT_USAGE = 2
_NEXT_STEP = {
    "claude": "Claude Code starts it with each session (`claude mcp list` shows it).",
    "codex": "Codex starts it with each session (`codex mcp list` shows it).",
}

AgentArg = Annotated[str, typer.Argument(help="claude or codex.", metavar="AGENT")]
ScopeOpt = Annotated[
    str,
    typer.Option(
        "--scope",
        help="user: for every project (~/.claude.json, $CODEX_HOME/config.toml); "
        "project: this directory's .mcp.json (Claude Code only).",
    ),
]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Print what would change; write nothing.")]


def _run(
    agent: str,
    scope: str,
    *,
    install: bool,
    guidance: bool,
    dry_run: bool,
    required: bool = False,
    allow_tools: bool = False,
) -> None:
    from runner.errors import InstallError
    from runner.install import AGENTS, SCOPES, Target, apply, codex_home, plan

    command = "install" if install else "uninstall"
    if agent not in AGENTS:
        typer.echo(f"jeeves {command}: unknown agent {agent!r} (claude or codex)", err=True)
        raise typer.Exit(EXIT_USAGE)
    if scope not in SCOPES:
        typer.echo(f"jeeves {command}: --scope must be user or project, not {scope!r}", err=True)
        raise typer.Exit(EXIT_USAGE)
    if required and agent != "codex":
        typer.echo(f"jeeves {command}: --required is a Codex setting (Claude Code has none)", err=True)
        raise typer.Exit(EXIT_USAGE)
    if agent == "codex" and scope == "project":
        typer.echo(
            f"jeeves {command}: Codex reads MCP servers from $CODEX_HOME/config.toml only: use --scope user",
            err=True,
        )
        raise typer.Exit(EXIT_USAGE)
    if allow_tools and agent != "claude":
        typer.echo(
            f"jeeves {command}: --allow-tools is a Claude Code setting (Codex's is in its table)", err=True
        )
        raise typer.Exit(EXIT_USAGE)
    home = Path.home()
    target = Target(agent, scope, home, Path.cwd(), codex_home(os.environ, home))
    try:
        changes = plan(target, install=install, guidance=guidance, required=required, allow_tools=allow_tools)
        if not dry_run:
            apply(changes, home)
    except InstallError as exc:
        typer.echo(f"jeeves {command}: {exc}", err=True)
        raise typer.Exit(EXIT_FAILED) from None
    for change in changes:
        typer.echo(("dry run, would have " if dry_run and change.changed else "") + change.describe())
    if install and not dry_run:
        typer.echo(_NEXT_STEP[agent])


def install_command(
    agent: AgentArg,
    scope: ScopeOpt = "user",
    guidance: Annotated[
        bool,
        typer.Option(
            "--guidance",
            help="Also add the pruner's usage guidance to CLAUDE.md / AGENTS.md (between markers).",
        ),
    ] = False,
    required: Annotated[
        bool,
        typer.Option(
            "--required",
            help="Codex: wait for the server before the first turn; a server that cannot start then "
            "stops Codex (no fail-open).",
        ),
    ] = False,
    allow_tools: Annotated[
        bool,
        typer.Option(
            "--allow-tools",
            help="Claude Code: also allow our tools in its settings.json (`claude -p` refuses a tool "
            "nobody allowed; `bash` included, as `jeeves run` allows them).",
        ),
    ] = False,
    dry_run: DryRunOpt = False,
) -> None:
    """Register the stdio server with Claude Code or Codex for good (idempotent)."""
    _run(
        agent,
        scope,
        install=True,
        guidance=guidance,
        dry_run=dry_run,
        required=required,
        allow_tools=allow_tools,
    )


def uninstall_command(agent: AgentArg, scope: ScopeOpt = "user", dry_run: DryRunOpt = False) -> None:
    """Remove what `jeeves install` wrote: the server entry and any guidance block."""
    _run(agent, scope, install=False, guidance=False, dry_run=dry_run)
