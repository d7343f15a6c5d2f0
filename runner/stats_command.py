"""`jeeves stats [URL]`: a running HTTP server's counters (`GET /stats`), pretty-printed.

The URL may be the server's base (`http://127.0.0.1:8765`) or its MCP URL (`…/mcp`, as the
ready line and `JEEVES_MCP_URL` give it); without one, `JEEVES_MCP_URL`, else the configured
port (`JEEVES_MCP_PRUNER_PORT` or `[mcp_pruner] port`). The token is read from
`JEEVES_MCP_TOKEN` (or `JEEVES_MCP_PRUNER_TOKEN`). A stdio server has no URL: its counters
go with it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Annotated

import typer

EXIT_FAILED = 1
EXIT_USAGE = 2
# A loopback GET of an in-memory snapshot; a server that takes longer is not answering.
STATS_TIMEOUT_S = 5.0
TOKEN_VARIABLES = ("JEEVES_MCP_TOKEN", "JEEVES_MCP_PRUNER_TOKEN")


def base_url(url: str) -> str:
    """`url` without a trailing `/mcp`, `/stats` or slash."""
    trimmed = url.rstrip("/")
    for suffix in ("/mcp", "/stats"):
        trimmed = trimmed.removesuffix(suffix)
    return trimmed


def flatten(value: object, prefix: str = "") -> list[tuple[str, object]]:
    """Nested mappings as dotted keys, in the server's order."""
    if isinstance(value, Mapping) and (value or not prefix):
        rows: list[tuple[str, object]] = []
        for key, inner in value.items():
            rows += flatten(inner, f"{prefix}.{key}" if prefix else str(key))
        return rows
    return [(prefix, "-" if value == {} else value)]


def _default_url() -> str | None:
    if os.environ.get("JEEVES_MCP_URL"):
        return os.environ["JEEVES_MCP_URL"]
    from runner.config import load_config

    config = load_config().config
    return f"http://{config.host}:{config.port}" if config.port else None


def stats_command(
    url: Annotated[
        str | None,
        typer.Argument(help="The server's URL (default: $JEEVES_MCP_URL, else the configured port)."),
    ] = None,
) -> None:
    """Print a running server's counters: tool calls, errors, pruning, bytes and tokens saved."""
    import httpx

    target = url or _default_url()
    if target is None:
        typer.echo(
            "jeeves stats: which server? give its URL (the ready line's `url`) or set JEEVES_MCP_URL",
            err=True,
        )
        raise typer.Exit(EXIT_USAGE)
    token = next((os.environ[v] for v in TOKEN_VARIABLES if os.environ.get(v)), None)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    endpoint = base_url(target) + "/stats"
    try:
        response = httpx.get(endpoint, headers=headers, timeout=STATS_TIMEOUT_S)
    except httpx.HTTPError as exc:
        typer.echo(f"jeeves stats: cannot reach {endpoint}: {exc}", err=True)
        raise typer.Exit(EXIT_FAILED) from None
    if response.status_code == 401:
        given = next((v for v in TOKEN_VARIABLES if os.environ.get(v)), None)
        if given is None:
            typer.echo(f"jeeves stats: {endpoint} wants a token: set JEEVES_MCP_TOKEN", err=True)
        else:
            typer.echo(f"jeeves stats: {endpoint} refused the token in {given}: not this server's", err=True)
        raise typer.Exit(EXIT_FAILED)
    try:
        response.raise_for_status()
        payload = response.json()
    except (httpx.HTTPStatusError, ValueError) as exc:
        typer.echo(f"jeeves stats: {endpoint}: {exc}", err=True)
        raise typer.Exit(EXIT_FAILED) from None
    rows = flatten(payload)
    width = max((len(key) for key, _ in rows), default=0)
    typer.echo(f"{endpoint}")
    for key, value in rows:
        shown = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else value
        typer.echo(f"  {key:<{width}}  {shown}")
