from __future__ import annotations

import json

from runner.summary import RunSummary, render_text


def test_the_summary_shows_states_and_whatever_counters_the_server_returned() -> None:
    summary = RunSummary(
        provider="claude",
        exit_code=0,
        states=("run:init", "run:mcp_pruner_starting", "run:mcp_pruner_running", "run:shutdown"),
        duration_ms=1234,
        server_stats={"tool_calls": 4, "pruning": {"bytes_before": 10, "bytes_after": 2}, "fallbacks": 1},
    )
    text = render_text(summary)
    assert "states: run:init -> run:mcp_pruner_starting -> run:mcp_pruner_running -> run:shutdown" in text
    assert "tool_calls=4 pruning.bytes_before=10 pruning.bytes_after=2 fallbacks=1" in text
    as_json = json.loads(summary.to_json())
    assert as_json["states"][0] == "run:init"
    assert as_json["server_stats"]["pruning"] == {"bytes_before": 10, "bytes_after": 2}


def test_a_run_without_stats_says_so() -> None:
    summary = RunSummary(
        "command", 3, ("run:init", "run:mcp_pruner_disabled", "run:shutdown"), 5, errors=("boom",)
    )
    text = render_text(summary)
    assert "pruner stats: unavailable" in text
    assert "error: boom" in text
