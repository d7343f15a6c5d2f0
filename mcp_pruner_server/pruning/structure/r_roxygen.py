"""R's documentation pages: functions that roxygen documents together, and the one a page is about.

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

# A roxygen tag putting a block on another function's page: `#' @rdname lint`,
# `#' @describeIn vec_cast Cast to a type`. (`@inheritParams` only borrows the parameters'
# text: the page stays its own.)
_PAGE_TAG = re.compile(r"^\s*#'\s*@(?:rdname|describeIn)\s+([^\s,]+)")
# The page's function scores this much of its page's best block, ahead of it: the title is its
# own, its siblings' blocks only echo it (R dev sets, 3: +4 to +8 points of recall; 1.0, a tie,
# and 1.5 a point lower on one set each).
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
