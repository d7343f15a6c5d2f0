"""A model's tool call through the stdio server, as the agents spawn it after `jeeves install`.

The models are scripted (`fake_models.py`): the first turn calls our `read` with a focus
question, the next one (which carries the tool result) ends the session. Claude Code runs as a
plain `claude -p` (after `jeeves install claude`, and from a `"type": "stdio"` `--mcp-config`
entry); Codex as a plain `codex exec` after `jeeves install codex`. Either way the result the
model receives must be our pruned read, as plain text (`--result-view text`).
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from mcp_pruner_server.pruning.model_view import MODEL_MARKER
from runner.install import server_argv
from tests.interop.agent_dialects import claude_results, codex_results
from tests.interop.agent_loop import codex_home
from tests.interop.codex_one_shot import codex_exec_one_shot, jeeves_install
from tests.interop.fake_models import FakeModel, FinalText, JsonDict, ToolCall, Turn, serving
from tests.interop.interop_claude import CLAUDE_ENV, claude_executable
from tests.interop.interop_support import (
    FOCUS_QUESTION,
    SAMPLE_FILE,
    SERVER_NAME_IN_CLIENTS,
    TARGET_FUNCTION,
    client_env,
    node_client,
    run_client,
    sample_code,
    write_sample_tree,
)

pytestmark = pytest.mark.real_client

PROMPT = "Where is the tax applied?"


def _brain(results_of: Callable[[JsonDict], list[str]]) -> Callable[[JsonDict], Turn]:
    """Call our `read` with the focus question, then stop once the request carries its result."""

    def turn(body: JsonDict) -> Turn:
        if results_of(body):
            return FinalText("done")
        return ToolCall("read", {"path": SAMPLE_FILE, "context_focus_question": FOCUS_QUESTION})

    return turn


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    write_sample_tree(root)
    return root


def assert_pruned_read(text: str) -> None:
    # Our plain text block, verbatim: the kept lines under their numbers, and markers.
    assert re.search(rf"^\d+ def {TARGET_FUNCTION}\(lines, tax_rate\):$", text, re.MULTILINE), text
    assert any(MODEL_MARKER.match(line) for line in text.split("\n"))
    assert not text.lstrip().startswith("{"), "the model must not get the result's JSON"
    assert len(text) < len(sample_code()) / 2


@pytest.mark.parametrize("registered_by", ["jeeves install --allow-tools", "--mcp-config stdio entry"])
def test_claude_p_calls_the_stdio_servers_read_and_its_model_gets_the_pruned_text(
    project: Path, client_home: Path, registered_by: str
) -> None:
    model = FakeModel("anthropic", _brain(claude_results), SERVER_NAME_IN_CLIENTS)
    with serving(model) as url:
        env = client_env(
            client_home, {**CLAUDE_ENV, "ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "scripted"}
        )
        claude = [str(claude_executable()), "-p", PROMPT]
        if registered_by == "jeeves install --allow-tools":
            jeeves_install("claude", env, project, "--allow-tools")  # then a plain `claude -p` calls it
        else:
            claude += ["--allowedTools", f"mcp__{SERVER_NAME_IN_CLIENTS}"]
            argv = server_argv()  # what `jeeves install` registers
            entry = {"type": "stdio", "command": argv[0], "args": argv[1:]}
            config = client_home / "mcp.json"
            config.write_text(json.dumps({"mcpServers": {SERVER_NAME_IN_CLIENTS: entry}}), encoding="utf-8")
            claude += ["--mcp-config", str(config), "--strict-mcp-config"]

        run = run_client(claude, env=env, cwd=project)

    assert run.returncode == 0, run.describe()
    assert not model.errors, model.errors
    results = [text for request in model.requests for text in claude_results(request.body)]
    assert results, run.describe()
    assert_pruned_read(results[0])


def test_codex_exec_has_the_optional_stdio_servers_tools_in_its_first_request_and_gets_a_pruned_read(
    tmp_path: Path,
) -> None:
    # No `--required`: Codex builds a one-shot's only turn about a second after it starts, with
    # whatever optional servers have listed their tools by then (issue 28).
    shot = codex_exec_one_shot(tmp_path)

    assert shot.run.returncode == 0, shot.run.describe()
    assert not shot.model_errors, shot.model_errors
    assert shot.tools_in_first_request, shot.run.describe()
    assert shot.results, shot.run.describe()
    assert_pruned_read(shot.results[0])


def test_codex_exec_calls_the_stdio_servers_read_after_jeeves_install_codex_required(
    project: Path, client_home: Path
) -> None:
    # `--required`: Codex waits for the server before its first turn (and stops without it).
    model = FakeModel("responses", _brain(codex_results), SERVER_NAME_IN_CLIENTS)
    with serving(model) as url:
        home = codex_home(client_home, url)  # the scripted model provider only
        env = client_env(client_home, {"CODEX_HOME": str(home), "SCRIPTED_MODEL_KEY": "scripted"})
        jeeves_install("codex", env, project, "--required")
        codex = [str(node_client("codex")), "exec", "--skip-git-repo-check", PROMPT]

        run = run_client(codex, env=env, cwd=project)

    assert run.returncode == 0, run.describe()
    assert not model.errors, model.errors
    results = [text for request in model.requests for text in codex_results(request.body)]
    assert results, run.describe() + f"\nrequests: {len(model.requests)}; {shlex.join(codex)}"
    assert_pruned_read(results[0])
