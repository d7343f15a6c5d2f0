"""`jeeves run` makes our server `required` for Codex: the real `codex exec`, given the arguments
`jeeves run` gives it, waits for a server that is slow to list its tools before its first turn.

Codex gives an optional server about a second (docs/agents.md); on a loaded machine our HTTP
server's handshake can take longer, and the model's first turn then has no tool of ours (the
agent-loop test failed that way under load). The slow server is a stand-in
(`slow_listing_server.py`): the load that makes ours that slow cannot be produced on demand.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.providers.codex import build_codex_args
from tests.interop.agent_dialects import codex_our_tools, codex_results
from tests.interop.agent_loop import codex_home
from tests.interop.fake_models import FakeModel, FinalText, JsonDict, ToolCall, Turn, serving
from tests.interop.interop_support import (
    CLIENT_TIMEOUT_S,
    SERVER_NAME_IN_CLIENTS,
    client_env,
    node_client,
    run_client,
)
from tests.interop.slow_listing_server import READ_ANSWER

pytestmark = [pytest.mark.real_client]

SLOW_SERVER = Path(__file__).with_name("slow_listing_server.py")


@pytest.fixture
def slow_server_url() -> Iterator[str]:
    process = subprocess.Popen([sys.executable, str(SLOW_SERVER)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        port = process.stdout.readline().strip()
        assert port.isdigit(), port
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.kill()
        process.wait(CLIENT_TIMEOUT_S)
        if process.stdout is not None:
            process.stdout.close()


def _brain(body: JsonDict) -> Turn:
    """Read when our tools are offered; stop once the result came back (or without them)."""
    if codex_results(body) or "read" not in codex_our_tools(body):
        return FinalText("done")
    return ToolCall("read", {"path": "app.py"})


def test_codex_under_jeeves_run_waits_for_a_server_slow_to_list_its_tools(
    tmp_path: Path, slow_server_url: str
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    model = FakeModel("responses", _brain, SERVER_NAME_IN_CLIENTS)
    with serving(model) as url:
        env = client_env(
            home,
            {
                "CODEX_HOME": str(codex_home(home, url)),
                "SCRIPTED_MODEL_KEY": "scripted",
                "JEEVES_MCP_TOKEN": "unused-by-the-stand-in",
            },
        )
        prompt = ["--skip-git-repo-check", "Where is the tax applied?"]
        argv = build_codex_args(slow_server_url, prompt, (str(node_client("codex")),))
        run = run_client(argv, env=env, cwd=tmp_path)

    assert run.returncode == 0, run.describe()
    assert not model.errors, model.errors
    bodies = [request.body for request in model.requests]
    assert bodies, run.describe()
    assert "read" in codex_our_tools(bodies[0]), run.describe()
    assert any(READ_ANSWER in text for body in bodies for text in codex_results(body)), run.describe()
