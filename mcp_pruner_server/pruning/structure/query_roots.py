"""The node types a tree-sitter query's pattern can start at, read from its source.

A definitions query (`syntax_definitions.py`) is asked about every node the walk meets, most of
which no pattern starts at (a statement, an import): knowing the types its patterns start at, it
answers those without running a query cursor. Where a pattern may start at any node (a wildcard
`(_)`, an anonymous node `"fn"`, a shape this reading does not follow), the answer is None: every
node is matched.
"""

from __future__ import annotations

import re

import tree_sitter

# A string, a comment, a bracket, or any other run of characters (a node type, a capture, an
# anchor `.`, a quantifier, a field `name:`).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|;[^\n]*|[()\[\]]|[^\s()\[\]";]+')
_QUANTIFIERS = frozenset({"?", "*", "+"})
_OPTIONAL = frozenset({"?", "*"})


def query_roots(query: tree_sitter.Query, source: str) -> frozenset[str] | None:
    """The node types any pattern of `query` (compiled from `source`) can start at, None for any."""
    encoded = source.encode("utf-8")
    found: set[str] = set()
    for k in range(query.pattern_count):
        pattern = encoded[query.start_byte_for_pattern(k) : query.end_byte_for_pattern(k)]
        roots = root_types(pattern.decode("utf-8"))
        if roots is None:
            return None
        found |= roots
    return frozenset(found)


def root_types(source: str) -> frozenset[str] | None:
    """The node types the one pattern `source` can start at, None for any."""
    tokens = [t for t in _TOKEN.findall(source) if not t.startswith(";")]
    roots, _ = _sequence(tokens, 0, end=None)
    return roots


def _sequence(tokens: list[str], i: int, end: str | None) -> tuple[frozenset[str] | None, int]:
    """The roots of a sequence of sibling patterns from `tokens[i]` (up to `end`): its first
    element's, and the next one's too while the first is optional. Returns (roots, index after)."""
    found: set[str] = set()
    while i < len(tokens) and tokens[i] != end:
        token = tokens[i]
        if token == "." or token.startswith("@"):
            i += 1
            continue
        roots, i = _element(tokens, i)
        quantifier = None
        while i < len(tokens) and (tokens[i].startswith("@") or tokens[i] in _QUANTIFIERS):
            quantifier = tokens[i] if tokens[i] in _QUANTIFIERS else quantifier
            i += 1
        if roots is None:
            return None, i
        found |= roots
        if quantifier not in _OPTIONAL:
            return frozenset(found), i
    return (frozenset(found) if found else None), i


def _element(tokens: list[str], i: int) -> tuple[frozenset[str] | None, int]:
    """The roots of the one pattern at `tokens[i]`, and the index after it."""
    token = tokens[i]
    if token == "[":  # alternatives: any of theirs
        found: set[str] = set()
        i += 1
        while tokens[i] != "]":
            if tokens[i] == "." or tokens[i].startswith("@") or tokens[i] in _QUANTIFIERS:
                i += 1
                continue
            roots, i = _element(tokens, i)
            if roots is None:
                return None, _skip(tokens, i)
            found |= roots
        return frozenset(found), i + 1
    if token == "(":
        head = tokens[i + 1]
        if head in ("(", "["):  # a group of siblings (with predicates): its first element's
            roots, _ = _sequence(tokens, i + 1, end=")")
            return roots, _skip_group(tokens, i)
        if head.startswith("#"):  # a predicate: no node
            return frozenset(), _skip_group(tokens, i)
        return (None if head == "_" else frozenset({head})), _skip_group(tokens, i)
    return None, i + 1  # an anonymous node (`"fn"`), a bare wildcard


def _skip_group(tokens: list[str], i: int) -> int:
    """The index after the bracketed group opening at `tokens[i]`."""
    depth = 0
    while True:
        if tokens[i] in ("(", "["):
            depth += 1
        elif tokens[i] in (")", "]"):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1


def _skip(tokens: list[str], i: int) -> int:
    """The index after the alternatives list `i` is inside (at its `]`)."""
    depth = 1
    while depth:
        if tokens[i] in ("(", "["):
            depth += 1
        elif tokens[i] in (")", "]"):
            depth -= 1
        i += 1
    return i
