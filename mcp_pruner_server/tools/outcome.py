"""What a tool is given (`ToolContext`), what it hands back to the pipeline (`RawOutput`,
`ToolFailure`), and the `PruningMetadata` every read/bash/grep result carries."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning.types import SourceType
from tools_exec.capture import HeadTailCapture

JsonObject = dict[str, object]


@dataclass(frozen=True)
class ToolContext:
    """What every tool runs with: the workspace root and the pruning service."""

    root: Path
    service: PrunerService
    pruning: bool = True  # False: the configuration was invalid, tool output is never pruned

    def capture_bytes(self, question: str | None) -> int | None:
        """How much of its output a tool captures whole for the prune step: up to the raw cap
        with a question (and pruning on); None otherwise (only `max_output_bytes` is kept)."""
        if question is None or not self.pruning:
            return None
        return self.service.config.tool_raw_cap_bytes


@dataclass(frozen=True)
class PruningMetadata:
    """The `pruning` object of every read/bash/grep result (docs/tools.md#pruning-metadata)."""

    attempted: bool = False
    applied: bool = False
    fallback: bool = False
    raw_bytes: int = 0
    reason: str | None = None
    pruned_bytes: int | None = None
    pruner_duration_ms: float | None = None
    prune_id: str | None = None
    prune_ids: Mapping[str, str] = field(default_factory=dict)
    backend: str | None = None
    error: Mapping[str, str] | None = None

    def to_dict(self) -> JsonObject:
        """Only the fields that apply: optional ones are left out rather than null."""
        out: JsonObject = {
            "attempted": self.attempted,
            "applied": self.applied,
            "fallback": self.fallback,
            "raw_bytes": self.raw_bytes,
        }
        optional: dict[str, object | None] = {
            "reason": self.reason,
            "pruned_bytes": self.pruned_bytes,
            "pruner_duration_ms": self.pruner_duration_ms,
            "prune_id": self.prune_id,
            "prune_ids": dict(self.prune_ids) if len(self.prune_ids) > 1 else None,
            "backend": self.backend,
            "error": dict(self.error) if self.error else None,
        }
        out.update({k: v for k, v in optional.items() if v is not None})
        return out


Detail = TypeVar("Detail")


@dataclass(frozen=True)
class RawOutput(Generic[Detail]):
    """`req:raw_output_ready`: the tool ran and produced output the question may prune.

    `texts` are the prunable parts by field name (`content`; `stdout`/`stderr`; `listing`).
    `detail` is what the tool's finish function (`dispatcher.TOOLS`) builds the result object
    from, once the texts are final. `is_error` marks a bash nonzero exit: pruned like any
    output, answered with `isError`.
    """

    tool: str
    texts: Mapping[str, str]
    source_type: SourceType
    question: str | None
    detail: Detail
    is_error: bool = False
    exec_data: Mapping[str, object] = field(default_factory=dict)  # for the exec_ok/failed event
    # (+) With a question: the whole outputs by field name (up to the raw cap), to prune instead of
    # `texts` (which are already cut to `max_output_bytes`); the pipeline closes them.
    full: Mapping[str, HeadTailCapture] = field(default_factory=dict)
    max_output_bytes: int | None = None  # what a pruned text is cut to in the end
    head_share: float = 0.5  # of that cut, the head's part (bash: a quarter)
    path: str | None = None  # the file `read` read or `bash` printed: its extension names the language

    def close(self) -> None:
        """Release the captures (their temporary files). Idempotent."""
        for capture in self.full.values():
            capture.close()


@dataclass(frozen=True)
class ToolFailure:
    """`req:tool_error`: the operation failed; `result` is the contract's error object."""

    tool: str
    code: str
    message: str
    result: JsonObject
    exit_code: int | None = None
    # UTF-8 bytes of the partial output `result` carries (a timeout's stdout/stderr, grep's
    # matches so far): the `raw_bytes` of its pruning metadata.
    raw_bytes: int = 0

    @property
    def timed_out(self) -> bool:
        return self.code == "timeout"
