"""Lexical relevance: BM25 of the question's terms over small units (lines, windows, blocks).

Pure functions over term lists; the structure modules decide what a unit is.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.phrases import phrase_terms
from mcp_pruner_server.pruning.terms import ABBREVIATIONS, SYNONYMS, phrase_synonyms, stem, terms
from mcp_pruner_server.pruning.terms import line_terms as terms_of_line
from mcp_pruner_server.pruning.types import SourceType

# BM25 constants: the usual k1, and a length normalisation a bit below the usual 0.75
# because long functions are not less relevant for being long.
BM25_K1 = 1.2
BM25_B = 0.6
# A synonym of a question term (`remove` -> `strip`) counts this much of a real match.
SYNONYM_WEIGHT = 0.5
# An abbreviation (`cfg` for "configuration") is the same word: it counts as a full match.
ABBREVIATION_WEIGHT = 1.0
# Lines around each line that form its scoring window (a line alone is too short to match).
LINE_WINDOW = 1


# A run of the question's words joined as an identifier (`phrases.py`) weighs this much: at
# 1.0 it cost the shared Python dev set 0.7 points of recall, at 0.5 nothing (grep dev +3.7).
PHRASE_WEIGHT = 0.5


def query_weights(goal_hint: str) -> dict[str, float]:
    """The question's distinct terms with their weight, synonyms included at a lower weight.

    A whole compound identifier (`parse_record`) is a term of its own: being rare, its IDF
    already makes it outweigh its parts (an extra weight measured no better).
    """
    weights = dict.fromkeys(terms(goal_hint), 1.0)
    for phrase in phrase_terms(goal_hint):  # "on closed" -> `on_closed`, the identifier spelled out
        weights.setdefault(phrase, PHRASE_WEIGHT)
    for term in list(weights):
        for other in ABBREVIATIONS.get(term, ()):
            weights.setdefault(other, ABBREVIATION_WEIGHT)
    for term in list(weights):
        for other in SYNONYMS.get(term, ()):
            weights.setdefault(other, SYNONYM_WEIGHT)
    for word in phrase_synonyms(goal_hint):  # "removes all" -> `clear`
        weights.setdefault(word, SYNONYM_WEIGHT)
    return weights


@dataclass(frozen=True)
class Doc:
    """A unit as BM25 sees it: how often each question term occurs in it, and its length."""

    hits: Mapping[str, float]
    length: int


def _merge(into: dict[str, int], other: dict[str, int]) -> None:
    # plain dict arithmetic: Counter.update is the hot spot of the engine
    for term, tf in other.items():
        into[term] = into.get(term, 0) + tf


def bm25(
    query: dict[str, float], docs: Sequence[Doc], *, b: float = BM25_B, deadline: Deadline = NO_DEADLINE
) -> list[float]:
    """BM25 score of every document for the weighted query terms (`b`: length normalisation).

    Raises:
        EngineTimeout: `deadline` passed.
    """
    n = len(docs)
    with_hits = {i: d for i, d in enumerate(docs) if d.hits}
    sparse = bm25_sparse(query, with_hits, n, sum(d.length for d in docs), b=b, deadline=deadline)
    scores = [0.0] * n
    for i, score in sparse.items():
        scores[i] = score
    return scores


def bm25_sparse(
    query: dict[str, float],
    docs: Mapping[int, Doc],
    n: int,
    total_length: int,
    *,
    b: float = BM25_B,
    deadline: Deadline = NO_DEADLINE,
) -> dict[int, float]:
    """`bm25` over a collection of `n` documents of `total_length` terms in all, of which only
    `docs` (by position) may hold a query term: the others score 0 and need no `Doc` at all.

    Raises:
        EngineTimeout: `deadline` passed.
    """
    if not n or not query:
        return dict.fromkeys(docs, 0.0)
    avg = (total_length / n) or 1.0
    df: dict[str, int] = {}
    for d in docs.values():
        for term in d.hits:
            df[term] = df.get(term, 0) + 1
    idf = {t: math.log(1.0 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in df}
    _cap_synonyms(idf, query, df, n)
    scores: dict[int, float] = {}
    for i, doc in deadline.paced(docs.items()):
        if not doc.hits:
            scores[i] = 0.0
            continue
        norm = BM25_K1 * (1.0 - b + b * doc.length / avg)
        total = 0.0
        for term, tf in doc.hits.items():
            total += query.get(term, 0.0) * idf[term] * tf * (BM25_K1 + 1.0) / (tf + norm)
        scores[i] = total
    return scores


def _cap_synonyms(idf: dict[str, float], query: Mapping[str, float], df: Mapping[str, int], n: int) -> None:
    """Cap each synonym's IDF at that of the question word it stands for, where the text uses
    that word: there the word is the text's vocabulary (`query` all over a query client), and a
    rarer synonym (`fetch`) would outweigh what it only stands in for. A word the text never
    uses leaves its synonyms uncapped: they are the text's words for it. (Dev sets: fresh Go
    and TS +1.7 points of recall, no loss but a task kept by the fill alone.)"""
    for term in idf:
        if query.get(term, 0.0) >= 1.0:
            continue
        own = [df.get(s, 0) for s in SYNONYMS.get(term, ()) if query.get(s, 0.0) >= 1.0]
        if own and min(own) > 0:
            rarest = min(own)
            idf[term] = min(idf[term], math.log(1.0 + (n - rarest + 0.5) / (rarest + 0.5)))


def line_terms(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> list[tuple[str, ...]]:
    """The terms of every line (computed once, shared by all scorers).

    Raises:
        EngineTimeout: `deadline` passed.
    """
    return [terms_of_line(line) for line in deadline.paced(lines)]


# A question term matches inside a run-together identifier (`fileno`, `readlines`,
# `getattr`) when it is at least this long and the identifier has room for another part.
MIN_SUBTERM = 3
MIN_REST = 2


# A definition's doc comment counts this much of a line of its code. Neighbours' docs are
# written alike ("Returns the maximum BigInteger between …" above `max`, "… minimum …" above
# `min`), so a question worded like one doc also matches its siblings' docs, or a neighbour's
# when the one meant is undocumented; the name and code say which definition it is. Its length
# still counts in full (a long doc does not make a short function look denser). Dev sets: Rust
# 0.85 -> 0.88, TS and Go 0.93 -> 0.95, C++ 0.80 / 0.75 -> 0.82 / 0.78, the rest unchanged
# (the shared Python and logs sets too; 0.25 cost C# 2 points).
LEAD_WEIGHT = 0.5


# A question word written run together (`inmemory`, `readonly`, `filename`) matches an
# identifier that writes it as consecutive parts (`WithInMemory`, `read_only`, `fileName`) when
# it is at least this long (shorter joins are chance: `is` + `set`).
MIN_JOINED = 6


def _joined_runs(compound: str) -> set[str]:
    """The stems of every run of two or more consecutive parts of `compound`, written together."""
    parts = compound.split("_")
    return {
        stem("".join(parts[i:j]))
        for i in range(len(parts) - 1)
        for j in range(i + 2, len(parts) + 1)
        if sum(map(len, parts[i:j])) >= MIN_JOINED
    }


def _holds(term: str, q: str) -> bool:
    """Whether the run-together identifier `term` holds the question term `q` as a part."""
    return len(term) >= len(q) + MIN_REST and (term.startswith(q) or term.endswith(q))


@dataclass(frozen=True)
class LineHits:
    """Per line: the question terms it contains (run-together identifiers split) and its length."""

    hits: list[dict[str, int]]
    lengths: list[int]
    hit_lines: list[int] = field(default_factory=list)  # sorted indexes of lines with a hit
    # prefix[i] = sum(lengths[:i]); machine integers: on 1M lines a list of ints costs 36 MB, this 8
    prefix: array[int] = field(default_factory=lambda: array("q"))

    def __post_init__(self) -> None:
        self.hit_lines.extend(itertools.compress(range(len(self.hits)), self.hits))
        self.prefix.append(0)
        self.prefix.extend(itertools.accumulate(self.lengths))

    def has_hits(self, start: int, end: int) -> bool:
        """Whether a line of `start`..`end - 1` holds a question term."""
        lo = bisect.bisect_left(self.hit_lines, start)
        return lo < len(self.hit_lines) and self.hit_lines[lo] < end

    def span(self, start: int, end: int, *, repeat: Iterable[int] = ()) -> Doc:
        """The bag of lines `start`..`end - 1` (plus `repeat` lines counted once more)."""
        hits: dict[str, int] = {}
        lo, hi = bisect.bisect_left(self.hit_lines, start), bisect.bisect_left(self.hit_lines, end)
        for i in self.hit_lines[lo:hi]:
            _merge(hits, self.hits[i])
        length = self.prefix[end] - self.prefix[start]
        for i in repeat:
            if self.hits[i]:
                _merge(hits, self.hits[i])
            length += self.lengths[i]
        return Doc(hits, length)

    def led(self, start: int, header: int, end: int) -> Doc:
        """The bag of lines `start`..`end - 1` in which the lines before `header` (a definition's
        doc comment and attributes) count `LEAD_WEIGHT` each, the rest fully."""
        if header <= start or not self.has_hits(start, header):
            return self.span(start, end)
        lead, rest = self.span(start, header), self.span(header, end)
        hits = dict(rest.hits)
        for term, tf in lead.hits.items():
            hits[term] = hits.get(term, 0.0) + LEAD_WEIGHT * tf
        return Doc(hits, lead.length + rest.length)

    def doc(self, indexes: Sequence[int], *, repeat: Iterable[int] = ()) -> Doc:
        """The bag of `indexes`, which must be consecutive (plus `repeat` lines counted once more)."""
        if not indexes:
            return self.span(0, 0, repeat=repeat)
        return self.span(indexes[0], indexes[-1] + 1, repeat=repeat)


def line_hits(
    per_line: Sequence[Sequence[str]], query: dict[str, float], *, deadline: Deadline = NO_DEADLINE
) -> LineHits:
    """Find the question's terms in every line, also at the start or end of longer terms
    (`fileno` holds `fil`, `readlines` holds `read`), and a question word written run together
    as consecutive parts of an identifier (`WithInMemory` holds "inmemory").

    Raises:
        EngineTimeout: `deadline` passed.
    """
    wanted = [q for q in query if len(q) >= MIN_SUBTERM and "_" not in q]
    # the question words that may be written run together (a stem may have lost a letter), with
    # their roots (as in `sparse.term_roots`): only an identifier holding a root is cut into runs (cutting
    # every one of a file's 6,000 camelCase names cost tens of milliseconds)
    joined = {q: q[:-1] if q.endswith("i") else q for q in wanted if len(q) >= MIN_JOINED - 1}
    any_root = re.compile("|".join(map(re.escape, joined.values()))) if joined else None
    found: dict[str, tuple[str, ...]] = {}
    out: list[dict[str, int]] = []
    shortest = MIN_SUBTERM + MIN_REST
    for line in deadline.paced(per_line):
        bag: dict[str, int] = {}
        for term in line:
            if term in query:
                bag[term] = bag.get(term, 0) + 1
                continue
            if "_" in term:  # a whole compound: its parts are terms already, its runs may not be
                if any_root is None:
                    continue
                hits = found.get(term)
                if hits is None:
                    compact = term.replace("_", "")
                    hits = ()
                    if any_root.search(compact):  # one C-level test for most compounds
                        hits = tuple(
                            q for q, root in joined.items() if root in compact and q in _joined_runs(term)
                        )
                    found[term] = hits
            elif len(term) < shortest:
                continue  # too short to hold a question term
            else:
                hits = found.get(term)
                if hits is None:
                    hits = tuple(
                        q
                        for q in wanted
                        if len(term) >= len(q) + MIN_REST and (term.startswith(q) or term.endswith(q))
                    )
                    found[term] = hits
            for q in hits:
                bag[q] = bag.get(q, 0) + 1
        out.append(bag)
    return LineHits(out, [len(line) for line in per_line])


def window_scores(
    query: dict[str, float], lh: LineHits, window: int = LINE_WINDOW, *, deadline: Deadline = NO_DEADLINE
) -> list[float]:
    """BM25 of each line's window (`window` lines either side, itself twice); blank lines score 0.

    Only windows near a question term are built; the others count in the average length
    only, which is summed in closed form (line j is in the windows of its 2*window+1
    neighbours, fewer at both ends).

    Raises:
        EngineTimeout: `deadline` passed.
    """
    n = len(lh.hits)
    near: set[int] = set()
    for i in deadline.paced(lh.hit_lines):
        near.update(range(max(0, i - window), min(n, i + window + 1)))
    docs = {}
    for i in deadline.paced(sorted(near)):
        docs[i] = lh.span(max(0, i - window), min(n, i + window + 1), repeat=(i,))
    raw = bm25_sparse(query, docs, n, _window_lengths_total(lh.lengths, lh.prefix, window), deadline=deadline)
    scores = [0.0] * n
    for i, score in raw.items():
        if lh.lengths[i]:
            scores[i] = score
    return scores


def _window_lengths_total(lengths: Sequence[int], prefix: Sequence[int], window: int) -> int:
    """The sum over every line i of its window's length plus its own (counted twice)."""
    n = len(lengths)
    total = prefix[n] * (2 * window + 2)  # every line, in 2*window+1 windows and once more for itself
    for j in range(min(window, n)):  # the first lines miss the windows before the text...
        total -= lengths[j] * (window - j)
    for j in range(max(0, n - window), n):  # ...and the last ones those after it
        total -= lengths[j] * (window - (n - 1 - j))
    return total


