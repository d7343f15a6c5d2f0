"""Which source type a file is pruned as, from its name: what `read` (and a file printed through
`bash`, the gateway's file reads, `jeeves prune FILE`) decide before the engine runs.

Apart from the `read` tool so that `jeeves prune` asks it without importing the server.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from mcp_pruner_server.pruning.types import SourceType

# Prose and markup are pruned by sections (keep headings, never split a fenced block).
DOCS_SUFFIXES = frozenset({".md", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc", ".org", ".tex", ".html"})
# Logs keep error/exception/traceback lines and their neighbours.
LOGS_SUFFIXES = frozenset({".log", ".out", ".err", ".trace"})


def source_type_for(path: str) -> SourceType:
    """`docs` for prose, `logs` for logs, `code` for everything else (config files included)."""
    pure = PurePosixPath(path.lower())
    suffix = pure.suffix
    if suffix in DOCS_SUFFIXES or pure.name in ("readme", "changelog", "license", "notice"):
        return "docs"
    if suffix in LOGS_SUFFIXES or pure.name.endswith(".log.1"):
        return "logs"
    return "code"
