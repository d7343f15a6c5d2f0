from __future__ import annotations

import sys
from pathlib import Path

import pytest

from runner.config import DEFAULT_STARTUP_TIMEOUT_MS, RunnerConfig, load_config


def load(
    tmp_path: Path, env: dict[str, str], cli: dict[str, str | None] | None = None
) -> tuple[RunnerConfig, list[str]]:
    result = load_config(cli=cli, env=env, cwd=tmp_path, home=tmp_path / "home")
    return result.config, [e.field for e in result.errors]


def test_defaults_start_the_pruner_on_loopback_port_0_within_12_s(tmp_path: Path) -> None:
    config, errors = load(tmp_path, {})
    assert errors == []
    assert (config.enabled, config.host, config.port) == (True, "127.0.0.1", 0)
    assert config.startup_timeout_ms == DEFAULT_STARTUP_TIMEOUT_MS == 12_000
    assert config.server_command == (sys.executable, "-m", "mcp_pruner_server")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("YES", True), ("on", True), ("0", False), ("off", False), ("No", False), ("false", False)],
)
def test_enabled_accepts_the_usual_words(tmp_path: Path, raw: str, expected: bool) -> None:
    config, errors = load(tmp_path, {"JEEVES_MCP_PRUNER_ENABLED": raw})
    assert errors == []
    assert config.enabled is expected


@pytest.mark.parametrize(
    ("variable", "raw"),
    [
        ("JEEVES_MCP_PRUNER_ENABLED", "maybe"),
        ("JEEVES_MCP_PRUNER_HOST", "0.0.0.0"),
        ("JEEVES_MCP_PRUNER_HOST", "example.com"),
        ("JEEVES_MCP_PRUNER_PORT", "70000"),
        ("JEEVES_MCP_PRUNER_PORT", "eighty"),
        ("JEEVES_MCP_PRUNER_STARTUP_TIMEOUT_MS", "12s"),
        ("JEEVES_MCP_PRUNER_FAILURE_THRESHOLD", "0"),
        ("JEEVES_MCP_PRUNER_ROOT_DIR", "/no/such/dir"),
        ("JEEVES_MCP_PRUNER_COMMAND", "'unterminated"),
        ("JEEVES_PRUNER_TIMEOUT_MS", "abc"),
        ("JEEVES_MCP_PRUNER_MAX_PRUNE_INPUT_BYTES", "10"),
        ("JEEVES_MCP_PRUNER_TOOLS_MODE", "only"),
    ],
)
def test_an_invalid_value_is_reported_and_its_field_keeps_the_default(
    tmp_path: Path, variable: str, raw: str
) -> None:
    result = load_config(env={variable: raw}, cwd=tmp_path, home=tmp_path)
    assert len(result.errors) == 1
    error = result.errors[0]
    assert variable in (error.source.removeprefix("env:"), error.field)
    assert result.config.port == 0
    assert result.config.host == "127.0.0.1"


def test_ipv6_loopback_and_localhost_are_accepted(tmp_path: Path) -> None:
    assert load(tmp_path, {"JEEVES_MCP_PRUNER_HOST": "::1"})[0].host == "::1"
    assert load(tmp_path, {"JEEVES_MCP_PRUNER_HOST": "localhost"})[0].host == "localhost"


def test_cli_beats_env_beats_toml_beats_defaults(tmp_path: Path) -> None:
    (tmp_path / "jeeves.toml").write_text(
        "[mcp_pruner]\nport = 7001\nprobe_interval_ms = 500\nfailure_threshold = 5\nbackend = 'heuristic'\n"
    )
    config, errors = load(
        tmp_path,
        {"JEEVES_MCP_PRUNER_PORT": "7002", "JEEVES_MCP_PRUNER_PROBE_INTERVAL_MS": "600"},
        cli={"port": "7003"},
    )
    assert errors == []  # `backend` belongs to the server's pruning settings: not ours, not an error
    assert config.port == 7003
    assert config.probe_interval_ms == 600
    assert config.failure_threshold == 5


def test_the_user_config_is_read_when_the_cwd_has_none(tmp_path: Path) -> None:
    user = tmp_path / "home" / ".config" / "jeeves"
    user.mkdir(parents=True)
    (user / "config.toml").write_text('[mcp_pruner]\nenabled = false\nserver_command = ["srv", "--x"]\n')
    result = load_config(env={}, cwd=tmp_path, home=tmp_path / "home")
    assert result.config_file == user / "config.toml"
    assert result.config.enabled is False
    assert result.config.server_command == ("srv", "--x")


