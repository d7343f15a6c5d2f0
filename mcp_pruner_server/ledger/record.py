"""One tool call as the ledger receives it: built on the request path, cheap, immutable.

Everything that costs (building the unpruned result, rendering the model's text, counting
tokens, deciding a re-read, linking a `recover_text` to its call) is left to the writer process
(`writer.py`): the record carries what it needs for that (the reply's JSON text, a pruned
call's texts before pruning), not numbers computed in the request. It crosses the pipe pickled
(`wire.py`): every field is a plain value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

JsonObject = dict[str, object]

# Outcomes of a call, as stored in `calls.outcome`.
PRUNED = "pruned"  # the model received less than the tool produced
KEPT_WHOLE = "kept_whole"  # pruning ran and removed nothing worth sending
RAW = "raw"  # not attempted (no question, empty, disabled, too large) or an engine tool
FALLBACK = "fallback"  # the pruner failed: the raw output was sent
TOOL_ERROR = "tool_error"  # the tool failed (a timeout, a missing file)
REFUSED = "refused"  # the call never ran: invalid arguments, unknown tool, unknown prune_id


@dataclass(frozen=True)
class RemovedRanges:
    """What a pruned text lost, per field (`content`; `stdout`/`stderr`; `listing`): 1-based
    inclusive line ranges of the original, and how many lines the original had."""

    field: str
    prune_id: str
    original_lines: int
    ranges: tuple[tuple[int, int], ...]

    def to_dict(self) -> JsonObject:
        removed = [list(r) for r in self.ranges]
        return {
            "field": self.field,
            "prune_id": self.prune_id,
            "original_lines": self.original_lines,
            "removed": removed,
        }


@dataclass(frozen=True)
class CallRecord:
    """One finished tool call."""

    started_at: float  # unix seconds
    tool: str
    outcome: str
    latency_ms: float
    reason: str | None = None  # why not pruned, the fallback's error code, the refusal's code
    question: str | None = None
    # What the call was about: a file's resolved path (read, or bash printing a file), a
    # command (bash), a pattern and paths (grep). Re-reads and the "top" tables group by it.
    target: str | None = None
    target_kind: str | None = None  # "file" | "command" | "search"
    prune_id: str | None = None  # pruned: the first id; recover_text: the id it recovered
    prune_ids: tuple[str, ...] = ()
    removed: tuple[RemovedRanges, ...] = ()
    # For the writer to count tokens: the JSON of the result the model was answered with ("":
    # none, a refused call), and a pruned call's texts before pruning by field (`content`;
    # `stdout`/`stderr`; `listing`): the result it would have received unpruned is the same
    # result over these texts (`writer.unpruned_result`).
    result_text: str = ""
    raw_texts: Mapping[str, str] | None = None
    agent: str | None = None
