"""Which programming language a text is in: from its file's extension, else from a shebang.

Only what is certain is answered: an unknown extension and a text without a shebang give
None, and the engine then finds units with its language-independent heuristics.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

# Extension (lower case) -> language; the names are the keys of `syntax.GRAMMARS`.
EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".c": "c",
    ".h": "c",  # C++ headers parse as C well enough for units; `.hpp` says C++ outright
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".c++": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".java": "java",
}
# Interpreter named by a shebang -> language.
INTERPRETERS: dict[str, str] = {
    "python": "python",
    "node": "javascript",
    "nodejs": "javascript",
    "deno": "typescript",
    "ts-node": "typescript",
}
# `#!/usr/bin/env -S python3 -u`, `#!/usr/local/bin/python3.11`: the interpreter's base name.
_SHEBANG = re.compile(r"^#!\s*\S*?/?(?:env\s+(?:-\S+\s+)*)?([A-Za-z][\w.+-]*?)(?:[\d.]+)?(?:\s|$)")


def language_of(path: str | None, first_line: str = "") -> str | None:
    """The language of a file at `path` whose first line is `first_line`, or None if unsure."""
    if path:
        lang = EXTENSIONS.get(PurePosixPath(path.lower()).suffix)
        if lang is not None:
            return lang
    m = _SHEBANG.match(first_line)
    if m is None:
        return None
    name = m.group(1).rsplit("/", 1)[-1]
    return INTERPRETERS.get(name)
