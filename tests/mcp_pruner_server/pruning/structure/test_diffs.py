"""Unified diffs are pruned by whole hunks, every file still named."""

from __future__ import annotations

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights
from mcp_pruner_server.pruning.structure.diffs import diff_plan
from mcp_pruner_server.pruning.types import PruneOptions


def _file(path: str, hunks: list[list[str]], *, new: bool = False) -> list[str]:
    lines = [f"diff --git a/{path} b/{path}", "index 3f2a1c4..8b9d0e2 100644"]
    lines += ["--- /dev/null" if new else f"--- a/{path}", f"+++ b/{path}"]
    for k, body in enumerate(hunks):
        lines.append(f"@@ -{10 * k + 1},{len(body)} +{10 * k + 1},{len(body)} @@")
        lines += body
    return lines


def _body(topic: str, n: int) -> list[str]:
    return [f" context line {k} of {topic}" if k % 3 else f"+added line {k} of {topic}" for k in range(n)]


RETRY = [
    " import time",
    "+def backoff_delay(attempt):",
    '+    """Seconds to wait before the next attempt: doubling, capped at one minute."""',
    "+    return min(60, 2 ** attempt)",
]
RETRY_TESTS = [f"+def test_backoff_delay_{k}():\n+    assert backoff_delay({k}) > 0" for k in range(12)]


def _diff() -> list[str]:
    lines = ["commit 9b1e0c2", "Author: A <a@example.com>", "", "    Rework the client", ""]
    lines += _file("client/cache.py", [_body("cache", 40), _body("cache eviction", 30)])
    lines += _file("client/retry.py", [RETRY])
    lines += _file("tests/test_retry.py", ["\n".join(RETRY_TESTS).split("\n")], new=True)
    lines += _file("docs/changes.md", [_body("docs", 50)])
    return lines


def _kept(lines: list[str], question: str) -> set[str]:
    result = prune("\n".join(lines), question, "logs", PruneOptions(), "prn_t")
    return set(result.pruned_text.split("\n"))


def test_the_hunk_the_question_is_about_is_kept_whole_and_every_file_named() -> None:
    lines = _diff()
    kept = _kept(lines, "How long does the client wait between retries?")
    assert set(RETRY) <= kept
    assert {line for line in lines if line.startswith("diff --git")} <= kept
    eviction = [line for line in lines if line.endswith("of cache eviction")]
    assert len(kept & set(eviction)) < len(eviction) / 2  # another file's hunk: only the floor's fill


def test_a_hunk_defining_the_named_function_outranks_the_tests_calling_it() -> None:
    lines = _diff()
    result = prune("\n".join(lines), "What does the new backoff_delay do?", "logs", PruneOptions(), "prn_t")
    kept = set(result.pruned_text.split("\n"))
    assert set(RETRY) <= kept
    assert result.stats.pruned_ratio > 0.5


def test_a_plain_diff_u_is_a_diff_too() -> None:
    lines = ["--- expected.txt\t2026-11-24", "+++ actual.txt\t2026-11-24", "@@ -1,40 +1,40 @@"]
    lines += _body("output", 40)
    lines += ["--- expected2.txt", "+++ actual2.txt", "@@ -1,4 +1,4 @@", "-price: 10", "+price: 12"]
    result = prune("\n".join(lines), "Why is the price different?", "logs", PruneOptions(), "prn_t")
    assert {"-price: 10", "+price: 12", "--- expected2.txt"} <= set(result.pruned_text.split("\n"))
    assert result.stats.pruned_ratio > 0.5


def test_the_hunk_defining_a_named_function_ranks_first() -> None:
    lines = _diff()
    question = "What does the new backoff_delay do?"
    query = query_weights(question)
    units, _ = diff_plan(lines, line_hits(line_terms(lines), query), query, question)
    best = max(units, key=lambda u: u.score)
    assert [lines[i] for i in best.lines][1:] == RETRY  # after its `@@` line
