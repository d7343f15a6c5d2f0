"""Units from the parser where a Zig function returns a type: the container of its methods."""

from __future__ import annotations

from tests.mcp_pruner_server.pruning.structure.test_syntax import blocks_of


def _spans(text: str, lang: str) -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, lang)]


ZIG_TYPE = """\
const std = @import("std");

pub fn Stack(comptime T: type) type {
    return struct {
        items: []T,

        /// Pushes an item.
        pub fn push(self: *@This(), item: T) void {
            _ = self;
            _ = item;
        }
    };
}
"""


def test_a_zig_function_returning_a_type_is_the_container_of_its_methods() -> None:
    assert _spans(ZIG_TYPE, "zig") == [
        (2, 2, 13, True, None, "Stack"),
        (6, 7, 11, False, 0, "push"),
    ]