def score_lines(lines: Sequence[str], goal_hint: str, source_type: SourceType) -> list[float]:
    """Relevance of each line to `goal_hint`, in [0, 1] (1 = the best line), for any backend.

    `source_type` is accepted for symmetry with the engine; the lexical score is the same
    for the three kinds (their structure rules live in `structure/`).
    """
    del source_type
    query = query_weights(goal_hint)
    scores = window_scores(query, line_hits(line_terms(lines), query))
    top = max(scores, default=0.0)
    return [s / top for s in scores] if top > 0 else scores


# A definition whose name the question says only in part (`in_place_scope` for "the scope",
# `CallMethodNoResult` for "calls a method … that returns a result") is another one than the
# definition the question says wholly: its name field counts less, down to this fraction when
# all but a sliver of its name is unsaid. A name the question does not say at all keeps its
# field: the question paraphrases it (`shorten` for "truncate"), which tells nothing. Dev sets:
# C# 0.80 -> 0.85, PHP 0.88 -> 0.90, Go 0.95 -> 0.97, the shared Python set unchanged; TS lost
# one task (0.95 -> 0.93) whose target ranked 7th either way (kept before by the fill only).
UNSAID_NAME_FLOOR = 0.5


def names_said(names: Sequence[str | None], query: Mapping[str, float]) -> list[float]:
    """The factor of each definition's name field (1 for None): 1 when the question says every
    part of the name (or none), down to `UNSAID_NAME_FLOOR` as fewer of its parts are said.

    A part is said when it is a question term (a synonym's weight counts as that much of it) or
    holds one (`runtime` holds "run"); stop words (`get`, `with`) are no parts. Dunder names
    (`__init__`) are named by no question: they keep their field.
    """
    wanted = [q for q in query if len(q) >= MIN_SUBTERM and "_" not in q]
    part_said: dict[str, float] = {}  # names share parts (`get_x`, `set_x`): each looked up once
    out: list[float] = []
    for name in names:
        if name is None or name.startswith("__"):
            out.append(1.0)
            continue
        parts = [t for t in terms(name) if "_" not in t]  # the compound itself is no part
        said = 0.0
        for part in parts:
            value = part_said.get(part)
            if value is None:
                if part in query:
                    value = min(1.0, query[part])
                else:
                    value = 1.0 if any(_holds(part, q) for q in wanted) else 0.0
                part_said[part] = value
            said += value
        out.append(UNSAID_NAME_FLOOR + (1.0 - UNSAID_NAME_FLOOR) * said / len(parts) if said else 1.0)
    return out
