"""Scoring a large text sparsely: only the lines that can hold a question term are cut into terms.

The roots `term_roots` finds are searched in the text's line index first (`lineindex.py`),
so a 100k-line log costs a substring search, not 100k tokenisations.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.lineindex import LineIndex
from mcp_pruner_server.pruning.scoring import LineHits, line_hits
from mcp_pruner_server.pruning.terms import STOPWORDS
from mcp_pruner_server.pruning.terms import line_terms as terms_of_line


def term_roots(query: dict[str, float]) -> list[str]:
    """For each question term, a string every line matching it holds (case aside): its root.

    A line's term is the stem of a part of a word, and a stem is a prefix of its part except
    for a final `i` standing for `y` (`retri` of `retry`); a term that holds a question term
    (`fileno` holds `fil`) holds it in that stem. So the term without a final `i` is in the
    line. A compound (`store_file`) is in a line only as its parts: its longest part is.
    """
    roots = set()
    for term in query:
        if "_" in term:
            parts = term.split("_")
            # a stop word is in too many lines to find candidates with (`where_is_enc_driver`)
            roots.add(max([p for p in parts if p not in STOPWORDS] or parts, key=len))
        else:
            roots.add(term[:-1] if term.endswith("i") and len(term) > 1 else term)
    return sorted(root for root in roots if root)


def sparse_line_hits(
    lines: Sequence[str], index: LineIndex, query: dict[str, float], *, deadline: Deadline = NO_DEADLINE
) -> LineHits:
    """`line_hits` for a large text: only the lines holding a question term's root are cut into
    terms (the others cannot match), and a line's length is its characters, not its terms.

    Counting terms needs every line tokenised, the cost this avoids; BM25 only uses lengths
    relative to their average, which characters give for log lines. (An acronym plural such
    as `URLsPDF`, whose terms are not all in the line as written, may be missed, and so may a
    run-together question word written with `_` in the line: `read_only` for "readonly".)

    Raises:
        EngineTimeout: `deadline` passed.
    """
    candidates = index.lines_containing(term_roots(query), ignore_case=True, deadline=deadline)
    found = line_hits([terms_of_line(lines[i]) for i in deadline.paced(candidates)], query, deadline=deadline)
    hits: list[dict[str, int]] = [_NO_HITS] * len(lines)
    for i, bag in deadline.paced(zip(candidates, found.hits, strict=True)):
        if bag:
            hits[i] = bag
    return LineHits(hits, list(map(len, lines)))


# Shared by every line without a hit in `sparse_line_hits` (never written to).
_NO_HITS: dict[str, int] = {}
