"""Definition blocks found by a language's own scan, for languages with no grammar wheel.

Where a language's definitions have a shape the language-independent heuristics
(`code_blocks.py`) do not read, and no tree-sitter wheel is installed for it, a scan of its own
finds them as a parser would: each definition with its doc comment above it and its name, so
`code.py` weighs the doc as a parser's and knows the names. The scan is the `scanner` of the
language's record (`pruning/languages/`): R's `r_blocks.py`, Erlang's `erlang_blocks.py`, MATLAB's
and Octave's `matlab_blocks.py`, Clojure's `clojure_blocks.py`, Pascal's `pascal_blocks.py`,
Visual Basic's `vbnet_blocks.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.languages.registry import by_name
from mcp_pruner_server.pruning.structure.code_blocks import Block


def scanned_blocks(
    lines: Sequence[str], lang: str | None, *, deadline: Deadline = NO_DEADLINE
) -> list[Block] | None:
    """The blocks of `lang`'s own scan; None (the heuristics) for a language without one, or
    when the scan finds no definition (a script of top-level statements).

    Raises:
        EngineTimeout: `deadline` passed.
    """
    scanner = by_name(lang).scanner
    if scanner is None:
        return None
    return scanner(lines, deadline=deadline) or None
