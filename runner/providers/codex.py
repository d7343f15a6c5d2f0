"""Codex: `-c mcp_servers.jeeves_pruner.*` overrides, the token passed by environment variable.

What its model then gets (checked against the real binary, tests/interop/test_agent_loop.py):
our read/grep/bash/recover_text in the tools of every request (the other three are
`disabled_tools`: programs call them, models do not), the guidance as a developer message
(`developer_instructions`), and in `replace` mode no `exec_command` (`features.shell_tool=false`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from runner.providers.base import RESULT_VIEW_HEADERS, SERVER_KEY, TOKEN_ENV, Launch, McpEndpoint
from runner.providers.guidance import guidance_text

# The server is already healthy when Codex starts; this covers only Codex's own handshake.
CODEX_STARTUP_TIMEOUT_SEC = 20
# A `bash` tool call may run 300 s (its `timeout_ms` ceiling) plus pruning; Codex must not give up first.
CODEX_TOOL_TIMEOUT_SEC = 330
# Our tools a model does not need (programs call them): left out of every model request.
TOOLS_NOT_FOR_MODELS = ("prune_text", "recover_range", "health")


def codex_settings(
    url: str,
    *,
    required: bool = False,
    startup_timeout_sec: int = CODEX_STARTUP_TIMEOUT_SEC,
    tool_timeout_sec: int = CODEX_TOOL_TIMEOUT_SEC,
) -> list[tuple[str, str]]:
    """(key, TOML value) pairs of `[mcp_servers.jeeves_pruner]`.

    `required`: Codex waits for the server to list its tools before it builds the first turn
    (up to `startup_timeout_sec`), and stops if it cannot. Without it Codex gives an optional
    server about a second, and on a busy machine builds the turn without our tools
    (docs/agents.md). `jeeves run` sets it: its server is healthy before Codex starts, so
    waiting costs nothing and a failure is a real one. A table the user keeps for a server
    that may not be running (`jeeves mcp-config`) leaves it out.
    """
    return [
        ("url", json.dumps(url)),  # a JSON string of ASCII is a TOML basic string
        ("bearer_token_env_var", json.dumps(TOKEN_ENV)),
        ("startup_timeout_sec", str(startup_timeout_sec)),
        ("tool_timeout_sec", str(tool_timeout_sec)),
        ("disabled_tools", json.dumps(list(TOOLS_NOT_FOR_MODELS))),  # a JSON array of strings is TOML
        ("http_headers", _inline_table(RESULT_VIEW_HEADERS)),
        ("tools.bash.approval_mode", json.dumps("approve")),
    ] + ([("required", "true")] if required else [])


def _inline_table(values: Mapping[str, str]) -> str:
    """A TOML inline table of strings (JSON strings of ASCII are TOML basic strings)."""
    return "{ " + ", ".join(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in values.items()) + " }"


def codex_overrides(
    url: str,
    *,
    required: bool = False,
    startup_timeout_sec: int = CODEX_STARTUP_TIMEOUT_SEC,
    tool_timeout_sec: int = CODEX_TOOL_TIMEOUT_SEC,
) -> list[str]:
    """The `-c key=value` arguments (usable with `codex exec` and `codex app-server`)."""
    args: list[str] = []
    for key, value in codex_settings(
        url, required=required, startup_timeout_sec=startup_timeout_sec, tool_timeout_sec=tool_timeout_sec
    ):
        args += ["-c", f"mcp_servers.{SERVER_KEY}.{key}={value}"]
    return args


def codex_toml(url: str) -> str:
    """The same settings as a `~/.codex/config.toml` table, for manual use."""
    lines = [f"[mcp_servers.{SERVER_KEY}]", *(f"{k} = {v}" for k, v in codex_settings(url))]
    return "\n".join(lines) + "\n"


def codex_env(token: str) -> dict[str, str]:
    """The variables Codex needs in its environment to send the bearer token."""
    return {TOKEN_ENV: token}


def steering_overrides(tools_mode: str = "prefer") -> list[str]:
    """`-c` overrides that make the model prefer (or, `replace`, only have) our tools."""
    args = ["-c", f"developer_instructions={json.dumps(guidance_text())}"]
    if tools_mode == "replace":
        args += ["-c", "features.shell_tool=false"]
    return args


def build_codex_args(
    url: str | None,
    user_args: Sequence[str],
    codex_command: Sequence[str] = ("codex",),
    tools_mode: str = "prefer",
) -> list[str]:
    """`codex exec` argv with our overrides (none when `url` is None; the server `required`: it
    is healthy when Codex starts), then the user's args.

    The user's own `-c` come later on the command line, so they override ours.
    """
    if url is None:
        return [*codex_command, "exec", *user_args]
    overrides = [*codex_overrides(url, required=True), *steering_overrides(tools_mode)]
    return [*codex_command, "exec", *overrides, *user_args]


@dataclass(frozen=True)
class CodexProvider:
    """Runs `codex exec` with the pruner configured as an HTTP MCP server."""

    command: tuple[str, ...] = ("codex",)
    tools_mode: str = "prefer"
    name: str = "codex"

    def launch(self, user_args: Sequence[str], endpoint: McpEndpoint | None, scratch: Path) -> Launch:
        """`codex exec` with `-c` overrides and `JEEVES_MCP_TOKEN` when the pruner is healthy."""
        if endpoint is None:
            return Launch(tuple(build_codex_args(None, user_args, self.command)))
        argv = build_codex_args(endpoint.url, user_args, self.command, self.tools_mode)
        return Launch(tuple(argv), codex_env(endpoint.token))
