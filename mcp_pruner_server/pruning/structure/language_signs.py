"""The line signs by which a text without a path shows its language (`languages.guess_language`)."""

from __future__ import annotations

import re

from mcp_pruner_server.pruning.languages.registry import LANGUAGES

# Per language: the line starts only it writes, alternatives (`#include` alone is C or C++): its
# record's `signs`; and the languages whose signs on the same line are narrower than its own
# (Zig's `fn f(x: u8) void {` is also Rust's `fn f(` start): its `narrower_signs`.
SIGN_PARTS: dict[str, tuple[str, ...]] = {lang.name: lang.signs for lang in LANGUAGES.values() if lang.signs}
NARROWER: dict[str, frozenset[str]] = {
    lang.name: lang.narrower_signs for lang in LANGUAGES.values() if lang.narrower_signs
}
# Lines several languages write alike: one counts for whichever of its languages the other signs name
# most (the first on a tie); when none of them has a sign of its own, for the language named last, as
# before the others had signs, or for none: a log's lone `end` lines make no Ruby of it.
SHARED_PARTS: dict[str, tuple[str, tuple[str, ...], str | None]] = {
    # `end` closes a block in all of them (counted for Ruby alone, a Lua file's `end`s outnumbered its
    # own signs; counted for Lua, an OCaml `if … then` made Lua a rival)
    "block_end": (r"\s*end$", ("ruby", "lua", "elixir", "ocaml", "matlab", "julia"), None),
    # a class imported without `;` (Python imports modules, Java ends with `;`), then a dotted module or
    # function (`import os.path`, `import kotlinx.coroutines.launch`), a single capitalised module
    "jvm_import": (
        r"import [a-z]\w*(?:\.[a-z]\w*)*\.[A-Z]\w*(?: as \w+)?$",
        ("kotlin", "scala", "groovy"),
        "kotlin",
    ),
    "dotted_import": (
        r"import [a-z_]\w*(?:\.\w+)+(?: as \w+)?$",
        ("python", "kotlin", "scala", "groovy"),
        "python",
    ),
    "module_import": (r"import [A-Z]\w*$", ("swift", "haskell"), "haskell"),
    # `self.x = y` (Zig's and Rust's end in `;`), in Swift's and Lua's methods as in Python's
    "self_line": (r"\s+self\.(?!.*;\s*$)", ("python", "swift", "lua"), "python"),
    # `let f x =` (parameters without parentheses), `open M`
    "ml_let": (
        r"let (?:rec )?[a-z_]\w*(?: [~?]?\(?[a-z_][\w:' ]*\)?)+ =|open [A-Z][\w.]*$",
        ("ocaml", "fsharp"),
        "ocaml",
    ),
    "pipe": (r"\s*\|> \w", ("elixir", "fsharp", "ocaml"), "elixir"),
    "xml_doc": (r"\s*///\s*<(?:summary|param|returns)\b", ("csharp", "fsharp"), "csharp"),
}
SHARED = re.compile("|".join(f"(?P<{kind}>{pattern})" for kind, (pattern, _, _) in SHARED_PARTS.items()))


def _branches(pattern: str) -> list[str]:
    """The alternatives of `pattern` at its top level (not inside a group or a character class)."""
    out: list[str] = []
    depth = start = i = 0
    in_class = False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            i += pattern.startswith("^", i + 1)
            i += pattern.startswith("]", i + 1)  # a `]` first in a class is literal
        elif ch in "()":
            depth += 1 if ch == "(" else -1
        elif ch == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return out


_INDENT = r"\s*"


def _compiled(parts: tuple[str, ...]) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """A language's signs as (those at a line's start, for `match`; the others, for `search`).

    One pattern of them all is tried at every column, its `^` branches failing there one by one;
    apart, the anchored ones are tried once, and the others' first characters let `search` skip
    (so an unanchored sign opens with a literal: `::(?<=[a-z]::)Int`, not `(?<=[a-z])::Int`,
    `func(?<=\\bfunc)`, not `\\bfunc`, and `printfn|eprintfn`, not `e?printfn`).
    """
    branches = [b for part in parts for b in _branches(part)]
    heads = [b[1:] for b in branches if b.startswith("^")]
    # the indentation most heads allow is read once, not again by each (`\s*(?:A|B)`, not `\s*A|\s*B`)
    indented = [h.removeprefix(_INDENT) for h in heads if h.startswith(_INDENT)]
    if indented:
        heads = [h for h in heads if not h.startswith(_INDENT)] + [_INDENT + "(?:" + "|".join(indented) + ")"]
    anywhere = [b for b in branches if not b.startswith("^")]
    return (
        re.compile("|".join(heads)) if heads else None,
        re.compile("|".join(anywhere)) if anywhere else None,
    )


# Per language: its signs at a line's start (`match`) and anywhere in it (`search`).
SIGNS = tuple((lang, *_compiled(parts)) for lang, parts in SIGN_PARTS.items())
