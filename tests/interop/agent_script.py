"""The scripted model's side of the agent loop: a debugging session on the demo project.

The session: a focused `read` of `shop/pricing.py`, a `grep` for the symbol, `bash` running
the failing tests, the same file printed through `bash` (`sed -n`, as Codex reads files) with the
read's question, then `recover_text` of the pruned range holding the helper `bulk_discount`
calls — the range it reads off the marker in the `read` result it received and the `prune_id`
off that result's trailer, as a model would. It asks for the lines without numbers: it knows
their range, and numbers would make them cost more than the built-in read of the same lines.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from runner.demo import lines as ln
from runner.demo.session import (
    BASH_QUESTION,
    FAILING_TEST,
    GREP_PATTERN,
    GREP_QUESTION,
    HELPERS_NEEDED,
    READ_QUESTION,
    SOURCE_FILE,
    TESTS_DIR,
)
from tests.interop.fake_models import FinalText, ToolCall, Turn

PROMPT = f"Why does {FAILING_TEST} fail? Find the cause."
ANSWER = "bulk_discount uses > where the rule says 'from BULK_MIN_QUANTITY units on': it must be >=."
# Codex puts this before a tool's output in the `function_call_output` it sends the model.
_CODEX_PREFIX = re.compile(r"^Wall time: [0-9.]+ seconds\nOutput:\n?")


# The file read again through the shell: its output is pruned as the `read` of that file is.
SHELL_READ = f"sed -n '1,$p' {SOURCE_FILE}"


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
            Step(SHELL_READ, "bash", {"cmd": SHELL_READ, "context_focus_question": READ_QUESTION}),
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
        prune_ids = ln.trailer_prune_ids(read_text)
        if not hiding or not prune_ids:
            raise AssertionError(f"no marker or no prune_id in the read result for {name}:\n{read_text}")
        first, last = min(lost), max(lost)
        ranges = [{"start_line": max(r.start_line, first), "end_line": min(r.end_line, last)} for r in hiding]
        arguments = {"prune_id": prune_ids[0], "ranges": ranges, "include_line_numbers": False}
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
