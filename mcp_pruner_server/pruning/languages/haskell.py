"""Haskell: a function is its type signature and its equations. The grammar gives a function's
parts as siblings: the `-- |` doc, the signature `f :: …`, a pragma, then one node per equation
(`f 0 = …`, `f n | … where …`). Blank lines may stand between any two of them, and a comment at
the end of an equation's line is a sibling of its own. Each equation is a definition (its
definitions query, `queries/haskell.scm`) and `syntax.py` makes the first one a block; here its
head is found (the signature above it, also across blank lines) and the equations after it are
joined to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text
from mcp_pruner_server.pruning.structure.syntax_spans import last_row


def _code_above(siblings: Sequence[Node], index: int) -> int:
    """The index of the nearest sibling above `index` that is no comment, else -1."""
    k = index - 1
    while k >= 0 and "comment" in siblings[k].type:
        k -= 1
    return k


def signature_above(siblings: Sequence[Node], index: int, start: int, name: str | None) -> int | None:
    """The index of the type signature of the equation `siblings[index]`: one between its first
    row `start` (its doc's) and it, else the nearest code above if it is `name`'s signature
    (`f :: …`, a blank line, `f x = …`); None when it has none."""
    k = index - 1
    while k >= 0 and siblings[k].start_point[0] >= start:
        if siblings[k].type == "signature":
            return k
        k -= 1
    k = _code_above(siblings, index)
    if k < 0 or siblings[k].type != "signature" or name is None:
        return None
    found = siblings[k].child_by_field_name("name")
    return k if found is not None and name_text(found) == name else None


def continues_function(
    out: Sequence[Block], parent: int | None, name: str | None, siblings: Sequence[Node], index: int
) -> bool:
    """Whether the equation `siblings[index]` continues the function just before it (`out[-1]`):
    the same name, and nothing but blank lines and comments between them."""
    if not out or name is None:
        return False
    last = out[-1]
    if last.name != name or last.parent != parent or last.container:
        return False
    k = _code_above(siblings, index)
    return k >= 0 and siblings[k].type in HASKELL_FUNCTIONS and last_row(siblings[k]) + 1 == last.end


# Its equations (`f x = …`, `x = …`); a function of several equations is one block.
HASKELL_FUNCTIONS = frozenset({"function", "bind"})
# What sits above an equation and belongs to it: its `-- |` doc, type signature, pragmas.
HASKELL_ANNOTATIONS = frozenset({"haddock", "signature", "pragma"})


def _annotates(node: Node) -> bool:
    """Its `-- |` doc, type signature and pragmas sit above an equation and belong to it."""
    return node.type in HASKELL_ANNOTATIONS or "comment" in node.type


LANGUAGE = Language(
    name="haskell",
    extensions=(".hs",),
    interpreters=("runhaskell", "runghc"),
    grammar=Grammar("tree_sitter_haskell"),
    syntax=Syntax(
        definitions="ours",
        adds_to_shared=True,
        annotates=_annotates,
        joins_equation=continues_function,
        signature_above=signature_above,
    ),
    signs=(
        r"^module [A-Z][\w.]*(?:\s*\(|\s+where\b|$)",
        # (a single `import M` is Swift's too: `SHARED`)
        r"^import (?![A-Z]\w*$)(?:qualified )?[A-Z][\w.]*(?: as [A-Z]\w*)?(?: hiding)?(?: \(|$)",
        r"^[a-z_]\w*'* :: ",
        r"^\{-#|^\s*where$",
    ),
    narrower_signs=frozenset({"swift"}),
)
