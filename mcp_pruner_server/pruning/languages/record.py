"""What the engine knows of one programming language: a `Language` record, one per language.

Each language's record is its own module in this package (`go.py`, `fortran.py`, …), found by
name through the registry (`__init__.py`). A record says how a file in the language is recognised
(extensions, file names, shebang interpreters), how it is parsed (its tree-sitter grammar, and
what the shared walk of `structure/syntax.py` asks of it where the shared node tables do not say
it), how its definitions are found without a grammar (a scanner), how its calls are written and
what rules of its own rank its units (`structure/language_hooks.py`). Every field's default is
"nothing of its own": the shared tables and heuristics serve.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from re import Pattern
from typing import TYPE_CHECKING, Literal

from tree_sitter import Node

from mcp_pruner_server.pruning.structure.code_blocks import COMMENT
from mcp_pruner_server.pruning.structure.language_hooks import NO_HOOKS, LanguageHooks

if TYPE_CHECKING:
    from mcp_pruner_server.pruning.structure.code_blocks import Block

# ("function" | "container", the node whose body holds members), or None: not a definition.
Found = tuple[str, Node] | None
Kind = Callable[[Node], Found]
Namer = Callable[[Node], "str | None"]
# The exclusive end row of a definition's head, from the definition and its header row.
HeadEnd = Callable[[Node, int], int]
# Whether an equation continues the function before it: (blocks so far, parent, name, siblings, index).
JoinsEquation = Callable[["Sequence[Block]", "int | None", "str | None", Sequence[Node], int], bool]
# Finds a language's definition blocks without a grammar (`structure/scanned.py`).
Scanner = Callable[..., "list[Block]"]


@dataclass(frozen=True)
class Grammar:
    """A tree-sitter grammar wheel: its module and the function returning the language pointer."""

    module: str
    entry: str = "language"


@dataclass(frozen=True)
class Syntax:
    """What `structure/syntax.py`'s walk asks of a grammar beyond the shared node tables."""

    # Its definitions and their names said by a query (`structure/syntax_definitions.py`), in
    # place of `kind` and `name`: "wheel", the grammar wheel's own `queries/tags.scm`; "ours",
    # `languages/queries/<name>.scm` (the wheel ships none, or it misses shapes the engine reads).
    definitions: Literal["wheel", "ours"] | None = None
    # Its query says only the shapes of its own that the shared tables miss (Lua's functions bound
    # to names, Zig's `const Foo = struct {…}`): asked after them, as `own_kind`, and the names it
    # captures win over the shared reading's (`own_name`).
    adds_to_shared: bool = False
    # Reads every node itself: the shared tables of definitions do not apply (Elixir's `def`
    # calls, Solidity's contracts, F#'s `let`s). Its query's when it has one.
    kind: Kind | None = None
    # Asked after the shared tables of functions: the shapes only this language gives definitions
    # (its query's, with `adds_to_shared`).
    own_kind: Kind | None = None
    # The definition a wrapper holds (Julia's `@inline function`), else the shared unwrapping.
    unwrap: Callable[[Node], Node] | None = None
    # Node types whose definitions belong to the enclosing scope, besides the shared ones
    # (`syntax_grammars.TRANSPARENT`): Ada's `compilation_unit` around each package.
    transparent: frozenset[str] = frozenset()
    # (A wrapper, the child holding its arguments): a wrapper of one definition alone is read as
    # that definition (Julia's `@inline function f …`, a macro call).
    wrappers: tuple[tuple[str, str], ...] = ()
    # The name a definition binds, else the shared `name` field and C declarators.
    name: Namer | None = None
    # Asked first: the name a definition binds where it says one, else the reading of `name`.
    own_name: Namer | None = None
    # The name found by the shared reading, corrected: (definition, that name) -> name.
    rename: Callable[[Node, str | None], str | None] | None = None
    # The end of a function's head (and a container's too when `head_end_of_containers`).
    head_end: HeadEnd | None = None
    head_end_of_containers: bool = False
    # Its enums hold methods (Java's, PHP's, Dart's): containers.
    enum_containers: bool = False
    # A property with these accessors of its own, over several lines, is a unit (Kotlin, Swift).
    accessors: frozenset[str] = frozenset()
    # Node types that are functions besides the shared table's (C#'s multi-line properties).
    functions: frozenset[str] = frozenset()
    # A signature whose body is its next sibling (Dart).
    bodiless_signatures: frozenset[str] = frozenset()
    # Types that are values (`const Foo = struct { … };`, `return struct { … };`: Zig).
    type_values: frozenset[str] = frozenset()
    # Indentation-delimited bodies reach over the comments after them: a block ends at its last
    # token of code (Scala 3, Groovy's fields without `;`, F#'s docs given to the body above).
    trailing_comments: bool = False
    # A function's end with the doc comment below it (an OCaml interface's `val`):
    # (siblings, its index, its end) -> end.
    doc_below: Callable[[Sequence[Node], int, int], int] | None = None
    # Whether an equation continues the function just before it (`f 0 = …` then `f n = …`):
    # (blocks so far, the parent's index, its name, siblings, its index) -> bool.
    joins_equation: Callable[[Sequence[Block], int | None, str | None, Sequence[Node], int], bool] | None = (
        None
    )
    # The index of a function's type signature among its siblings, above its first row:
    # (siblings, its index, its first row, its name) -> index, None without one.
    signature_above: Callable[[Sequence[Node], int, int, str | None], int | None] | None = None
    # A function whose result is a type (Zig's `fn List(comptime T: type) type`) holds its methods.
    returns_type: Callable[[Node], bool] | None = None
    # What the grammar misreads, blanked before the parse (rows and columns stay).
    blanked: Callable[[str], str] | None = None
    # What sits directly above a definition and belongs to it (default: comments and attributes).
    annotates: Callable[[Node], bool] | None = None
    # Perl's POD a few rows above a sub is its doc.
    pod_docs: bool = False
    # The grammar parses only part of the language: its parse is trusted only when this says so
    # of its blocks and the text (Groovy's: when they head most of the headers a scan sees).
    trusted: Callable[[Sequence[Block], str], bool] | None = None
    # A header put in front of a window cut out of a file, so that its methods parse (None: none).
    container_opener: str | None = None
    # Its methods parse only inside a container (Objective-C's, outside `@implementation`).
    methods_inside: bool = False
    # Braces without such containers: a window's stray `}`s are only blanked (C, Go).
    brace_only: bool = False


