"""Swift: a computed property over several lines is a unit."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="swift",
    extensions=(".swift",),
    interpreters=("swift",),
    grammar=Grammar("tree_sitter_swift"),
    syntax=Syntax(accessors=frozenset({"computed_property"}), container_opener="class _ {"),
    signs=(
        r"^import (?:Foundation|UIKit|SwiftUI|Combine|XCTest|AppKit|Dispatch|os)$",
        r"func(?<=\bfunc) \w+(?:<[^>]*>)?\(.*\)\s*(?:async\s+)?(?:re)?(?:throws\s+)?->",  # Go has no `->`
        r"^\s*(?:guard (?:let|var) |if (?:let|var) \w+ = |@(?:objc|discardableResult|inlinable|MainActor)\b)",
        r"^\s*(?:(?:public|private|fileprivate|internal)\s+)?extension [A-Z]\w*(?:\.\w+)*\s*(?::[^{]*)?\{",
        # `func` indented or behind a modifier (Go's are at column 0, bare), `init(x: T)`, `private let`,
        # `weak var`, `fileprivate`, `struct S: P {` (Kotlin and C++ space their `:`), `case .x`, `#if os(`
        r"^\s+func \w+\s*[<(]"
        r"|^\s*(?:(?:public|private|fileprivate|internal|open|override|static|final|mutating|nonmutating|"
        r"convenience|required|class|@\w+(?:\([^)]*\))?)\s+)+(?:func \w+|init[?!]?)\s*[<(]"
        r"|^\s*(?:(?:public|private|fileprivate|internal|open|override|required|convenience)\s+)*init[?!]?"
        r"(?:<[^>]*>)?\((?:\w+(?: \w+)?: |\)\s*\{)",
        r"^\s*(?:(?:public|private|fileprivate|internal|open|static|class|override|final)\s+)+let \w+"
        r"|^\s*(?:\w+\s+)*(?:weak|unowned(?:\(\w+\))?|lazy) var \w+|^\s*fileprivate\s",
        r"^\s*(?:(?:public|private|fileprivate|internal|open|final|indirect)\s+)*(?:class|struct|enum|protocol|actor)"
        r" [A-Z]\w*(?:<[^>]*>)?: [A-Z]"
        r"|^\s*(?:(?:public|private|fileprivate|internal)\s+)?protocol [A-Z]\w*\s*\{",
        r"^\s*case \.\w+|^#if (?:canImport|os|swift|compiler|arch|targetEnvironment)\(|^@testable import "
        r"|^import (?:struct|class|enum|protocol|func|typealias|var|let) ",
    ),
)
