"""The scripted agent session: four tool calls a coding agent would make to fix the sample's bug.

Each step calls the tool twice through the same MCP client: once without a focus question
(what an agent pays today: the raw output) and once with it (what it pays through the
pruner). Tokens are those of the result's text block, what an agent hands its model. The step
then checks that every line the agent needs is in what was sent, and the last step fetches
back, with `recover_text`, a pruned range the agent needs.
"""

from __future__ import annotations

import re
import shlex
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from runner.bench.tokens import count_tokens as count_exact
from runner.demo import lines as ln
from runner.demo.errors import NeededLinesMissing, ToolCallFailed

SOURCE_FILE = "shop/pricing.py"
TESTS_DIR = "tests"
FAILING_TEST = "test_bulk_discount_starts_at_the_threshold"
READ_QUESTION = "How is the bulk discount of an order line computed?"
GREP_PATTERN = "discount"
GREP_QUESTION = "Where is bulk_discount called?"
BASH_QUESTION = f"Why does {FAILING_TEST} fail?"
# The function the read step is about, and the helpers the agent then needs (first pruned one wins).
FOCUS_FUNCTION = "bulk_discount"
HELPERS_NEEDED = ("percent_of", "round_half_up")
# The test suite takes ~1 s; the bound only stops a wedged interpreter.
BASH_TIMEOUT_MS = 120_000
# Tool errors the agent expects: a failing test suite exits non-zero.
EXPECTED_ERRORS = {"bash": {"nonzero_exit"}}

Structured = Mapping[str, object]

# A prune id is random (`recovery.new_prune_id`), and how many tokens its 26 characters make
# varies with them: the demo counts every id as this one, so its figures repeat from run to run.
_PRUNE_ID = re.compile(r"prn_[0-9A-HJKMNP-TV-Z]{26}")
_COUNTED_ID = "prn_01M8H2X5VWQ0ZKH5DQ5XJK6D48"
# pytest's closing line says how long the suite took ("in 0.42s"): counted as a fixed duration.
_DURATION = re.compile(r"\bin \d+\.\d+s\b")
# pytest's `rootdir:` line names the run's private directory (`tempfile.mkdtemp`'s 8 random
# characters after `jeeves run`'s prefix): counted as a fixed name.
_RUN_DIR = re.compile(r"jeeves-demo-[a-z0-9_]{8}\b")


def count_tokens(text: str) -> int:
    """The tokens of `text` with its prune ids, the run's directory and the test suite's duration
    counted as fixed ones."""
    text = _RUN_DIR.sub("jeeves-demo-00000000", _PRUNE_ID.sub(_COUNTED_ID, text))
    return count_exact(_DURATION.sub("in 0.50s", text))


@dataclass(frozen=True)
class ToolAnswer:
    """One tool result: its `structuredContent` (checked) and its text block (what a model reads)."""

    structured: Structured
    text: str


class ToolCaller(Protocol):
    """Calls one MCP tool and returns its result (the session's only I/O)."""

    async def __call__(self, tool: str, arguments: Mapping[str, object]) -> ToolAnswer: ...


@dataclass(frozen=True)
class CallReport:
    """One agent call: what it would have cost raw, what it cost, and the needed-lines check."""

    step: str
    tool: str
    question: str | None
    raw_tokens: int
    sent_tokens: int
    applied: bool
    fallback: bool
    needed: int
    kept: int
    recovered: int
    seconds: float
    preview: tuple[str, ...] = ()

    @property
    def saved_pct(self) -> float:
        """Share of the raw tokens not sent, in percent."""
        return 100.0 * (self.raw_tokens - self.sent_tokens) / self.raw_tokens if self.raw_tokens else 0.0


def _pruning(result: Structured) -> Mapping[str, object]:
    meta = result.get("pruning")
    return meta if isinstance(meta, Mapping) else {}


def _text(result: Structured, key: str) -> str:
    value = result.get(key)
    if not isinstance(value, str):
        raise ToolCallFailed(f"{result.get('tool')}: no {key!r} text in the result: {dict(result)}")
    return value


