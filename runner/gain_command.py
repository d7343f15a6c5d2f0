"""`jeeves gain`: what the pruner saved, from the local ledger of every tool call.

Totals for today, 7 days and all time; per project, agent and tool; the files and commands that
saved the most; a daily chart; `--json`; `--html FILE` (one self-contained page);
`--session ID` (one session's calls; `last` for the latest).
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # imported when the command runs: `jeeves serve --stdio` must not pay for sqlite3
    import sqlite3

EXIT_FAILED = 1
EXIT_USAGE = 2


def _fail(message: str, code: int = EXIT_FAILED) -> typer.Exit:
    typer.echo(f"jeeves gain: {message}", err=True)
    return typer.Exit(code)


def _session_output(conn: sqlite3.Connection, session: str, as_json: bool) -> None:
    from mcp_pruner_server.ledger import queries as q
    from runner.gain_report import render_session

    if session == "last":
        session = q.last_session(conn) or session
    calls = q.session_calls(conn, session)
    if not calls:
        raise _fail(f"no calls recorded for session {session!r}")
    totals = q.totals(conn, q.Scope(session=session))
    if as_json:
        document = {"session": session, "totals": totals.to_dict(), "calls": [c.to_dict() for c in calls]}
        typer.echo(json.dumps(document, indent=2))
    else:
        typer.echo(render_session(calls, totals, session), nl=False)


def gain_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    html_file: Annotated[
        Path | None, typer.Option("--html", help="Write a one-page HTML report with charts to FILE.")
    ] = None,
    session: Annotated[
        str | None, typer.Option("--session", help="List one session's calls (`last`: the latest session).")
    ] = None,
    ledger: Annotated[
        Path | None, typer.Option("--ledger", help="The ledger file (default: the configured one).")
    ] = None,
    price: Annotated[
        float | None,
        typer.Option("--price", min=0, help="USD per million input tokens for the cost estimate."),
    ] = None,
) -> None:
    """Show the tokens and cost saved, from the ledger of every tool call."""
    import sqlite3

    from runner.ledger_access import ConfigError, ledger_config, open_ledger

    try:
        config = ledger_config()
    except ConfigError as exc:
        raise _fail(str(exc), EXIT_USAGE) from None
    path = ledger or config.path
    try:
        conn = open_ledger(path)
    except sqlite3.Error as exc:
        raise _fail(f"{path} is not a readable ledger: {exc}") from None
    if conn is None:
        if not config.enabled:
            raise _fail("the ledger is off (JEEVES_LEDGER / [ledger] enabled)")
        typer.echo(f"jeeves gain: no calls recorded yet ({path} does not exist)")
        return
    with contextlib.closing(conn):
        if session is not None:
            _session_output(conn, session, as_json)
            return
        from runner.gain_report import build_report, render_text

        now = time.time()
        report = build_report(conn, path, config.price_per_mtok if price is None else price, now)
    if html_file is not None:
        from runner.gain_html import render_html

        html_file.write_text(render_html(report, now), encoding="utf-8")
        typer.echo(f"jeeves gain: wrote {html_file}", err=True)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
    elif html_file is None:
        typer.echo(render_text(report, now), nl=False)
