"""read/bash/grep through the `req:*` pipeline, in-process on /rpc with the real tools and engine."""

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from mcp_pruner_server.pipeline.dispatcher import TOOLS, Tool, ToolDispatcher, ToolResult
from mcp_pruner_server.pipeline.states import ReqState, RequestTrace
from mcp_pruner_server.pipeline.stats import ServerStats
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning.model_view import MODEL_MARKER
from mcp_pruner_server.pruning.render import noop_result
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType
from mcp_pruner_server.pruning_config import PruningConfig
from mcp_pruner_server.recovery import RecoveredText, RecoveryStore
from mcp_pruner_server.tools.outcome import ToolContext
from mcp_pruner_server.tools.read_tool import ReadArgs, parse_read
from tests.json_paths import at
from tests.mcp_pruner_server.server_fixtures import call_tool, in_process
from tools_exec.files import ReadResult

pytestmark = pytest.mark.anyio
QUESTION = "where is the tax computed in compute_invoice_total?"
MARKER = re.compile(MODEL_MARKER.pattern, re.MULTILINE)


def write_module(root: Path, helpers: int = 300) -> Path:
    lines = ["import math", ""]
    for n in range(helpers):
        lines += [f"def helper_{n:04d}(value):", f"    return value * {n} + {n % 7}", ""]
    lines += [
        "def compute_invoice_total(lines, tax_rate):",
        "    subtotal = sum(line.amount for line in lines)",
        "    tax = subtotal * tax_rate  # the tax computed here",
        "    return subtotal + tax",
        "",
    ]
    path = root / "billing.py"
    path.write_text("\n".join(lines))
    return path


def structured(answer: object) -> dict[str, object]:
    content = at(answer, "result", "structuredContent", kind=dict)
    text = json.loads(at(answer, "result", "content", 0, "text", kind=str))
    assert text == content  # the same JSON, twice
    return content


@pytest.fixture
def traces() -> list[RequestTrace]:
    """Every tool call's `RequestTrace`, in order: pass `trace_observer=traces.append`."""
    return []


