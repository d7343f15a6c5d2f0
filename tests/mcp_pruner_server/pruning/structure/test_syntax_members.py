"""Members the parser finds in Kotlin, Swift, Scala, Dart and Objective-C beyond plain methods:
the blocks a macro line, an accessor or an anonymous type would otherwise hide."""

from __future__ import annotations

from tests.mcp_pruner_server.pruning.structure.test_syntax import blocks_of

OBJC_MACROS = """\
#import "Widget.h"

NS_ASSUME_NONNULL_BEGIN

@implementation Widget

- (void)grow {
    self.size += 1;
}

@end

NS_ASSUME_NONNULL_END
"""


def test_an_objective_c_macro_line_does_not_hide_the_implementation_after_it() -> None:
    found = [(b.start, b.end, b.container, b.name) for b in blocks_of(OBJC_MACROS, "objc")]
    assert found == [(4, 11, True, None), (6, 9, False, "grow")]

KOTLIN_ACCESSORS = """\
class Widget(private val parts: List<Part>) {
    private val cache = mutableMapOf<String, Int>()

    /** The weight of every part. */
    val weight: Int
        get() = parts.sumOf { it.weight }

    var label: String = ""
        set(value) {
            field = value.trim()
        }

    val size: Int get() = parts.size
}
"""
SWIFT_ACCESSORS = """\
struct Widget {
    var parts: [Part] = []

    /// The weight of every part.
    var weight: Int {
        parts.reduce(0) { $0 + $1.weight }
    }

    var first: Part? {
        get { parts.first }
        set { if let part = newValue { parts.insert(part, at: 0) } }
    }

    var isEmpty: Bool { parts.isEmpty }
}
"""


def test_a_property_with_accessors_over_several_lines_is_a_unit_with_its_doc() -> None:
    # a stored property and a one-line accessor stay with the fields, left to the chunks
    assert [(b.start, b.end, b.parent, b.name) for b in blocks_of(KOTLIN_ACCESSORS, "kotlin")[1:]] == [
        (3, 6, 0, "weight"),
        (7, 11, 0, "label"),
    ]
    assert [(b.start, b.end, b.parent, b.name) for b in blocks_of(SWIFT_ACCESSORS, "swift")[1:]] == [
        (3, 7, 0, "weight"),
        (8, 12, 0, "first"),
    ]
