"""Fortran, free form (fixed form mostly fails the parse and gives way to the heuristics). Its
procedures (`function`, `subroutine`, a submodule's `module procedure`) sit after a `contains` in
an `internal_procedures` node of their module or program, which the walk goes through; a module's
members are its children, a derived type is a unit of its own (a long one a container of chunks,
`LONG_TYPE_LINES`). Names come from the opening statement (`subroutine name(…)`), spelled as
written: the language ignores case, and so do its calls. Its ranking rules: `fortran_*.py`
(`language_hooks.FORTRAN_HOOKS`).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Calls, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.fortran_code import fortran_lines
from mcp_pruner_server.pruning.structure.language_hooks import FORTRAN_HOOKS as HOOKS
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text, unwrapped
from mcp_pruner_server.pruning.structure.syntax_recovery import blank_fypp

FORTRAN_FUNCTIONS = frozenset({"function", "subroutine", "module_procedure", "derived_type_definition"})


# Their members are their children (procedures after `contains` in an `internal_procedures`);
# an `interface` block's are the procedures it declares.
FORTRAN_CONTAINERS = frozenset({"module", "submodule", "interface"})


# A derived type over this many lines is a container, not a unit: a configuration type of hundreds
# of components, kept whole, is the whole budget when it wins (its procedures are the module's, not
# its members: `code.py` makes its header its unit and its components chunks, as `code.CHUNK_LINES`).
LONG_TYPE_LINES = 30


def fortran_kind(node: Node) -> tuple[str, Node] | None:
    """("function" | "container", the node holding its members) for a Fortran definition, else None."""
    t = node.type
    if t == "derived_type_definition" and node.end_point[0] - node.start_point[0] >= LONG_TYPE_LINES:
        return "container", node
    if t in FORTRAN_FUNCTIONS:
        return "function", node
    if t in FORTRAN_CONTAINERS:
        return "container", node
    if t == "program":  # its own procedures make it their container; else it is one unit
        holds = any(c.type == "internal_procedures" for c in node.named_children)
        return ("container" if holds else "function"), node
    return None


def _opening(node: Node) -> Node | None:
    """The statement that opens a Fortran definition (`pure function f(x) result(y)` …)."""
    first = node.named_children[0] if node.named_child_count else None
    return first if first is not None and first.type.endswith("_statement") else None


def fortran_name(node: Node) -> str | None:
    """The name its opening statement gives (`disc_area` of `pure function disc_area(r)`)."""
    opening = _opening(node)
    if opening is None:
        return None
    found = opening.child_by_field_name("name") or next(
        (c for c in opening.named_children if c.type in ("name", "type_name")), None
    )
    return None if found is None else name_text(found)


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
    hooks=HOOKS,
    syntax=Syntax(
        kind=fortran_kind,
        unwrap=unwrapped,
        name=fortran_name,
        head_end=fortran_signature_end,
        head_end_of_containers=True,
        blanked=blank_fypp,
    ),
    calls=Calls(bare_words=re.compile(r"(?<!\w)[A-Za-z]\w*"), ignore_case=True, code_of=fortran_lines),
)
