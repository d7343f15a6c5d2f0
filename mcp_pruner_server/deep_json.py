"""JSON nested past the interpreter's recursion limit: read and rewritten with a stack of our own.

`json.loads` counts one C recursion per level and stops near `sys.getrecursionlimit()` (~1000,
less the caller's own frames); a recursive Python walk stops at about half that. An upstream's
reply nested 5,000 levels is still JSON, and the gateway must pass it on (masked) rather than
answer an error for it. So:

- `loads_deep(text, parse_constant)` — what `json.loads` gives, for any depth: the containers
  still open on a list, scalars read by `json`'s own scanners. A few times slower than the C
  parser, so callers use it only where `json.loads` raised `RecursionError`.
- `rewritten(value, leaf_types, leaf, new_keys)` — one copy-on-write walk over a JSON value,
  any depth, no recursion: each leaf of `leaf_types` replaced by `leaf(it)`, each object's keys
  by `new_keys(it)`. A container is copied (shallowly) only when one of its children changed,
  untouched subtrees are shared with the input, and the input is never mutated. Used for the
  gateway's masking (`gateway/masking.py`) and the long strings of `json_slices.py`.

Both take acyclic values only (what a parser returns); `jsonsafe.sanitize` is the walk that
refuses a value containing itself.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import re
from collections.abc import Callable, Iterator
from typing import Final, TypeVar

_WHITESPACE: Final = re.compile(r"[ \t\n\r]*")
_NUMBER: Final = json.scanner.NUMBER_RE
# The literals `json.loads` reads as values, and the constants it hands to `parse_constant`.
_LITERALS: Final[dict[str, object]] = {"null": None, "true": True, "false": False}
_CONSTANTS: Final = ("NaN", "Infinity", "-Infinity")
_CONTAINERS: Final = (dict, list)
# `json.decoder.scanstring`: the C scanner `json.loads` reads strings with (not in typeshed).
_scan_string: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


def loads_deep(text: str, parse_constant: Callable[[str], object]) -> object:
    """`json.loads(text, parse_constant=parse_constant)` at any depth (module doc).

    Raises:
        json.JSONDecodeError (a ValueError): `text` is not JSON.
    """
    # the containers still open, and for each the key its next value goes under ("" in a list)
    stack: list[dict[str, object] | list[object]] = []
    keys: list[str] = []
    at = _WHITESPACE.match(text, 0).end()  # type: ignore[union-attr]  # matches the empty string
    while True:
        value, at, opened = _value_at(text, at, parse_constant)
        if opened is not None:
            at = _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]
            closing = "}" if isinstance(opened, dict) else "]"
            if text.startswith(closing, at):
                value, at = opened, at + 1  # an empty container: a value like any other
            else:
                stack.append(opened)
                keys.append("")
                if isinstance(opened, dict):
                    keys[-1], at = _key_at(text, at)
                continue
        # a whole value: put it in its container, then close what it completes
        while True:
            if not stack:
                at = _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]
                if at != len(text):
                    raise json.JSONDecodeError("Extra data", text, at)
                return value
            container = stack[-1]
            if isinstance(container, dict):
                container[keys[-1]] = value
            else:
                container.append(value)
            at = _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]
            closing = "}" if isinstance(container, dict) else "]"
            if text.startswith(",", at):
                at = _WHITESPACE.match(text, at + 1).end()  # type: ignore[union-attr]
                if isinstance(container, dict):
                    keys[-1], at = _key_at(text, at)
                break
            if not text.startswith(closing, at):
                raise json.JSONDecodeError(f"Expecting ',' delimiter or {closing!r}", text, at)
            value, at = stack.pop(), at + 1
            keys.pop()


def _value_at(
    text: str, at: int, parse_constant: Callable[[str], object]
) -> tuple[object, int, dict[str, object] | list[object] | None]:
    """The value starting at `at` and where it ends; for `{` or `[`, the empty container opened
    instead (its members are the caller's to read)."""
    char = text[at : at + 1]
    if char == "{":
        return None, at + 1, {}
    if char == "[":
        return None, at + 1, []
    if char == '"':
        string, end = _scan_string(text, at + 1, True)
        return string, end, None
    number = _NUMBER.match(text, at)
    if number is not None:
        integer, fraction, exponent = number.groups()
        if fraction or exponent:
            return float(integer + (fraction or "") + (exponent or "")), number.end(), None
        return int(integer), number.end(), None
    for literal, value in _LITERALS.items():
        if text.startswith(literal, at):
            return value, at + len(literal), None
    for constant in _CONSTANTS:
        if text.startswith(constant, at):
            return parse_constant(constant), at + len(constant), None
    raise json.JSONDecodeError("Expecting value", text, at)


def _key_at(text: str, at: int) -> tuple[str, int]:
    """An object's key starting at `at`, and where its value starts (after the colon)."""
    if not text.startswith('"', at):
        raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, at)
    key, at = _scan_string(text, at + 1, True)
    at = _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]
    if not text.startswith(":", at):
        raise json.JSONDecodeError("Expecting ':' delimiter", text, at)
    return key, _WHITESPACE.match(text, at + 1).end()  # type: ignore[union-attr]


