"""Checks `jeeves run` makes before it starts anything: is the agent there, is the config sound.

A missing agent binary is found here, before the server is spawned (exit 127 with a hint), and
a configuration mistake that will run the agent without the pruner is said in one plain line
on stderr, besides the `mcp_pruner.config_invalid` JSON event an interactive screen scrolls away.
"""

from __future__ import annotations

import os
import shutil
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from runner.config import ConfigResult, FieldError
from runner.providers.base import SERVER_KEY

EXIT_NOT_FOUND = 127
EXIT_NOT_EXECUTABLE = 126
# How to get each agent, or point jeeves at it.
_HINTS = {
    "claude": "install Claude Code (npm install -g @anthropic-ai/claude-code) or set JEEVES_CLAUDE_COMMAND",
    "codex": "install Codex (npm install -g @openai/codex) or set JEEVES_CODEX_COMMAND",
    "command": "give a command on PATH or a path to an executable after --",
}


def agent_argv0(provider: str, config_result: ConfigResult, agent_args: Sequence[str]) -> str | None:
    """The executable the provider will start; None when there is nothing to look up (demo)."""
    config = config_result.config
    if provider == "claude":
        return config.claude_command[0]
    if provider == "codex":
        return config.codex_command[0]
    if provider == "command" and agent_args:
        return agent_args[0]
    return None


def missing_agent(provider: str, argv0: str, path: str | None = None) -> tuple[int, str] | None:
    """(exit code, message) when `argv0` cannot be executed, else None."""
    search = os.environ.get("PATH", os.defpath) if path is None else path
    if os.sep in argv0:
        if not os.path.isfile(argv0):
            return EXIT_NOT_FOUND, f"{argv0!r} does not exist: {_HINTS[provider]}"
        if not os.access(argv0, os.X_OK):
            return EXIT_NOT_EXECUTABLE, f"{argv0!r} is not executable"
        return None
    if shutil.which(argv0, path=search) is None:
        return EXIT_NOT_FOUND, f"cannot find {argv0!r} on PATH: {_HINTS[provider]}"
    return None


def _said(error: FieldError) -> str:
    variable = error.source.removeprefix("env:") if error.source.startswith("env:") else error.field
    where = "" if error.source.startswith("env:") or error.source == "pruning" else f" in {error.source}"
    return f"{variable}={error.value}{where}: {error.message}"


def pruner_disabled_line(config_result: ConfigResult) -> str | None:
    """`jeeves: pruner disabled: JEEVES_PRUNING_BACKEND=foo: expected one of …`, or None if sound."""
    if not config_result.errors:
        return None
    first, *rest = config_result.errors
    more = f" (and {len(rest)} more: see `jeeves config`)" if rest else ""
    return f"jeeves: pruner disabled: {_said(first)}{more}"


def installed_codex_server(env: Mapping[str, str], home: Path) -> Path | None:
    """`$CODEX_HOME/config.toml` when `jeeves install codex` registered our stdio server there.

    Codex merges `-c mcp_servers.jeeves_pruner.url=…` into that table and then refuses the whole
    config ("url is not supported for stdio"), so `jeeves run` must not pass its HTTP server then.
    """
    from runner.install import codex_home

    path = codex_home(env, home) / "config.toml"
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    servers = document.get("mcp_servers")
    entry = servers.get(SERVER_KEY) if isinstance(servers, dict) else None
    return path if isinstance(entry, dict) and "command" in entry else None
