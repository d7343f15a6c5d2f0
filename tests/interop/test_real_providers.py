"""Issue 5 "Real providers": the configs the runner writes, proven with the real agents.

Shape tests of the runner's builders live in tests/runner; these hand exactly what the
runner builds (argv, config file, environment) to the real `claude` and `codex app-server`
and check that each one connects to the real server and sees its tools.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import anyio
import pytest

from mcp_pruner_server.pruning.model_view import MODEL_MARKER
from runner.providers import McpEndpoint
from runner.providers.base import SERVER_KEY, TOKEN_ENV
from runner.providers.claude import ClaudeProvider, mcp_config_json
from runner.providers.codex import CodexProvider, codex_toml
from tests.interop.interop_claude import (
    CLAUDE_ENV,
    CLAUDE_PRINT_ARGS,
    claude_argv,
    claude_executable,
    claude_init_event,
    mcp_server_status,
)
from tests.interop.interop_codex import open_codex_app_server
from tests.interop.interop_support import (
    CLIENT_TIMEOUT_S,
    EXPECTED_TOOLS,
    FOCUS_QUESTION,
    MODEL_TOOLS,
    SAMPLE_FILE,
    SERVER_NAME_IN_CLIENTS,
    TARGET_FUNCTION,
    RunningServer,
    client_env,
    jeeves_executable,
    node_client,
    run_client,
)

pytestmark = pytest.mark.real_client


def endpoint_of(server: RunningServer) -> McpEndpoint:
    return McpEndpoint(url=server.url, token=server.token)


def scratch_dir(home: Path) -> Path:
    scratch = home / "scratch"
    scratch.mkdir(mode=0o700)
    return scratch


def codex_home(home: Path) -> Path:
    path = home / ".codex"
    path.mkdir(exist_ok=True)
    return path


def test_the_runner_names_the_server_as_these_tests_expect() -> None:
    # The other interop modules hard-code the name clients see; keep them in step with the runner.
    assert SERVER_KEY == SERVER_NAME_IN_CLIENTS


def test_claude_launched_as_the_runner_launches_it_reports_the_server_connected(
    pruner_server: RunningServer, client_home: Path
) -> None:
    provider = ClaudeProvider(command=(str(claude_executable()),))
    launch = provider.launch(CLAUDE_PRINT_ARGS, endpoint_of(pruner_server), scratch_dir(client_home))

    init = claude_init_event(
        launch.argv, launch.environment(client_env(client_home, CLAUDE_ENV)), pruner_server.root
    )

    assert mcp_server_status(init, SERVER_KEY) == "connected", init["mcp_servers"]
    for tool in EXPECTED_TOOLS:
        assert f"mcp__{SERVER_KEY}__{tool}" in init["tools"], tool


def test_claude_expands_the_token_reference_of_the_printed_mcp_config(
    pruner_server: RunningServer, client_home: Path
) -> None:
    # `jeeves mcp-config --provider claude` prints `${JEEVES_MCP_TOKEN}`, never the secret itself.
    config = client_home / "mcp.json"
    config.write_text(json.dumps(mcp_config_json(pruner_server.url)), encoding="utf-8")
    env = client_env(client_home, {**CLAUDE_ENV, TOKEN_ENV: pruner_server.token})

    init = claude_init_event(claude_argv(config), env, pruner_server.root)

    assert mcp_server_status(init, SERVER_KEY) == "connected", init["mcp_servers"]


@pytest.mark.anyio
async def test_codex_app_server_with_the_runners_overrides_lists_our_tools_and_calls_read(
    pruner_server: RunningServer, client_home: Path
) -> None:
    codex = node_client("codex")
    launch = CodexProvider(command=(str(codex),)).launch((), endpoint_of(pruner_server), client_home)
    # The runner runs `codex exec <overrides>`; the app-server takes the same `-c` overrides.
    assert launch.argv[:2] == (str(codex), "exec"), launch.argv
    env = launch.environment(client_env(client_home, {"CODEX_HOME": str(codex_home(client_home))}))

    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with open_codex_app_server(
            codex,
            list(launch.argv[2:]),
            env=env,
            cwd=pruner_server.root,
            stderr_path=client_home / "codex.stderr.log",
        ) as app_server:
            await app_server.initialize()
            ours = await app_server.server_status(SERVER_KEY)
            arguments = {"path": SAMPLE_FILE, "context_focus_question": FOCUS_QUESTION}
            read = await app_server.call_tool(await app_server.start_thread(), SERVER_KEY, "read", arguments)

    assert ours["toolsError"] is None, ours
    assert set(ours["tools"]) == set(MODEL_TOOLS)
    assert read.get("isError") is not True, read
    # The runner asks for the text view: what Codex hands its model is the pruned lines themselves.
    assert read.get("structuredContent") is None, read
    text = read["content"][0]["text"]
    assert f"def {TARGET_FUNCTION}" in text
    assert any(MODEL_MARKER.match(line) for line in text.split("\n"))
    assert not text.startswith("{")


@pytest.mark.anyio
async def test_codex_app_server_with_the_printed_config_toml_lists_our_tools(
    pruner_server: RunningServer, client_home: Path
) -> None:
    # `jeeves mcp-config --provider codex` prints this table for ~/.codex/config.toml.
    home = codex_home(client_home)
    (home / "config.toml").write_text(codex_toml(pruner_server.url), encoding="utf-8")
    env = client_env(client_home, {"CODEX_HOME": str(home), TOKEN_ENV: pruner_server.token})

    with anyio.fail_after(CLIENT_TIMEOUT_S):
        async with open_codex_app_server(
            node_client("codex"),
            [],
            env=env,
            cwd=pruner_server.root,
            stderr_path=client_home / "codex.stderr.log",
        ) as app_server:
            await app_server.initialize()
            ours = await app_server.server_status(SERVER_KEY)

    assert set(ours["tools"]) == set(MODEL_TOOLS), ours


def test_jeeves_run_starts_the_server_and_hands_it_to_the_real_claude(
    tmp_path: Path, client_home: Path
) -> None:
    """The whole chain, from `jeeves run --provider claude` to the real `claude` seeing our tools.

    The runner spawns the server, proves it healthy, writes the config and starts `claude`,
    whose stdout it passes through: its init event must report our server connected.
    """
    workdir = tmp_path / "work"
    workdir.mkdir()
    claude = shlex.quote(str(claude_executable()))
    env = client_env(client_home, {**CLAUDE_ENV, "JEEVES_CLAUDE_COMMAND": claude})

    run = run_client(
        [
            str(jeeves_executable()),
            "run",
            "--provider",
            "claude",
            "--cwd",
            str(workdir),
            "--",
            *CLAUDE_PRINT_ARGS,
        ],
        env=env,
        cwd=workdir,
    )

    first_line = run.stdout.partition("\n")[0]
    assert first_line, run.describe()
    init = json.loads(first_line)
    statuses = {entry["name"]: entry["status"] for entry in init["mcp_servers"]}
    assert statuses.get(SERVER_KEY) == "connected", run.describe()
    assert f"mcp__{SERVER_KEY}__read" in init["tools"]
    events = [json.loads(line)["event"] for line in run.stderr.splitlines() if line.startswith("{")]
    assert {"mcp_pruner.ready", "mcp_pruner.stopped"} <= set(events), run.describe()
    # Claude without a login exits 1, and the run's exit code is the provider's.
    assert run.returncode == 1, run.describe()
