"""Reading decoded JSON in tests, typed: `at(reply, "pruning", "reason")` instead of chained
indexing on `dict[str, object]` (which mypy rightly refuses) or a `type: ignore`.

Each step asserts the value is an object (for a `str` key) or an array (for an `int` index), so
a reply of the wrong shape fails the test with the path that broke; `kind=` checks the leaf's
type and narrows it for comparisons: `at(body, "stats", "kept_lines", kind=int) >= 1001`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar, overload

T = TypeVar("T")


@overload
def at(value: object, *path: str | int) -> object: ...


@overload
def at(value: object, *path: str | int, kind: type[T]) -> T: ...


def at(value: object, *path: str | int, kind: type[object] = object) -> object:
    """`value[path[0]][path[1]]…`, asserting each container and, with `kind`, the leaf's type."""
    walked: list[str | int] = []
    for step in path:
        if isinstance(step, str):
            assert isinstance(value, dict), f"not an object at {walked}: {value!r:.200}"
            value = value[step]
        else:
            assert isinstance(value, list), f"not an array at {walked}: {value!r:.200}"
            value = value[step]
        walked.append(step)
    assert isinstance(value, kind), f"not a {kind.__name__} at {walked}: {value!r:.200}"
    return value


def obj(value: object) -> dict[str, object]:
    """`value` as a JSON object, asserted."""
    assert isinstance(value, dict), f"not an object: {value!r:.200}"
    return value


def walk_objects(node: object, path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object in `node`, depth first, with its JSONPath (`$.properties.paths.items`)."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk_objects(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk_objects(value, f"{path}[{i}]")
