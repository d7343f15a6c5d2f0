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