async def test_read_without_a_question_returns_the_file_raw_with_no_focus_question(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\n")
    async with in_process(tmp_path) as client:
        body = structured(await call_tool(client, "read", {"path": "a.txt"}))
    assert body["content"] == "hello\n"
    assert body["pruning"] == {
        "attempted": False,
        "applied": False,
        "fallback": False,
        "raw_bytes": 6,
        "reason": "no_focus_question",
    }


async def test_read_with_a_question_prunes_keeps_line_numbers_and_recovers(tmp_path: Path) -> None:
    source = write_module(tmp_path).read_text()
    async with in_process(tmp_path) as client:
        body = structured(
            await call_tool(client, "read", {"path": "billing.py", "context_focus_question": QUESTION})
        )
        meta = body["pruning"]
        assert isinstance(meta, dict)
        content = body["content"]
        assert isinstance(content, str)
        assert meta["attempted"] is True
        assert meta["applied"] is True
        assert meta["backend"] == "heuristic"
        assert meta["pruned_bytes"] < meta["raw_bytes"] == len(source.encode())
        tax_line = source.split("\n").index("    tax = subtotal * tax_rate  # the tax computed here") + 1
        assert f"{tax_line}     tax = subtotal * tax_rate  # the tax computed here" in content
        markers = [line for line in content.split("\n") if MARKER.match(line)]
        assert markers
        recovered = await call_tool(
            client,
            "recover_text",
            {
                "prune_id": meta["prune_id"],
                "ranges": [{"start_line": 1, "end_line": 10**6}],
                "include_line_numbers": False,
            },
        )
    assert structured(recovered)["raw_text"] == source


async def test_a_pruned_form_no_smaller_than_the_output_is_not_sent(tmp_path: Path) -> None:
    # 40 one-character lines: numbering the kept ones costs more than pruning the rest saves.
    source = "".join(f"{'xy'[i % 2]}\n" for i in range(40))
    (tmp_path / "short.txt").write_text(source)
    async with in_process(tmp_path) as client:
        body = structured(
            await call_tool(client, "read", {"path": "short.txt", "context_focus_question": "where is y?"})
        )
    meta = body["pruning"]
    assert isinstance(meta, dict)
    assert body["content"] == source
    assert meta["attempted"] is True
    assert meta["applied"] is False
    assert meta["reason"] == "not_smaller"
    assert meta["pruned_bytes"] == meta["raw_bytes"] == len(source)


async def test_read_of_a_missing_file_is_a_not_found_tool_error(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        answer = await call_tool(client, "read", {"path": "missing.py"})
        escape = await call_tool(client, "read", {"path": "../../etc/passwd"})
    assert answer["result"]["isError"] is True
    assert at(structured(answer), "error", "code") == "not_found"
    assert at(structured(escape), "error", "code") == "invalid_path"


async def test_with_a_question_the_whole_output_is_pruned_and_max_output_bytes_bounds_the_reply(
    tmp_path: Path,
) -> None:
    # 340 kB, over the old 256 KiB prune cap and over max_output_bytes: the error is on the last line
    (tmp_path / "big.log").write_text("INFO filler line\n" * 20_000 + "ERROR payment webhook failed\n")
    async with in_process(tmp_path) as client:
        pruned = structured(
            await call_tool(
                client,
                "read",
                {
                    "path": "big.log",
                    "context_focus_question": "Why did the webhook fail?",
                    "max_output_bytes": 65536,
                },
            )
        )
        raw = structured(await call_tool(client, "read", {"path": "big.log", "max_output_bytes": 65536}))
    meta = pruned["pruning"]
    assert isinstance(meta, dict)
    assert meta["attempted"] is True
    assert meta["applied"] is True
    assert meta["raw_bytes"] == 20_000 * 17 + 29  # the whole file was pruned, not its first 64 KiB
    assert "20001 ERROR payment webhook failed" in str(pruned["content"])
    assert len(str(pruned["content"]).encode()) <= 65536
    # without a question: head and tail, the error in the tail, one marker between
    assert str(raw["content"]).endswith("ERROR payment webhook failed\n")
    assert raw["truncated"] is True
    assert str(raw["content"]).count("⟦TRUNCATED: ") == 1
    assert at(raw, "omitted", "lines", kind=int) > 0


async def test_a_failing_command_is_nonzero_exit_with_its_output_pruned_to_the_question(
    tmp_path: Path,
) -> None:
    script = tmp_path / "suite.sh"
    script.write_text(
        'for i in $(seq 1 400); do echo "test_case_$i PASSED"; done\n'
        "echo 'test_refund_rounding FAILED: AssertionError: expected 10.05 got 10.04'\n"
        'for i in $(seq 401 800); do echo "test_case_$i PASSED"; done\n'
        "exit 1\n"
    )
    question = "why does test_refund_rounding fail?"
    async with in_process(tmp_path) as client:
        answer = await call_tool(client, "bash", {"cmd": "bash suite.sh", "context_focus_question": question})
    assert answer["result"]["isError"] is True
    body = structured(answer)
    assert body["error"] == {
        "code": "nonzero_exit",
        "message": "command exited with status 1",
        "exit_code": 1,
    }
    stdout = body["stdout"]
    assert isinstance(stdout, str)
    assert "AssertionError: expected 10.05 got 10.04" in stdout
    assert MARKER.search(stdout)
    assert at(body, "pruning", "applied") is True
    assert len(stdout) < 0.5 * 800 * len("test_case_100 PASSED\n")


async def test_bash_children_never_see_the_token_or_provider_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JEEVES_MCP_PRUNER_TOKEN", "tok-should-not-leak")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-should-not-leak")
    async with in_process(tmp_path, token="tok-should-not-leak") as client:
        answer = await call_tool(
            client, "bash", {"cmd": "env"}, headers={"authorization": "Bearer tok-should-not-leak"}
        )
    stdout = structured(answer)["stdout"]
    assert isinstance(stdout, str)
    assert "PATH=" in stdout
    assert "should-not-leak" not in stdout


async def test_a_bash_timeout_is_a_timeout_tool_error(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        answer = await call_tool(client, "bash", {"cmd": "echo started; sleep 30", "timeout_ms": 300})
    body = structured(answer)
    assert answer["result"]["isError"] is True
    assert at(body, "error", "code") == "timeout"
    assert body["stdout"] == "started\n"


async def test_grep_with_a_question_prunes_the_listing_and_keeps_matching_entries(tmp_path: Path) -> None:
    write_module(tmp_path)
    async with in_process(tmp_path) as client:
        plain = structured(await call_tool(client, "grep", {"pattern": "return", "paths": ["."]}))
        pruned = structured(
            await call_tool(
                client,
                "grep",
                {"pattern": "return", "paths": ["."], "context_focus_question": "subtotal and tax"},
            )
        )
    assert plain["match_count"] == 301
    assert "listing" not in plain
    assert pruned["match_count"] == 301
    listing = pruned["listing"]
    assert isinstance(listing, str)
    assert "billing.py:" in listing
    assert MARKER.search(listing)
    kept = pruned["matches"]
    assert isinstance(kept, list)
    assert any("subtotal + tax" in m["text"] for m in kept)
    assert len(kept) < 301


class TimedOutBackend:
    """A backend that gave up with nothing pruned (the engine's `timeout` no-op): the only way
    to walk `pruner_error_fallback` without a starved CPU."""

    name = "heuristic"

    async def prune(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        return noop_result(text, prune_id, ["timeout"], backend=self.name, elapsed_ms=0.0)


async def test_a_pruner_failure_falls_back_to_raw_output_with_the_error(tmp_path: Path) -> None:
    write_module(tmp_path, helpers=50)
    service = PrunerService(PruningConfig(timeout_ms=1000), RecoveryStore(60, 10, 1 << 20), TimedOutBackend())
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    reply = await dispatcher.call("read", {"path": "billing.py", "context_focus_question": QUESTION})
    await service.aclose()
    assert reply.structured["content"] == (tmp_path / "billing.py").read_text()
    assert reply.structured["pruning"] == {
        "attempted": True,
        "applied": False,
        "fallback": True,
        "raw_bytes": len((tmp_path / "billing.py").read_bytes()),
        "reason": "pruner_error",
        "pruner_duration_ms": at(reply.structured, "pruning", "pruner_duration_ms"),
        "error": {"code": "timeout", "message": "the pruning engine exceeded its 1000 ms budget"},
    }
    assert at(dispatcher.stats.snapshot(), "pruning", "fallbacks") == 1


async def test_the_trace_of_a_pruned_read_follows_the_table(
    tmp_path: Path, traces: list[RequestTrace]
) -> None:
    write_module(tmp_path)
    async with in_process(tmp_path, trace_observer=traces.append) as client:
        await call_tool(client, "read", {"path": "billing.py", "context_focus_question": QUESTION})
        await call_tool(client, "read", {"path": "billing.py", "start_line": 0})
    pruned, invalid = traces
    S = ReqState
    assert pruned.history == [
        S.RECEIVED,
        S.VALIDATING,
        S.EXECUTING_TOOL,
        S.RAW_OUTPUT_READY,
        S.PRUNE_CHECK,
        S.CALLING_PRUNER,
        S.RESPOND_PRUNED,
        S.RESPONDED,
    ]
    assert invalid.history == [S.RECEIVED, S.VALIDATING, S.INVALID_REQUEST]


async def test_too_many_recover_ranges_is_a_32005_that_ends_the_trace_as_an_invalid_request(
    tmp_path: Path, traces: list[RequestTrace], capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_pruner_server.logs import configure_logging
    from mcp_pruner_server.recovery import MAX_RECOVER_RANGES

    configure_logging("json")
    ranges = [{"start_line": 1, "end_line": 1}] * (MAX_RECOVER_RANGES + 1)
    async with in_process(tmp_path, trace_observer=traces.append) as client:
        answer = await call_tool(
            client, "recover_text", {"prune_id": "p_x", "ranges": ranges, "include_line_numbers": False}
        )
        stats = (await client.get("/stats")).json()
    assert answer["error"]["code"] == -32005
    (trace,) = traces
    assert trace.history == [ReqState.RECEIVED, ReqState.VALIDATING, ReqState.INVALID_REQUEST]
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    invalid = [e for e in events if e["event"] == "tool.request_invalid"]
    assert [e["request_id"] for e in invalid] == [trace.request_id]
    assert invalid[0]["data"]["error_code"] == "invalid_range"
    assert stats["invalid_requests"] == 1


async def test_every_kind_of_answer_leaves_its_trace_in_a_terminal_state(
    tmp_path: Path, traces: list[RequestTrace]
) -> None:
    from mcp_pruner_server.recovery import MAX_RECOVER_RANGES

    write_module(tmp_path, helpers=40)
    one_range = [{"start_line": 1, "end_line": 1}]
    calls: list[tuple[str, dict[str, object]]] = [
        ("read", {"path": "billing.py", "context_focus_question": QUESTION}),  # pruned
        ("read", {"path": "billing.py"}),  # raw
        ("read", {"path": "nope.py"}),  # tool error
        ("read", {"path": ""}),  # -32602
        ("nope", {}),  # unknown tool
        ("bash", {"cmd": "echo out; exit 3", "context_focus_question": "what failed?"}),
        ("health", {}),
        ("recover_text", {"prune_id": "p_x", "ranges": one_range, "include_line_numbers": True}),  # -32004
        ("recover_text", {"prune_id": "p_x", "ranges": [], "include_line_numbers": True}),
        (
            "recover_text",
            {"prune_id": "p_x", "ranges": one_range * (MAX_RECOVER_RANGES + 1), "include_line_numbers": True},
        ),  # -32005 at parse time
    ]
    async with in_process(tmp_path, trace_observer=traces.append) as client:
        for name, arguments in calls:
            await call_tool(client, name, arguments)
    assert len(traces) == len(calls)
    assert [t.tool for t in traces if not t.finished] == []


async def test_every_result_fits_its_tool_output_schema(tmp_path: Path) -> None:
    from jsonschema import Draft202012Validator

    from mcp_pruner_server.tools.schemas import TOOLS_BY_NAME

    write_module(tmp_path, helpers=40)
    calls: list[tuple[str, dict[str, object]]] = [
        ("read", {"path": "billing.py", "context_focus_question": QUESTION}),
        ("read", {"path": "nope.py"}),
        ("bash", {"cmd": "seq 1 100; exit 3", "context_focus_question": "what failed?"}),
        ("bash", {"cmd": "true", "cwd": "missing-dir"}),
        (
            "grep",
            {"pattern": "return", "paths": ["."], "context_lines": 1, "context_focus_question": QUESTION},
        ),
        ("grep", {"pattern": "(", "paths": ["."]}),
        ("health", {}),
    ]
    async with in_process(tmp_path) as client:
        for name, arguments in calls:
            body = structured(await call_tool(client, name, arguments))
            Draft202012Validator(TOOLS_BY_NAME[name].output_schema).validate(body)


async def test_a_bug_in_a_tool_is_a_32603_with_the_request_id_and_the_next_call_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_pruner_server.logs import configure_logging

    configure_logging("json")

    async def broken(_context: ToolContext, _args: ReadArgs) -> ToolResult[ReadResult]:
        raise ZeroDivisionError("a bug")  # no real input breaks read this way: the bug is injected

    (tmp_path / "a.txt").write_text("alpha\n")
    async with in_process(tmp_path) as client:
        with monkeypatch.context() as patch:
            patch.setitem(TOOLS, "read", Tool(parse_read, broken))
            failed = await call_tool(client, "read", {"path": "a.txt"})
        after = await call_tool(client, "read", {"path": "a.txt"})
    error = failed["error"]
    assert error["code"] == -32603
    assert error["data"]["request_id"].startswith("req_")
    assert structured(after)["content"] == "alpha\n"
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    internal = [e for e in events if e["event"] == "tool.internal_error"]
    assert len(internal) == 1
    assert internal[0]["request_id"] == error["data"]["request_id"]
    assert "ZeroDivisionError" in internal[0]["data"]["stack"]


async def test_a_tool_error_says_why_it_was_not_pruned_and_counts_utf8_bytes(tmp_path: Path) -> None:
    async with in_process(tmp_path) as client:
        missing = structured(await call_tool(client, "read", {"path": "missing.py"}))
        asked = structured(
            await call_tool(client, "read", {"path": "missing.py", "context_focus_question": QUESTION})
        )
        timeout = structured(
            await call_tool(client, "bash", {"cmd": "echo ééé; sleep 30", "timeout_ms": 1500})
        )
    assert missing["pruning"] == {
        "attempted": False,
        "applied": False,
        "fallback": False,
        "raw_bytes": 0,
        "reason": "no_focus_question",
    }
    assert at(asked, "pruning", "reason") == "output_empty"
    assert timeout["stdout"] == "ééé\n"
    assert at(timeout, "pruning", "raw_bytes") == len("ééé\n".encode())
    assert at(timeout, "pruning", "reason") == "no_focus_question"


async def test_a_timed_out_command_asked_a_question_says_pruning_is_off_for_tool_errors(
    tmp_path: Path,
) -> None:
    question = "what did it print before hanging?"
    async with in_process(tmp_path) as client:
        timeout = structured(
            await call_tool(
                client,
                "bash",
                {"cmd": "echo started; sleep 30", "timeout_ms": 1500, "context_focus_question": question},
            )
        )
    assert at(timeout, "error", "code") == "timeout"
    assert timeout["stdout"] == "started\n"
    assert timeout["pruning"] == {
        "attempted": False,
        "applied": False,
        "fallback": False,
        "raw_bytes": len("started\n"),
        "reason": "disabled_or_unconfigured",
    }


async def test_a_timed_out_grep_counts_the_matches_it_returns_as_raw_bytes(tmp_path: Path) -> None:
    import os

    (tmp_path / "a.txt").write_text("hello error\n" * 50)
    os.mkfifo(tmp_path / "never_ends")  # rg blocks reading it, after matching a.txt
    arguments = {
        "pattern": "error",
        "paths": ["a.txt", "never_ends"],
        "timeout_ms": 2000,  # time for rg to print a.txt's matches on a loaded machine
        "context_focus_question": "which errors?",
    }
    async with in_process(tmp_path) as client:
        timeout = structured(await call_tool(client, "grep", arguments))
    assert at(timeout, "error", "code") == "timeout"
    assert len(at(timeout, "matches", kind=list)) == 50
    assert at(timeout, "pruning", "raw_bytes") == len("a.txt:1:hello error\n") * 9 + sum(
        len(f"a.txt:{n}:hello error\n") for n in range(10, 51)
    )
    assert at(timeout, "pruning", "reason") == "disabled_or_unconfigured"


async def test_healthz_answers_while_a_big_recover_is_still_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    import anyio
    import httpx

    from mcp_pruner_server.http.app import build_app
    from mcp_pruner_server.offload import OFF_LOOP_BYTES
    from mcp_pruner_server.server_parts import build_parts
    from mcp_pruner_server.settings import ServerSettings

    hold_s = 15.0  # only reached when the recover blocks the loop (the failure this test catches)
    started, release = threading.Event(), threading.Event()
    order: list[str] = []
    real_recover = RecoveryStore.recover

    def held_recover(
        self: RecoveryStore, prune_id: str, ranges: Sequence[tuple[int, int]], include_line_numbers: bool
    ) -> RecoveredText:
        # A recover is too fast to catch mid-flight: hold it until /healthz has answered.
        order.append("recover_started")
        started.set()
        release.wait(hold_s)
        order.append("recover_done")
        return real_recover(self, prune_id, ranges, include_line_numbers)

    monkeypatch.setattr(RecoveryStore, "recover", held_recover)
    parts = build_parts(ServerSettings(root=tmp_path), env={}, engine_processes=False)
    text = "\n".join(f"line {n}" for n in range(OFF_LOOP_BYTES // 4))
    assert parts.service.store.put("prn_big", text)
    app = build_app(parts)
    recover = {
        "prune_id": "prn_big",
        "ranges": [{"start_line": 1, "end_line": 10**6}],
        "include_line_numbers": True,
    }
    transport = httpx.ASGITransport(app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client,
    ):
        answers: list[object] = []

        async def call_recover() -> None:
            answers.append(await call_tool(client, "recover_text", recover))

        with anyio.fail_after(2 * hold_s):
            async with anyio.create_task_group() as tg:
                tg.start_soon(call_recover)
                assert await anyio.to_thread.run_sync(started.wait, hold_s)
                health = await client.get("/healthz")
                order.append("healthz")
                release.set()
    assert health.status_code == 200
    assert order == ["recover_started", "healthz", "recover_done"]
    (answer,) = answers
    assert at(structured(answer), "raw_text", kind=str).endswith(f"line {OFF_LOOP_BYTES // 4 - 1}")