# A child's place in its container: a key or an index.
_Place = str | int
# One container being walked by `rewritten`: the container, its (place, child) pairs not yet
# visited, the (place, new child) changes so far, and its own place in its parent.
_Frame = tuple[
    dict[str, object] | list[object],
    Iterator[tuple[_Place, object]],
    list[tuple[_Place, object]],
    _Place,
]
_Leaf = TypeVar("_Leaf")


def rewritten(
    value: object,
    leaf_types: type[_Leaf] | tuple[type[_Leaf], ...],
    leaf: Callable[[_Leaf], object],
    new_keys: Callable[[dict[str, object]], dict[str, object]] | None = None,
    *,
    longer_than: int = -1,
) -> object:
    """`value` with every leaf of `leaf_types` longer than `longer_than` replaced by `leaf(it)`
    (`len` of each; -1: every leaf) and every object by `new_keys(it)` (after its children; it
    returns its argument when no key changes), copied only where something changed (module doc).
    `value` itself when nothing did."""
    if isinstance(value, leaf_types):
        return leaf(value) if longer_than < 0 or len(value) > longer_than else value  # type: ignore[arg-type]
    if not isinstance(value, dict | list):
        return value
    stack: list[_Frame] = [(value, _children(value), [], "")]
    while True:
        node, children, changes, place_in_parent = stack[-1]
        for place, child in children:
            if isinstance(child, leaf_types):
                # the masking walk's hot path: a short string costs a `len`, not a call
                if longer_than >= 0 and len(child) <= longer_than:  # type: ignore[arg-type]
                    continue
                new = leaf(child)
                if new is not child:
                    changes.append((place, new))
            elif isinstance(child, _CONTAINERS) and child:
                items = iter(child.items()) if isinstance(child, dict) else enumerate(child)  # inline: hot
                stack.append((child, items, [], place))
                break
        else:
            stack.pop()
            new_node = _with_changes(node, changes, new_keys)
            if not stack:
                return new_node
            if new_node is not node:
                stack[-1][2].append((place_in_parent, new_node))


def _children(node: dict[str, object] | list[object]) -> Iterator[tuple[_Place, object]]:
    return iter(node.items()) if isinstance(node, dict) else enumerate(node)


def _with_changes(
    node: dict[str, object] | list[object],
    changes: list[tuple[_Place, object]],
    new_keys: Callable[[dict[str, object]], dict[str, object]] | None,
) -> object:
    if isinstance(node, dict):
        out = node
        if changes:
            out = dict(node)
            for key, new in changes:
                out[str(key)] = new  # a dict's places are its keys
        return out if new_keys is None else new_keys(out)
    if not changes:
        return node
    copy = list(node)
    for index, new in changes:
        copy[int(index)] = new  # a list's places are its indexes
    return copy
