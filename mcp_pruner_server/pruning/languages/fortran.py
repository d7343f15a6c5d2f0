"""Fortran, free form (fixed form mostly fails the parse and gives way to the heuristics); its
procedures (`syntax_fsharp_fortran.py`), its names ignore case, and its ranking rules are
`fortran_*.py`'s (`language_hooks.py`)."""

from __future__ import annotations

import re

from mcp_pruner_server.pruning.languages.record import Calls, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.fortran_code import fortran_lines
from mcp_pruner_server.pruning.structure.language_hooks import FORTRAN_HOOKS as HOOKS
from mcp_pruner_server.pruning.structure.syntax_fsharp_fortran import READERS
from mcp_pruner_server.pruning.structure.syntax_recovery import blank_fypp

READER = READERS["fortran"]


LANGUAGE = Language(
    name="fortran",
    extensions=(".f90", ".f95", ".f03", ".f08", ".f", ".for", ".f77"),
    grammar=Grammar("tree_sitter_fortran"),
    hooks=HOOKS,
    syntax=Syntax(
        kind=READER.kind,
        unwrap=READER.unwrap,
        name=READER.name,
        head_end=READER.signature_end,
        head_end_of_containers=True,
        blanked=blank_fypp,
    ),
    calls=Calls(bare_words=re.compile(r"(?<!\w)[A-Za-z]\w*"), ignore_case=True, code_of=fortran_lines),
)
