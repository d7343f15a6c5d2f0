"""Identifiers a question spells out as words: "on closed", "enc-driver", "store scratch".

People ask about `onClosed` as "on-closed" or "on closed". Every run of 2 to
`MAX_PHRASE_WORDS` consecutive words of the question is joined the way `terms.py` spells a
compound identifier (`on_closed`), so it matches that identifier exactly, and its rarity (IDF)
tells near-twins apart (`encDriver` vs `newEncDriver`, `par_values` vs `par_values_mut`). A
phrase that names no identifier matches nothing and costs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mcp_pruner_server.pruning.terms import STOPWORDS, word_parts

# Compound identifiers longer than this many words are rare in questions (and in code).
MAX_PHRASE_WORDS = 4
# Phrases only run within a clause: punctuation other than `-` / `_` ends one.
_CLAUSE = re.compile(r"[^\w\s-]+")


def phrase_terms(text: str) -> list[str]:
    """The 2..`MAX_PHRASE_WORDS`-word runs of `text`, lower-cased and joined with `_`."""
    # `is_the` names nothing
    return ["_".join(run) for run in _word_runs(text, 2, MAX_PHRASE_WORDS) if not STOPWORDS.issuperset(run)]


def _word_runs(text: str, shortest: int, longest: int) -> Iterator[list[str]]:
    """Every run of `shortest`..`longest` consecutive words of a clause of `text`, lower-cased."""
    for clause in _CLAUSE.split(text):
        # words as `terms.py` cuts identifiers: lower-case runs, acronyms, numbers, any script
        words = [p.lower() for p in word_parts(clause)]
        for size in range(shortest, longest + 1):
            for k in range(len(words) - size + 1):
                yield words[k : k + size]


# An acronym names as many words as it has letters: from 3 (`cdf`, `abm`) to this many (`msle`).
# Two letters are the initials of most pairs of a question's words and common name parts (`ci`,
# `io`, `fd`): with them all dev sets gained 2 tasks (`dp` for "double precision") and lost 1.
MAX_ACRONYM_WORDS = 4


def acronym_terms(text: str) -> list[str]:
    """The initials of every run of 3..`MAX_ACRONYM_WORDS` consecutive words of `text` that are no
    stop words, lower-cased: "cumulative distribution function" -> `cdf`, "Adams-Bashforth-Moulton"
    -> `abm`, as a name abbreviates them (`InvCDF`, `DBEMT_ABM4`)."""
    return [
        "".join(w[0] for w in run)
        for run in _word_runs(text, 3, MAX_ACRONYM_WORDS)
        if not any(w in STOPWORDS or w.isdigit() for w in run)
    ]
