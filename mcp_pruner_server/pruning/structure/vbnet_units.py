"""Visual Basic's own rules for ranking its units (`language_hooks.VBNET_HOOKS`, its record's hooks).

A constructor is `Sub New`, and .NET documents every one alike: "Initializes a new instance of the
X class." `new` is a stop word and the class's name is in every member's name field (as their
context), so nothing tied the question's "initializes … instance" to the constructor, and a field
or a property documented "… the new node …" won over it.

A public method's worker (`DistanceFinder` and its undocumented `DistanceFinderInternal`) is named
after it with a suffix of .NET's (`Internal`, `Core`, `Impl`) that the namesake and twin rules of
`code.py` do not strip (too long for a twin's part): the doc's words found only the public one,
a three-line call of the worker, and the worker's code is what the question asks for.
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


# .NET names the procedure that does a public member's work after it (`Parse` and `ParseCore`,
# `Find` and `FindInternal`, `Run` and `RunImpl`); the public one carries the doc, so a question in
# its words is about the worker too, whose code is the answer.
_WORKER_SUFFIXES = ("internal", "core", "impl")
# A worker scores at least this fraction of its public twin, and the twin of its worker: as
# likely the unit meant, close enough to join the focus (`select.FOCUS_CLOSE_RELATIVE`).
WORKER_SHARE = 0.85


def _twin_key(name: str) -> str:
    """The public twin's name of a worker (`parse` of `ParseCore`, `find` of `Find_Internal`), in
    lower case; any other name, lower case. The suffix is a word of the name (`Score` is none)."""
    lower = name.lower()
    for suffix in _WORKER_SUFFIXES:
        cut = len(name) - len(suffix)
        if cut > 0 and lower.endswith(suffix) and (name[cut].isupper() or name[cut - 1] == "_"):
            return lower[:cut].rstrip("_")
    return lower


def workers_with_their_twins(names: Sequence[str | None], scores: Sequence[float]) -> list[float]:
    """`scores` with each worker (`XCore`, `XInternal`, `XImpl`) and its public `X` raised to
    `WORKER_SHARE` of the better of the two (VB ignores case, so names are compared so)."""
    best: dict[str, float] = {}
    keys = [None if name is None else _twin_key(name) for name in names]
    for key, score in zip(keys, scores, strict=True):
        if key is not None:
            best[key] = max(best.get(key, 0.0), score)
    has_worker = {
        k for k, n in zip(keys, names, strict=True) if k is not None and n is not None and k != n.lower()
    }
    return [
        max(score, WORKER_SHARE * best[key]) if key in has_worker else score
        for key, score in zip(keys, scores, strict=True)
    ]
