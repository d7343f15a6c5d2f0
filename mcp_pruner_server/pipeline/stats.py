"""Counters for the runner's end-of-run summary (`GET /stats`): calls, bytes and tokens saved.

Updated from the event loop and from worker threads, hence the lock; reads take a snapshot.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field

# The engine's estimate (docs/tools.md#prune_text-result `tokens_est_*`) is ~4 bytes per token; the server
# uses the same ratio for raw outputs that were never pruned.
BYTES_PER_TOKEN_ESTIMATE = 4


@dataclass
class ServerStats:
    """Mutable, thread-safe run totals; `snapshot()` is the JSON of `GET /stats`."""

    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    tool_calls: Counter[str] = field(default_factory=Counter)
    tool_errors: Counter[str] = field(default_factory=Counter)
    invalid_requests: int = 0
    internal_errors: int = 0
    prune_attempts: int = 0
    prunes_applied: int = 0
    fallbacks: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    bytes_before: int = 0
    bytes_after: int = 0

    def record_call(self, tool: str) -> None:
        with self._lock:
            self.tool_calls[tool] += 1

    def record_invalid(self) -> None:
        with self._lock:
            self.invalid_requests += 1

    def record_internal_error(self) -> None:
        with self._lock:
            self.internal_errors += 1

    def record_tool_error(self, tool: str) -> None:
        with self._lock:
            self.tool_errors[tool] += 1

    def record_output(
        self,
        *,
        raw_bytes: int,
        returned_bytes: int,
        attempted: bool,
        applied: bool,
        fallback: bool,
        skipped_reason: str | None,
    ) -> None:
        """One tool output that went through the prune check."""
        with self._lock:
            self.bytes_before += raw_bytes
            self.bytes_after += returned_bytes
            self.prune_attempts += attempted
            self.prunes_applied += applied
            self.fallbacks += fallback
            if skipped_reason is not None:
                self.skipped[skipped_reason] += 1

    def snapshot(self) -> dict[str, object]:
        with self._lock:
            return {
                "tool_calls": dict(self.tool_calls),
                "tool_calls_total": sum(self.tool_calls.values()),
                "tool_errors": dict(self.tool_errors),
                "invalid_requests": self.invalid_requests,
                "internal_errors": self.internal_errors,
                "pruning": {
                    "attempted": self.prune_attempts,
                    "applied": self.prunes_applied,
                    "fallbacks": self.fallbacks,
                    "skipped": dict(self.skipped),
                },
                "bytes": {
                    "before": self.bytes_before,
                    "after": self.bytes_after,
                    "saved": self.bytes_before - self.bytes_after,
                },
                "tokens_est": {
                    "before": self.bytes_before // BYTES_PER_TOKEN_ESTIMATE,
                    "after": self.bytes_after // BYTES_PER_TOKEN_ESTIMATE,
                    "saved": (self.bytes_before - self.bytes_after) // BYTES_PER_TOKEN_ESTIMATE,
                },
            }
