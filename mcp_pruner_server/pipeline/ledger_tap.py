"""What the dispatcher tells the ledger about one call (`ledger/record.py`), gathered as it runs.

`CallNote` is filled in by the dispatcher at each step it passes (the parsed arguments, the
prune step, the reply or the refusal); `to_record` turns it into the immutable `CallRecord` the
ledger's writer process takes. Only attribute reads and a few small objects here: the request
path pays for nothing else (tokens are counted by the writer).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mcp_pruner_server.ledger.record import (
    FALLBACK,
    KEPT_WHOLE,
    PRUNED,
    RAW,
    REFUSED,
    TOOL_ERROR,
    CallRecord,
    RemovedRanges,
)
from mcp_pruner_server.pruning.types import PruneResult
from mcp_pruner_server.tools.bash_tool import BashArgs
from mcp_pruner_server.tools.engine_tools import RecoverArgs
from mcp_pruner_server.tools.grep_tool import GrepArgs
from mcp_pruner_server.tools.outcome import PruningMetadata
from mcp_pruner_server.tools.read_tool import ReadArgs


@dataclass
class CallNote:
    """One call's facts as the dispatcher learns them."""

    tool: str
    started_at: float = field(default_factory=time.time)
    started: float = field(default_factory=time.perf_counter)
    args: object = None
    printed_path: str | None = None  # the file `read` read or `bash` printed (RawOutput.path)
    metadata: PruningMetadata | None = None
    pruned: dict[str, PruneResult] = field(default_factory=dict)
    raw_texts: Mapping[str, str] | None = None  # a pruned call's texts before pruning
    tool_failed: bool = False
    refused_code: str | None = None  # the domain code of the error the call was refused with


def _target(note: CallNote, root: Path) -> tuple[str | None, str | None]:
    """(what the call was about, its kind): a file's normalised path, a command, a search."""
    args = note.args
    cwd = getattr(args, "cwd", None) or ""
    if note.printed_path is not None:
        return os.path.normpath(os.path.join(root, cwd, note.printed_path)), "file"
    if isinstance(args, ReadArgs):
        return os.path.normpath(os.path.join(root, args.path)), "file"
    if isinstance(args, BashArgs):
        return args.cmd, "command"
    if isinstance(args, GrepArgs):
        return f"{args.pattern} in {' '.join(args.paths) or '.'}", "search"
    return None, None


def _outcome(note: CallNote) -> tuple[str, str | None]:
    if note.refused_code is not None:
        return REFUSED, note.refused_code
    meta = note.metadata
    if note.tool_failed:
        return TOOL_ERROR, meta.reason if meta else None
    if meta is None:
        return RAW, None
    if meta.fallback:
        return FALLBACK, (meta.error or {}).get("code", meta.reason)
    if meta.applied:
        return PRUNED, None
    if meta.attempted:
        return KEPT_WHOLE, meta.reason
    return RAW, meta.reason


def to_record(note: CallNote, root: Path, *, result_text: str, agent: str | None) -> CallRecord:
    """The ledger's record of the finished call."""
    outcome, reason = _outcome(note)
    target, kind = _target(note, root)
    args = note.args
    meta = note.metadata
    prune_ids: tuple[str, ...] = ()
    prune_id = None
    if isinstance(args, RecoverArgs):
        prune_id = args.prune_id
    elif meta is not None and meta.prune_id is not None:
        prune_ids = tuple(meta.prune_ids.values()) or (meta.prune_id,)
        prune_id = meta.prune_id
    removed = tuple(
        RemovedRanges(
            name,
            pruned.prune_id,
            pruned.stats.original_lines,  # as the text's reader counts them: `jeeves show`'s "N of M"
            tuple((a.original_start_line, a.original_end_line) for a in pruned.annotations),
        )
        for name, pruned in note.pruned.items()
    )
    return CallRecord(
        started_at=note.started_at,
        tool=note.tool,
        outcome=outcome,
        latency_ms=round((time.perf_counter() - note.started) * 1000, 3),
        reason=reason,
        question=getattr(args, "question", None),
        target=target,
        target_kind=kind,
        prune_id=prune_id,
        prune_ids=prune_ids,
        removed=removed,
        result_text=result_text,
        raw_texts=note.raw_texts if outcome == PRUNED else None,
        agent=agent,
    )
