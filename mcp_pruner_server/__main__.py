"""Entry point of `jeeves-mcp-pruner` (also `python -m mcp_pruner_server` and `jeeves serve`).

argparse, not typer: this is on the startup path the runner waits for, and every import
counts (spawn → `/healthz` ≤ 1 s, docs/http.md#ready-line).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from mcp_pruner_server.errors import ConfigError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="jeeves-mcp-pruner",
        description="Local MCP server whose read/bash/grep output is pruned to a focus question.",
    )
    from mcp_pruner_server import __version__

    p.add_argument("-V", "--version", action="version", version=__version__)
    p.add_argument("--host", default="127.0.0.1", help="listen address (loopback unless --allow-remote)")
    p.add_argument("--port", type=int, default=0, help="TCP port; 0 picks a free one (see the ready line)")
    p.add_argument("--root", default=".", help="workspace root: every path resolves inside it")
    p.add_argument("--log-format", choices=["json", "text"], default="json", help="stderr event format")
    p.add_argument(
        "--exit-with-parent",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="exit when stdin (a pipe) reaches EOF or the parent process dies",
    )
    p.add_argument(
        "--stdio",
        action="store_true",
        help="speak MCP on stdin/stdout instead of HTTP (how agents spawn a server); exits on stdin EOF",
    )
    p.add_argument(
        "--result-view",
        choices=["full", "text"],
        default="full",
        help="with --stdio: `text` answers with the model's plain text only, no structuredContent "
        "(what `jeeves install` registers: agents show a model structuredContent's JSON otherwise)",
    )
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a non-loopback --host (set JEEVES_MCP_TOKEN too)",
    )
    return p


def serve_main(
    *,
    host: str,
    port: int,
    root: str,
    log_format: str,
    exit_with_parent: bool,
    allow_remote: bool,
    stdio: bool = False,
    text_view: bool = False,
) -> int:
    """Validate the flags and run the server; returns the exit code (2 for bad flags)."""
    from mcp_pruner_server.settings import build_settings

    if stdio and allow_remote:
        _start_failed(
            log_format, "config_invalid", "--stdio listens on no port: --allow-remote makes no sense"
        )
        return 2

    try:
        settings = build_settings(
            root=root,
            host=host,
            port=port,
            log_format=log_format,
            exit_with_parent=exit_with_parent,
            allow_remote=allow_remote,
            env=os.environ,
        )
    except ConfigError as exc:
        _start_failed(log_format, "config_invalid", str(exc), variable=exc.variable, expected=exc.expected)
        return 2
    if stdio:
        from mcp_pruner_server.stdio import run_stdio

        return run_stdio(settings, text_view=text_view)
    from mcp_pruner_server.serve import run_server

    try:
        return run_server(settings)
    except OSError as exc:
        _start_failed(log_format, "bind_failed", f"cannot listen on {host}:{port}: {exc.strerror or exc}")
        return 1


def _start_failed(
    log_format: str, reason: str, message: str, *, variable: str | None = None, expected: str | None = None
) -> None:
    """Even a refusal to start is an event on stderr, never a word on stdout."""
    from mcp_pruner_server.logs import configure_logging, log_event

    configure_logging("text" if log_format == "text" else "json")
    log_event(
        "mcp_pruner.start_failed",
        level="error",
        reason=reason,
        message=message,
        variable=variable,
        expected=expected,
    )


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    sys.exit(
        serve_main(
            host=args.host,
            port=args.port,
            root=args.root,
            log_format=args.log_format,
            exit_with_parent=args.exit_with_parent,
            allow_remote=args.allow_remote,
            stdio=args.stdio,
            text_view=args.result_view == "text",
        )
    )


if __name__ == "__main__":
    main()
