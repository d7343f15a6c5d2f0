"""Clojure (and babashka): no grammar wheel; its own scan (`clojure_blocks.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.clojure_blocks import clojure_blocks

LANGUAGE = Language(
    name="clojure",
    extensions=(".clj", ".cljs", ".cljc", ".bb"),
    scanner=clojure_blocks,
)