NO_SYNTAX = Syntax()


@dataclass(frozen=True)
class Calls:
    """How a call to a unit is written in the language (`structure/calls.py`)."""

    # Shapes besides `name(`, read on the whole line (Scala's `f[A](x)`, `xs.size`).
    shape: Pattern[str] | None = None
    # Calls need no parentheses: each word of a line's code is a possible call (Ruby, Bash).
    bare_words: Pattern[str] | None = None
    # Its names ignore case (Fortran's `CALL Finalize` calls `subroutine finalize`).
    ignore_case: bool = False
    # Each line's code, where the bare words are read: (lines) -> (row -> code). Default: a line
    # without its `# …` comment (Ruby's, Bash's); OCaml's `(* … *)` comments span lines.
    code_of: Callable[[Sequence[str]], Callable[[int], str]] | None = None


NO_CALLS = Calls()


@dataclass(frozen=True)
class Language:
    """One language: how it is recognised, parsed, scanned and ranked."""

    name: str
    # File suffixes (lower case, with the dot) and whole file names (lower case) that say it.
    extensions: tuple[str, ...] = ()
    file_names: tuple[str, ...] = ()
    # Interpreters a shebang names (`#!/usr/bin/env ruby`): their base names.
    interpreters: tuple[str, ...] = ()
    # Suffixes of another language's this one takes when `recognises` the lines (`.h` for C++).
    claims: tuple[str, ...] = ()
    recognises: Callable[[Sequence[str]], bool] | None = None
    grammar: Grammar | None = None
    # Above this many characters the heuristics are used (None: `syntax.MAX_PARSE_CHARS`).
    max_parse_chars: int | None = None
    # The language a text without `<?` is parsed as (PHP's fragment, else all HTML text).
    fragment: str | None = None
    syntax: Syntax = NO_SYNTAX
    # Its definitions found by a scan of its own, where no grammar serves.
    scanner: Scanner | None = None
    # Without a path, the line starts only it writes (`structure/language_signs.py`: alternatives,
    # each a regular expression; `^` ones are matched at a line's start, the others searched).
    signs: tuple[str, ...] = ()
    # Another language whose lines it writes too (C++ includes and declares like C): that one's
    # signs count for it as well, and it is named without twice the signs of the next.
    includes_signs_of: str | None = None
    # Its `%` comment lines count as its signs once it shows signs of its own, and a `%` line right
    # under a plain `function f(x)` line is one (MATLAB's help): Erlang's `%%` docs make no MATLAB.
    percent_comment_signs: bool = False
    # A first line that says it as a shebang does (`<?php`).
    first_line: str | None = None
    # The languages whose signs, on the same line as one of its own, are narrower than its own: the
    # line counts for them alone (Zig's `fn f(x: u8) void {` is also Rust's `fn f(` start, but Rust
    # writes no return type there without `->`).
    narrower_signs: frozenset[str] = frozenset()
    # A line of comment, as the heuristics read it above a definition (`code_blocks.find_blocks`):
    # the shared shapes (`#`, `//`, `--`, `(*`, `%` …), Fortran's `!`, PowerShell's `<#`.
    comment: Pattern[str] = COMMENT
    calls: Calls = NO_CALLS
    # A top-level line starting one of its import statements, besides the shapes every language
    # shares (`import x`, `#include`, `using X;`, `use a::b;`, `require(`; `code_blocks.import_lines`):
    # an import is no chunk of top-level code to rank.
    import_starts: Pattern[str] | None = None
    hooks: LanguageHooks = NO_HOOKS
    # How a line of grep output defines a name beyond the keyword shapes every language shares
    # (`structure/grep_defs.py`): "cmdlet" (PowerShell's `function Verb-Noun`, read first),
    # "shell" (`name() {`), "typed" (the C family's `static int name(`).
    grep_shape: Literal["cmdlet", "shell", "typed"] | None = None
