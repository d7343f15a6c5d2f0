"""What a definition's name says of the question's words, beyond the name field's BM25.

Twins: `sample_from_pdf` and `sample_from_pdf_masked` are documented alike (the longer one's doc
repeats the shorter's and adds a sentence), so their docs and bodies match a question about
either equally well; their names tell them apart. A question that says every part the longer
name adds ("… for true elements of mask …"), a word the shorter one's doc and code never use,
is about the longer one.

Acronyms: a name abbreviates the words the question spells out (`InvCDF` for "the inverse
cumulative distribution function", `msle` for "mean squared logarithmic error").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.phrases import acronym_terms
from mcp_pruner_server.pruning.scoring import MIN_SUBTERM
from mcp_pruner_server.pruning.terms import stem, terms

# The longer twin named by the question scores this much above the shorter one it outranks.
NAMED_TWIN_LEAD = 1.01
# Only definitions scoring at least this fraction of the best are compared: the others are far
# from the focus, and comparing every pair of a long file's names would cost.
TWIN_FLOOR = 0.3
# ... and a longer twin only when it scores at least this fraction of the shorter: their docs and
# code alike, the question's words fit both.
TWIN_NEAR = 0.6


def _parts(name: str) -> frozenset[str]:
    """The stems of a name's parts (the compound itself is none)."""
    return frozenset(t for t in terms(name.rsplit(".", 1)[-1]) if "_" not in t)


def _said_as(part: str, query: Mapping[str, float]) -> str | None:
    """The question term `part` says (itself, or one it starts with: `masked` says "mask")."""
    if query.get(part, 0.0) >= 1.0:
        return part
    return next(
        (
            q
            for q, w in query.items()
            if w >= 1.0 and len(part) > len(q) >= MIN_SUBTERM and part.startswith(q)
        ),
        None,
    )


def named_twins_first(
    names: Sequence[str | None],
    scores: Sequence[float],
    query: Mapping[str, float],
    hits: Sequence[Mapping[str, float]],
    *,
    deadline: Deadline = NO_DEADLINE,
) -> list[float]:
    """`scores` with a definition raised just above a higher-scoring twin when its name adds to
    the twin's only parts the question says and the twin's unit (`hits`: its question terms) never
    mentions.

    Raises:
        EngineTimeout: `deadline` passed.
    """
    out = list(scores)
    best = max(scores, default=0.0)
    if best <= 0:
        return out
    parts = [None if n is None else _parts(n) for n in deadline.paced(names)]
    near = _near_by_rarest_part(
        parts, [j for j, s in enumerate(scores) if s >= TWIN_FLOOR * best and parts[j]]
    )
    for k, longer in deadline.paced(enumerate(parts)):
        if not longer:
            continue
        # a name's own parts lead to its shorter twins; a part set many near names share (overloads
        # of one name) is still many pairs, so the clock is read every `CHECK_EVERY` of them too
        for shorter, j in deadline.paced(_shorter_twins(longer, near)):
            if not scores[j] > scores[k] >= TWIN_NEAR * scores[j]:
                continue
            said = [_said_as(p, query) for p in longer - shorter]
            if all(q is not None and q not in hits[j] for q in said):
                out[k] = max(out[k], scores[j] * NAMED_TWIN_LEAD)
    return out


def _near_by_rarest_part(
    parts: Sequence[frozenset[str] | None], near: Sequence[int]
) -> dict[str, list[tuple[frozenset[str], list[int]]]]:
    """The `near` definitions grouped by their parts, each group under the part fewest of them
    share: a shorter twin's parts all lie in the longer's, so the longer finds it under one of
    its own parts without comparing every pair (thousands of close scores took a second)."""
    groups: dict[frozenset[str], list[int]] = {}
    for j in near:
        groups.setdefault(parts[j] or frozenset(), []).append(j)
    sharing: dict[str, int] = {}
    for group in groups:
        for part in group:
            sharing[part] = sharing.get(part, 0) + 1
    out: dict[str, list[tuple[frozenset[str], list[int]]]] = {}
    for group, js in groups.items():
        out.setdefault(min(group, key=lambda p: (sharing[p], p)), []).append((group, js))
    return out


def _shorter_twins(
    longer: frozenset[str], near: Mapping[str, list[tuple[frozenset[str], list[int]]]]
) -> Iterator[tuple[frozenset[str], int]]:
    """The near definitions whose parts are a proper subset of `longer`, with those parts."""
    for part in longer:
        for shorter, js in near.get(part, ()):
            if shorter < longer:
                yield from ((shorter, j) for j in js)


# A name's part that is the initials of a run of the question's words (`phrases.acronym_terms`:
# `cdf` of `InvCDF` for "inverse cumulative distribution function") is a question term of its name
# field, of this weight. Only a name's part: in code any word may start or end with three letters
# (`del` of `model`), and matched so it lost as many tasks as it won.
ACRONYM_WEIGHT = 0.5


def question_acronyms(question: str, query: Mapping[str, float]) -> dict[str, float]:
    """The acronyms of the question's words that are no question term, with their weight."""
    return {a: ACRONYM_WEIGHT for a in map(stem, acronym_terms(question)) if a not in query}
