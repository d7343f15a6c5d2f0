"""Visual Basic's own rules for ranking its units (`language_hooks.VBNET_HOOKS`, its record's hooks).

A constructor is `Sub New`, and .NET documents every one alike: "Initializes a new instance of the
X class." `new` is a stop word and the class's name is in every member's name field (as their
context), so nothing tied the question's "initializes … instance" to the constructor, and a field
or a property documented "… the new node …" won over it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.terms import stem

# The words of .NET's constructor doc ("Initializes a new instance of the X class"), as terms.
_CONSTRUCTOR_WORDS = tuple(stem(w) for w in ("initialize", "initialise", "instance", "instantiate"))


def constructor_doc_hits(block: Block, lines: Sequence[str], query: Mapping[str, float]) -> dict[str, int]:
    """The question's words of a constructor's doc ("initializes", "instance"), as hits of the
    name field of a `Sub New` (`vbnet_blocks` names it `new`)."""
    if block.name != "new":
        return {}
    return {t: 1 for t in _CONSTRUCTOR_WORDS if t in query}
