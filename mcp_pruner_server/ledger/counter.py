"""Token counts for the ledger: what the model read, counted as the demo counts it.

Called by the writer process (`writer.py`), never in a tool call: rendering the model's text
(`tools/model_text.py`) and running the tokenizer over it are milliseconds of CPU per result
(measured in `bench_ledger.py`: counted in the server's own writer thread, they held its GIL
inside tool calls, p99 6 ms to 80 ms on two loaded cores). Even in its own process that CPU is
taken from the tool calls when the cores are busy, so each block of lines is counted once per
writer (`runner.bench.tokens.BlockCounts`, the same counts): a file read again, an output that
repeats, a pruned call's unpruned form after the file was read whole cost dictionary lookups.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from mcp_pruner_server.ledger.record import JsonObject

if TYPE_CHECKING:
    from runner.bench.tokens import BlockCounts


@cache
def _block_counts() -> BlockCounts:
    from runner.bench.tokens import BlockCounts  # the tokenizer: imported by the writer only

    return BlockCounts()


def load_counter() -> None:
    """Import the renderer and load the tokenizer now (a writer's start-up, before any row)."""
    import mcp_pruner_server.tools.model_text  # noqa: F401

    _block_counts().count("x")


def count_model_tokens(tool: str, result: JsonObject | None, text: str) -> int:
    """Tokens of the text the model reads for `result` (`tools/model_text.py`), counted as the demo
    counts them (`runner.bench.tokens.count_tokens`); of `text` (the JSON) when there is no plain form."""
    from mcp_pruner_server.tools.model_text import model_text

    rendered = model_text(tool, result) if result is not None else None
    if rendered is None:
        rendered = text
    return _block_counts().count(rendered) if rendered else 0
