"""The ledger's token counts come from a helper process and equal the in-process count."""

from __future__ import annotations

from mcp_pruner_server.ledger.counter import TokenCounter, count_model_tokens

RESULT: dict[str, object] = {
    "tool": "read",
    "path": "a.py",
    "content": "".join(f"{n:>6}\tdef f_{n}(x): return x * {n}\n" for n in range(1, 200)),
    "pruning": {"attempted": False, "applied": False, "fallback": False, "raw_bytes": 0},
}


def test_the_helper_counts_what_the_writer_thread_would_count() -> None:
    counter = TokenCounter()
    try:
        counted = [counter.count("read", RESULT, "{}"), counter.count("health", None, '{"ok": true}')]
        assert counter._process is not None
        assert counter._process.poll() is None
    finally:
        counter.close()

    assert counted == [
        count_model_tokens("read", RESULT, "{}"),
        count_model_tokens("health", None, '{"ok": true}'),
    ]
    assert counted[0] > 1000


def test_a_helper_that_died_leaves_the_count_to_this_thread() -> None:
    counter = TokenCounter()
    counter.count("read", RESULT, "{}")
    assert counter._process is not None
    counter._process.kill()
    counter._process.wait()

    assert counter.count("read", RESULT, "{}") == count_model_tokens("read", RESULT, "{}")
    assert counter._process is None
