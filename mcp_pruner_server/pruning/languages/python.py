"""Python: its blocks found by indentation (`code_blocks.py`), as well as its parser finds them."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language

LANGUAGE = Language(
    name="python",
    extensions=(".py", ".pyi", ".pyw"),
    interpreters=("python",),
    signs=(
        r"^(?:async )?def \w+\(",
        r"^class \w+.*:\s*$",
        r"^from [\w.]+ import ",
        r"^import [a-z_]\w*(?:, [a-z_]\w*)*(?: as \w+)?$",  # a dotted `import a.b` is Kotlin's too: `SHARED`
        r"^\s+(?:elif|except\b)",
    ),
    # Swift's `import Foundation` and Kotlin's `import okio.Buffer` (a class) are also Python's shape.
    narrower_signs=frozenset({"swift", "kotlin", "groovy"}),  # and Groovy's `def f() {`
)
