"""Real clients spawning the server over stdio, as `jeeves install` registers it.

Claude Code (`"type": "stdio"` in `--mcp-config`, then a plain `claude` after `jeeves install
claude` with a temporary HOME), `codex app-server` (a stdio `mcp_servers` entry, then the one
`jeeves install codex` writes in a temporary CODEX_HOME) and the MCP Inspector CLI.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_pruner_server.pruning.model_view import MODEL_MARKER
from runner.providers.codex import TOOLS_NOT_FOR_MODELS
from tests.interop.interop_claude import (
    CLAUDE_ENV,
    CLAUDE_PRINT_ARGS,
    claude_argv,
    claude_executable,
    claude_init_event,
)
from tests.interop.interop_codex import CodexAppServer, open_codex_app_server
from tests.interop.interop_support import (
    CLIENT_TIMEOUT_S,
    EXPECTED_TOOLS,
    FOCUS_QUESTION,
    SAMPLE_FILE,
    SERVER_NAME_IN_CLIENTS,
    TARGET_FUNCTION,
    client_env,
    jeeves_executable,
    node_client,
    run_client,
    server_executable,
    write_sample_tree,
)

pytestmark = pytest.mark.real_client

JEEVES_RUN_TIMEOUT_S = 30.0  # `jeeves install` takes ~0.3 s


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The agent's working directory, which becomes the stdio server's root."""
    root = tmp_path / "project"
    root.mkdir()
    write_sample_tree(root)
    return root


def jeeves(*args: str, home: Path, cwd: Path) -> str:
    """Run the real `jeeves` console script with `home` as HOME (and CODEX_HOME beneath it)."""
    env = client_env(home, {"CODEX_HOME": str(home / ".codex")}, dead_proxies=False)
    done = subprocess.run(
        [str(jeeves_executable()), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=JEEVES_RUN_TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def our_tools(init: dict[str, Any]) -> set[str]:
    prefix = f"mcp__{SERVER_NAME_IN_CLIENTS}__"
    return {tool.removeprefix(prefix) for tool in init["tools"] if tool.startswith(prefix)}


def statuses(init: dict[str, Any]) -> dict[str, str]:
    return {entry["name"]: entry["status"] for entry in init["mcp_servers"]}


def test_claude_code_connects_to_a_stdio_entry_in_mcp_config(project: Path, client_home: Path) -> None:
    entry = {"type": "stdio", "command": str(server_executable()), "args": ["--stdio"]}
    config = client_home / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {SERVER_NAME_IN_CLIENTS: entry}}), encoding="utf-8")

    init = claude_init_event(claude_argv(config), client_env(client_home, CLAUDE_ENV), project)

    assert statuses(init)[SERVER_NAME_IN_CLIENTS] == "connected", init["mcp_servers"]
    assert set(EXPECTED_TOOLS) <= our_tools(init)


@pytest.mark.parametrize("scope", ["user", "project"])
def test_after_jeeves_install_claude_a_plain_claude_has_the_server_and_after_uninstall_not(
    project: Path, client_home: Path, scope: str
) -> None:
    plain_claude = [str(claude_executable()), *CLAUDE_PRINT_ARGS]
    env = client_env(client_home, CLAUDE_ENV)

    printed = jeeves("install", "claude", "--scope", scope, home=client_home, cwd=project)
    installed = claude_init_event(plain_claude, env, project)
    jeeves("uninstall", "claude", "--scope", scope, home=client_home, cwd=project)
    uninstalled = claude_init_event(plain_claude, env, project)

    assert "mcpServers.jeeves_pruner" in printed
    assert statuses(installed).get(SERVER_NAME_IN_CLIENTS) == "connected", installed["mcp_servers"]
    assert set(EXPECTED_TOOLS) <= our_tools(installed)
    assert SERVER_NAME_IN_CLIENTS not in statuses(uninstalled)


async def _read_through_codex(codex: CodexAppServer) -> tuple[dict[str, Any], dict[str, Any]]:
    await codex.initialize()
    status = await codex.server_status(SERVER_NAME_IN_CLIENTS)
    read = {"path": SAMPLE_FILE, "context_focus_question": FOCUS_QUESTION}
    result = await codex.call_tool(await codex.start_thread(), SERVER_NAME_IN_CLIENTS, "read", read)
    return status, result


@pytest.mark.anyio
async def test_after_jeeves_install_codex_the_app_server_spawns_it_and_reads_pruned(
    project: Path, client_home: Path
) -> None:
    jeeves("install", "codex", home=client_home, cwd=project)
    env = client_env(client_home, {"CODEX_HOME": str(client_home / ".codex")})

    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with open_codex_app_server(
            node_client("codex"), [], env=env, cwd=project, stderr_path=client_home / "codex.stderr.log"
        ) as codex:
            status, result = await _read_through_codex(codex)

    assert status["toolsError"] is None, status
    # `disabled_tools` keeps the tools programs call (not models) out, as `jeeves run` does.
    assert set(status["tools"]) == set(EXPECTED_TOOLS) - set(TOOLS_NOT_FOR_MODELS)
    assert result.get("isError") is not True, result
    # Registered with `--result-view text`: the model's plain text, no structuredContent to prefer.
    assert not result.get("structuredContent"), result
    text = "".join(block["text"] for block in result["content"])
    assert re.search(rf"^\d+ def {TARGET_FUNCTION}\(lines, tax_rate\):$", text, re.MULTILINE), text
    assert any(MODEL_MARKER.match(line) for line in text.split("\n"))


def test_the_inspector_cli_calls_read_over_stdio(project: Path, client_home: Path) -> None:
    argv = [str(node_client("mcp-inspector")), "--cli", str(server_executable()), "--stdio"]
    argv += ["--transport", "stdio", "--cwd", str(project), "--format", "json"]
    argv += ["--method", "tools/call", "--tool-name", "read"]
    argv += ["--tool-arg", f"path={SAMPLE_FILE}", f"context_focus_question={FOCUS_QUESTION}"]

    run = run_client(argv, env=client_env(client_home, dead_proxies=False), cwd=project)

    assert run.returncode == 0, run.describe()
    structured = json.loads(run.stdout)["result"]["structuredContent"]
    assert structured["pruning"]["applied"] is True, structured["pruning"]
    assert f"def {TARGET_FUNCTION}" in structured["content"]


def test_jeeves_install_prints_the_command_it_registered(project: Path, client_home: Path) -> None:
    printed = jeeves("install", "codex", "--dry-run", home=client_home, cwd=project)

    assert f"command = {json.dumps(str(server_executable()))}" in printed
    assert not (client_home / ".codex" / "config.toml").exists()
    assert Path(sys.executable).parent == server_executable().parent
