from __future__ import annotations

import json
import tomllib

from typer.testing import CliRunner

from runner.cli import app

URL = "http://127.0.0.1:8765/mcp"


def test_the_claude_snippet_is_the_runners_config_with_a_token_reference() -> None:
    result = CliRunner().invoke(app, ["mcp-config", "--provider", "claude", "--url", URL])
    assert result.exit_code == 0
    server = json.loads(result.stdout)["mcpServers"]["jeeves_pruner"]
    assert server == {
        "type": "http",
        "url": URL,
        "alwaysLoad": True,
        "headers": {"Authorization": "Bearer ${JEEVES_MCP_TOKEN}", "X-Jeeves-Result-View": "text"},
    }


def test_the_codex_snippet_is_toml_plus_the_equivalent_flags() -> None:
    result = CliRunner().invoke(app, ["mcp-config", "--provider", "codex", "--url", URL])
    assert result.exit_code == 0
    table = tomllib.loads(result.stdout)["mcp_servers"]["jeeves_pruner"]
    assert table["url"] == URL
    assert "-c 'mcp_servers.jeeves_pruner.url=" in result.stdout


def test_an_unknown_provider_is_refused() -> None:
    result = CliRunner().invoke(app, ["mcp-config", "--provider", "vim", "--url", URL])
    assert result.exit_code == 2


def test_a_codex_token_is_handed_over_as_the_variable_codex_reads_not_dropped() -> None:
    result = CliRunner().invoke(app, ["mcp-config", "--provider", "codex", "--url", URL, "--token", "abc"])

    assert result.exit_code == 0
    assert "export JEEVES_MCP_TOKEN=abc" in result.stdout
    assert "Codex reads its token from $JEEVES_MCP_TOKEN" in result.stderr
    assert (
        tomllib.loads(result.stdout)["mcp_servers"]["jeeves_pruner"]["bearer_token_env_var"]
        == "JEEVES_MCP_TOKEN"
    )
