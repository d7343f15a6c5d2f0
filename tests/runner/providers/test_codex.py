from __future__ import annotations

import tomllib
from pathlib import Path

from runner.providers.base import McpEndpoint
from runner.providers.codex import (
    CODEX_TOOL_TIMEOUT_SEC,
    CodexProvider,
    build_codex_args,
    codex_overrides,
    codex_toml,
    steering_overrides,
)
from runner.providers.guidance import guidance_text

URL = "http://127.0.0.1:4321/mcp"


def test_the_overrides_set_url_token_variable_and_both_timeouts() -> None:
    assert codex_overrides(URL) == [
        "-c",
        f'mcp_servers.jeeves_pruner.url="{URL}"',
        "-c",
        'mcp_servers.jeeves_pruner.bearer_token_env_var="JEEVES_MCP_TOKEN"',
        "-c",
        "mcp_servers.jeeves_pruner.startup_timeout_sec=20",
        "-c",
        f"mcp_servers.jeeves_pruner.tool_timeout_sec={CODEX_TOOL_TIMEOUT_SEC}",
        "-c",
        'mcp_servers.jeeves_pruner.disabled_tools=["prune_text", "recover_range", "health"]',
        "-c",
        'mcp_servers.jeeves_pruner.http_headers={ "X-Jeeves-Result-View" = "text" }',
        "-c",
        'mcp_servers.jeeves_pruner.tools.bash.approval_mode="approve"',
    ]


def test_each_override_value_is_valid_toml_as_codex_parses_it() -> None:
    pairs = codex_overrides(URL)[1::2]
    parsed = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        parsed[key] = tomllib.loads(f"v = {value}")["v"]
    assert parsed["mcp_servers.jeeves_pruner.url"] == URL
    assert parsed["mcp_servers.jeeves_pruner.tool_timeout_sec"] > 300  # above bash's 300 s ceiling
    assert parsed["mcp_servers.jeeves_pruner.http_headers"] == {"X-Jeeves-Result-View": "text"}


def test_the_toml_snippet_is_the_same_table() -> None:
    table = tomllib.loads(codex_toml(URL))["mcp_servers"]["jeeves_pruner"]
    assert table["url"] == URL
    assert table["bearer_token_env_var"] == "JEEVES_MCP_TOKEN"


def test_a_healthy_launch_passes_the_token_by_environment_only(tmp_path: Path) -> None:
    launch = CodexProvider().launch(["do it"], McpEndpoint(URL, "secret"), tmp_path)
    assert launch.argv == tuple(build_codex_args(URL, ["do it"]))
    assert launch.argv[:2] == ("codex", "exec")
    assert launch.argv[-1] == "do it"
    assert launch.env == {"JEEVES_MCP_TOKEN": "secret"}
    assert "secret" not in " ".join(launch.argv)


def test_jeeves_runs_codex_waits_for_the_healthy_server_but_a_kept_table_leaves_it_optional(
    tmp_path: Path,
) -> None:
    launch = CodexProvider().launch(["do it"], McpEndpoint(URL, "secret"), tmp_path)
    assert "mcp_servers.jeeves_pruner.required=true" in launch.argv
    assert "required" not in tomllib.loads(codex_toml(URL))["mcp_servers"]["jeeves_pruner"]
    assert not any("required" in arg for arg in codex_overrides(URL))


def test_without_a_healthy_server_codex_exec_gets_no_mcp_overrides(tmp_path: Path) -> None:
    launch = CodexProvider().launch(["do it"], None, tmp_path)
    assert launch.argv == ("codex", "exec", "do it")
    assert launch.env == {}


def test_the_guidance_is_a_developer_instructions_override_codex_parses_back_verbatim() -> None:
    flag, pair = steering_overrides()
    key, _, value = pair.partition("=")
    assert (flag, key) == ("-c", "developer_instructions")
    assert tomllib.loads(f"v = {value}")["v"] == guidance_text()


def test_replace_mode_turns_codexs_shell_tool_off_and_the_users_overrides_come_last(tmp_path: Path) -> None:
    launch = CodexProvider(tools_mode="replace").launch(
        ["-c", "features.shell_tool=true", "do it"], McpEndpoint(URL, "t"), tmp_path
    )
    argv = list(launch.argv)
    assert argv.index("features.shell_tool=false") < argv.index("features.shell_tool=true")
    prefer = CodexProvider().launch(["x"], McpEndpoint(URL, "t"), tmp_path)
    assert "features.shell_tool=false" not in prefer.argv
