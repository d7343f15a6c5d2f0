import threading

import pytest

from mcp_pruner_server.backends import heuristic
from mcp_pruner_server.backends.heuristic import HeuristicBackend
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType

pytestmark = pytest.mark.anyio

CODE = "\n".join(
    ["import os", ""]
    + [f"def f{i}(x):\n    return x + {i}\n" for i in range(40)]
    + ["def target(path):", "    return os.path.exists(path)"]
)


async def test_heuristic_backend_runs_the_engine_off_the_event_loop_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads: list[threading.Thread] = []

    def spy(  # records the thread, runs the real engine
        text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        threads.append(threading.current_thread())
        return prune(text, goal_hint, source_type, options, prune_id)

    monkeypatch.setattr(heuristic, "prune_text", spy)
    options = PruneOptions(max_prune_ratio=0.8)
    result = await HeuristicBackend().prune(CODE, "target path exists", "code", options, "prn_h")
    assert threads
    assert threads[0] is not threading.current_thread()
    expected = prune(CODE, "target path exists", "code", options, "prn_h")
    assert result.pruned_text == expected.pruned_text
    assert result.stats.backend == "heuristic"
    assert result.stats.pruned_lines > 0
