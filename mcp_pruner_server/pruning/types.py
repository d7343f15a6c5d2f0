"""The pruning engine's vocabulary: frozen values in, frozen values out (docs/tools.md#prune_text).

These types are the contract between the pure engine (`pruning/`), the fail-open service
around it (`mcp_pruner_server/pruner_service.py`), the backends and the HTTP tools.
`to_dict()` gives exactly the JSON shape of docs/tools.md#prune_text-result.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

SourceType = Literal["code", "logs", "docs"]
SOURCE_TYPES: tuple[SourceType, ...] = ("code", "logs", "docs")

MARKER_TEMPLATE = "⟦PRUNÉ: prune_id={prune_id} lignes {start}-{end} ({count}) raison={reason}⟧"
LINE_PREFIX_TEMPLATE = "{line_no}│ "
NO_PRUNE_BEGIN = "⟦NO_PRUNE_BEGIN⟧"
NO_PRUNE_END = "⟦NO_PRUNE_END⟧"


@dataclass(frozen=True)
class PruneOptions:
    """docs/tools.md#prune-options; `max_prune_ratio` and `min_keep_lines` are hard constraints.

    (+) `max_kept_lines` / `max_kept_tokens` (estimated tokens of the kept lines): an absolute
    budget, off by default. When set it wins over `max_prune_ratio` (the floor the ratio implies
    is cut to fit it) and `min_keep_lines` wins over it; the engine trims what it chose to the
    budget, errors first (the last ones first), then by score.

    (+) `path`: the file the text was read from, when known (`read`): its extension (or the
    text's shebang) names the language whose parser finds the code's units.

    (+) `model_view`: numbers and markers in the form a model reads cheaply (`N text`,
    `[lines a-b pruned]`; `pruning/model_view.py`) instead of the canonical `N│ ` and
    `⟦PRUNÉ: …⟧`: what `read`, `bash` and `grep` return. Never set by `prune_text`.
    """

    max_prune_ratio: float = 0.8
    min_keep_lines: int = 0
    timeout_ms: int = 1500
    annotate_lines: bool = False
    include_markers: bool = True
    max_kept_lines: int | None = None
    max_kept_tokens: int | None = None
    path: str | None = None
    model_view: bool = False


@dataclass(frozen=True)
class Annotation:
    """One pruned block, in original 1-based inclusive numbering."""

    original_start_line: int
    original_end_line: int
    pruned_line_count: int
    reason: str
    marker: str
    kind: str = "pruned_block"


@dataclass(frozen=True)
class PruneStats:
    original_lines: int
    kept_lines: int
    pruned_lines: int
    pruned_ratio: float
    tokens_est_before: int
    tokens_est_after: int
    elapsed_ms: float
    used_fallback: bool
    backend: str = "heuristic"
    extra: dict[str, Any] = field(default_factory=dict)  # backend-specific (e.g. deepinfra_*)


@dataclass(frozen=True)
class PruneResult:
    prune_id: str
    pruned_text: str
    annotations: tuple[Annotation, ...]
    stats: PruneStats
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The `prune_text` result object (docs/tools.md#prune_text-result)."""
        stats = asdict(self.stats)
        stats.update(stats.pop("extra"))
        return {
            "prune_id": self.prune_id,
            "pruned_text": self.pruned_text,
            "annotations": [asdict(a) for a in self.annotations],
            "stats": stats,
            "warnings": list(self.warnings),
        }
