"""Overloads: definitions of one name in one scope (`Add(int)`, `Add(string, int)`, constructors).

Their doc comments are alike ("Adds a parameter …", each with its own `@param` lines), so the
question's words found in one overload's doc speak for all of them: each overload's body field
counts the best of their docs, term by term, and its own code. Its parameters (the signature
field) and its code tell which overload is meant. Dev sets (with the path): C# 0.77 → 0.90 and
0.85 → 0.88, Java 0.78 → 0.80 and 0.80 → 0.82, held Java 0.93 → 0.98 and C# 0.85 → 0.88, C++
unchanged (one won, one lost), the rest unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.scoring import LEAD_WEIGHT, Doc, LineHits
from mcp_pruner_server.pruning.structure.code_blocks import Block

# A comment line (`///`, `/**`, ` * @param`, `//`, `# `), not an attribute (`#[inline]`, `[Pure]`)
# or a `template <…>` line, which belong to one overload alone.
_COMMENT = re.compile(r"\s*(?://|/\*|\*|#(?![\[!]))")


def overloads_share_docs(
    lines: Sequence[str], blocks: Sequence[Block], ends: Sequence[int], lh: LineHits, bags: list[Doc]
) -> None:
    """Rewrite in `bags` (one per block, `ends[k]` the end of block k's unit) the body field of
    every overload: a function, not a container, named like another of the same scope."""
    groups: dict[tuple[int | None, str], list[int]] = {}
    for k, block in enumerate(blocks):
        if block.name is not None and not block.container:
            groups.setdefault((block.parent, block.name), []).append(k)
    for members in groups.values():
        if len(members) < 2:
            continue
        docs: dict[str, float] = {}
        for k in members:
            for term, tf in _hits(lh, _comments(lines, blocks[k])).items():
                docs[term] = max(docs.get(term, 0.0), tf)
        for k in members:
            block = blocks[k]
            hits: dict[str, float] = dict(lh.span(block.header, ends[k]).hits)
            comments = set(_comments(lines, block))
            own = [i for i in range(block.start, block.header) if i not in comments]
            for term, tf in _hits(lh, own).items():
                hits[term] = hits.get(term, 0.0) + LEAD_WEIGHT * tf
            for term, most in docs.items():
                hits[term] = hits.get(term, 0.0) + LEAD_WEIGHT * most
            bags[k] = Doc(hits, bags[k].length)


def _comments(lines: Sequence[str], block: Block) -> list[int]:
    return [i for i in range(block.start, block.header) if _COMMENT.match(lines[i])]


def _hits(lh: LineHits, indexes: Sequence[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in indexes:
        for term, tf in lh.hits[i].items():
            out[term] = out.get(term, 0) + tf
    return out
