"""The offline tokenizer: real cl100k_base counts without any network access."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions
from runner.bench.quality import ENGINE_TIMEOUT_MS, model_view_tokens
from runner.bench.tokens import BlockCounts, count_tokens, tokenizer


def test_the_offline_encoding_is_used_and_counts_bpe_tokens() -> None:
    assert tokenizer().exact is True
    assert tokenizer().name == "tiktoken cl100k_base (offline)"
    # "hello world" is two cl100k_base tokens; the chars/4 estimate would say 3.
    assert count_tokens("hello world") == 2


def test_special_token_text_is_counted_as_text() -> None:
    assert count_tokens("<|endoftext|>") > 1


def test_the_bench_counts_the_text_block_a_model_receives_numbers_markers_and_trailer_included() -> None:
    helpers = [f"def helper_{n}(x):\n    return x * {n}\n" for n in range(200)]
    text = "\n".join([*helpers, "def tax(v):\n    return v"])
    goal = "how is tax computed?"
    bare = PruneOptions(
        max_prune_ratio=0.8,
        min_keep_lines=0,
        timeout_ms=ENGINE_TIMEOUT_MS,
        annotate_lines=False,
        include_markers=False,
    )
    without_numbers = prune(text, goal, "code", bare, "bare").pruned_text

    viewed = model_view_tokens(text, goal, "code", 0.8, "view")

    assert count_tokens(without_numbers) < viewed < count_tokens(text)


def test_counting_leaves_no_copy_of_the_encoding_in_the_temporary_directory(tmp_path: Path) -> None:
    # tiktoken copies what it loads to $TMPDIR/data-gym-cache by default: left behind by every
    # `jeeves run` whose ledger or demo counted tokens
    code = (
        "from runner.bench.tokens import count_tokens, tokenizer; assert tokenizer().exact; count_tokens('x')"
    )
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60)
    assert list(tmp_path.iterdir()) == []


ODD_TEXTS = (
    "a\n \n  b\n",  # a line of spaces between two lines
    "f(x):\n\n\n    return x\n",  # punctuation before newlines, an indented line after them
    "line one\r\nline two\r\n\r\n",  # CRLF and a blank CRLF line
    "trailing spaces   \nnext\t\n\ttabbed\n",
    "it\n's a contraction after a newline\n'll\n",
    "12345\n678 numbers\n9\n",
    "unicode é\nçà\n— dash\n日本語\n🙂 emoji\n",
    "no newline at the end",
    "\n\n\nleading newlines",
    "",
)


def _sample_texts() -> list[str]:
    root = Path(__file__).resolve().parents[3]
    sources = sorted((root / "mcp_pruner_server").rglob("*.py"))[:40] + sorted((root / "docs").glob("*.md"))
    return [*ODD_TEXTS, *(p.read_text(encoding="utf-8") for p in sources)]


def test_block_counts_are_the_whole_texts_counts() -> None:
    counts = BlockCounts()
    texts = _sample_texts()

    assert [counts.count(t) for t in texts] == [count_tokens(t) for t in texts]
    # counted again from the remembered lines, and the same texts joined (lines shared)
    assert [counts.count(t) for t in texts] == [count_tokens(t) for t in texts]
    joined = "\n".join(texts[:12])
    assert counts.count(joined) == count_tokens(joined)


def test_block_counts_remember_at_most_their_limit_of_lines() -> None:
    counts = BlockCounts(limit=10)
    text = "".join(f"line {n}\n" for n in range(1000))

    assert counts.count(text) == count_tokens(text)
    assert counts.remembered == 10
    assert counts.count(text) == count_tokens(text)
