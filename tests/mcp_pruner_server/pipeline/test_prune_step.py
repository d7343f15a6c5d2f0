"""The pipeline's capture-all side: whole outputs pruned, their spools always released."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcp_pruner_server.pipeline.dispatcher import ToolDispatcher
from mcp_pruner_server.pipeline.prune_step import worth_sending
from mcp_pruner_server.pipeline.stats import ServerStats
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning.text import estimate_tokens
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType
from mcp_pruner_server.pruning_config import PruningConfig
from mcp_pruner_server.recovery import RecoveryStore
from mcp_pruner_server.tools.model_text import model_text
from tests.json_paths import at
from tools_exec import files, process
from tools_exec.capture import HeadTailCapture

pytestmark = pytest.mark.anyio

QUESTION = "Why did the payment webhook fail?"
FAILURE = "ERROR payment webhook: delivery failed (HTTP 502)"


@pytest.fixture
def captures(monkeypatch: pytest.MonkeyPatch) -> list[HeadTailCapture]:
    """Every capture the tools make during the test, to check each was closed."""
    made: list[HeadTailCapture] = []

    class Recorded(HeadTailCapture):
        def __init__(self, head_bytes: int, tail_bytes: int, **kwargs: int) -> None:
            super().__init__(head_bytes, tail_bytes, **kwargs)
            made.append(self)

    monkeypatch.setattr(process, "HeadTailCapture", Recorded)
    monkeypatch.setattr(files, "HeadTailCapture", Recorded)
    return made


def _service() -> PrunerService:
    return PrunerService(PruningConfig(), RecoveryStore(60, 100, 64 << 20))


def _log(lines: int) -> str:
    return "".join(f"INFO step {i} of the build went fine\n" for i in range(lines)) + FAILURE + "\n"


async def test_bash_with_a_question_prunes_its_whole_spooled_output_and_releases_it(
    tmp_path: Path, captures: list[HeadTailCapture]
) -> None:
    (tmp_path / "build.log").write_text(_log(60_000))  # 2.7 MB: spooled, over max_output_bytes
    service = _service()
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    args = {"cmd": "cat build.log", "context_focus_question": QUESTION, "max_output_bytes": 65536}
    reply = await dispatcher.call("bash", args)
    await service.aclose()
    body = reply.structured
    assert FAILURE in str(body["stdout"])
    assert len(str(body["stdout"]).encode()) <= 65536
    assert at(body, "pruning", "applied") is True
    assert at(body, "pruning", "raw_bytes") == len(_log(60_000))
    assert captures
    assert any(c.spooled_to_disk() for c in captures)
    assert all(c.closed for c in captures)


class RaisingBackend:
    """A backend with a bug: the service turns it into the `internal_error` no-op."""

    name = "heuristic"

    async def prune(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        raise RuntimeError("boom")


async def test_a_pruner_failure_returns_the_head_and_tail_and_still_releases_the_spool(
    tmp_path: Path, captures: list[HeadTailCapture]
) -> None:
    (tmp_path / "build.log").write_text(_log(60_000))
    service = PrunerService(PruningConfig(), RecoveryStore(60, 100, 64 << 20), RaisingBackend())
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    args = {"path": "build.log", "context_focus_question": QUESTION, "max_output_bytes": 65536}
    reply = await dispatcher.call("read", args)
    await service.aclose()
    body = reply.structured
    assert at(body, "pruning", "reason") == "pruner_error"
    assert at(body, "pruning", "error", "code") == "internal_error"
    assert str(body["content"]).endswith(FAILURE + "\n")  # the tail is kept
    assert str(body["content"]).count("⟦TRUNCATED: ") == 1
    assert all(c.closed for c in captures)


async def test_a_capture_over_the_recoverable_size_is_pruned_by_the_worker_without_recovery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcp_pruner_server import pruner_service
    from mcp_pruner_server.backends.engine_process import ProcessHeuristicBackend

    monkeypatch.setattr(pruner_service, "RECOVERABLE_CAPTURE_BYTES", 1 << 20)
    capture = HeadTailCapture(64 << 20, 1 << 20, spool_after=1 << 20)
    capture.feed(_log(60_000).encode())
    service = PrunerService(
        PruningConfig(), RecoveryStore(60, 100, 64 << 20), backend=ProcessHeuristicBackend()
    )
    try:
        options = PruneOptions(max_prune_ratio=0.9, timeout_ms=30_000, max_kept_lines=50)
        outcome = await service.prune_captured(
            capture.source(), QUESTION, "logs", options, max_input_bytes=64 << 20
        )
    finally:
        await service.aclose()
        capture.close()
    assert FAILURE in outcome.result.pruned_text
    assert outcome.recoverable is False
    assert "recovery_unavailable" in outcome.result.warnings
    assert service.store.stats().entries == 0  # the server never held the text


async def test_metadata_says_why_when_nothing_was_pruned(tmp_path: Path) -> None:
    (tmp_path / "short.log").write_text("one line about the webhook\n")
    service = _service()
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    asked = await dispatcher.call("read", {"path": "short.log", "context_focus_question": QUESTION})
    plain = await dispatcher.call("read", {"path": "short.log"})
    await service.aclose()
    assert at(asked.structured, "pruning", "applied") is False
    assert at(asked.structured, "pruning", "reason") == "kept_whole"
    assert at(plain.structured, "pruning", "reason") == "no_focus_question"


async def test_prune_text_takes_the_budget_as_an_extra_option(tmp_path: Path) -> None:
    service = _service()
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    options = {"max_prune_ratio": 0.5, "min_keep_lines": 0, "timeout_ms": 5000, "annotate_lines": False}
    base = {"text": _log(2000), "goal_hint": QUESTION, "source_type": "logs"}
    ratio = await dispatcher.call("prune_text", {**base, "options": {**options, "include_markers": False}})
    budget = await dispatcher.call(
        "prune_text", {**base, "options": {**options, "include_markers": False, "max_kept_lines": 40}}
    )
    await service.aclose()
    assert at(ratio.structured, "stats", "kept_lines", kind=int) >= 1001  # the ratio holds
    assert at(budget.structured, "stats", "kept_lines", kind=int) <= 41  # the budget wins over it
    assert FAILURE in str(budget.structured["pruned_text"])


async def test_grep_with_a_question_prunes_every_match_and_returns_within_max_output_bytes(
    tmp_path: Path,
) -> None:
    lines = [f"value_{i} = compute(step={i})" for i in range(3000)] + ["webhook_payment = deliver()  # fails"]
    (tmp_path / "mod.py").write_text("\n".join(lines) + "\n")  # ~100 KB of matches
    service = _service()
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    common = {"pattern": "=", "paths": ["."], "max_matches": 5000, "max_output_bytes": 4096}
    asked = await dispatcher.call("grep", {**common, "context_focus_question": QUESTION})
    plain = await dispatcher.call("grep", common)
    await service.aclose()
    listing = str(asked.structured["listing"])
    assert "webhook_payment = deliver()" in listing  # the last match: past the first 4 KiB
    assert len(listing.encode()) <= 4096 + 200
    assert asked.structured["match_count"] == 3001  # every match was found and pruned
    matches = asked.structured["matches"]
    assert isinstance(matches, list)
    # the structured matches are the listing's
    assert len(matches) == len(re.findall(r"^\d+ mod\.py:", listing, re.MULTILINE))
    assert plain.structured["truncated"] is True
    assert (
        at(plain.structured, "match_count", kind=int) < 3001
    )  # without a question: max_output_bytes as before


async def test_a_ten_megabyte_line_asked_about_comes_back_cut_with_its_marker_never_an_error(
    tmp_path: Path,
) -> None:
    # a minified bundle or a data blob in a source file: one line ten times the cap
    text = "def handler():\n    return 1\nBLOB = '" + "a" * 10_000_000 + "'\ndef after():\n    return 2\n"
    (tmp_path / "gen.py").write_text(text)
    service = _service()
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    question = {"context_focus_question": "what does after return"}
    replies = {
        "read": await dispatcher.call("read", {"path": "gen.py", **question}),
        "bash": await dispatcher.call("bash", {"cmd": "cat gen.py", **question}),
    }
    await service.aclose()
    for tool, reply in replies.items():
        shown = str(reply.structured["content" if tool == "read" else "stdout"])
        assert reply.is_error is False, tool
        assert "def after():\n    return 2" in shown, tool  # the lines after the long one
        assert "⟦TRUNCATED: lines 3-3 (1 lines, 10000010 bytes) not shown⟧" in shown, tool
        assert len(shown.encode()) <= 1 << 10, tool
        assert at(reply.structured, "pruning", "fallback") is False, tool


def _grep_lines(reply_text: str) -> list[str]:
    return [line for line in reply_text.splitlines() if "gen.py:" in line]


async def test_grep_asked_about_a_ten_megabyte_matching_line_returns_every_match_the_long_one_cut(
    tmp_path: Path,
) -> None:
    # three hits, the middle one a 10 MB line: left whole by the engine, over max_output_bytes
    text = "def handler():\n    return 1\nBLOB = 'def " + "a" * 10_000_000 + "'\ndef after():\n    return 2\n"
    (tmp_path / "gen.py").write_text(text)
    service = _service()
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    args = {"pattern": "def", "paths": ["."], "context_focus_question": "what does after return"}
    reply = await dispatcher.call("grep", args)
    await service.aclose()
    body = reply.structured
    matches = body["matches"]
    assert isinstance(matches, list)
    assert (reply.is_error, body["match_count"], [at(m, "line") for m in matches]) == (False, 3, [1, 3, 4])
    long_text = str(at(matches[1], "text"))
    assert long_text.startswith("BLOB = 'def aaaa")  # its head, then what was left out
    assert long_text.endswith(" bytes not shown⟧")
    assert len(long_text.encode()) <= 1 << 20
    assert body["truncated"] is True
    shown = model_text("grep", body)  # what the agent's model reads
    assert shown is not None
    assert [line.split(":")[1] for line in _grep_lines(shown)] == ["1", "3", "4"]
    assert "gen.py:4:def after():" in shown


async def test_grep_pruned_over_max_output_bytes_cuts_a_long_kept_line_and_keeps_every_kept_match(
    tmp_path: Path,
) -> None:
    steps = [f"def step_{i}():\n    return {i}\n" for i in range(40)]
    blob = "BLOB = 'def after " + "a" * 10_000_000 + "'\n"
    (tmp_path / "gen.py").write_text("".join(steps[:20]) + blob + "".join(steps[20:]))
    service = _service()
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    question = "where is BLOB set, and what does the after function return"
    args = {"pattern": "def", "paths": ["."], "context_focus_question": question, "max_output_bytes": 4096}
    reply = await dispatcher.call("grep", args)
    await service.aclose()
    body = reply.structured
    listing = str(body["listing"])
    matches = body["matches"]
    assert isinstance(matches, list)
    assert at(body, "pruning", "applied") is True
    assert "gen.py:41:BLOB = 'def after aaaa" in listing
    assert len(listing.encode()) <= 4096
    numbered = [line.split(":")[1] for line in _grep_lines(listing)]
    assert numbered == [str(at(m, "line")) for m in matches]  # the structured matches are the listing's
    assert len(numbered) > 2
    assert "41" in numbered
    assert numbered.index("41") < len(numbered) - 1  # a kept match after the long line


def _view(kept: range) -> str:
    """A model view keeping lines `kept` of `RAW_LINES`, one marker for the rest."""
    shown = [f"{i + 1} {RAW_LINES[i]}" for i in kept]
    return "\n".join([*shown, f"[lines {kept.stop + 1}-{len(RAW_LINES)} pruned]"])


RAW_LINES = [f"step {i}: an ordinary log line of moderate length" for i in range(100)]
RAW_TOKENS = estimate_tokens("\n".join(RAW_LINES))


def test_a_view_that_saves_half_of_the_raw_output_is_worth_sending() -> None:
    assert worth_sending(_view(range(50)), RAW_TOKENS)


def test_a_lightly_pruned_view_whose_numbers_eat_the_saving_is_not_sent() -> None:
    view = _view(range(90))
    assert len(view) < len("\n".join(RAW_LINES))  # smaller in bytes, yet not by the margin in tokens
    assert not worth_sending(view, RAW_TOKENS)


def test_the_trailer_counts_against_a_small_output() -> None:
    # 40 % of a 6-line output kept: the trailer naming the prune_id costs more than the cut saves
    small = RAW_LINES[:6]
    view = "\n".join([*(f"{i + 1} {line}" for i, line in enumerate(small[:2])), "[lines 3-6 pruned]"])
    assert not worth_sending(view, estimate_tokens("\n".join(small)))


async def test_a_read_whose_question_fits_many_functions_alike_says_it_kept_more(tmp_path: Path) -> None:
    source = "".join(
        f"def handler_{k}(request):\n    value = request.get('field_{k}')\n    return value * {k}\n\n"
        for k in range(200)
    )
    (tmp_path / "handlers.py").write_text(source)
    service = _service()
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    args = {"path": "handlers.py", "context_focus_question": "which handler gets the request field"}
    reply = await dispatcher.call("read", args)
    await service.aclose()
    assert at(reply.structured, "pruning", "applied") is True
    assert at(reply.structured, "pruning", "reason") == "vague_question"


class SlowBackend:
    """The real engine after a pause that stands for a slow prune; records each call's budget."""

    name = "heuristic"
    pause_s = 0.3

    def __init__(self) -> None:
        self.budgets_ms: list[int] = []

    async def prune(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        import anyio

        from mcp_pruner_server.pruning.engine import prune

        self.budgets_ms.append(options.timeout_ms)
        await anyio.sleep(self.pause_s)  # the prune's duration, not a synchronisation
        return prune(text, goal_hint, source_type, options, prune_id)


async def test_bash_stdout_and_stderr_share_one_budget_stderr_gets_what_stdout_left(tmp_path: Path) -> None:
    (tmp_path / "build.log").write_text(_log(2_000))
    backend = SlowBackend()
    service = PrunerService(PruningConfig(timeout_ms=2000), RecoveryStore(60, 100, 64 << 20), backend)
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    args = {"cmd": "cat build.log; cat build.log >&2", "context_focus_question": QUESTION}
    reply = await dispatcher.call("bash", args)
    await service.aclose()
    assert at(reply.structured, "pruning", "applied") is True
    first, second = backend.budgets_ms
    assert first <= 2000
    assert second <= first - SlowBackend.pause_s * 1000
