from __future__ import annotations

import json
import stat
from pathlib import Path

from runner.providers.base import McpEndpoint
from runner.providers.claude import ClaudeProvider, build_claude_args, mcp_config_json
from runner.providers.guidance import guidance_text

URL = "http://127.0.0.1:4321/mcp"


def test_the_config_names_one_always_loaded_http_server_with_the_bearer_and_text_view_headers() -> None:
    assert mcp_config_json(URL, "tok") == {
        "mcpServers": {
            "jeeves_pruner": {
                "type": "http",
                "url": URL,
                "alwaysLoad": True,
                "headers": {"Authorization": "Bearer tok", "X-Jeeves-Result-View": "text"},
            }
        }
    }


def test_without_a_token_the_config_references_the_env_variable_instead_of_a_secret() -> None:
    server = mcp_config_json(URL)["mcpServers"]
    assert isinstance(server, dict)
    assert server["jeeves_pruner"]["headers"]["Authorization"] == "Bearer ${JEEVES_MCP_TOKEN}"


def test_a_healthy_launch_writes_a_private_config_and_puts_our_flags_before_the_users(tmp_path: Path) -> None:
    launch = ClaudeProvider(command=("claude",)).launch(
        ["-p", "fix it"], McpEndpoint(URL, "secret"), tmp_path
    )
    config = tmp_path / "jeeves-mcp-config.json"
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert json.loads(config.read_text()) == mcp_config_json(URL, "secret")
    assert launch.argv == (
        "claude",
        f"--mcp-config={config}",
        "--strict-mcp-config",
        "--allowedTools=mcp__jeeves_pruner",
        f"--append-system-prompt={guidance_text()}",
        "-p",
        "fix it",
    )
    assert "secret" not in " ".join(launch.argv)  # the token is in the 0600 file only
    assert launch.env == {}


def test_without_a_healthy_server_claude_runs_with_the_users_args_only(tmp_path: Path) -> None:
    launch = ClaudeProvider(command=("/opt/claude", "--verbose")).launch(["-p", "hi"], None, tmp_path)
    assert launch.argv == ("/opt/claude", "--verbose", "-p", "hi")
    assert list(tmp_path.iterdir()) == []


def test_the_args_builder_keeps_a_positional_prompt_out_of_the_variadic_flags() -> None:
    argv = build_claude_args(Path("/x/c.json"), ["fix the bug"])
    # `--flag=value`: commander does not keep reading values for a variadic option after it.
    assert argv[-1] == "fix the bug"
    assert all("=" in a for a in argv if a.startswith(("--mcp-config", "--allowedTools")))


def test_replace_mode_disallows_the_builtin_read_search_and_shell_tools_before_the_users_flags(
    tmp_path: Path,
) -> None:
    launch = ClaudeProvider(tools_mode="replace").launch(
        ["--disallowedTools=Edit", "-p", "x"], McpEndpoint(URL, "t"), tmp_path
    )
    ours = launch.argv.index("--disallowedTools=Read,Grep,Glob,Bash")
    assert ours < launch.argv.index("--disallowedTools=Edit")  # the user's own flags come last


def test_prefer_mode_keeps_every_builtin_tool(tmp_path: Path) -> None:
    launch = ClaudeProvider().launch(["-p", "x"], McpEndpoint(URL, "t"), tmp_path)
    assert not any(a.startswith("--disallowedTools") for a in launch.argv)
