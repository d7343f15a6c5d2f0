"""The prune step when the pruner fails: an engine timeout, a decline, a service that raises."""

import itertools
import json
from pathlib import Path

import pytest

from mcp_pruner_server.pipeline.dispatcher import ToolDispatcher
from mcp_pruner_server.pipeline.stats import ServerStats
from mcp_pruner_server.pruner_service import PruneOutcome, PrunerService
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType
from mcp_pruner_server.pruning_config import PruningConfig
from mcp_pruner_server.recovery import RecoveryStore
from tests.json_paths import at

pytestmark = pytest.mark.anyio


class SlowClockEngine:
    """The real heuristic engine, whose clock advances one second per reading: it runs out
    of `timeout_ms` at its first checkpoint exactly like an engine on a starved CPU would
    (a real 50 ms budget on a 246 KB log only times out when the machine is busy enough)."""

    name = "heuristic"

    async def prune(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        ticks = itertools.count()
        return prune(text, goal_hint, source_type, options, prune_id, clock=lambda: float(next(ticks)))


def write_log(root: Path) -> Path:
    lines = [f"2026-01-01 INFO worker {n} processed batch {n * 7}" for n in range(4000)]
    lines[2500] = "2026-01-01 ERROR worker 2500 failed: database connection refused"
    path = root / "app.log"
    path.write_text("\n".join(lines) + "\n")
    return path


async def test_an_engine_timeout_on_tool_output_is_a_pruner_error_fallback(tmp_path: Path) -> None:
    log = write_log(tmp_path)
    config = PruningConfig(timeout_ms=50)
    service = PrunerService(config, RecoveryStore(60, 10, 1 << 24), backend=SlowClockEngine())
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    reply = await dispatcher.call("read", {"path": "app.log", "context_focus_question": "why did it fail?"})
    await service.aclose()
    body = reply.structured
    assert body["content"] == log.read_text()
    pruning = body["pruning"]
    assert isinstance(pruning, dict)
    assert pruning["attempted"] is True
    assert pruning["applied"] is False
    assert pruning["fallback"] is True
    assert pruning["reason"] == "pruner_error"
    assert pruning["error"]["code"] == "timeout"
    assert "50 ms" in pruning["error"]["message"]
    assert at(dispatcher.stats.snapshot(), "pruning", "fallbacks") == 1


async def test_an_engine_that_declines_to_prune_is_not_a_failure(tmp_path: Path) -> None:
    config = PruningConfig()
    service = PrunerService(config, RecoveryStore(60, 10, 1 << 20))
    # min_keep_lines above the line count: the engine keeps everything, by design.
    options = PruneOptions(min_keep_lines=100, timeout_ms=config.timeout_ms)
    outcome = await service.prune("a\nb\nc\n", "b", "logs", options)
    await service.aclose()
    assert outcome.error_code is None  # not a failure: the prune step answers `kept_whole`
    assert outcome.applied is False


async def test_an_engine_timeout_logs_pruner_timeout_next_to_pruner_call_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_pruner_server.logs import configure_logging

    configure_logging("json")
    write_log(tmp_path)
    config = PruningConfig(timeout_ms=50)
    service = PrunerService(config, RecoveryStore(60, 10, 1 << 24), backend=SlowClockEngine())
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    await dispatcher.call("read", {"path": "app.log", "context_focus_question": "why did it fail?"})
    await service.aclose()
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    names = [e["event"] for e in events]
    assert "pruner.call_failed" in names
    timeout = [e for e in events if e["event"] == "pruner.timeout"]
    assert len(timeout) == 1
    failed = events[names.index("pruner.call_failed")]
    assert timeout[0]["request_id"] == failed["request_id"]
    assert timeout[0]["data"]["tool"] == "read"


class RaisingService(PrunerService):
    """A service with a bug (it never raises for real: this is the prune step's last guard)."""

    async def prune_captured(self, *_args: object, **_kwargs: object) -> PruneOutcome:
        raise ZeroDivisionError("a bug in the service")


async def test_a_service_that_raises_is_an_internal_error_fallback_logged_once_with_its_stack(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_pruner_server.logs import configure_logging

    configure_logging("json")
    log = write_log(tmp_path)
    service = RaisingService(PruningConfig(), RecoveryStore(60, 10, 1 << 24))
    dispatcher = ToolDispatcher(tmp_path, service, ServerStats())
    reply = await dispatcher.call("read", {"path": "app.log", "context_focus_question": "why did it fail?"})
    await service.aclose()
    assert reply.structured["content"] == log.read_text()
    assert at(reply.structured, "pruning", "error") == {
        "code": "internal_error",
        "message": "pruner raised ZeroDivisionError: a bug in the service",
    }
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    logged = [e for e in events if "ZeroDivisionError: a bug" in e["data"].get("exception", "")]
    assert [e["event"] for e in logged] == ["pruner.internal_error"]
