"""An offline agent loop: the real Claude Code or Codex, started by `jeeves run`, driven by a script.

The scripted model (`fake_models.py`) plays a debugging session on a copy of the demo project
`runner/demo/sample_project`: a focused `read` of `shop/pricing.py`, a `grep` for the
symbol, `bash` running the failing tests, then `recover_text` of the pruned range holding the
helper `bulk_discount` calls — the range it reads off the marker in the `read` result it
received, as a model would. The agent is started exactly as a user starts it (`jeeves run
--provider claude|codex -- PROMPT`): the only settings added are the model endpoint (env for
Claude, a temporary `CODEX_HOME` for Codex) and, for `replace`, the runner's own
`JEEVES_MCP_PRUNER_TOOLS_MODE`.

Everything the tests assert comes from the requests the model received. `python
tests/interop/agent_loop.py` runs both agents and prints the per-step token table.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from fake_models import FakeModel, FinalText, JsonDict, Recorded, ToolCall, Turn, serving
from interop_claude import CLAUDE_ENV, claude_executable
from interop_support import (
    REPO_ROOT,
    SERVER_NAME_IN_CLIENTS,
    client_env,
    jeeves_executable,
    node_client,
    tail,
)

from runner.bench.tokens import count_tokens, tokenizer
from runner.demo import lines as ln
from runner.demo.session import (
    BASH_QUESTION,
    FAILING_TEST,
    FOCUS_FUNCTION,
    GREP_PATTERN,
    GREP_QUESTION,
    HELPERS_NEEDED,
    READ_QUESTION,
    SOURCE_FILE,
    TESTS_DIR,
)
from tools_exec.grep_rg import find_rg

SAMPLE_PROJECT = REPO_ROOT / "runner" / "demo" / "sample_project"
# A whole session takes 3-6 s here (the test suite in `bash` is ~1 s); the bound stops a hang
# well inside pytest's own timeout.
AGENT_RUN_TIMEOUT_S = 50.0
AGENT_KILL_WAIT_S = 5.0  # reaping the agent's group after SIGKILL
# Claude Code's tools that read files, search and run commands (`replace` removes them).
CLAUDE_BUILTINS = ("Read", "Grep", "Glob", "Bash")
CODEX_SHELL_TOOLS = ("exec_command", "shell")
PROMPT = f"Why does {FAILING_TEST} fail? Find the cause."
ANSWER = "bulk_discount uses > where the rule says 'from BULK_MIN_QUANTITY units on': it must be >=."
NAMESPACE = f"mcp__{SERVER_NAME_IN_CLIENTS}"
# Codex puts this before a tool's output in the `function_call_output` it sends the model.
_CODEX_PREFIX = re.compile(r"^Wall time: [0-9.]+ seconds\nOutput:\n?")
_NUMBERED = re.compile(r"^\d+│ ")
_MARKER_LINE = re.compile(r"^⟦PRUNÉ: prune_id=\S+ lignes \d+-\d+ \(\d+\) raison=.*⟧$")


def bash_command(python: str) -> str:
    return f"{shlex.quote(python)} -m pytest -v -p no:cacheprovider {TESTS_DIR}"


@dataclass(frozen=True)
class Step:
    """One scripted tool call and what the built-in tool would have returned for it."""

    label: str
    tool: str
    arguments: Mapping[str, object]


class Script:
    """The model: reads the tool results in the conversation so far and chooses the next turn."""

    def __init__(self, project: Path, python: str) -> None:
        self.project = project
        self.python = python
        self.source = (project / SOURCE_FILE).read_text(encoding="utf-8")

    def first_steps(self) -> list[Step]:
        return [
            Step(SOURCE_FILE, "read", {"path": SOURCE_FILE, "context_focus_question": READ_QUESTION}),
            Step(
                f"{GREP_PATTERN!r} in the project",
                "grep",
                {"pattern": GREP_PATTERN, "paths": ["."], "context_focus_question": GREP_QUESTION},
            ),
            Step(
                f"pytest -v {TESTS_DIR}",
                "bash",
                {
                    "cmd": bash_command(self.python),
                    "env": {"PYTHONDONTWRITEBYTECODE": "1"},
                    "timeout_ms": 120_000,
                    "context_focus_question": BASH_QUESTION,
                },
            ),
        ]

    def helper_needed(self, read_text: str) -> tuple[str, dict[int, str]]:
        """The first helper of `bulk_discount` whose lines the read result does not show."""
        shown = ln.shown_lines(read_text, pruned=True)
        for name in HELPERS_NEEDED:
            lines = ln.function_lines(self.source, name)
            if ln.missing(lines, shown):
                return name, lines
        name = HELPERS_NEEDED[0]
        return name, ln.function_lines(self.source, name)

    def recover_step(self, read_text: str) -> Step:
        """`recover_text` of the needed span of the marker(s) hiding the helper, read off the text."""
        name, needed = self.helper_needed(read_text)
        lost = ln.missing(needed, ln.shown_lines(read_text, pruned=True))
        hiding = ln.ranges_covering(lost, ln.markers(read_text))
        if not hiding:
            raise AssertionError(f"no marker in the read result hides {name}:\n{read_text}")
        first, last = min(lost), max(lost)
        ranges = [{"start_line": max(r.start_line, first), "end_line": min(r.end_line, last)} for r in hiding]
        arguments = {"prune_id": hiding[0].prune_id, "ranges": ranges, "include_line_numbers": True}
        return Step(f"{name} (lines {first}-{last})", "recover_text", arguments)

    def next_turn(self, results: Sequence[str]) -> Turn:
        steps = self.first_steps()
        if len(results) < len(steps):
            step = steps[len(results)]
            return ToolCall(step.tool, step.arguments)
        if len(results) == len(steps):
            step = self.recover_step(plain(results[0]))
            return ToolCall(step.tool, step.arguments)
        return FinalText(ANSWER)


def plain(text: str) -> str:
    """A tool result without the envelope the agent adds (Codex's wall-time header)."""
    return _CODEX_PREFIX.sub("", text, count=1)


# --- The two dialects: where our tools, the guidance and the tool results sit in a request. ---


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(block.get("text", "")) for block in content if isinstance(block, dict) and "text" in block
        )
    return ""


