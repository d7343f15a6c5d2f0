"""Overloads: definitions of one name in one scope (`Add(int)`, `Add(string, int)`, constructors).

Their doc comments are alike ("Adds a parameter …", each with its own `@param` lines), so the
question's words found in one overload's doc speak for all of them: each overload's body field
counts the best of their docs, term by term, and its own code. Its parameters (the signature
field) and its code tell which overload is meant; the group as a whole keeps its rank among the
other definitions (its docs counted once per overload crowded out a lone `size()`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.scoring import LEAD_WEIGHT, Doc, LineHits
from mcp_pruner_server.pruning.structure.code_blocks import Block

# A comment line (`///`, `/**`, ` * @param`, `//`, `# `), not an attribute (`#[inline]`, `[Pure]`)
# or a `template <…>` line, which belong to one overload alone.
_COMMENT = re.compile(r"\s*(?://|/\*|\*|#(?![\[!]))")


def overloads_ranked(
    lines: Sequence[str],
    blocks: Sequence[Block],
    ends: Sequence[int],
    lh: LineHits,
    bags: Sequence[Doc],
    scores: Sequence[float],
    score: Callable[[Sequence[Doc]], list[float]],
    deadline: Deadline = NO_DEADLINE,
) -> list[float]:
    """`scores` (of `bags`, one per block, `ends[k]` the end of block k's unit, then the chunks')
    with the overloads of each group (functions, not containers, named alike in one scope) ranked
    by their shared docs and own code (`score` scores the bags so made), the best of them keeping
    the group's best score: which overload is meant changes, not whether the group is.

    Raises:
        EngineTimeout: `deadline` passed (a bundle's one scope may hold 50,000 overloads).
    """
    groups: dict[tuple[object, str], list[int]] = {}
    for k, block in deadline.paced(enumerate(blocks)):
        if block.name is not None and not block.container:
            groups.setdefault((_scope(blocks, block.parent), block.name), []).append(k)
    overloads = [members for members in groups.values() if len(members) > 1]
    if not overloads:
        return list(scores)
    shared = list(bags)
    for members in overloads:
        docs: dict[str, float] = {}
        for k in deadline.paced(members):
            for term, tf in _hits(lh, _comments(lines, blocks[k])).items():
                docs[term] = max(docs.get(term, 0.0), tf)
        for k in deadline.paced(members):
            block = blocks[k]
            hits: dict[str, float] = dict(lh.span(block.header, ends[k]).hits)
            comments = set(_comments(lines, block))
            own = [i for i in range(block.start, block.header) if i not in comments]
            for term, tf in _hits(lh, own).items():
                hits[term] = hits.get(term, 0.0) + LEAD_WEIGHT * tf
            for term, most in docs.items():
                hits[term] = hits.get(term, 0.0) + LEAD_WEIGHT * most
            shared[k] = Doc(hits, bags[k].length)
    by_shared = score(shared)
    out = list(scores)
    for members in overloads:
        best, best_shared = max(scores[k] for k in members), max(by_shared[k] for k in members)
        if best_shared > 0:
            for k in deadline.paced(members):
                out[k] = by_shared[k] * best / best_shared
    return out


def _scope(blocks: Sequence[Block], parent: int | None) -> object:
    """The scope a definition is in: its containers' names, outermost last, so that a type
    reopened in one file (Swift's `extension Sequence { … }` twice, a Ruby class reopened, C#'s
    partial classes) is one scope; an unnamed container (Rust's `impl`) is only itself."""
    names: list[str] = []
    while parent is not None:
        name = blocks[parent].name
        if name is None:
            return (parent, *names)
        names.append(name)
        parent = blocks[parent].parent
    return tuple(names)


def _comments(lines: Sequence[str], block: Block) -> list[int]:
    return [i for i in range(block.start, block.header) if _COMMENT.match(lines[i])]


def _hits(lh: LineHits, indexes: Sequence[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in indexes:
        for term, tf in lh.hits[i].items():
            out[term] = out.get(term, 0) + tf
    return out
