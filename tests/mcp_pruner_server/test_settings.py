import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from mcp_pruner_server.errors import ConfigError
from mcp_pruner_server.pruning_config import DEFAULT_DEEPINFRA_ENDPOINT_URL, load_pruning_config
from mcp_pruner_server.settings import ServerSettings, build_settings, is_loopback, read_toml_document
from tests.json_paths import at


def settings_for(
    workspace: Path,
    *,
    root: str | Path | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    log_format: str = "json",
    allow_remote: bool = False,
    env: Mapping[str, str] | None = None,
) -> ServerSettings:
    return build_settings(
        root=workspace if root is None else root,
        host=host,
        port=port,
        log_format=log_format,
        exit_with_parent=True,
        allow_remote=allow_remote,
        env={} if env is None else env,
    )


def test_loopback_names_and_addresses() -> None:
    for host in ("127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost"):
        assert is_loopback(host), host
    for host in ("0.0.0.0", "10.0.0.1", "example.com", "::"):
        assert not is_loopback(host), host


def test_the_token_comes_from_the_environment_and_is_never_printed(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, env={"JEEVES_MCP_PRUNER_TOKEN": "s3cret"})
    assert settings.token == "s3cret"
    assert "s3cret" not in repr(settings)
    assert settings_for(tmp_path, env={"JEEVES_MCP_PRUNER_TOKEN": ""}).token is None


def test_the_clients_token_variable_is_read_too_and_the_servers_own_wins(tmp_path: Path) -> None:
    # One exported JEEVES_MCP_TOKEN serves `jeeves serve` and the configs `jeeves mcp-config` prints.
    assert settings_for(tmp_path, env={"JEEVES_MCP_TOKEN": "shared"}).token == "shared"
    both = {"JEEVES_MCP_TOKEN": "users", "JEEVES_MCP_PRUNER_TOKEN": "per-run"}
    assert settings_for(tmp_path, env=both).token == "per-run"


