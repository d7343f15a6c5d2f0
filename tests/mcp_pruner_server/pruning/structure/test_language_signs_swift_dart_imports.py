"""Swift and Dart without a path, and the imports several languages write alike."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.structure.language_signs import SHARED, SIGNS
from mcp_pruner_server.pruning.structure.languages import guess_language


def _lines(text: str) -> list[str]:
    return text.split("\n")


SWIFT_NIO = _lines(
    """\
import NIOCore
import NIOConcurrencyHelpers
#if canImport(Darwin)
import Darwin
#endif

public final class Pool: Resource {
    private let lock = NIOLock()
    weak var delegate: PoolDelegate?

    init(size: Int) {
        self.size = size
    }

    func acquire() {
        self.lock.withLock {
            switch self.state {
            case .idle:
                self.state = .busy
            case .busy:
                break
            }
        }
    }
}
"""
)

DART_RELATIVE = _lines(
    """\
import '../command.dart';
import 'piece.dart' as piece;

class AddCommand extends PubCommand {
  late final Piece _target;

  String get name => 'add';

  factory AddCommand.empty() => AddCommand([]);

  void run({required bool dryRun}) {
    final count = _target.size;
    print(count);
  }
}
"""
)


@pytest.mark.parametrize(("lines", "lang"), [(SWIFT_NIO, "swift"), (DART_RELATIVE, "dart")])
def test_swift_without_foundation_and_dart_with_relative_imports_are_recognised(
    lines: list[str], lang: str
) -> None:
    assert guess_language(lines) == lang


# Three lines showing one sign each, nothing else: without that sign, None.
@pytest.mark.parametrize(
    ("lines", "lang"),
    [
        (["    func grow(by n: Int) {", "    private func reset() {", "    init(size: Int) {"], "swift"),
        (
            ["    private let size: Int", "    weak var delegate: Delegate?", "fileprivate struct Box {"],
            "swift",
        ),
        (["public final class Pool: Resource {", "struct Size: Equatable {", "protocol Drawable {"], "swift"),
        (["    case .idle:", "#if canImport(Darwin)", "@testable import NIOCore"], "swift"),
        (
            [
                "import '../command.dart';",
                "import 'piece.dart' as piece;",
                "export 'src/pool.dart' show Pool;",
            ],
            "dart",
        ),
        (
            [
                "  late final Piece _target;",
                "  String get name => 'add';",
                "  factory Pool.empty() => Pool([]);",
            ],
            "dart",
        ),
    ],
)
def test_each_swift_and_dart_sign_alone_names_its_language(lines: list[str], lang: str) -> None:
    assert guess_language(lines) == lang


def test_kotlin_extensions_on_generic_receivers_and_file_annotations_are_its_signs() -> None:
    lines = [
        "public inline fun <K, A> Map<K, A>.zip(other: Map<K, A>) =",
        "@file:OptIn(ExperimentalTypeInference::class)",
        "    this@zip.forEach { put(it) }",
    ]
    assert guess_language(lines) == "kotlin"


KOTLIN_FUNCTION_IMPORTS = [
    "import kotlinx.coroutines.launch",
    "import kotlin.math.min",
    "",
    "fun main() {",
    "    launch { println(min(1, 2)) }",
    "}",
    "fun f(x: Int): Int = x",
    "fun g() = 1",
]
PYTHON_DOTTED_IMPORTS = [
    "import os.path",
    "import xml.etree.ElementTree as ET",
    "",
    "def parse(path):",
    "    return ET.parse(os.path.abspath(path))",
    "",
    "class Tree:",
    "    pass",
]
HASKELL_IMPORTS = [
    "module Main where",
    "",
    "import Prelude",
    "import Data.List (sort)",
    "",
    "main :: IO ()",
    "main = print (sort [3, 1, 2])",
]
GO_FUNCS = ["package pool", "", "func New(n int) *Pool {", "\treturn &Pool{n: n}", "}", ""]
GO_FUNCS += ["func (p *Pool) Get() int {", "\tdefer func() { p.n-- }()", "\treturn p.n", "}"]
KOTLIN_PRIVATE_VARS = [
    "class Pool : Resource {",
    "    private var size: Int = 0",
    "    override fun acquire() {",
    "        size++",
    "    }",
    "    fun release() {}",
    "    fun close() {}",
    "}",
]
GROOVY_FINALS = [
    "import groovy.transform.CompileStatic",
    "@CompileStatic",
    "class Nextflow {",
    "    static List files(String pattern) {",
    "        final result = file0(pattern)",
    "        final scheme = splitter.scheme",
    "        String name",
    "        return result",
    "    }",
    "}",
]
CPP_STRUCTS = [
    "#include <vector>",
    "namespace pool {",
    "struct Pool : Resource {",
    "  std::vector<int> items;",
]
CPP_STRUCTS += ["};", "}  // namespace pool"]
JS_INIT = ["'use strict';", "const app = require('./app');", "init(config)", "function start() {", "}"]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (KOTLIN_FUNCTION_IMPORTS, ("kotlin",)),  # `import kotlin.math.min` is Python's shape too
        (PYTHON_DOTTED_IMPORTS, ("python",)),  # and `import os.path` Kotlin's
        (HASKELL_IMPORTS, ("haskell",)),  # `import Prelude` is Swift's shape too
        (GO_FUNCS, ("go",)),  # `func` at column 0, bare, and `defer func()`: no Swift
        (KOTLIN_PRIVATE_VARS, ("kotlin",)),  # `private var x: Int`, `class Pool : Resource`
        (GROOVY_FINALS, ("groovy",)),  # `final x = …` without `;`: no Dart
        (CPP_STRUCTS, ("cpp",)),  # `struct S : Base {` spaces its colon
        (JS_INIT, ("javascript",)),  # a call `init(config)` is no Swift `init(x: T)`
    ],
)
def test_near_neighbours_of_swift_dart_and_the_imports_are_not_taken(
    lines: list[str], expected: tuple[str | None, ...]
) -> None:
    assert guess_language(lines) in expected


LUA_SELF = [
    "local Pool = {}",
    "function Pool:acquire()",
    "  self.size = self.size - 1",
    "  self.busy = true",
    "end",
]
LUA_SELF += ["function Pool:release()", "  self.size = self.size + 1", "end"]
SWIFT_SELF = [
    "    func grow() {",
    "        self.size += 1",
    "        self.count = 0",
    "        self.flag = true",
    "    }",
]
PYTHON_SELF = ["class Pool:", "    def grow(self):", "        self.size += 1", "        self.count = 0"]


@pytest.mark.parametrize(
    ("lines", "lang"), [(LUA_SELF, "lua"), (SWIFT_SELF, "swift"), (PYTHON_SELF, "python")]
)
def test_self_lines_count_for_the_language_the_other_lines_name(lines: list[str], lang: str) -> None:
    assert guess_language(lines) == lang


def test_no_sign_matches_a_blank_line() -> None:
    # `guess_language` passes blank lines by without trying the signs
    for blank in ("", "   ", "\t"):
        assert SHARED.match(blank) is None
        assert not [
            lang
            for lang, head, anywhere in SIGNS
            if (head and head.match(blank)) or (anywhere and anywhere.search(blank))
        ]
