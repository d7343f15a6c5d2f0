"""An F# signature file: F#'s grammar of signatures fails on members and nested types, so it is
read by the heuristics."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language

LANGUAGE = Language(
    name="fsharp_signature",
    extensions=(".fsi",),
)
