"""The session's checks against a fake tool caller: a lost needed line fails the demo."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from mcp_pruner_server.tools.model_text import model_text
from runner.demo import lines as ln
from runner.demo.agent import SAMPLE_PROJECT
from runner.demo.errors import NeededLinesMissing, ToolCallFailed
from runner.demo.session import FOCUS_FUNCTION, SOURCE_FILE, DemoSession, Structured, ToolAnswer

pytestmark = pytest.mark.anyio
SOURCE = (SAMPLE_PROJECT / SOURCE_FILE).read_text(encoding="utf-8")


def pruned_keeping(keep: set[int]) -> str:
    """`SOURCE` as the server would send it keeping only the lines in `keep`."""
    out: list[str] = []
    lines = SOURCE.split("\n")
    n = 1
    while n <= len(lines):
        if n in keep:
            out.append(f"{n}│ {lines[n - 1]}")
            n += 1
            continue
        start = n
        while n <= len(lines) and n not in keep:
            n += 1
        out.append(f"⟦PRUNÉ: prune_id=prn_x lignes {start}-{n - 1} ({n - start}) raison=hors focus⟧")
    return "\n".join(out)


class FakeServer:
    """Answers `read` (raw, or pruned to `keep`) and `recover_text` from the sample's source."""

    def __init__(self, keep: set[int]) -> None:
        self.keep = keep
        self.calls: list[tuple[str, dict[str, object]]] = []

    async def __call__(self, tool: str, arguments: Mapping[str, object]) -> ToolAnswer:
        self.calls.append((tool, dict(arguments)))
        structured = self.structured(tool, arguments)
        return ToolAnswer(structured, model_text(tool, dict(structured)) or "")

    def structured(self, tool: str, arguments: Mapping[str, object]) -> Structured:
        if tool == "read" and "context_focus_question" not in arguments:
            return {"tool": "read", "content": SOURCE, "pruning": {"attempted": False}}
        if tool == "read":
            pruning = {"attempted": True, "applied": True, "fallback": False, "prune_id": "prn_x"}
            return {"tool": "read", "content": pruned_keeping(self.keep), "pruning": pruning}
        if tool == "recover_text":
            lines = SOURCE.split("\n")
            ranges = arguments["ranges"]
            assert isinstance(ranges, list)
            text = "\n".join(
                f"{n}│ {lines[n - 1]}" for r in ranges for n in range(r["start_line"], r["end_line"] + 1)
            )
            return {"raw_text": text}
        raise AssertionError(f"unexpected tool {tool}")


async def test_the_read_step_fails_when_a_line_of_the_function_asked_about_was_pruned() -> None:
    needed = ln.function_lines(SOURCE, FOCUS_FUNCTION)
    keep = set(needed) - {max(needed)}
    session = DemoSession(FakeServer(keep), "ws", "python")

    with pytest.raises(NeededLinesMissing, match="1 needed line"):
        await session.read_source()


async def test_the_recover_step_fetches_only_the_needed_span_of_the_hiding_marker() -> None:
    needed = ln.function_lines(SOURCE, FOCUS_FUNCTION)
    server = FakeServer(set(needed))
    session = DemoSession(server, "ws", "python")

    read = await session.read_source()
    recover = await session.recover_helper()

    helper = ln.function_lines(SOURCE, "percent_of")
    assert read.kept == read.needed == len(needed)
    assert read.sent_tokens < read.raw_tokens
    assert (recover.recovered, recover.kept) == (len(helper), 0)
    tool, arguments = server.calls[-1]
    assert tool == "recover_text"
    assert arguments["ranges"] == [{"start_line": min(helper), "end_line": max(helper)}]


async def test_recovering_before_reading_is_a_failed_call() -> None:
    session = DemoSession(FakeServer(set()), "ws", "python")

    with pytest.raises(ToolCallFailed, match="prune_id"):
        await session.recover_helper()
