"""Fuzz: 64 KiB runs of one character, as code, logs and docs, answered within budget + 0.5 s.

A regex the engine cannot interrupt once held a worker 22-90 s on one such line (issue 29); the
hard deadline (`engine_workers.py`) kills it. Each run goes through the real worker processes; the
answer is a prune or the fail-open text, never later than `BUDGET_MS` + `HARD_MARGIN_S` after the
call.
`benchmarks/bench_char_runs.py` times the engine itself on these runs (linear or not).
"""

from __future__ import annotations

import time

import anyio
import pytest

from mcp_pruner_server.backends.engine_process import ProcessHeuristicBackend
from mcp_pruner_server.pruning.types import PruneOptions, SourceType

pytestmark = pytest.mark.anyio

RUN = 65536
BUDGET_MS = 300
# The contract: an answer within the budget and half a second.
HARD_MARGIN_S = 0.5
CHARACTERS = (".", "\r", "(", ")", '"', "\\", " ", "\t", "<", "#", "-", "{")
# A path per family of scans: R's definitions, C-like braces, Elixir, Lua, Kotlin; logs; docs.
CONTEXTS: tuple[tuple[SourceType, str | None], ...] = (
    ("code", "src/run.py"),
    ("code", "R/run.R"),
    ("code", "src/run.c"),
    ("code", "lib/run.ex"),
    ("code", "src/run.lua"),
    ("code", "src/Run.kt"),
    ("logs", None),
    ("docs", "README.md"),
)
QUESTION = "why does parse_config fail with an error"


@pytest.mark.parametrize("char", CHARACTERS, ids=[f"U+{ord(c):04X}" for c in CHARACTERS])
async def test_a_long_run_of_one_character_is_answered_within_the_budget(char: str) -> None:
    text = "error\n" + char * RUN + "\n"
    backend = ProcessHeuristicBackend()
    late: list[str] = []
    try:
        for source_type, path in CONTEXTS:
            # ready workers first (the server starts them ahead): the budget counts from the call,
            # and one spent waiting for a killed worker's successor would not test the engine
            await backend.warm()
            options = PruneOptions(timeout_ms=BUDGET_MS, path=path)
            started = time.monotonic()
            with anyio.fail_after(30):
                result = await backend.prune(text, QUESTION, source_type, options, "prn_run")
            took = time.monotonic() - started
            if took > BUDGET_MS / 1000 + HARD_MARGIN_S:
                late.append(f"{path or source_type}: {took:.2f} s")
            if result.stats.pruned_lines == 0:
                assert result.pruned_text == text, path  # fail-open: the text whole
    finally:
        await backend.aclose()
    assert not late, late
