"""Definitions a question's words alone do not reach: one named by a stop word the question writes
as code (`-only`, `new()`, `` `get` ``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.terms import STOPWORDS

# How a definition's name is qualified: `Foo::bar`, `$self->bar`, `Foo.bar`, `Foo:bar`.
_QUALIFIER = re.compile(r"::|->|\.|:")


def _last_part(name: str) -> str:
    return _QUALIFIER.split(name)[-1].lower()


# A word written as code in a question: an option or named argument (`-only`), a method call
# (`->does`, `$x.get`, `only()`), a quoted name (`` `get` ``).
# A word before `(` is read from its start (`(?<!\w)`, past leading digits): tried from each of its
# letters, a long word took quadratic time.
_CODE_WORD = re.compile(r"(?:->|::|[`$.]|(?<![\w-])-)([A-Za-z_]\w*)|(?<!\w)[0-9]*+([A-Za-z_]\w*+)(?=\(|`)")


def named_by_code_words(question: str, names: Sequence[str | None]) -> dict[int, str]:
    """Which definitions (by index) are named by a stop word `question` writes as code (`-only`,
    `new()`, `->does`, `` `get` ``), with that word: no term can say such a name, so the name field
    of `sub only` matched nothing in "Returns the value of the -only attribute"."""
    written = ((m.group(1) or m.group(2)).lower() for m in _CODE_WORD.finditer(question))
    coded = {w for w in written if w in STOPWORDS}
    if not coded:
        return {}
    last = ["" if name is None else _last_part(name) for name in names]
    return {k: word for k, word in enumerate(last) if word in coded}
