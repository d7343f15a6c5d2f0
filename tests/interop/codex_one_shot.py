"""One `codex exec` one-shot with our stdio server registered by `jeeves install codex` (optional).

Codex gives an optional MCP server a short time to list its tools before it builds the turn,
and builds it without them otherwise (README, `jeeves install`); a required server is waited
for. This drives the real pinned Codex against a scripted model (`fake_models.py`) whose first
turn calls our `read` when our tools are in the request, and reports what the model saw: our
tools in the first request, and the tool result the next request carried. The test
(`test_stdio_agent_tool_calls.py`) runs it once; `benchmarks/bench_startup.py` 10 times, at
rest and with every core busy.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from mcp_pruner_server.pruning.model_view import MODEL_MARKER
from tests.interop.agent_dialects import codex_our_tools, codex_results
from tests.interop.agent_loop import codex_home
from tests.interop.fake_models import FakeModel, FinalText, JsonDict, ToolCall, Turn, serving
from tests.interop.interop_support import (
    CLIENT_TIMEOUT_S,
    FOCUS_QUESTION,
    SAMPLE_FILE,
    SERVER_NAME_IN_CLIENTS,
    TARGET_FUNCTION,
    ClientRun,
    client_env,
    jeeves_executable,
    node_client,
    run_client,
    write_sample_tree,
)

PROMPT = "Where is the tax applied?"


@dataclass(frozen=True)
class OneShot:
    """What one `codex exec` run showed its model."""

    run: ClientRun
    requests: int
    tools_in_first_request: bool
    results: tuple[str, ...]  # every tool result text the model received, in order
    model_errors: tuple[str, ...]

    @property
    def pruned_read(self) -> bool:
        """The model got our pruned `read` back: kept lines under their numbers, a marker."""
        return bool(self.results) and is_pruned_read(self.results[0])


def is_pruned_read(text: str) -> bool:
    lines = text.split("\n")
    return (
        any(re.fullmatch(rf"\d+ def {TARGET_FUNCTION}\(lines, tax_rate\):", line) for line in lines)
        and any(MODEL_MARKER.match(line) for line in lines)
        and not text.lstrip().startswith("{")
    )


def _brain(body: JsonDict) -> Turn:
    """Read with the focus question when our tools are offered; stop once the result came back."""
    if codex_results(body) or "read" not in codex_our_tools(body):
        return FinalText("done")
    return ToolCall("read", {"path": SAMPLE_FILE, "context_focus_question": FOCUS_QUESTION})


def jeeves_install(agent: str, env: dict[str, str], cwd: Path, *flags: str) -> None:
    """`jeeves install AGENT FLAGS` as a user runs it.

    Raises:
        AssertionError: the install failed (its stderr is the message).
    """
    done = subprocess.run(
        [str(jeeves_executable()), "install", agent, *flags],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=CLIENT_TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr


def codex_exec_one_shot(workdir: Path, *install_flags: str) -> OneShot:
    """Install our server for Codex into a fresh HOME under `workdir`, then one `codex exec`."""
    project = workdir / "project"
    home = workdir / "home"
    project.mkdir(parents=True)
    home.mkdir()
    write_sample_tree(project)
    model = FakeModel("responses", _brain, SERVER_NAME_IN_CLIENTS)
    with serving(model) as url:
        codex_dir = codex_home(home, url)  # the scripted model provider only
        env = client_env(home, {"CODEX_HOME": str(codex_dir), "SCRIPTED_MODEL_KEY": "scripted"})
        jeeves_install("codex", env, project, *install_flags)
        codex = [str(node_client("codex")), "exec", "--skip-git-repo-check", PROMPT]
        run = run_client(codex, env=env, cwd=project)
    bodies = [request.body for request in model.requests]
    return OneShot(
        run=run,
        requests=len(bodies),
        tools_in_first_request=bool(bodies) and "read" in codex_our_tools(bodies[0]),
        results=tuple(text for body in bodies for text in codex_results(body)),
        model_errors=tuple(model.errors),
    )
