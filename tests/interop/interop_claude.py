"""Claude Code (the `claude` binary bundled in the claude-agent-sdk wheel) run for its init event.

With no API key and no login, `claude -p ... --output-format stream-json --verbose` first
prints a `system/init` event — listing each MCP server with its connection status
(`connected`, `failed`, ...) and every tool it found as `mcp__<server>__<tool>` — then stops
with "Not logged in" (exit 1). That event is all these tests need from it.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.interop.interop_support import run_client

# Claude Code's switches for a hermetic run: no self-update, no telemetry or other
# "nonessential" calls.
CLAUDE_ENV = {
    "DISABLE_AUTOUPDATER": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
}
# What follows the MCP flags: a prompt, and the streamed JSON whose first event is `system/init`.
CLAUDE_PRINT_ARGS = ("-p", "hi", "--output-format", "stream-json", "--verbose")


def claude_executable() -> Path:
    """The `claude` binary bundled in the claude-agent-sdk wheel (a dev dependency)."""
    spec = importlib.util.find_spec("claude_agent_sdk")
    if spec is None or not spec.submodule_search_locations:
        pytest.fail("claude-agent-sdk is not installed: `make test` installs the dev extras")
    path = Path(next(iter(spec.submodule_search_locations))) / "_bundled" / "claude"
    if not path.exists():
        pytest.fail(f"{path} is missing: the claude-agent-sdk wheel should bundle the claude binary")
    return path


def claude_argv(mcp_config: Path) -> list[str]:
    """`claude` with one `--mcp-config` file as its only MCP source."""
    return [
        str(claude_executable()),
        "--mcp-config",
        str(mcp_config),
        "--strict-mcp-config",
        *CLAUDE_PRINT_ARGS,
    ]


def claude_init_event(argv: Sequence[str], env: Mapping[str, str], cwd: Path) -> dict[str, Any]:
    """Run a `claude -p ... --output-format stream-json` argv; return its first `system/init` event."""
    run = run_client(list(argv), env=env, cwd=cwd)
    first_line = run.stdout.partition("\n")[0]
    assert first_line, run.describe()
    event: dict[str, Any] = json.loads(first_line)
    assert (event.get("type"), event.get("subtype")) == ("system", "init"), run.describe()
    return event


def mcp_server_status(init_event: Mapping[str, Any], name: str) -> str:
    """The status Claude Code reports for one MCP server in its init event."""
    statuses: dict[str, str] = {entry["name"]: entry["status"] for entry in init_event["mcp_servers"]}
    assert name in statuses, init_event["mcp_servers"]
    return statuses[name]