def claude_results(body: JsonDict) -> list[str]:
    results = []
    for message in body.get("messages", []):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    results.append(_text_of(block.get("content")))
    return results


def codex_results(body: JsonDict) -> list[str]:
    return [
        _text_of(item.get("output"))
        for item in body.get("input", [])
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    ]


def claude_our_tools(body: JsonDict) -> dict[str, JsonDict]:
    prefix = f"{NAMESPACE}__"
    return {
        t["name"].removeprefix(prefix): t
        for t in body.get("tools", [])
        if t.get("name", "").startswith(prefix)
    }


def codex_namespace(body: JsonDict) -> JsonDict | None:
    return next((t for t in body.get("tools", []) if t.get("name") == NAMESPACE), None)


def codex_our_tools(body: JsonDict) -> dict[str, JsonDict]:
    namespace = codex_namespace(body)
    return {t["name"]: t for t in (namespace or {}).get("tools", [])}


def claude_tool_names(body: JsonDict) -> list[str]:
    return [str(t.get("name")) for t in body.get("tools", [])]


def codex_tool_names(body: JsonDict) -> list[str]:
    return [str(t.get("name")) for t in body.get("tools", [])]


def claude_instructions(body: JsonDict) -> str:
    return _text_of(body.get("system"))


def codex_instructions(body: JsonDict) -> str:
    return "\n".join(
        _text_of(item.get("content"))
        for item in body.get("input", [])
        if isinstance(item, dict) and item.get("role") == "developer"
    )


@dataclass(frozen=True)
class Dialect:
    """How one agent's requests are read."""

    agent: str
    kind: str  # the fake model's wire format
    results: Any
    our_tools: Any
    tool_names: Any
    instructions: Any

    def tool_definition_tokens(self, body: JsonDict) -> int:
        """Tokens our tool definitions add to a request, as the agent serialized them."""
        if self.agent == "codex":
            return count_tokens(json.dumps(codex_namespace(body), ensure_ascii=False))
        return sum(count_tokens(json.dumps(t, ensure_ascii=False)) for t in self.our_tools(body).values())


CLAUDE = Dialect(
    "claude", "anthropic", claude_results, claude_our_tools, claude_tool_names, claude_instructions
)
CODEX = Dialect("codex", "responses", codex_results, codex_our_tools, codex_tool_names, codex_instructions)
DIALECTS = {"claude": CLAUDE, "codex": CODEX}


def brain_for(dialect: Dialect, script: Script) -> Any:
    def brain(body: JsonDict) -> Turn:
        if "read" not in dialect.our_tools(body):
            return FinalText("ok")  # a side request (a title, a summary): not the agent loop
        return script.next_turn(dialect.results(body))

    return brain


# --- Running the agent under `jeeves run`. ---


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


# --- What the built-in tools would have returned, and the per-step report. ---


def builtin_read(project: Path, path: str, agent: str) -> str:
    """Claude Code's `Read` numbers every line like `cat -n`; Codex runs `cat` through its shell."""
    text = (project / path).read_text(encoding="utf-8")
    if agent == "codex":
        return text
    return "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(text.split("\n"), start=1))


def builtin_grep(project: Path, pattern: str) -> str:
    """`rg -n PATTERN .`, as a shell or grep tool prints it."""
    rg = find_rg() or "rg"
    run = subprocess.run([rg, "-n", pattern, "."], cwd=project, capture_output=True, text=True, check=False)
    return run.stdout


