"""`jeeves mcp-config`: print the snippet `jeeves run` would pass to a provider, for manual use."""

from __future__ import annotations

import json
import shlex
from typing import Annotated

import typer

from runner.providers.base import TOKEN_ENV
from runner.providers.claude import mcp_config_json
from runner.providers.codex import codex_overrides, codex_toml


def mcp_config_command(
    provider: Annotated[str, typer.Option(help="claude or codex.")],
    url: Annotated[str, typer.Option(help="The server's MCP url, e.g. http://127.0.0.1:8765/mcp.")],
    token: Annotated[
        str | None,
        typer.Option(help=f"Embed this token (default: a reference to ${TOKEN_ENV}, never a secret)."),
    ] = None,
) -> None:
    """Print the MCP configuration snippet for claude (JSON) or codex (TOML and -c flags)."""
    if provider == "claude":
        typer.echo(json.dumps(mcp_config_json(url, token), indent=2))
    elif provider == "codex":
        typer.echo(f"# ~/.codex/config.toml (Codex reads the token from ${TOKEN_ENV})")
        typer.echo(codex_toml(url), nl=False)
        typer.echo(f"# or on the command line: codex {shlex.join(codex_overrides(url))}")
        if token is not None:  # Codex takes a bearer token from its environment only: say where it goes
            typer.echo(f"# and in the environment Codex starts from: export {TOKEN_ENV}={shlex.quote(token)}")
            typer.echo(
                f"jeeves mcp-config: Codex reads its token from ${TOKEN_ENV}, not from its config: "
                "export it where Codex runs (the snippet's last line)",
                err=True,
            )
    else:
        from runner.run import EXIT_USAGE  # the runner's stack only on this error path

        typer.echo(f"jeeves mcp-config: unknown provider {provider!r} (claude or codex)", err=True)
        raise typer.Exit(EXIT_USAGE)
