"""Definition blocks found by a language's own scan, for languages with no grammar wheel.

Where a language's definitions have a shape the language-independent heuristics
(`code_blocks.py`) do not read, and no tree-sitter wheel is installed for it, a scan of its own
finds them as a parser would: each definition with its doc comment above it and its name, so
`code.py` weighs the doc as a parser's and knows the names. R: `r_blocks.py`; Erlang:
`erlang_blocks.py`; MATLAB and Octave: `matlab_blocks.py`; Clojure: `clojure_blocks.py`; Pascal:
`pascal_blocks.py`; Visual Basic: `vbnet_blocks.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.structure.clojure_blocks import clojure_blocks
from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.erlang_blocks import erlang_blocks
from mcp_pruner_server.pruning.structure.matlab_blocks import matlab_blocks
from mcp_pruner_server.pruning.structure.pascal_blocks import pascal_blocks
from mcp_pruner_server.pruning.structure.r_blocks import r_blocks
from mcp_pruner_server.pruning.structure.vbnet_blocks import vbnet_blocks

_SCANNERS: dict[str, Callable[..., list[Block]]] = {
    "clojure": clojure_blocks,
    "r": r_blocks,
    "erlang": erlang_blocks,
    "matlab": matlab_blocks,
    "pascal": pascal_blocks,
    "vbnet": vbnet_blocks,
}


def scanned_blocks(
    lines: Sequence[str], lang: str | None, *, deadline: Deadline = NO_DEADLINE
) -> list[Block] | None:
    """The blocks of `lang`'s own scan; None (the heuristics) for another language, or when the
    scan finds no definition (a script of top-level statements).

    Raises:
        EngineTimeout: `deadline` passed.
    """
    scanner = _SCANNERS.get(lang or "")
    if scanner is None:
        return None
    return scanner(lines, deadline=deadline) or None