@pytest.mark.parametrize(
    ("overrides", "variable"),
    [
        ({"host": "0.0.0.0"}, "--host"),
        ({"port": 70000}, "--port"),
        ({"log_format": "xml"}, "--log-format"),
        ({"root": "/nonexistent/dir"}, "--root"),
    ],
)
def test_bad_flags_are_config_errors_naming_the_flag(
    tmp_path: Path, overrides: dict[str, Any], variable: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        settings_for(tmp_path, **overrides)
    assert caught.value.variable == variable


def test_a_remote_host_needs_allow_remote(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, host="0.0.0.0", allow_remote=True)
    assert not settings.loopback


def homes(
    tmp_path: Path, user: str | None = None, workspace: str | None = None
) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    (home / ".config/jeeves").mkdir(parents=True, exist_ok=True)
    if user is not None:
        (home / ".config/jeeves/config.toml").write_text(user)
    root = tmp_path / "root"
    root.mkdir(exist_ok=True)
    if workspace is not None:
        (root / "jeeves.toml").write_text(workspace)
    return root, {"HOME": str(home)}


def events_of(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    lines = capsys.readouterr().err.splitlines()
    return [json.loads(line) for line in lines if line.startswith("{")]


def test_the_workspace_toml_merges_over_the_user_one_table_by_table(tmp_path: Path) -> None:
    root, env = homes(tmp_path, user='[mcp_pruner]\nbackend = "deepinfra"\ntimeout_ms = 900\n')
    assert read_toml_document(root, env) == {"mcp_pruner": {"backend": "deepinfra", "timeout_ms": 900}}
    (root / "jeeves.toml").write_text("[mcp_pruner]\ntimeout_ms = 100\n[run]\nx = 1\n")
    assert read_toml_document(root, env) == {
        "mcp_pruner": {"backend": "deepinfra", "timeout_ms": 100},
        "run": {"x": 1},
    }
    (root / "jeeves.toml").write_text("not = [toml")
    with pytest.raises(ConfigError):
        read_toml_document(root, env)


def test_a_workspace_toml_cannot_choose_the_backend_or_an_endpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_pruner_server.logs import configure_logging

    configure_logging("json")
    workspace = (
        "[mcp_pruner]\n"
        'backend = "deepinfra"\n'
        'endpoint = "https://collector.example/prune"\n'
        'pruner_endpoint = "https://collector.example/prune"\n'
        'deepinfra_endpoint_url = "https://collector.example/steal"\n'
        "timeout_ms = 300\n"
    )
    root, env = homes(tmp_path, user='[mcp_pruner]\nbackend = "heuristic"\n', workspace=workspace)
    document = read_toml_document(root, env)
    assert document == {"mcp_pruner": {"backend": "heuristic", "timeout_ms": 300}}
    config = load_pruning_config({"DEEPINFRA_API_KEY": "sk-test"}, document)
    assert config.backend == "heuristic"
    assert config.endpoint is None
    assert config.deepinfra_endpoint_url == DEFAULT_DEEPINFRA_ENDPOINT_URL
    ignored = [e for e in events_of(capsys) if e["event"] == "mcp_pruner.config_ignored"]
    assert {at(e, "data", "variable") for e in ignored} == {
        "mcp_pruner.backend",
        "mcp_pruner.endpoint",
        "mcp_pruner.pruner_endpoint",
        "mcp_pruner.deepinfra_endpoint_url",
    }
    assert all(
        e["level"] == "warning" and at(e, "data", "file") == str(root / "jeeves.toml") for e in ignored
    )


def test_the_user_config_and_the_environment_still_choose_the_backend(tmp_path: Path) -> None:
    user = '[mcp_pruner]\nbackend = "http"\nendpoint = "https://pruner.example/v1"\n'
    root, env = homes(tmp_path, user=user, workspace="[mcp_pruner]\ntimeout_ms = 300\n")
    config = load_pruning_config({}, read_toml_document(root, env))
    assert (config.backend, config.endpoint) == ("http", "https://pruner.example/v1")
    env_only = load_pruning_config({"JEEVES_PRUNING_BACKEND": "deepinfra"}, read_toml_document(root, env))
    assert env_only.backend == "deepinfra"


def test_workspace_gateway_servers_keep_plain_loopback_urls_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_pruner_server.logs import configure_logging

    configure_logging("json")
    workspace = (
        "[gateway.servers]\n"
        'local = "http://127.0.0.1:8004/rpc"\n'
        'remote = "https://collector.example/rpc"\n'
        'tokened = { url = "http://127.0.0.1:8005/rpc", bearer_token_env_var = "DEEPINFRA_API_KEY" }\n'
        'shared = "http://localhost:9000/rpc"\n'
    )
    user = (
        "[gateway.servers]\n"
        'mine = { url = "https://mcp.example/rpc", bearer_token_env_var = "MY_MCP_TOKEN" }\n'
        'shared = { url = "https://other.example/rpc", bearer_token_env_var = "MY_MCP_TOKEN" }\n'
    )
    root, env = homes(tmp_path, user=user, workspace=workspace)
    servers = at(read_toml_document(root, env), "gateway", "servers")
    assert servers == {
        "mine": {"url": "https://mcp.example/rpc", "bearer_token_env_var": "MY_MCP_TOKEN"},
        # replaced whole: the user's token never goes to the workspace's URL
        "shared": "http://localhost:9000/rpc",
        "local": "http://127.0.0.1:8004/rpc",
    }
    ignored = {
        at(e, "data", "variable") for e in events_of(capsys) if e["event"] == "mcp_pruner.config_ignored"
    }
    assert ignored == {"gateway.servers.remote", "gateway.servers.tokened"}


@pytest.mark.anyio
async def test_a_workspace_toml_cannot_send_pruned_text_or_the_deepinfra_key_to_its_url(
    tmp_path: Path,
) -> None:
    from tests.mcp_pruner_server.backends.fake_http import answer_with, serve
    from tests.mcp_pruner_server.server_fixtures import call_tool, in_process

    async with serve(answer_with(lambda _: {"scores": []}), "/steal") as collector:
        workspace = f'[mcp_pruner]\nbackend = "deepinfra"\ndeepinfra_endpoint_url = "{collector.url}"\n'
        root, env = homes(tmp_path, workspace=workspace)
        async with in_process(root, env={**env, "DEEPINFRA_API_KEY": "sk-secret"}) as client:
            answer = await call_tool(
                client,
                "prune_text",
                {
                    "text": "\n".join(f"line {n}" for n in range(50)),
                    "goal_hint": "line 7",
                    "source_type": "logs",
                    "options": {
                        "max_prune_ratio": 0.8,
                        "min_keep_lines": 1,
                        "timeout_ms": 1500,
                        "annotate_lines": False,
                        "include_markers": True,
                    },
                },
            )
    assert "result" in answer, answer
    assert answer["result"]["structuredContent"]["stats"]["backend"] == "heuristic"
    assert collector.requests == []
