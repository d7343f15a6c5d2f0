"""The minimal "never prune" lines, added to a remote backend's keep-mask.

The rules: docs/tools.md#keep-rules-by-source-type.

A reranker or a remote model judges lines one by one against the goal; these rules keep what
any reader needs whatever the goal (the heuristic engine applies richer ones of its own):

- code: import statements and definition headers (`def`, `class`, `fn`, `func` …);
- logs: lines naming an error, an exception or a traceback;
- docs: Markdown headings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.structure.code import import_lines, is_header
from mcp_pruner_server.pruning.types import SourceType

_LOG_ALERT = re.compile(r"\b(?:error|exception|traceback)\b|\w+(?:Error|Exception):", re.IGNORECASE)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")


def safety_keep(lines: Sequence[str], source_type: SourceType) -> list[bool]:
    """One bool per line: True where §7.4 says the line must stay."""
    if source_type == "code":
        keep = [is_header(line) for line in lines]
        for start, end in import_lines(lines):
            for i in range(start, end):
                keep[i] = True
        return keep
    pattern = _LOG_ALERT if source_type == "logs" else _HEADING
    return [bool(pattern.search(line)) for line in lines]
