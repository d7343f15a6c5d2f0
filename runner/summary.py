"""The run summary: states visited and the server's counters, for people (stderr) and `--json`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

# Nesting shown in the one-line text form; deeper values are in `--json`.
_TEXT_DEPTH = 2


@dataclass(frozen=True)
class RunSummary:
    """What happened in one run."""

    provider: str
    exit_code: int
    states: tuple[str, ...]
    duration_ms: int
    pruner_url: str | None = None
    degraded: Mapping[str, object] | None = None
    server_stats: Mapping[str, object] | None = None
    errors: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        """The `--json` document."""
        return {
            "provider": self.provider,
            "exit_code": self.exit_code,
            "states": list(self.states),
            "duration_ms": self.duration_ms,
            "pruner_url": self.pruner_url,
            "degraded": dict(self.degraded) if self.degraded is not None else None,
            "server_stats": dict(self.server_stats) if self.server_stats is not None else None,
            "errors": list(self.errors),
        }

    def to_json(self) -> str:
        """`to_dict()` as one JSON line."""
        return json.dumps(self.to_dict(), sort_keys=False, default=str)


def _flatten(prefix: str, value: object, depth: int, out: list[str]) -> None:
    if isinstance(value, Mapping) and value and depth < _TEXT_DEPTH:
        for key, inner in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), inner, depth + 1, out)
    else:
        out.append(f"{prefix}={json.dumps(value, default=str)}")


def render_text(summary: RunSummary) -> str:
    """A few human lines for stderr."""
    path = " -> ".join(summary.states)
    lines = [
        f"jeeves run: provider={summary.provider} exit_code={summary.exit_code} "
        f"duration_ms={summary.duration_ms}",
        f"  states: {path}",
    ]
    if summary.degraded is not None:
        detail = " ".join(f"{k}={v}" for k, v in summary.degraded.items())
        lines.append(f"  degraded: {detail}")
    if summary.server_stats is not None:
        flat: list[str] = []
        _flatten("", summary.server_stats, 0, flat)
        lines.append(f"  pruner stats: {' '.join(flat)}")
    else:
        lines.append("  pruner stats: unavailable")
    lines.extend(f"  error: {e}" for e in summary.errors)
    return "\n".join(lines) + "\n"
