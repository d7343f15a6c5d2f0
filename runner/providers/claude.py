"""Claude Code: an `--mcp-config` file naming our server, the tools allowed, and the guidance.

What its model then gets (checked against the real binary, tests/interop/test_agent_loop.py):
our read/grep/bash/recover_text schemas in the first request (`alwaysLoad`: Claude defers MCP
tools behind its ToolSearch otherwise), the guidance in the system prompt
(`--append-system-prompt`), our plain text results (the `X-Jeeves-Result-View` header), and in
`replace` mode no built-in Read/Grep/Glob/Bash (`--disallowedTools`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from runner.providers.base import RESULT_VIEW_HEADERS, SERVER_KEY, TOKEN_ENV, Launch, McpEndpoint
from runner.providers.guidance import guidance_text

CONFIG_FILE_NAME = "jeeves-mcp-config.json"
# Claude's permission rule for "every tool of this server".
ALLOWED_TOOLS = f"mcp__{SERVER_KEY}"
# Claude Code's own tools that read files, search and run commands: gone in `replace` mode.
BUILTIN_EQUIVALENTS = ("Read", "Grep", "Glob", "Bash")


def mcp_config_json(url: str, token: str | None = None) -> dict[str, object]:
    """The `--mcp-config` document; without `token`, a `${JEEVES_MCP_TOKEN}` reference Claude expands."""
    bearer = token if token is not None else f"${{{TOKEN_ENV}}}"
    return {
        "mcpServers": {
            SERVER_KEY: {
                "type": "http",
                "url": url,
                # Our schemas in the first request: Claude defers MCP tools behind ToolSearch otherwise.
                "alwaysLoad": True,
                "headers": {"Authorization": f"Bearer {bearer}", **RESULT_VIEW_HEADERS},
            }
        }
    }


def write_mcp_config(directory: Path, url: str, token: str) -> Path:
    """Write the config holding the real token to `directory`, readable by us only (0600).

    Raises:
        OSError: the file cannot be created (it must not exist already).
    """
    path = directory / CONFIG_FILE_NAME
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        json.dump(mcp_config_json(url, token), file, indent=2)
    return path


def build_claude_args(
    config_path: Path | None,
    user_args: Sequence[str],
    claude_command: Sequence[str] = ("claude",),
    tools_mode: str = "prefer",
) -> list[str]:
    """`claude` argv: our flags first, then the user's; no flags of ours when `config_path` is None.

    The `--flag=value` forms matter: `--mcp-config` and `--allowedTools` take several
    values, and a following positional prompt would otherwise be read as one of them. The
    user's flags come last, so a user's own `--append-system-prompt` or `--disallowedTools`
    is read after ours.
    """
    if config_path is None:
        return [*claude_command, *user_args]
    args = [
        *claude_command,
        f"--mcp-config={config_path}",
        "--strict-mcp-config",
        f"--allowedTools={ALLOWED_TOOLS}",
        f"--append-system-prompt={guidance_text()}",
    ]
    if tools_mode == "replace":
        args.append(f"--disallowedTools={','.join(BUILTIN_EQUIVALENTS)}")
    return [*args, *user_args]


@dataclass(frozen=True)
class ClaudeProvider:
    """Runs Claude Code with the pruner as its only MCP server."""

    command: tuple[str, ...] = ("claude",)
    tools_mode: str = "prefer"
    name: str = "claude"

    def launch(self, user_args: Sequence[str], endpoint: McpEndpoint | None, scratch: Path) -> Launch:
        """`claude` with a 0600 `--mcp-config` in `scratch` when the pruner is healthy."""
        if endpoint is None:
            return Launch(tuple(build_claude_args(None, user_args, self.command)))
        path = write_mcp_config(scratch, endpoint.url, endpoint.token)
        return Launch(tuple(build_claude_args(path, user_args, self.command, self.tools_mode)))
