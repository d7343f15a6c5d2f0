"""`jeeves serve`: the server of `jeeves-mcp-pruner`, with the settings `jeeves run` reads.

`--host`, `--port` and `--root` not given on the command line come from where `jeeves run`
takes them (`runner.config`: `JEEVES_MCP_PRUNER_HOST`/`_PORT`/`_ROOT_DIR`, then
`[mcp_pruner]` in `jeeves.toml` or `~/.config/jeeves/config.toml`), so one setting means the
same thing to both commands. `jeeves-mcp-pruner` itself takes flags only: the runner passes
every one of them explicitly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mcp_pruner_server.__main__ import serve_main

EXIT_USAGE = 2


def serve_command(
    stdio: Annotated[
        bool,
        typer.Option(
            "--stdio", help="Speak MCP on stdin/stdout (how agents spawn a server); exits on stdin EOF."
        ),
    ] = False,
    result_view: Annotated[
        str,
        typer.Option(
            "--result-view",
            help="With --stdio: `text` answers with the model's plain text only, no structuredContent "
            "(what `jeeves install` registers).",
        ),
    ] = "full",
    host: Annotated[
        str | None, typer.Option(help="Listen address (loopback unless --allow-remote). [default: 127.0.0.1]")
    ] = None,
    port: Annotated[
        int | None, typer.Option(help="TCP port; 0 picks a free one (see the ready line). [default: 0]")
    ] = None,
    root: Annotated[
        Path | None,
        typer.Option(help="Workspace root: every path resolves inside it. [default: the working directory]"),
    ] = None,
    log_format: Annotated[str, typer.Option(help="stderr event format: json or text.")] = "json",
    exit_with_parent: Annotated[
        bool,
        typer.Option(
            "--exit-with-parent/--no-exit-with-parent",
            help="Exit when stdin (a pipe) reaches EOF or the parent process dies.",
        ),
    ] = True,
    allow_remote: Annotated[
        bool, typer.Option("--allow-remote", help="Allow a non-loopback --host (set a token too).")
    ] = False,
) -> None:
    """Run the MCP pruner server: HTTP (one ready line on stdout) or --stdio; events on stderr."""
    from runner.config import load_config

    if result_view not in ("full", "text"):
        typer.echo(f"jeeves serve: --result-view must be full or text, not {result_view!r}", err=True)
        raise typer.Exit(EXIT_USAGE)

    # A non-loopback --host with --allow-remote is the server's to check (the runner's settings
    # take loopback hosts only): it goes to the server as given.
    remote_host = host if host is not None and allow_remote else None
    cli = {
        "host": None if remote_host is not None else host,
        "port": None if port is None else str(port),
        "root_dir": None if root is None else str(root),
    }
    result = load_config(cli=cli)
    for unknown in result.unknown:
        typer.echo(f"jeeves serve: {unknown}", err=True)
    # Over stdio there is no socket: a bad host or port in the config file is none of its business.
    wanted = {"root_dir"} if stdio else {"host", "port", "root_dir"}
    for error in result.errors:
        if error.field in wanted:
            typer.echo(
                f"jeeves serve: {error.field}={error.value!r} ({error.source}): {error.message}", err=True
            )
            raise typer.Exit(EXIT_USAGE)
    for error in result.errors:
        if error.source == "pruning":  # the server starts, but its tools answer unpruned
            typer.echo(
                f"jeeves serve: pruning disabled, tools answer unpruned: {error.field}={error.value}: "
                f"{error.message}",
                err=True,
            )
    config = result.config
    code = serve_main(
        host=remote_host or config.host,
        port=config.port,
        root=str(config.root_dir or Path.cwd()),
        log_format=log_format,
        exit_with_parent=exit_with_parent,
        allow_remote=allow_remote,
        stdio=stdio,
        text_view=result_view == "text",
    )
    raise typer.Exit(code)
