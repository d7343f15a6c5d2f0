"""`ServicePruner`: the pruning service as the read/bash/grep pipeline sees it."""

import itertools
import json
from pathlib import Path

import pytest

from mcp_pruner_server.dispatcher import ToolDispatcher
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType
from mcp_pruner_server.pruning_config import PruningConfig
from mcp_pruner_server.recovery import RecoveryStore
from mcp_pruner_server.stats import ServerStats
from mcp_pruner_server.tools.engine_tools import ServicePruner
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
    dispatcher = ToolDispatcher(tmp_path, service, ServicePruner(service, config), ServerStats())
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
    pruner = ServicePruner(service, config)
    # min_keep_lines above the line count: the engine keeps everything, by design.
    options = PruneOptions(min_keep_lines=100, timeout_ms=config.timeout_ms)
    attempt = await pruner.prune_for_tool("a\nb\nc\n", "b", "logs", options)
    await service.aclose()
    assert attempt.failed is False
    assert attempt.error_code is None
    assert attempt.applied is False


async def test_an_engine_timeout_logs_pruner_timeout_next_to_pruner_call_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_pruner_server.logs import configure_logging

    configure_logging("json")
    write_log(tmp_path)
    config = PruningConfig(timeout_ms=50)
    service = PrunerService(config, RecoveryStore(60, 10, 1 << 24), backend=SlowClockEngine())
    dispatcher = ToolDispatcher(tmp_path, service, ServicePruner(service, config), ServerStats())
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
