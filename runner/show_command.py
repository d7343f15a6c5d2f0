"""`jeeves show PRUNE_ID`: what a pruned call kept and what the model did not read.

The ledger says which call made the id, its question, and which line ranges were removed. The
text itself comes from the server's recovery store while that server lives (an HTTP server:
`--url`, or `$JEEVES_MCP_URL`, as `jeeves stats` finds it), else, for a file, from the file as
it reads now (said so: it may have changed since), else only the ranges are printed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from runner.stats_command import TOKEN_VARIABLES, base_url

if TYPE_CHECKING:  # imported when the command runs: `jeeves serve --stdio` must not pay for sqlite3
    from mcp_pruner_server.ledger import queries as q

EXIT_FAILED = 1
EXIT_USAGE = 2
# A loopback call of an in-memory store; a server slower than this is not answering.
RECOVER_TIMEOUT_S = 5.0


def _fail(message: str, code: int = EXIT_FAILED) -> typer.Exit:
    typer.echo(f"jeeves show: {message}", err=True)
    return typer.Exit(code)


def recover_live(url: str, prune_id: str, lines: int) -> str | None:
    """The original text from a running server's recovery store, or None (gone, unreachable)."""
    import httpx

    token = next((os.environ[v] for v in TOKEN_VARIABLES if os.environ.get(v)), None)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    arguments = {
        "prune_id": prune_id,
        "ranges": [{"start_line": 1, "end_line": max(lines, 1)}],
        "include_line_numbers": False,
    }
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "recover_text", "arguments": arguments},
    }
    try:
        response = httpx.post(base_url(url) + "/rpc", json=body, headers=headers, timeout=RECOVER_TIMEOUT_S)
        result = response.json().get("result", {})
    except (httpx.HTTPError, ValueError, AttributeError):
        return None
    raw = result.get("structuredContent", {}).get("raw_text") if isinstance(result, dict) else None
    return raw if isinstance(raw, str) else None


def render_lines(text_lines: Sequence[str], removed: Sequence[Sequence[int]]) -> list[str]:
    """Every line numbered, the removed ones marked `-` (the model did not read them)."""
    cut: set[int] = set()
    for start, end in removed:
        cut.update(range(start, end + 1))
    width = len(str(len(text_lines)))
    return [f"{'-' if n in cut else ' '} {n:>{width}}  {line}" for n, line in enumerate(text_lines, 1)]


def _describe(call: q.CallRow) -> list[str]:
    lines = [
        f"{call.prune_id if call.prune_id else ''} · call #{call.id} · {call.tool} · session {call.session}",
        f"  target:   {call.target or '-'}",
        f"  question: {call.question or '(not stored)'}",
        f"  tokens:   {call.raw_tokens:,} unpruned -> {call.sent_tokens:,} sent",
    ]
    return lines


def show_command(
    prune_id: Annotated[str, typer.Argument(help="A prune_id from a pruned result's marker or trailer.")],
    url: Annotated[
        str | None, typer.Option("--url", help="A running HTTP server to recover the text from.")
    ] = None,
    ledger: Annotated[Path | None, typer.Option("--ledger", help="The ledger file.")] = None,
) -> None:
    """Print what a pruned call kept and removed."""
    import sqlite3

    from mcp_pruner_server.ledger import queries as q
    from runner.ledger_access import ConfigError, ledger_config, open_ledger

    try:
        path = ledger or ledger_config().path
    except ConfigError as exc:
        raise _fail(str(exc), EXIT_USAGE) from None
    try:
        conn = open_ledger(path)
    except sqlite3.Error as exc:
        raise _fail(f"{path} is not a readable ledger: {exc}") from None
    if conn is None:
        raise _fail(f"no ledger at {path}")
    with contextlib.closing(conn):
        call = q.call_by_prune_id(conn, prune_id)
    if call is None:
        raise _fail(f"{prune_id} is not in the ledger (not a pruned call's id, or older than its retention)")
    for line in _describe(call):
        typer.echo(line)
    parts = [p for p in call.removed if p.get("prune_id") == prune_id] or call.removed[:1]
    if not parts:
        typer.echo("  nothing was removed: the whole output was sent")
        return
    part = parts[0]
    removed = [(int(a), int(b)) for a, b in part.get("removed", [])]  # type: ignore[attr-defined]
    total = int(str(part.get("original_lines", 0)))
    gone = sum(b - a + 1 for a, b in removed)
    typer.echo(f"  {part.get('field')}: {total - gone} of {total} lines kept, {gone} removed:")
    typer.echo("  removed lines " + ", ".join(f"{a}-{b}" for a, b in removed))
    server = url or os.environ.get("JEEVES_MCP_URL")
    text = recover_live(server, prune_id, total) if server else None
    source = "the server's recovery store"
    if text is None and call.target_kind == "file" and call.target and Path(call.target).is_file():
        text = Path(call.target).read_text(encoding="utf-8", errors="replace")
        source = f"{call.target} as it reads now (it may have changed since the call)"
    if text is None:
        typer.echo("  (the text is gone with its server; run with --url while it lives to see the lines)")
        return
    typer.echo(f"  text from {source}; lines marked - were not sent to the model:")
    for line in render_lines(text.splitlines(), removed):
        typer.echo(line)
