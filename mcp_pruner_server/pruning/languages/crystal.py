"""Crystal: known by its extension (its `def … end` would read as Ruby), read by the heuristics."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language

LANGUAGE = Language(
    name="crystal",
    extensions=(".cr",),
)
