"""What the model received, measured: per step, the built-in tool's output vs our tool result.

`python -m tests.interop.agent_report` (from the checkout) runs both agents (prefer mode) and prints
the table.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio

from mcp_pruner_server.pruning.model_view import MODEL_MARKER, MODEL_NUMBERED
from runner.bench.tokens import count_tokens, tokenizer
from runner.demo import lines as ln
from runner.demo.session import (
    FAILING_TEST,
    FOCUS_FUNCTION,
    GREP_PATTERN,
    SOURCE_FILE,
)
from runner.providers.guidance import guidance_text
from tests.interop.agent_loop import AgentRun, run_agent
from tests.interop.agent_script import SHELL_READ, Script, bash_command, plain
from tools_exec.grep_rg import find_rg


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


@functools.cache  # the table and the needed-lines check ask for the same run: under load, once
def builtin_bash(project: Path, cmd: str) -> str:
    """The command's stdout and stderr, as a shell tool returns them."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run(
        ["bash", "-c", cmd], cwd=project, capture_output=True, text=True, env=env, check=False
    )
    return run.stdout + run.stderr + f"\nexit code: {run.returncode}"


@dataclass(frozen=True)
class StepTokens:
    """One step's tokens: the built-in tool's output, the tool result as the model received it
    (with the agent's own wrapper, Codex's `Wall time: … Output:`), and our text block alone.
    The built-in's output is measured without the wrapper the agent puts around it too (Codex's
    own shell results carry a longer one: `Chunk ID`, `Wall time`, `Original token count`), so
    `ours` is the figure to compare with `raw_tokens`."""

    label: str
    tool: str
    raw_tokens: int
    received_tokens: int
    ours_tokens: int

    @property
    def saved_pct(self) -> float:
        """Share of the built-in's tokens our text block does not cost, in percent."""
        return 100.0 * (self.raw_tokens - self.ours_tokens) / self.raw_tokens if self.raw_tokens else 0.0


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
            raw = builtin_bash(run.project, str(step.arguments["cmd"]))
        else:  # a built-in Read of the same range
            ranges = step.arguments["ranges"]
            assert isinstance(ranges, list)
            numbered = builtin_read(run.project, SOURCE_FILE, run.agent).split("\n")
            raw = "\n".join("\n".join(numbered[r["start_line"] - 1 : r["end_line"]]) for r in ranges)
        ours = count_tokens(plain(received))
        rows.append(StepTokens(step.label, step.tool, count_tokens(raw), count_tokens(received), ours))
    return rows


def report(run: AgentRun, rows: Sequence[StepTokens] | None = None) -> str:
    """The per-step table of one session, as plain text (`rows`: its `step_tokens`, if measured)."""
    rows = step_tokens(run) if rows is None else rows
    first = run.loop_requests[0] if run.loop_requests else {}
    definitions = run.dialect.tool_definition_tokens(first)
    guidance = count_tokens(guidance_text())
    out = [
        f"{run.agent} (tools_mode={run.tools_mode}), {len(run.loop_requests)} model requests; "
        f"tokens: {tokenizer().name}",
        f"{'step':<30} {'tool':<13} {'raw (built-in)':>15} {'received':>9} {'ours':>6} {'saved':>7}",
    ]
    for row in rows:
        numbers = f"{row.raw_tokens:>15,} {row.received_tokens:>9,} {row.ours_tokens:>6,}"
        numbers += f" {row.saved_pct:>6.1f}%"
        out.append(f"{row.label:<30} {row.tool:<13} {numbers}")
    raw_total = sum(r.raw_tokens for r in rows)
    received_total = sum(r.received_tokens for r in rows)
    ours_total = sum(r.ours_tokens for r in rows)
    saved = 100.0 * (raw_total - ours_total) / raw_total if raw_total else 0.0
    out.append(
        f"{'TOTAL':<30} {'':<13} {raw_total:>15,} {received_total:>9,} {ours_total:>6,} {saved:>6.1f}%"
    )
    out.append("received: with the agent's own wrapper; ours: our text block (the built-in is measured bare)")
    out.append(
        f"per request: our tool definitions {definitions:,} tokens "
        f"({', '.join(sorted(run.dialect.our_tools(first)))}), the guidance {guidance:,} tokens"
    )
    return "\n".join(out)


def _guidance() -> str:

    return guidance_text()


def kept_chars(text: str) -> int:
    """Characters of the kept lines (numbered lines and markers) in a tool result."""
    return sum(
        len(line) + 1 for line in text.split("\n") if MODEL_NUMBERED.match(line) or MODEL_MARKER.match(line)
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
    if len(results) < 5:
        return [f"only {len(results)} tool results reached the model"]
    read, grep, bash, shell_read, recovered = results[:5]
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
    if ln.shown_lines(shell_read, pruned=True) != shown:
        problems.append(f"{SHELL_READ}: other lines than the read of {SOURCE_FILE}")
    _, helper = script.helper_needed(read)
    lost = ln.missing(helper, shown)
    ranges = script.recover_step(read).arguments["ranges"]
    assert isinstance(ranges, list)
    for n, text in ln.missing(lost, ln.served_lines(recovered, ranges)).items():
        problems.append(f"recover_text: line {n} {text!r}")
    return problems


def main() -> None:
    """Run both agents (prefer mode) and print their per-step tables."""
    for agent in ("claude", "codex"):
        with tempfile.TemporaryDirectory(prefix="agent-loop-") as workdir:
            run = anyio.run(run_agent, agent, Path(workdir))
            print(report(run))  # this script's output is the table
            print()


if __name__ == "__main__":
    main()
