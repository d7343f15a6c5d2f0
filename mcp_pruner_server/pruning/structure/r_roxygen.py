"""R's documentation: the function a roxygen page is about, and the function its title names.

roxygen2 writes one help page for a family of functions: the first carries the title and the
description, each sibling adds its own block with `@rdname first` (or `@describeIn first`) and
perhaps a `@param` or an example. A question worded like the page (its title, what the family
does) matches the siblings' blocks, which name the family's other members and repeat its words,
better than the function the title describes, whose own lines are code. The page is named for
that function: it scores ahead of the best block of its page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.terms import terms

# A roxygen tag putting a block on another function's page: `#' @rdname lint`,
# `#' @describeIn vec_cast Cast to a type`. (`@inheritParams` only borrows the parameters'
# text: the page stays its own.)
_PAGE_TAG = re.compile(r"^\s*#'\s*@(?:rdname|describeIn)\s+([^\s,]+)")
# The page's function scores this much of its page's best block, ahead of it: the title is its
# own, its siblings' blocks only echo it (a little more than a tie, so the owner leads without
# drowning a sibling the question names; the measurements are in CHANGELOG).
PAGE_OWNER_SHARE = 1.2


def _pages(lines: Sequence[str], body: Sequence[int]) -> set[str]:
    return {m.group(1).strip("`\"'") for i in body if (m := _PAGE_TAG.match(lines[i]))}


def page_owners_first(
    lines: Sequence[str],
    bodies: Sequence[Sequence[int]],
    names: Sequence[str | None],
    scores: Sequence[float],
) -> list[float]:
    """`scores` with each page's function raised to `PAGE_OWNER_SHARE` of its page's best unit.

    `bodies` are the units' lines (a function's with its roxygen block above it), `names` the
    function each defines (None for a chunk of top-level code)."""
    best: dict[str, float] = {}
    for body, name, score in zip(bodies, names, scores, strict=True):
        for page in _pages(lines, body) - {name}:  # a block on its own page is no sibling of it
            best[page] = max(best.get(page, 0.0), score)
    if not best:
        return list(scores)
    return [
        max(score, PAGE_OWNER_SHARE * best[name]) if name is not None and name in best else score
        for score, name in zip(scores, names, strict=True)
    ]


# A roxygen title says what its function does in a few words ("Add columns to a data frame",
# "Create a release checklist in a GitHub issue"), and R names functions with those words
# (`add_column`, `use_release_issue`): a question opening with such a title names the function
# whose every name word is among its first words as plainly as one opening with the name does
# (`r_blocks.opening_name_first`). That function scores this many times its own (a title is a
# weaker sign than the name itself, whose boost is 2.0).
TITLE_NAME_BOOST = 1.5
# How many of the question's first words a title may span (titles run 3 to 8 words).
TITLE_WORDS = 8


def title_named_first(question: str, names: Sequence[str | None], scores: Sequence[float]) -> list[float]:
    """`scores` with each function whose name words all open the question raised by `TITLE_NAME_BOOST`."""
    # a compound is also a word as a name writes it ("GitHub": `github`)
    title = {t.replace("_", "") for t in terms(" ".join(question.split()[:TITLE_WORDS]))}
    out = list(scores)
    for k, name in enumerate(names):
        if name is None:
            continue
        parts = [t for t in terms(name) if "_" not in t]  # the compound itself is no word
        if parts and all(any(_same_word(p, t) for t in title) for p in parts):
            out[k] *= TITLE_NAME_BOOST
    return out


# Stems of one word in two forms agree on this many letters at least ("summary" and "summarize"
# stem to `summari` and `summariz`).
_SAME_STEM = 5


def _same_word(part: str, word: str) -> bool:
    if part == word:
        return True
    return min(len(part), len(word)) >= _SAME_STEM and (word.startswith(part) or part.startswith(word))
