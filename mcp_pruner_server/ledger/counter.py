"""Token counts for the ledger: what the model read, counted as the demo counts it.

Called by the writer process (`writer.py`), never in a tool call: rendering the model's text
(`tools/model_text.py`) and running the tokenizer over it are milliseconds of CPU per result
(measured in `bench_ledger.py`: counted in the server's own writer thread, they held its GIL
inside tool calls, p99 6 ms to 80 ms on two loaded cores).
"""

from __future__ import annotations

from mcp_pruner_server.ledger.record import JsonObject


def count_model_tokens(tool: str, result: JsonObject | None, text: str) -> int:
    """Tokens of the text the model reads for `result` (`tools/model_text.py`), counted as the demo
    counts them (`runner.bench.tokens.count_tokens`); of `text` (the JSON) when there is no plain form."""
    from mcp_pruner_server.tools.model_text import model_text
    from runner.bench.tokens import count_tokens

    rendered = model_text(tool, result) if result is not None else None
    if rendered is None:
        return count_tokens(text) if text else 0
    return count_tokens(rendered)
