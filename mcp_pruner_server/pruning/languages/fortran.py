"""Fortran, free form (fixed form mostly fails the parse and gives way to the heuristics). Its
procedures (`function`, `subroutine`, a submodule's `module procedure`) sit after a `contains` in
an `internal_procedures` node of their module or program, which the walk goes through; a module's
members are its children, a derived type is a unit of its own (over 30 lines a container of
chunks). Names come from the opening statement (`subroutine name(…)`),
spelled as written: the language ignores case, and so do its calls. Which nodes define what, and
their names, is its definitions query (`queries/fortran.scm`). Its ranking rules: `fortran_*.py`
(`language_hooks.FORTRAN_HOOKS`).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Calls, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.code_blocks import BANG_COMMENT
from mcp_pruner_server.pruning.structure.fortran_code import fortran_lines
from mcp_pruner_server.pruning.structure.language_hooks import FORTRAN_HOOKS as HOOKS
from mcp_pruner_server.pruning.structure.syntax_grammars import unwrapped
from mcp_pruner_server.pruning.structure.syntax_recovery import blank_fypp


def _opening(node: Node) -> Node | None:
    """The statement that opens a Fortran definition (`pure function f(x) result(y)` …)."""
    first = node.named_children[0] if node.named_child_count else None
    return first if first is not None and first.type.endswith("_statement") else None


def fortran_signature_end(node: Node, header: int) -> int:
    """Exclusive end of the opening statement, over its `&` continuation lines."""
    opening = _opening(node)
    if opening is None:
        return header + 1
    row, col = opening.end_point
    last = int(row) - 1 if col == 0 and row > opening.start_point[0] else int(row)
    return max(header + 1, last + 1)


LANGUAGE = Language(
    name="fortran",
    extensions=(".f90", ".f95", ".f03", ".f08", ".f", ".for", ".f77"),
    grammar=Grammar("tree_sitter_fortran"),
    comment=BANG_COMMENT,  # any `!` but `!=`; `!>` a Doxygen or FORD doc
    hooks=HOOKS,
    syntax=Syntax(
        definitions="ours",
        unwrap=unwrapped,
        head_end=fortran_signature_end,
        head_end_of_containers=True,
        blanked=blank_fypp,
    ),
    calls=Calls(bare_words=re.compile(r"(?<!\w)[A-Za-z]\w*"), ignore_case=True, code_of=fortran_lines),
    # Free-form Fortran, in any case: typed declarations (`real(dp), intent(in) :: x`), `use m, only:`,
    # `implicit none`, `call x`, `end subroutine` / `end do`, FORD's and Doxygen's `!>` / `!!` docs.
    # One anchored pattern: an alternation of anchored ones is tried at every column of a line.
    signs=(
        r"^\s*(?i:(?:integer|real|logical|character|complex|double precision|type\s*\(\s*\w+\s*\)|"
        r"class\s*\(\s*\w+\s*\))\b[^=!;]*::|implicit\s+none\b|use\s+\w+\s*(?:,|$)|call\s+\w+|"
        r"contains\s*$|end\s*(?:subroutine|function|module|program|interface|do|if|select|type)\b|![>!<])",
    ),
)