def _grep_listing(result: Structured) -> str:
    matches = result.get("matches")
    if not isinstance(matches, list):
        raise ToolCallFailed(f"grep: no matches in the result: {dict(result)}")
    return "\n".join(f"{m['path']}:{m['line']}:{m['text']}" for m in matches if isinstance(m, Mapping))


def _check(step: str, needed: Mapping[int, str], shown: Mapping[int, str]) -> None:
    lost = ln.missing(needed, shown)
    if lost:
        detail = "\n".join(f"  {n}: {t}" for n, t in sorted(lost.items()))
        raise NeededLinesMissing(f"{step}: {len(lost)} needed line(s) were pruned:\n{detail}")


def _preview(shown: Mapping[int, str], needed: Mapping[int, str]) -> tuple[str, ...]:
    return tuple(f"{n}│ {shown[n]}" for n in sorted(needed) if n in shown)


class DemoSession:
    """The four steps, in order, against a copy of the sample project at `workspace` (root-relative)."""

    def __init__(self, call: ToolCaller, workspace: str, python: str) -> None:
        self.call = call
        self.workspace = workspace
        self.python = python
        self._source_raw = ""
        self._source_sent = ""
        self._source_prune_id: str | None = None
        self._source_shown: dict[int, str] = {}

    async def _pair(
        self, tool: str, arguments: dict[str, object], question: str
    ) -> tuple[ToolAnswer, ToolAnswer]:
        raw = await self._checked(tool, arguments)
        pruned = await self._checked(tool, {**arguments, "context_focus_question": question})
        return raw, pruned

    async def _checked(self, tool: str, arguments: Mapping[str, object]) -> ToolAnswer:
        answer = await self.call(tool, arguments)
        error = answer.structured.get("error")
        if isinstance(error, Mapping) and error.get("code") not in EXPECTED_ERRORS.get(tool, set()):
            raise ToolCallFailed(f"{tool} failed: {error.get('code')}: {error.get('message')}")
        return answer

    async def read_source(self) -> CallReport:
        """`read` the big source file, asking how the bulk discount is computed."""
        began = time.monotonic()
        path = f"{self.workspace}/{SOURCE_FILE}"
        raw_answer, answer = await self._pair("read", {"path": path}, READ_QUESTION)
        raw, pruned = raw_answer.structured, answer.structured
        meta = _pruning(pruned)
        self._source_raw = _text(raw, "content")
        self._source_sent = _text(pruned, "content")
        prune_id = meta.get("prune_id")
        self._source_prune_id = prune_id if isinstance(prune_id, str) else None
        applied = meta.get("applied") is True
        self._source_shown = ln.shown_lines(self._source_sent, applied)
        needed = ln.function_lines(self._source_raw, FOCUS_FUNCTION)
        _check("read", needed, self._source_shown)
        return CallReport(
            step=SOURCE_FILE,
            tool="read",
            question=READ_QUESTION,
            raw_tokens=count_tokens(raw_answer.text),
            sent_tokens=count_tokens(answer.text),
            applied=applied,
            fallback=meta.get("fallback") is True,
            needed=len(needed),
            kept=len(needed),
            recovered=0,
            seconds=time.monotonic() - began,
            preview=_preview(self._source_shown, needed),
        )

    async def grep_symbol(self) -> CallReport:
        """`grep` for "discount" across the project, asking where `bulk_discount` is called."""
        began = time.monotonic()
        args: dict[str, object] = {"pattern": GREP_PATTERN, "paths": ["."], "cwd": self.workspace}
        raw_answer, answer = await self._pair("grep", args, GREP_QUESTION)
        raw, pruned = raw_answer.structured, answer.structured
        meta = _pruning(pruned)
        raw_text = _grep_listing(raw)
        listing = pruned.get("listing")
        applied = meta.get("applied") is True and isinstance(listing, str)
        sent = listing if isinstance(listing, str) and applied else _grep_listing(pruned)
        shown = ln.shown_lines(sent, applied)
        needed = {n: t for n, t in ln.numbered(raw_text).items() if f"{FOCUS_FUNCTION}(" in t}
        _check("grep", needed, shown)
        return CallReport(
            step=f"{GREP_PATTERN!r} in the project",
            tool="grep",
            question=GREP_QUESTION,
            raw_tokens=count_tokens(raw_answer.text),
            sent_tokens=count_tokens(answer.text),
            applied=applied,
            fallback=meta.get("fallback") is True,
            needed=len(needed),
            kept=len(needed),
            recovered=0,
            seconds=time.monotonic() - began,
            preview=_preview(shown, needed),
        )

    async def run_tests(self) -> CallReport:
        """Run the failing suite through `bash`, asking why the test fails."""
        began = time.monotonic()
        cmd = f"{shlex.quote(self.python)} -m pytest -v -p no:cacheprovider {TESTS_DIR}"
        args: dict[str, object] = {
            "cmd": cmd,
            "cwd": self.workspace,
            "env": {"PYTHONDONTWRITEBYTECODE": "1"},
            "timeout_ms": BASH_TIMEOUT_MS,
        }
        raw_answer, answer = await self._pair("bash", args, BASH_QUESTION)
        raw, pruned = raw_answer.structured, answer.structured
        meta = _pruning(pruned)
        applied = meta.get("applied") is True
        raw_text = _text(raw, "stdout")
        sent = _text(pruned, "stdout")
        shown = ln.shown_lines(sent, applied)
        try:
            needed = ln.failure_lines(raw_text, FAILING_TEST)
        except LookupError as exc:
            raise ToolCallFailed(f"bash: the test run did not show the expected failure ({exc})") from None
        _check("bash", needed, shown)
        return CallReport(
            step=f"pytest -v {TESTS_DIR}",
            tool="bash",
            question=BASH_QUESTION,
            raw_tokens=count_tokens(raw_answer.text),
            sent_tokens=count_tokens(answer.text),
            applied=applied,
            fallback=meta.get("fallback") is True,
            needed=len(needed),
            kept=len(needed),
            recovered=0,
            seconds=time.monotonic() - began,
            preview=_preview(shown, needed),
        )

    async def recover_helper(self) -> CallReport:
        """`recover_text` the pruned definition of a helper `bulk_discount` relies on.

        Raises:
            ToolCallFailed: the read step did not run first, or recovery answered without text.
            NeededLinesMissing: the recovered lines are not the original ones.
        """
        began = time.monotonic()
        if self._source_prune_id is None:
            raise ToolCallFailed("recover_text: the read step returned no prune_id")
        helper, needed = HELPERS_NEEDED[0], ln.function_lines(self._source_raw, HELPERS_NEEDED[0])
        for name in HELPERS_NEEDED:
            lines = ln.function_lines(self._source_raw, name)
            if ln.missing(lines, self._source_shown):
                helper, needed = name, lines
                break
        lost = ln.missing(needed, self._source_shown)
        hiding = ln.ranges_covering(lost, ln.markers(self._source_sent))
        # Only the needed span of each hiding marker: recovering a whole 150-line block for a
        # 3-line helper would give back most of what pruning saved.
        if hiding:
            first, last = min(lost), max(lost)
            ranges = [
                {"start_line": max(r.start_line, first), "end_line": min(r.end_line, last)} for r in hiding
            ]
        else:  # everything it needs was kept: recover the function's own lines to show the round trip
            ranges = [{"start_line": min(needed), "end_line": max(needed)}]
        answer = await self._checked(
            "recover_text",
            {"prune_id": self._source_prune_id, "ranges": ranges, "include_line_numbers": True},
        )
        recovered_text = _text(answer.structured, "raw_text")
        recovered = ln.shown_lines(recovered_text, pruned=True)
        _check("recover_text", lost, recovered)
        tokens = count_tokens(answer.text)
        spans = ", ".join(f"{r['start_line']}-{r['end_line']}" for r in ranges)
        return CallReport(
            step=f"lines {spans} ({helper})",
            tool="recover_text",
            question=None,
            raw_tokens=tokens,
            sent_tokens=tokens,
            applied=False,
            fallback=False,
            needed=len(needed),
            kept=len(needed) - len(lost),
            recovered=len(lost),
            seconds=time.monotonic() - began,
            preview=_preview(recovered, needed),
        )
