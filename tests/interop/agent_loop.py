"""An offline agent loop: the real Claude Code or Codex, started by `jeeves run`, driven by a script.

The scripted model (`fake_models.py`, `agent_script.py`) plays a debugging session on a copy of
the demo project `runner/demo/sample_project`. The agent is started exactly as a user starts
it (`jeeves run --provider claude|codex -- PROMPT`): the only settings added are the model
endpoint (env for Claude, a temporary `CODEX_HOME` for Codex) and, for `replace`, the runner's
own `JEEVES_MCP_PRUNER_TOOLS_MODE`. Everything the tests assert comes from the requests the
model received (`agent_dialects.py` reads them, `agent_report.py` measures them).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import anyio

from tests.interop.agent_dialects import DIALECTS, Dialect, brain_for
from tests.interop.agent_script import PROMPT, Script
from tests.interop.fake_models import FakeModel, JsonDict, Recorded, serving
from tests.interop.interop_claude import CLAUDE_ENV, claude_executable
from tests.interop.interop_support import (
    REPO_ROOT,
    SERVER_NAME_IN_CLIENTS,
    client_env,
    jeeves_executable,
    node_client,
    tail,
)

SAMPLE_PROJECT = REPO_ROOT / "runner" / "demo" / "sample_project"
# A whole session takes 3-6 s here (the test suite in `bash` is ~1 s); the bound stops a hang
# well inside pytest's own timeout.
AGENT_RUN_TIMEOUT_S = 50.0
AGENT_KILL_WAIT_S = 5.0  # reaping the agent's group after SIGKILL
# Claude Code's tools that read files, search and run commands (`replace` removes them).
CLAUDE_BUILTINS = ("Read", "Grep", "Glob", "Bash")
CODEX_SHELL_TOOLS = ("exec_command", "shell")


@dataclass(frozen=True)
class AgentRun:
    """One session: the agent's exit, its output, and every request the model received."""

    agent: str
    tools_mode: str
    returncode: int
    stdout: str
    stderr: str
    requests: tuple[Recorded, ...]
    model_errors: tuple[str, ...]
    project: Path

    def describe(self) -> str:
        return (
            f"jeeves run --provider {self.agent} exited {self.returncode}; "
            f"model errors: {self.model_errors}\n"
            f"stdout:\n{tail(self.stdout)}\nstderr:\n{tail(self.stderr)}"
        )

    @property
    def dialect(self) -> Dialect:
        return DIALECTS[self.agent]

    @property
    def loop_requests(self) -> list[JsonDict]:
        """The agent loop's requests (those that carry our tools), in order."""
        return [r.body for r in self.requests if "read" in self.dialect.our_tools(r.body)]

    @property
    def results(self) -> list[str]:
        """Every tool result the model received, in order (from the last request of the loop)."""
        loop = self.loop_requests
        return self.dialect.results(loop[-1]) if loop else []


def copy_project(base: Path) -> Path:
    target = base / "sample_project"
    shutil.copytree(
        SAMPLE_PROJECT, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    )
    return target


def codex_home(home: Path, model_url: str) -> Path:
    """A temporary `CODEX_HOME` whose only setting is the scripted model provider."""
    path = home / ".codex"
    path.mkdir(exist_ok=True)
    (path / "config.toml").write_text(
        'model_provider = "scripted"\nmodel = "scripted"\n\n'
        "[model_providers.scripted]\n"
        'name = "scripted"\n'
        f'base_url = "{model_url}/v1"\n'
        'wire_api = "responses"\n'
        'env_key = "SCRIPTED_MODEL_KEY"\n',
        encoding="utf-8",
    )
    return path


def agent_command(
    agent: str, model_url: str, home: Path, project: Path, tools_mode: str
) -> tuple[list[str], dict[str, str]]:
    """`jeeves run --provider AGENT -- PROMPT` and its environment (the model endpoint only)."""
    jeeves = [str(jeeves_executable()), "run", "--provider", agent, "--cwd", str(project), "--"]
    extra = {"JEEVES_MCP_PRUNER_TOOLS_MODE": tools_mode}
    if agent == "claude":
        extra |= {
            **CLAUDE_ENV,
            "ANTHROPIC_BASE_URL": model_url,
            "ANTHROPIC_API_KEY": "scripted",
            "JEEVES_CLAUDE_COMMAND": shlex.quote(str(claude_executable())),
        }
        return [*jeeves, "-p", PROMPT], client_env(home, extra)
    extra |= {
        "CODEX_HOME": str(codex_home(home, model_url)),
        "SCRIPTED_MODEL_KEY": "scripted",
        "JEEVES_CODEX_COMMAND": shlex.quote(str(node_client("codex"))),
    }
    # Not a git repository: a user says so to `codex exec` with this flag.
    return [*jeeves, "--skip-git-repo-check", PROMPT], client_env(home, extra)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


async def run_agent(agent: str, workdir: Path, tools_mode: str = "prefer") -> AgentRun:
    """One scripted session of `agent` on a fresh copy of the sample project under `workdir`.

    Raises:
        TimeoutError: the session took longer than `AGENT_RUN_TIMEOUT_S` (its group is killed).
    """
    project = copy_project(workdir)
    home = workdir / "home"
    home.mkdir()
    script = Script(project, sys.executable)
    model = FakeModel(DIALECTS[agent].kind, brain_for(DIALECTS[agent], script), SERVER_NAME_IN_CLIENTS)
    with serving(model) as url:
        argv, env = agent_command(agent, url, home, project, tools_mode)
        process = await anyio.open_process(
            argv, stdin=subprocess.DEVNULL, env=env, cwd=project, start_new_session=True
        )
        try:
            with anyio.fail_after(AGENT_RUN_TIMEOUT_S):
                stdout, stderr = await _communicate(process)
                returncode = await process.wait()
        finally:
            _kill_group(process.pid)  # helpers the agent left behind (the npm wrapper's child)
            with anyio.CancelScope(shield=True), anyio.move_on_after(AGENT_KILL_WAIT_S):
                await process.aclose()
    return AgentRun(
        agent, tools_mode, returncode, stdout, stderr, tuple(model.requests), tuple(model.errors), project
    )


async def _communicate(process: anyio.abc.Process) -> tuple[str, str]:
    chunks: dict[str, list[bytes]] = {"stdout": [], "stderr": []}

    async def drain(name: str, stream: anyio.abc.ByteReceiveStream | None) -> None:
        if stream is not None:
            async for chunk in stream:
                chunks[name].append(chunk)

    async with anyio.create_task_group() as group:
        group.start_soon(drain, "stdout", process.stdout)
        group.start_soon(drain, "stderr", process.stderr)
    return (
        b"".join(chunks["stdout"]).decode("utf-8", "replace"),
        b"".join(chunks["stderr"]).decode("utf-8", "replace"),
    )
