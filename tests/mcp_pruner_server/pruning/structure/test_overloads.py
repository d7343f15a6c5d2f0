"""Overloads ranked by their shared docs: the ranking stops at the engine's deadline."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.errors import EngineTimeout
from mcp_pruner_server.pruning.scoring import Doc, bm25, line_hits, line_terms, query_weights
from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.overloads import overloads_ranked

# a bundle's shape: one scope holding one name many times
LINES = [line for k in range(6) for line in (f"/** Adds item {k}. */", f"void add(int x{k}) {{ }}")]
BLOCKS = [Block(2 * k, 2 * k + 1, 2 * k + 2, container=False, parent=None, name="add") for k in range(6)]


def _ranked(deadline: Deadline) -> list[float]:
    query = query_weights("what does add do with item 3")
    lh = line_hits(line_terms(LINES), query)
    bags = [lh.span(b.start, b.end) for b in BLOCKS]
    scores = bm25(query, bags)
    ends = [b.end for b in BLOCKS]

    def score(docs: Sequence[Doc]) -> list[float]:
        return bm25(query, docs)

    return overloads_ranked(LINES, BLOCKS, ends, lh, bags, scores, score, deadline)


def test_overloads_are_ranked_in_time_and_stop_at_a_passed_deadline() -> None:
    assert max(_ranked(NO_DEADLINE)) > 0
    with pytest.raises(EngineTimeout):
        _ranked(Deadline(at=0.0, timeout_ms=1, clock=lambda: 1.0))