def builtin_bash(project: Path, cmd: str) -> str:
    """The command's stdout and stderr, as a shell tool returns them."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run(
        ["bash", "-c", cmd], cwd=project, capture_output=True, text=True, env=env, check=False
    )
    return run.stdout + run.stderr + f"\nexit code: {run.returncode}"


@dataclass(frozen=True)
class StepTokens:
    label: str
    tool: str
    raw_tokens: int
    received_tokens: int

    @property
    def saved_pct(self) -> float:
        return 100.0 * (self.raw_tokens - self.received_tokens) / self.raw_tokens if self.raw_tokens else 0.0


def step_tokens(run: AgentRun) -> list[StepTokens]:
    """Per step: what the built-in tool would have returned vs what the model received."""
    script = Script(run.project, sys.executable)
    steps = script.first_steps()
    results = run.results
    if results:
        steps.append(script.recover_step(plain(results[0])))
    rows = []
    for step, received in zip(steps, results, strict=False):
        if step.tool == "read":
            raw = builtin_read(run.project, SOURCE_FILE, run.agent)
        elif step.tool == "grep":
            raw = builtin_grep(run.project, GREP_PATTERN)
        elif step.tool == "bash":
            raw = builtin_bash(run.project, bash_command(sys.executable))
        else:  # a built-in Read of the same range
            ranges = step.arguments["ranges"]
            assert isinstance(ranges, list)
            numbered = builtin_read(run.project, SOURCE_FILE, run.agent).split("\n")
            raw = "\n".join("\n".join(numbered[r["start_line"] - 1 : r["end_line"]]) for r in ranges)
        rows.append(StepTokens(step.label, step.tool, count_tokens(raw), count_tokens(received)))
    return rows


def report(run: AgentRun) -> str:
    """The per-step table of one session, as plain text."""
    rows = step_tokens(run)
    first = run.loop_requests[0] if run.loop_requests else {}
    definitions = run.dialect.tool_definition_tokens(first)
    guidance = count_tokens(_guidance())
    out = [
        f"{run.agent} (tools_mode={run.tools_mode}), {len(run.loop_requests)} model requests; "
        f"tokens: {tokenizer().name}",
        f"{'step':<28} {'tool':<13} {'raw (built-in)':>15} {'received':>9} {'saved':>7}",
    ]
    for row in rows:
        numbers = f"{row.raw_tokens:>15,} {row.received_tokens:>9,} {row.saved_pct:>6.1f}%"
        out.append(f"{row.label:<28} {row.tool:<13} {numbers}")
    raw_total = sum(r.raw_tokens for r in rows)
    received_total = sum(r.received_tokens for r in rows)
    saved = 100.0 * (raw_total - received_total) / raw_total if raw_total else 0.0
    out.append(f"{'TOTAL':<28} {'':<13} {raw_total:>15,} {received_total:>9,} {saved:>6.1f}%")
    out.append(
        f"per request: our tool definitions {definitions:,} tokens "
        f"({', '.join(sorted(run.dialect.our_tools(first)))}), the guidance {guidance:,} tokens"
    )
    return "\n".join(out)


def _guidance() -> str:
    from runner.providers.guidance import guidance_text

    return guidance_text()


# --- Checks shared by the tests. ---


def kept_chars(text: str) -> int:
    """Characters of the kept lines (numbered lines and markers) in a tool result."""
    return sum(
        len(line) + 1 for line in text.split("\n") if _NUMBERED.match(line) or _MARKER_LINE.match(line)
    )


def _same_line(a: str, b: str) -> bool:
    """Equal, or equal up to where pytest cut the longer one to the terminal width (`...`)."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return short.endswith("...") and long.startswith(short[:-3])


def needed_lines_missing(run: AgentRun) -> list[str]:
    """Lines the session needs that reached the model neither directly nor through recover_text."""
    results = [plain(r) for r in run.results]
    if len(results) < 4:
        return [f"only {len(results)} tool results reached the model"]
    read, grep, bash, recovered = results[:4]
    script = Script(run.project, sys.executable)
    problems: list[str] = []
    shown = ln.shown_lines(read, pruned=True)
    for n, text in ln.missing(ln.function_lines(script.source, FOCUS_FUNCTION), shown).items():
        problems.append(f"read: line {n} {text!r}")
    for path in sorted(run.project.rglob("*.py")):
        relative = path.relative_to(run.project).as_posix()
        for n, text in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
            if f"{FOCUS_FUNCTION}(" in text and f"{relative}:{n}:" not in grep:
                problems.append(f"grep: {relative}:{n}")
    raw_log = builtin_bash(run.project, bash_command(sys.executable))
    bash_shown = list(ln.shown_lines(bash, pruned=True).values())
    for text in ln.failure_lines(raw_log, FAILING_TEST).values():
        if not any(_same_line(text, shown_line) for shown_line in bash_shown):
            problems.append(f"bash: {text!r}")
    _, helper = script.helper_needed(read)
    lost = ln.missing(helper, shown)
    for n, text in ln.missing(lost, ln.shown_lines(recovered, pruned=True)).items():
        problems.append(f"recover_text: line {n} {text!r}")
    return problems


@contextlib.contextmanager
def _tmpdir() -> Iterator[Path]:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="agent-loop-") as name:
        yield Path(name)


def main() -> None:
    """Run both agents (prefer mode) and print their per-step tables."""
    for agent in ("claude", "codex"):
        with _tmpdir() as workdir:
            run = anyio.run(run_agent, agent, workdir)
            print(report(run))  # this script's output is the table
            print()


if __name__ == "__main__":
    main()