def test_a_secret_in_the_toml_is_refused(tmp_path: Path) -> None:
    (tmp_path / "jeeves.toml").write_text("[mcp_pruner]\napi_token = 'hunter2'\n")
    result = load_config(env={}, cwd=tmp_path, home=tmp_path)
    assert [e.value for e in result.errors] == ["<redacted>"]
    assert "hunter2" not in repr(result)


def test_a_broken_toml_file_is_a_config_error_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "jeeves.toml").write_text("[mcp_pruner\n")
    result = load_config(env={}, cwd=tmp_path, home=tmp_path)
    assert "unreadable TOML" in result.errors[0].message


def test_an_empty_variable_counts_as_unset(tmp_path: Path) -> None:
    config, errors = load(tmp_path, {"JEEVES_MCP_PRUNER_STARTUP_TIMEOUT_MS": ""})
    assert errors == []
    assert config.startup_timeout_ms == 12_000


def test_a_relative_root_dir_is_taken_from_the_runs_cwd(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    config, errors = load(tmp_path, {"JEEVES_MCP_PRUNER_ROOT_DIR": "sub"})
    assert errors == []
    assert config.root_dir == (tmp_path / "sub").resolve()


def test_a_project_file_cannot_choose_commands_or_the_root_but_the_user_file_can(tmp_path: Path) -> None:
    (tmp_path / "jeeves.toml").write_text(
        '[mcp_pruner]\nserver_command = "touch pwned"\ncodex_command = ["evil"]\n'
        'root_dir = "/"\nport = 7001\n'
    )
    result = load_config(env={}, cwd=tmp_path, home=tmp_path / "home")
    assert result.errors == ()
    assert sorted(e.field for e in result.ignored) == ["codex_command", "root_dir", "server_command"]
    assert all("ignored" in e.message for e in result.ignored)
    config = result.config
    assert config.server_command == RunnerConfig().server_command
    assert (config.codex_command, config.root_dir) == (("codex",), None)
    assert config.port == 7001  # the other settings of the file still apply
    user = tmp_path / "home" / ".config" / "jeeves"
    user.mkdir(parents=True)
    (user / "config.toml").write_text('[mcp_pruner]\nserver_command = "srv"\n')
    from_user = load_config(env={}, cwd=tmp_path / "home", home=tmp_path / "home")
    assert (from_user.config.server_command, from_user.ignored) == (("srv",), ())


def test_a_project_file_cannot_switch_the_pruner_off_with_a_key_the_server_ignores(tmp_path: Path) -> None:
    # `backend = "http"` without an endpoint is invalid, but the server ignores a workspace
    # `backend` anyway (it may not choose where content goes): no reason to drop the pruner.
    (tmp_path / "jeeves.toml").write_text('[mcp_pruner]\nbackend = "http"\n')
    assert load_config(env={}, cwd=tmp_path, home=tmp_path / "home").errors == ()
    user = tmp_path / "home" / ".config" / "jeeves"
    user.mkdir(parents=True)
    (user / "config.toml").write_text('[mcp_pruner]\nbackend = "http"\n')
    from_user = load_config(env={}, cwd=tmp_path / "home", home=tmp_path / "home")
    assert [e.field for e in from_user.errors] == ["JEEVES_PRUNER_ENDPOINT"]


def test_the_environment_still_sets_commands_when_a_project_file_exists(tmp_path: Path) -> None:
    (tmp_path / "jeeves.toml").write_text("[mcp_pruner]\nport = 7001\n")
    config, errors = load(
        tmp_path, {"JEEVES_MCP_PRUNER_COMMAND": "srv --x", "JEEVES_MCP_PRUNER_ROOT_DIR": "."}
    )
    assert errors == []
    assert config.server_command == ("srv", "--x")
    assert config.root_dir == tmp_path.resolve()


def test_tools_mode_is_prefer_by_default_and_replace_from_the_project_file_or_the_environment(
    tmp_path: Path,
) -> None:
    assert load(tmp_path, {})[0].tools_mode == "prefer"
    (tmp_path / "jeeves.toml").write_text('[mcp_pruner]\ntools_mode = "replace"\n')
    assert load(tmp_path, {}) == (load(tmp_path, {})[0], [])
    assert load(tmp_path, {})[0].tools_mode == "replace"
    assert load(tmp_path, {"JEEVES_MCP_PRUNER_TOOLS_MODE": "Prefer"})[0].tools_mode == "prefer"
