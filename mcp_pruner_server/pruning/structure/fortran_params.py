"""The procedure whose dummy arguments are the parameters a question's Doxygen list names.

Fortran documented for Doxygen lists a procedure's arguments (`!> \\param rho ...`, `!! @param[in]
lugb ...`), and a question taken from such a doc lists them too, often with no other word
("... \\param rho ... \\param x ... \\param npoints ..."). Each name is a term its signature holds,
but so do its siblings' (`vwn_lda_0(rho, x, e_0, npoints, sc)` and `vwn_lda_1(rho, x, e_0, e_rho,
npoints, sc)`), and a longer sibling with a doc of its own outscored it. The procedure whose
arguments are exactly the names listed is the one the list documents: it ranks above every other
(`params_named_first`, a `language_hooks.Reorder`). With one name only (`\\param this`) all the
procedures taking that one argument alone rank so, in their order: the question's words choose.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# `\param name`, `@param name`, `@param[in] name`, `\param[in,out] name`
_PARAM = re.compile(r"[\\@]param(?:\s*\[[^\]]*\])?\s+([A-Za-z]\w*)")
# The dummy arguments: the first parenthesised list after the procedure's name.
_ARGUMENTS = re.compile(r"\(([^()]*)\)")
_NAME = re.compile(r"[A-Za-z]\w*")


def question_params(question: str) -> frozenset[str]:
    """The argument names a question's Doxygen list names, in lower case."""
    return frozenset(m.group(1).lower() for m in _PARAM.finditer(question))


def arguments_of(name: str, signature: str) -> frozenset[str] | None:
    """The dummy arguments of the procedure `name` its `signature` (header lines) declares, in lower
    case; None when it has no argument list there."""
    at = signature.lower().find(name.lower())
    m = _ARGUMENTS.search(signature, at + len(name)) if at >= 0 else None
    if m is None:
        return None
    return frozenset(n.lower() for n in _NAME.findall(m.group(1)))


def params_named_first(
    question: str, names: Sequence[str | None], signatures: Sequence[str], scores: Sequence[float]
) -> list[float]:
    """`scores` with every procedure whose arguments are exactly the question's `\\param` list
    raised above all others (by the best score), keeping their order among themselves."""
    params = question_params(question)
    if not params:
        return list(scores)
    matching = [
        k
        for k, (name, signature) in enumerate(zip(names, signatures, strict=False))
        if name is not None and arguments_of(name, signature) == params
    ]
    if not matching:
        return list(scores)
    best = max(scores, default=0.0)
    out = list(scores)
    for k in matching:
        out[k] += best
    return out
